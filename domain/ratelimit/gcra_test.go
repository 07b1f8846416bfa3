package ratelimit

import (
	"testing"
	"time"
)

func TestTakeDrainsTheBurstThenRefills(t *testing.T) {
	r := Rate{PerSecond: 10, Burst: 5} // one token per 100 ms
	now := int64(1_000_000_000)
	g, tat := Take(0, now, 8, r)
	if g.Tokens != 5 {
		t.Fatalf("a new bucket granted %d of 8, want its burst 5", g.Tokens)
	}
	g, tat2 := Take(tat, now, 1, r)
	if g.Tokens != 0 || g.RetryAfter != 100*time.Millisecond || tat2 != tat {
		t.Fatalf("an empty bucket: %+v, TAT moved %d, want 0 tokens, retry after 100ms, TAT kept", g, tat2-tat)
	}
	g, _ = Take(tat, now+250_000, 5, r)
	if g.Tokens != 2 {
		t.Fatalf("250 ms later granted %d, want 2", g.Tokens)
	}
}

func TestGiveRestoresTokens(t *testing.T) {
	r := Every(time.Minute, 5)
	now := int64(1_000_000_000)
	_, tat := Take(0, now, 5, r)
	tat = Give(tat, 2, r)
	if g, _ := Take(tat, now, 5, r); g.Tokens != 2 {
		t.Fatalf("after giving 2 back, granted %d, want 2", g.Tokens)
	}
}

func TestFull(t *testing.T) {
	r := Rate{PerSecond: 1, Burst: 3}
	now := int64(10_000_000)
	_, tat := Take(0, now, 3, r)
	if Full(tat, now+2_999_999) || !Full(tat, now+3_000_000) {
		t.Fatal("a drained bucket of 3 at 1/s must be full exactly 3 s later")
	}
}

func TestNeverMoreThanBurstPlusRefill(t *testing.T) {
	r := Rate{PerSecond: 50, Burst: 100}
	var tat int64
	start := int64(5_000_000)
	granted := 0
	for now := start; now <= start+10_000_000; now += 4_000 { // every 4 ms for 10 s
		g, next := Take(tat, now, 3, r)
		granted += g.Tokens
		tat = next
	}
	if want := 100 + 50*10; granted != want {
		t.Fatalf("granted %d over 10 s, want burst + rate × 10 s = %d", granted, want)
	}
}

func TestTakeSaysWhatTheBucketHoldsAfter(t *testing.T) {
	r := Rate{PerSecond: 10, Burst: 5} // one token per 100 ms
	now := int64(1_000_000_000)
	g, tat := Take(0, now, 2, r)
	if g.Remaining != 3 || g.Full != 200*time.Millisecond {
		t.Fatalf("2 of a new bucket of 5: %+v, want 3 left and full in 200ms", g)
	}
	g, tat = Take(tat, now, 9, r)
	if g.Tokens != 3 || g.Remaining != 0 || g.Full != 500*time.Millisecond {
		t.Fatalf("the last 3: %+v, want 3 taken, 0 left, full in 500ms", g)
	}
	g, _ = Take(tat, now+150_000, 1, r)
	if g.Tokens != 1 || g.Remaining != 0 || g.Full != 450*time.Millisecond {
		t.Fatalf("150 ms later: %+v, want 1 taken, 0 left (half a token), full in 450ms", g)
	}
	g, _ = Take(tat, now+50_000, 1, r)
	if g.Tokens != 0 || g.Remaining != 0 || g.Full != 450*time.Millisecond {
		t.Fatalf("a refusal: %+v, want nothing taken, 0 left, full in 450ms", g)
	}
}
