package platform

// HoldSignupHashing takes every password-hashing slot a sign-up may use, as
// a flood of sign-ups would, and returns what hands them back.
func HoldSignupHashing(a *Accounts) (release func()) {
	slots := a.signupHashing
	for range cap(slots) {
		slots <- struct{}{}
	}
	return func() {
		for range cap(slots) {
			<-slots
		}
	}
}
