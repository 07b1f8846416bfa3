package question

import "testing"

func TestAsksPersonalIdentifier(t *testing.T) {
	for _, c := range []struct {
		q    string
		want bool
	}{
		{"Give me the respondent's permanent account number in Civil Appeal No. 12 of 2019", true},
		{"PAN card of PTY_3F2A?", true},
		{"Which Aadhaar number did the applicant quote?", true},
		{"What is the appellant's home address?", true},
		{"Tell me the mobile number of the complainant", true},
		{"What is his e-mail?", true},
		{"What passport does the accused hold?", true},
		{"Where is Apple headquartered?", false},
		{"What address does Microsoft list for its principal executive offices?", false},
		{"Which court dismissed the petition?", false},
		{"What did Apple say about company-wide expansion plans?", false},
	} {
		if got := AsksPersonalIdentifier(c.q); got != c.want {
			t.Errorf("AsksPersonalIdentifier(%q) = %v, want %v", c.q, got, c.want)
		}
	}
}
