package ledger

import (
	"testing"
	"time"
)

func TestSameAs(t *testing.T) {
	d := Entry{ID: "led_1", AccountID: "acc_1", Kind: Debit, Amount: -1, Route: "GET /catalog", KeyID: "key_1", RequestID: "req_1",
		CreatedAt: time.Date(2026, 7, 20, 0, 0, 0, 0, time.UTC)}
	later := d
	later.CreatedAt = d.CreatedAt.Add(time.Second)
	if !d.SameAs(later) {
		t.Fatal("an entry written again at another time is not the same entry")
	}
	for name, change := range map[string]func(*Entry){
		"account":  func(e *Entry) { e.AccountID = "acc_2" },
		"kind":     func(e *Entry) { e.Kind = Refund },
		"amount":   func(e *Entry) { e.Amount = -2 },
		"route":    func(e *Entry) { e.Route = "POST /us/search" },
		"key":      func(e *Entry) { e.KeyID = "key_2" },
		"request":  func(e *Entry) { e.RequestID = "req_2" },
		"refundOf": func(e *Entry) { e.RefundOf = "led_0" },
		"reason":   func(e *Entry) { e.Reason = "goodwill" },
		"id":       func(e *Entry) { e.ID = "led_2" },
	} {
		other := d
		change(&other)
		if d.SameAs(other) {
			t.Errorf("entries differing in %s are the same entry", name)
		}
	}
}
