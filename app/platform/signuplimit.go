package platform

import (
	"context"
	"fmt"
	"net/netip"
	"time"

	"github.com/quarrydata/quarry/domain/ratelimit"
	"github.com/quarrydata/quarry/ports"
)

// DefaultSignupsPerHour is how many accounts one client address may create
// in an hour unless AccountsConfig says otherwise.
const DefaultSignupsPerHour = 5

// The sign-up limit. Every new account is granted credits, so accounts are
// bounded per client address: a first sign-in takes a token from its
// address's bucket (perHour at once, then one every hour/perHour) before
// its password is hashed, so a refused sign-up costs no hashing and grants
// nothing. An IPv6 address counts by its /64, which one host usually holds
// whole. The bucket lives in the shared RateBuckets, keyed by a digest of
// the address, so the bound holds across every node; a bucket found empty
// is remembered by the node until it refills.
type signupLimit struct {
	buckets ports.RateBuckets
	rate    ratelimit.Rate
	refused *refusals
}

func newSignupLimit(b ports.RateBuckets, perHour int) *signupLimit {
	if perHour <= 0 {
		perHour = DefaultSignupsPerHour
	}
	return &signupLimit{buckets: b, rate: ratelimit.Every(time.Hour/time.Duration(perHour), perHour), refused: newRefusals()}
}

// take takes the token of one new account from client's bucket, or returns
// a RateLimitError saying when the address may create one again.
func (l *signupLimit) take(ctx context.Context, client string, now time.Time) error {
	bucket := signupBucket(client)
	if wait := l.refused.refused(bucket, now); wait > 0 {
		return l.limited(wait)
	}
	g, err := l.buckets.Take(ctx, bucket, 1, l.rate, now)
	if err != nil {
		return err
	}
	if g.Tokens == 0 {
		l.refused.refuse(bucket, now.Add(g.RetryAfter), now)
		return l.limited(g.RetryAfter)
	}
	return nil
}

// giveBack hands back the token of a sign-up that created no account. A
// token that cannot be handed back stays spent: the bound errs on the safe
// side.
func (l *signupLimit) giveBack(ctx context.Context, client string) {
	_ = l.buckets.Give(context.WithoutCancel(ctx), signupBucket(client), 1, l.rate)
}

func (l *signupLimit) limited(wait time.Duration) error {
	minutes := int((wait + time.Minute - 1) / time.Minute)
	when := "1 minute"
	if minutes > 1 {
		when = fmt.Sprintf("%d minutes", minutes)
	}
	return &RateLimitError{RetryAfter: wait, Limit: l.rate.Burst,
		Reason: "too many accounts created from this address; try again in " + when}
}

// signupBucket is the bucket of the address block client belongs to.
func signupBucket(client string) string {
	a, err := netip.ParseAddr(client)
	if err != nil {
		return bucketKey("signup-client", client)
	}
	a = a.Unmap().WithZone("")
	if a.Is6() {
		block, _ := a.Prefix(64) // cannot fail: an IPv6 address without a zone
		a = block.Addr()
	}
	return bucketKey("signup-client", a.String())
}
