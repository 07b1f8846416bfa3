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
