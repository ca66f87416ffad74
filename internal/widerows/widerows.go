// Package widerows makes the wide-row input of the loaders' benchmarks:
// rows of 40 members (integers, prices, short and long strings, booleans,
// nulls, one nested object) whose values differ from row to row, so that
// the per-value path of a loader, not the per-row one, is what they time.
package widerows

import (
	"bytes"
	"fmt"
	"math/rand/v2"
)

// Columns is the number of members of each row.
const Columns = 40

// JSON returns n rows as a JSON array, or as NDJSON when lines is true.
// The same n gives the same bytes.
func JSON(n int, lines bool) []byte {
	r := rand.New(rand.NewPCG(40, uint64(n)))
	var b bytes.Buffer
	if !lines {
		b.WriteByte('[')
	}
	for i := range n {
		if i > 0 && !lines {
			b.WriteByte(',')
		}
		b.WriteByte('{')
		for c := range Columns {
			if c > 0 {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, `"c%02d":`, c)
			switch c % 8 {
			case 0:
				fmt.Fprintf(&b, "%d", i*Columns+c)
			case 1:
				fmt.Fprintf(&b, "%d", r.Int64N(1<<40)-1<<39)
			case 2:
				fmt.Fprintf(&b, "%d.%02d", r.IntN(100000), r.IntN(100))
			case 3:
				fmt.Fprintf(&b, `"w%x"`, r.Uint32())
			case 4:
				fmt.Fprintf(&b, `"https://example.com/%x/%x?page=%d"`, r.Uint64(), r.Uint32(), r.IntN(50))
			case 5:
				fmt.Fprintf(&b, "%t", r.IntN(2) == 0)
			case 6:
				if r.IntN(3) == 0 {
					b.WriteString("null")
				} else {
					fmt.Fprintf(&b, "%g", r.NormFloat64()*1e6)
				}
			default:
				if c == 7 {
					fmt.Fprintf(&b, `{"k":%d,"tags":["a","b%d"]}`, r.IntN(1000), r.IntN(10))
				} else {
					fmt.Fprintf(&b, `"text %d with a \"quote\" and more words"`, r.IntN(1e6))
				}
			}
		}
		b.WriteByte('}')
		if lines {
			b.WriteByte('\n')
		}
	}
	if !lines {
		b.WriteByte(']')
	}
	return b.Bytes()
}
