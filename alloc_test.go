package json

import (
	"bytes"
	"io"
	"strings"
	"testing"

	"github.com/jsonpipe/json/internal/corpus"
)

// TestNextTokenAllocs proves NextToken allocates nothing: a whole corpus
// document through a Reset decoder costs 0 allocations.
func TestNextTokenAllocs(t *testing.T) {
	for _, f := range corpus.All(t) {
		t.Run(f.Name, func(t *testing.T) {
			r := bytes.NewReader(f.Data)
			d := NewDecoder(r)
			run := func() {
				r.Reset(f.Data)
				d.Reset(r)
				for {
					if _, err := d.NextToken(); err != nil {
						if err != io.EOF {
							t.Fatal(err)
						}
						return
					}
				}
			}
			run() // warm-up: nothing to grow in a 32 KiB window, but be fair
			if n := testing.AllocsPerRun(5, run); n != 0 {
				t.Fatalf("%v allocations per document", n)
			}
		})
	}
}

// TestValidAllocs proves Valid allocates nothing, on valid and invalid
// input, shallow or nested to the depth limit and past it, and on every
// corpus file.
func TestValidAllocs(t *testing.T) {
	if raceBuild {
		t.Skip("allocation counts are not meaningful under the race detector")
	}
	inputs := [][]byte{
		[]byte(`{"a":[1,2,{"b":"c\n"}],"d":true}`),
		[]byte(`{"a":[1,2,{"b":"c\q"}],"d":true}`),
		[]byte(strings.Repeat("[", defaultMaxDepth) + strings.Repeat("]", defaultMaxDepth)),
		[]byte(strings.Repeat("[", defaultMaxDepth+1)),
	}
	if !testing.Short() {
		for _, f := range corpus.All(t) {
			inputs = append(inputs, f.Data)
		}
	}
	for _, data := range inputs {
		if n := testing.AllocsPerRun(10, func() { Valid(data) }); n != 0 {
			t.Fatalf("Valid(%.40q...): %v allocations", data, n)
		}
	}
}

// TestTokenAllocs: delimiters, booleans and null cost nothing; strings and
// numbers at most one allocation each.
func TestTokenAllocs(t *testing.T) {
	count := func(in string) (allocs float64, tokens int) {
		r := strings.NewReader(in)
		d := NewDecoder(r)
		allocs = testing.AllocsPerRun(20, func() {
			r.Reset(in)
			d.Reset(r)
			tokens = 0
			for {
				if _, err := d.Token(); err != nil {
					return
				}
				tokens++
			}
		})
		return allocs, tokens
	}
	if n, _ := count(strings.Repeat(`[true,false,null,{},[]]`, 100)); n != 0 {
		t.Errorf("delimiters, booleans, null: %v allocations", n)
	}
	// A string or number in one allocation: the box, its bytes from a block.
	skipNoFast(t, "Token's string blocks and interning")
	for name, in := range map[string]string{
		"strings": `[` + strings.Repeat(`"abc","d\u00e9f","ghi\n",`, 100) + `"x"]`,
		"numbers": `[` + strings.Repeat(`1,-2.5,3e10,`, 100) + `4]`,
		"keys":    strings.Repeat(`{"alpha":{"beta":{}}}`, 100),
	} {
		n, tokens := count(in)
		scalars := strings.Count(in, ",") + 1
		if name == "keys" {
			scalars = 200
		}
		if n > float64(scalars) {
			t.Errorf("%s: %v allocations for %d scalars (%d tokens)", name, n, scalars, tokens)
		}
	}
	for _, f := range corpus.Files(t) {
		n, _ := count(string(f.Data))
		var scalars int
		d := NewDecoder(bytes.NewReader(f.Data))
		for {
			tok, err := d.NextToken()
			if err != nil {
				break
			}
			if c := tok[0]; c == '"' || c == '-' || isDigit(c) {
				scalars++
			}
		}
		if n > float64(scalars) {
			t.Errorf("%s: %v allocations for %d strings and numbers", f.Name, n, scalars)
		}
	}
}

// TestInlining keeps the hot path's inlining honest: the decoder's, and
// the encoder's digit conversions (smallDigits sits just under the
// inliner's budget; appendInt10 and appendUint10 count on it).
func TestInlining(t *testing.T) {
	checkInlined(t, `\(\*Decoder\)\.NextToken`, `\(\*byteReader\)\.window`,
		`\(\*byteReader\)\.release`, `\(\*Decoder\)\.InputOffset`, `stringStop`, `stringStopWithin`, `escapeEnd`,
		`digits8`, `smallDigits`)
}
