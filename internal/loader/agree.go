package loader

import (
	"regexp"
)

// linePlace is the "(line L, column C)" or "(line L)" a row error's
// message carries beside its byte offset (At).
var linePlace = regexp.MustCompile(` \(line (\d+)(?:, column (\d+))?\)`)

// SamePlaces reports whether two outcomes of one load, a and b (results
// and error messages, as text), agree, the lines and columns of their row
// errors compared only where both know them. It is for the tests that
// load the same input serially and through the workers: a worker hands
// the input to the serial decoder at other places than one reader's reads
// end, so either may know a line where the other cannot (PosAt); the byte
// offsets, rows and messages must still be the same, and a line or column
// that both give must be the same.
func SamePlaces(a, b string) bool {
	if a == b {
		return true
	}
	pa, pb := linePlace.FindAllStringSubmatch(a, -1), linePlace.FindAllStringSubmatch(b, -1)
	if len(pa) > 0 && len(pb) > 0 {
		if len(pa) != len(pb) {
			return false
		}
		for i := range pa {
			if pa[i][1] != pb[i][1] || pa[i][2] != "" && pb[i][2] != "" && pa[i][2] != pb[i][2] {
				return false
			}
		}
	}
	return linePlace.ReplaceAllString(a, "") == linePlace.ReplaceAllString(b, "")
}
