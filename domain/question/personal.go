package question

import "regexp"

// personalID names an identifier that is personal data whoever holds it:
// a PAN, an Aadhaar number, a passport or voter card.
var personalID = regexp.MustCompile(`\b(?:pans?|pan (?:card|no|number)|permanent account numbers?|aadhaa?r|uid|passport|voter (?:id|card)|pan_\w*)\b`)

// contactDetail names a detail that is personal when it is a person's:
// a phone number, an address, an e-mail, a birth date, a bank account.
var contactDetail = regexp.MustCompile(`\b(?:phone|telephone|mobile|cell|contact (?:number|details?)|(?:home |residential |postal |e-?mail )?address(?:es)?|e-?mail|date of birth|dob|birth ?date|bank account|account number|ifsc)\b`)

// aboutPerson says a question is about a person: a party to a case, or
// someone named by pronoun or by a party's token.
var aboutPerson = regexp.MustCompile(`\b(?:petitioners?|respondents?|appellants?|applicants?|accused|complainants?|plaintiffs?|defendants?|assessees?|parties|party|litigants?|workmen|workman|employees?|person|individual|his|her|he|she|their|pty_\w*|mr|mrs|ms|shri|smt)\b`)

// AsksPersonalIdentifier reports whether a question asks for a person's
// identifier: a PAN, Aadhaar number, passport or voter card whoever's it
// is, or a phone number, address, e-mail, birth date or bank account of a
// party or person. Ask refuses such a question before reading anything.
func AsksPersonalIdentifier(q string) bool {
	n := Normalize(q)
	return personalID.MatchString(n) || contactDetail.MatchString(n) && aboutPerson.MatchString(n)
}
