// Package platform holds the use cases every dataset stands on: accounts
// and sessions, API keys and browser credentials, credits, metering, rate
// limits, the sign-in throttle, the sign-up limit and idempotency.
package platform
