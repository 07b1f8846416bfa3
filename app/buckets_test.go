package app

import (
	"fmt"
	"testing"
	"time"

	"golang.org/x/time/rate"
)

func TestBucketsAreDroppedOnceRefilled(t *testing.T) {
	b := newBuckets(rate.Every(time.Second), 2)
	now := time.Date(2026, 7, 20, 9, 0, 0, 0, time.UTC)
	for i := range 1000 {
		if _, wait := b.take(fmt.Sprintf("key_%d", i), now); wait > 0 {
			t.Fatalf("first take of key_%d waits %v", i, wait)
		}
	}
	if _, wait := b.take("key_0", now); wait > 0 {
		t.Fatalf("second take waits %v, want the burst of 2", wait)
	}
	if _, wait := b.take("key_0", now); wait != time.Second {
		t.Fatalf("third take waits %v, want 1s", wait)
	}
	if n := b.size(); n != 1000 {
		t.Fatalf("%d buckets held while refilling, want 1000", n)
	}
	// A sweep later every bucket is full again: the next take drops them.
	now = now.Add(sweepEvery)
	b.take("key_new", now)
	if n := b.size(); n != 1 {
		t.Fatalf("%d buckets held after they refilled, want only the new one", n)
	}
}
