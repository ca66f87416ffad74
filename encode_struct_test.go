package json

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// plainRec has a field of each kind encode's loop writes without a call
// (plain), with a float and a ",string" field between them, which it
// leaves to field, and pointers and other nullable kinds, which it writes
// when nil.
type plainRec struct {
	S string  `json:"s"`
	I int     `json:"i"`
	F float64 `json:"f"`
	J int32   `json:"j"`
	B bool    `json:"b"`
	Q int     `json:"q,string"`
	T string  `json:"t"`
	U uint64  `json:"u"`
	P *string `json:"p"`
	N *int    `json:"n"`
	G *float64
	L []int `json:"l"`
	M map[string]int
	A any
}

// plainStrings: strings of every length from 0 to 30, each of letters
// with one character of each kind the loop must leave to field (an escape,
// with HTML escaping or not; a byte of 0x80 or more; one of '^', '|' and
// '~', which its check also leaves) at each place, and of letters alone.
func plainStrings() []string {
	odd := []string{`"`, `\`, "\n", "\x00", "\x1f", "\x7f", "<", ">", "&", "^", "|", "~",
		"é", "\u2028", "\xff", "😀", " "}
	var out []string
	for n := range 31 {
		letters := strings.Repeat("abcdefghij", 4)[:n]
		out = append(out, letters)
		for _, c := range odd {
			for at := 0; at+len(c) <= n; at++ {
				out = append(out, letters[:at]+c+letters[at+len(c):])
			}
		}
	}
	return out
}

// TestPlainFieldsDiff: the fields encode's loop writes itself, and the
// values of those fields it leaves to field, are written as encoding/json
// writes them, in every mode and form: strings from plainStrings, integers
// at the edges of each count of digits (the loop writes up to six) and of
// int32 and int64, both bools. The records go out in slices of 50, so that
// the room the loop wants past the output's end (plainRoom) runs out, and
// the output grows, at fields of every kind.
func TestPlainFieldsDiff(t *testing.T) {
	ints := []int64{0, 1, 9, 10, 99, 100, 999, 1000, 9999, 10000, 99999, 100000, 999999, 1000000,
		9999999, 10000000, 99999999, 100000000, 123456789, 999999999999, 1000000000000, 1e15 - 1, 1e15,
		1e16 - 1, 1e16, 1e17 + 3, math.MaxInt32, math.MinInt32, math.MaxInt64, math.MinInt64}
	for _, x := range ints[:len(ints)-4] {
		ints = append(ints, -x)
	}
	strs := plainStrings()
	r := rand.New(rand.NewPCG(3, 4))
	recs := make([]plainRec, 0, 50)
	for k := range max(len(strs), len(ints)) {
		x := ints[k%len(ints)]
		recs = append(recs, plainRec{
			S: strs[k%len(strs)],
			I: int(x),
			F: float64(k) / 8,
			J: int32(x),
			B: k%3 == 0,
			Q: k,
			T: strs[r.IntN(len(strs))],
			U: uint64(x) * uint64(k%5),
		})
		if rec := &recs[len(recs)-1]; k%4 != 0 {
			// non-nil one time in four, else each of its kinds in turn
			rec.P, rec.N, rec.G = &rec.T, &rec.I, &rec.F
			rec.L, rec.M, rec.A = []int{k}, map[string]int{"k": k}, k
		}
		if len(recs) == cap(recs) || k == max(len(strs), len(ints))-1 {
			if d := diffMarshalValue(recs); d != "" {
				t.Fatal(d)
			}
			recs = recs[:0]
		}
	}
}

// TestPlainLazyLanes: where the lazy check is on (encode_lazy.go), the
// loop writes a short string in another script unchecked unless a word of
// it has an ASCII byte that needs a look; a byte of 0x80 or more at the
// same place of another word must not hide that byte. Each string here
// has an escape at one place of one word and é's first byte at the same
// place of another, after strings in other scripts that start the check.
func TestPlainLazyLanes(t *testing.T) {
	type laneRec struct {
		A, B, C string
		T       string `json:"t"`
	}
	var recs []laneRec
	for n := 8; n <= 24; n++ {
		for _, c := range []string{`"`, `\`, "\n", "<", "&"} {
			// The words the loop reads: from 0, from 8 (of 17 bytes
			// and more), and the last, from n-8.
			starts := []int{0, n - 8}
			if n > 16 {
				starts = append(starts, 8)
			}
			for _, w1 := range starts {
				for _, w2 := range starts {
					for lane := range 8 {
						at, hi := w1+lane, w2+lane
						if at == hi || hi+2 > n || at >= n || at >= hi && at < hi+2 {
							continue
						}
						b := []byte(strings.Repeat("abcdefghij", 3)[:n])
						copy(b[hi:], "é")
						b[at] = c[0]
						recs = append(recs, laneRec{"Grüße", "世界", "Ünïcödé", string(b)})
					}
				}
			}
		}
	}
	for i := 0; i < len(recs); i += 40 {
		if d := diffMarshalValue(recs[i:min(i+40, len(recs))]); d != "" {
			t.Fatal(d)
		}
	}
}

// TestShortLazy: strings of 1 to 7 bytes, in plainRun (t) and in encode's
// loop (u, after a float, which plainRun leaves), where the lazy check is
// on: one in another script, whole or cut short, is written unchecked and
// then checked (U+2028 escaped, a bad byte replaced); one with an ASCII
// byte that needs a look beside a byte of 0x80 or more is not. Each value
// has one kind of character in another script: one bad byte, or U+2028,
// in a value has the whole value encoded again, every string checked.
func TestShortLazy(t *testing.T) {
	type shortRec struct {
		A, B, C string
		T       string  `json:"t"`
		F       float64 `json:"f"`
		U       string  `json:"u"`
	}
	for _, r := range []string{"é", "世", "\xff", "\xc3", "\u2028", "\xe4\xb8"} {
		var recs []shortRec
		for _, c := range []string{"", `"`, `\`, "\n", "<", "&", "a", "~"} {
			for _, x := range []string{c + r, r + c, r, c + r + c, "ab" + r + c, c + r + "xyz"} {
				if x != "" && len(x) <= 7 {
					recs = append(recs, shortRec{"Grüße", "世界", "Ünïcödé", x, float64(len(recs)), x})
				}
			}
		}
		if d := diffMarshalValue(recs); d != "" {
			t.Fatal(d)
		}
	}
}
