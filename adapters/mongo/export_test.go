package mongo

// SetHolderPageSize makes fund holder pages hold n positions, so that a
// contract test reaches many pages with few rows, and returns the undo.
func SetHolderPageSize(n int) (restore func()) {
	was := holderPageSize
	holderPageSize = n
	return func() { holderPageSize = was }
}

// IndiaMaxParts is how many part documents a year bucket has at most.
const IndiaMaxParts = indiaMaxParts

// SetHolderWriteBytes makes a write of 13F filings send what it has
// rewritten once it weighs n bytes, and returns the undo.
func SetHolderWriteBytes(n int) (restore func()) {
	was := holderWriteBytes
	holderWriteBytes = n
	return func() { holderWriteBytes = was }
}
