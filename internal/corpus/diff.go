package corpus

import "fmt"

// FirstDifference shows where two long outputs part, for a test's failure
// message: the offset, both lengths, and 30 bytes of context either side
// from each.
func FirstDifference(got, want []byte) string {
	i := 0
	for i < len(got) && i < len(want) && got[i] == want[i] {
		i++
	}
	from := max(i-30, 0)
	return fmt.Sprintf("first difference at byte %d of %d (want %d):\n got  …%q…\n want …%q…",
		i, len(got), len(want), got[from:min(i+30, len(got))], want[from:min(i+30, len(want))])
}
