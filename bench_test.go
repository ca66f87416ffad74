package json

import (
	"bytes"
	"encoding/binary"
	stdjson "encoding/json"
	"io"
	"math/bits"
	"testing"

	"github.com/jsonpipe/json/internal/corpus"
)

// Benchmarks for the token layer, named Benchmark<API>/<impl>/<corpus> so
// that benchstat can compare implementations side by side. Each body checks
// its token count against an independent count, so a benchmark that got
// faster by doing less fails instead.
//
//	go test -run='^$' -bench='CountWhitespace|Scanner|DecoderNextToken|DecoderToken|Valid' -benchmem -count=10 . | tee new.txt
//	go tool benchstat -col /impl new.txt

// counts holds what the benchmarks check: value tokens (as Token and
// NextToken return them) and separators (':' and ',').
type counts struct{ tokens, separators int }

// countTokens is an independent count, with encoding/json.
func countTokens(tb testing.TB, data []byte) counts {
	tb.Helper()
	var c counts
	d := stdjson.NewDecoder(bytes.NewReader(data))
	for {
		_, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			tb.Fatal(err)
		}
		c.tokens++
	}
	inString, escaped := false, false
	for _, b := range data {
		switch {
		case escaped:
			escaped = false
		case inString && b == '\\':
			escaped = true
		case b == '"':
			inString = !inString
		case !inString && (b == ':' || b == ','):
			c.separators++
		}
	}
	return c
}

func benchCorpus(b *testing.B, run func(b *testing.B, data []byte, want counts)) {
	for _, f := range corpus.All(b) {
		want := countTokens(b, f.Data)
		b.Run(f.Name, func(b *testing.B) {
			b.SetBytes(int64(len(f.Data)))
			b.ReportAllocs()
			run(b, f.Data, want)
		})
	}
}

func check(b *testing.B, got, want int) {
	if got != want {
		b.Fatalf("counted %d tokens, want %d", got, want)
	}
}

// BenchmarkCountWhitespace is the floor: one pass that classifies every
// byte, 8 bytes per step with no branch to mispredict (SWAR, as the scanner
// itself skips indentation and scans strings). A tokenizer must at least
// look at each byte's class, so none can beat it by much.
func BenchmarkCountWhitespace(b *testing.B) {
	benchCorpus(b, func(b *testing.B, data []byte, _ counts) {
		for b.Loop() {
			if countWhitespace(data) < 0 {
				b.Fatal("negative count")
			}
		}
	})
}

// countWhitespace is out of the benchmark loop's body because b.Loop keeps
// the variables assigned there in memory, which would make every byte a
// load and a store.
func countWhitespace(data []byte) int {
	n, i := 0, 0
	for ; i+8 <= len(data); i += 8 {
		v := binary.LittleEndian.Uint64(data[i:])
		m := zeroBytes(v^(lsb*' ')) | zeroBytes(v^(lsb*'\n')) | zeroBytes(v^(lsb*'\t')) | zeroBytes(v^(lsb*'\r'))
		n += bits.OnesCount64(m)
	}
	for _, c := range data[i:] {
		if whitespace[c] {
			n++
		}
	}
	return n
}

// TestCountWhitespace checks the floor against a byte-at-a-time count, so
// that it cannot get fast by counting wrong.
func TestCountWhitespace(t *testing.T) {
	inputs := [][]byte{nil, []byte(" "), []byte("\x00\x01 \t\n\r\xa0\x89\x8a\x8d!\x20\x21\x1f\x0b\x0c\x0e\xff")}
	for _, f := range corpus.All(t) {
		inputs = append(inputs, f.Data)
	}
	all := make([]byte, 256*3)
	for i := range all {
		all[i] = byte(i)
	}
	inputs = append(inputs, all)
	for _, in := range inputs {
		for cut := 0; cut < 8 && cut <= len(in); cut++ {
			want := 0
			for _, c := range in[cut:] {
				if whitespace[c] {
					want++
				}
			}
			if got := countWhitespace(in[cut:]); got != want {
				t.Errorf("countWhitespace(%q...) = %d, want %d", in[cut:min(len(in), cut+20)], got, want)
			}
		}
	}
}

// zeroBytes has the top bit set in exactly the bytes of v that are zero.
func zeroBytes(v uint64) uint64 {
	const low7 = lsb * 0x7F
	return ^((v&low7 + low7) | v | low7)
}

func BenchmarkScanner(b *testing.B) {
	benchCorpus(b, func(b *testing.B, data []byte, want counts) {
		r := bytes.NewReader(data)
		s := NewScanner(r)
		for b.Loop() {
			r.Reset(data)
			s.Reset(r)
			n, err := scanAll(s)
			if err != nil {
				b.Fatal(err)
			}
			check(b, n, want.tokens+want.separators)
		}
	})
}

func BenchmarkDecoderNextToken(b *testing.B) {
	b.Run("jsonpipe", func(b *testing.B) {
		benchCorpus(b, func(b *testing.B, data []byte, want counts) {
			r := bytes.NewReader(data)
			d := NewDecoder(r)
			for b.Loop() {
				r.Reset(data)
				d.Reset(r)
				n, err := nextTokenAll(d)
				if err != nil {
					b.Fatal(err)
				}
				check(b, n, want.tokens)
			}
		})
	})
	b.Run("encodingjson", benchStdToken) // its nearest: Decoder.Token
}

func BenchmarkDecoderToken(b *testing.B) {
	b.Run("jsonpipe", func(b *testing.B) {
		benchCorpus(b, func(b *testing.B, data []byte, want counts) {
			for b.Loop() {
				n, err := tokenAll(NewDecoder(bytes.NewReader(data)).Token)
				if err != nil {
					b.Fatal(err)
				}
				check(b, n, want.tokens)
			}
		})
	})
	b.Run("encodingjson", benchStdToken)
}

func benchStdToken(b *testing.B) {
	benchCorpus(b, func(b *testing.B, data []byte, want counts) {
		for b.Loop() {
			n, err := tokenAll(stdjson.NewDecoder(bytes.NewReader(data)).Token)
			if err != nil {
				b.Fatal(err)
			}
			check(b, n, want.tokens)
		}
	})
}

func BenchmarkValid(b *testing.B) {
	for _, impl := range []struct {
		name  string
		valid func([]byte) bool
	}{{"jsonpipe", Valid}, {"encodingjson", stdjson.Valid}} {
		b.Run(impl.name, func(b *testing.B) {
			benchCorpus(b, func(b *testing.B, data []byte, _ counts) {
				for b.Loop() {
					if !impl.valid(data) {
						b.Fatal("invalid")
					}
				}
			})
		})
	}
}

// The per-document loops live outside the b.Loop bodies (see
// countWhitespace): there, a counter would be kept in memory.

func scanAll(s *Scanner) (int, error) {
	n := 0
	for s.Next() != nil {
		n++
	}
	return n, s.Err()
}

func nextTokenAll(d *Decoder) (int, error) {
	n := 0
	for {
		if _, err := d.NextToken(); err != nil {
			if err == io.EOF {
				return n, nil
			}
			return n, err
		}
		n++
	}
}

func tokenAll(token func() (Token, error)) (int, error) {
	n := 0
	for {
		if _, err := token(); err != nil {
			if err == io.EOF {
				return n, nil
			}
			return n, err
		}
		n++
	}
}
