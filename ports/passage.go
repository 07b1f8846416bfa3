package ports

import "slices"

// MaxPassage bounds, in bytes, the span of text one passage may cover: the
// matched terms closest together within it make the passage.
const MaxPassage = 240

// TermLocation is where one matched term occurs in an indexed text, in
// bytes, end exclusive. Term names the term as the index analysed it (a
// stem), so that two words of one stem count as one term.
type TermLocation struct {
	Term       string
	Start, End int
}

// DensestPassage returns the byte range of the densest run of matched terms, the
// passage every index gives a hit (IndexHit): of the windows of at most
// MaxPassage bytes, the one holding the most distinct terms, then the
// shortest, then the earliest; it runs from its first term's start to its
// last term's end. No location gives 0, 0.
func DensestPassage(locs []TermLocation) (int, int) {
	if len(locs) == 0 {
		return 0, 0
	}
	locs = slices.Clone(locs)
	slices.SortStableFunc(locs, func(a, b TermLocation) int { return a.Start - b.Start })
	bestStart, bestEnd, bestN := locs[0].Start, locs[0].End, 1
	for i := range locs {
		seen := map[string]bool{}
		for j := i; j < len(locs) && locs[j].End-locs[i].Start <= MaxPassage; j++ {
			seen[locs[j].Term] = true
			n, span := len(seen), locs[j].End-locs[i].Start
			if n > bestN || n == bestN && span < bestEnd-bestStart {
				bestStart, bestEnd, bestN = locs[i].Start, locs[j].End, n
			}
		}
	}
	return bestStart, bestEnd
}
