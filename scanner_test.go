package json

import (
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"testing"
)

func TestScanner(t *testing.T) {
	s := NewScanner(strings.NewReader(` {"a" : [1, -2.5e3, "x\"y"], "b":true} null `))
	var toks []string
	for tok := s.Next(); tok != nil; tok = s.Next() {
		toks = append(toks, string(tok))
	}
	want := []string{`{`, `"a"`, `:`, `[`, `1`, `,`, `-2.5e3`, `,`, `"x\"y"`, `]`, `,`, `"b"`, `:`, `true`, `}`, `null`}
	if fmt.Sprintf("%q", toks) != fmt.Sprintf("%q", want) {
		t.Fatalf("tokens\n got  %q\n want %q", toks, want)
	}
	if s.Err() != nil {
		t.Fatalf("Err() = %v at a clean end", s.Err())
	}
	// Order is not the scanner's business, but each token's form is.
	s.Reset(strings.NewReader(`] ] 1x`))
	for s.Next() != nil {
	}
	if got, want := errString(s.Err()), synErr(`invalid character 'x' after top-level value`, 6); got != want {
		t.Fatalf("Err() = %s, want %s", got, want)
	}
	s.Reset(strings.NewReader(`"abc`))
	for s.Next() != nil {
	}
	if s.Err() != io.ErrUnexpectedEOF {
		t.Fatalf("Err() = %v, want io.ErrUnexpectedEOF", s.Err())
	}
}

// TestSkipDigits checks the SWAR digit run against the byte loop for every
// byte value at every position.
func TestSkipDigits(t *testing.T) {
	for b := 0; b < 256; b++ {
		for p := 0; p < 20; p++ {
			data := []byte(strings.Repeat("7", 20))
			data[p] = byte(b)
			want := p
			if isDigit(byte(b)) {
				want = 20
			}
			for start := 0; start <= p; start++ {
				if got := skipDigits(data, start); got != want {
					t.Fatalf("byte %#x at %d from %d: got %d, want %d", b, p, start, got, want)
				}
			}
		}
	}
}

// TestStringStops holds stringStop and stringStopWithin to the first '"',
// '\\' or control byte, for each of those at each place in twenty words,
// after random plain bytes (non-ASCII ones too, whose top bits the masks
// clear) and before random bytes of any value; and to the end of the
// words when there is none. stringStopWithin stops looking after its n
// bytes (32, the decoder's; 128, Valid's), at an index of a plain byte.
func TestStringStops(t *testing.T) {
	isStop := func(c byte) bool { return c < 0x20 || c == '"' || c == '\\' }
	var plain, stops []byte
	for c := 0; c < 256; c++ {
		if isStop(byte(c)) {
			stops = append(stops, byte(c))
		} else {
			plain = append(plain, byte(c))
		}
	}
	r := rand.New(rand.NewPCG(5, 6))
	w := make([]byte, 160)
	fill := func(to int) {
		for k := range w[:to] {
			w[k] = plain[r.IntN(len(plain))]
		}
		for k := to; k < len(w); k++ {
			w[k] = byte(r.IntN(256))
		}
	}
	within := func(p int) {
		t.Helper()
		for _, n := range []int{shortRun, validRun} {
			if got, _ := stringStopWithin(w, 0, n); got != min(p, n) {
				t.Fatalf("stringStopWithin(%q, 0, %d) = %d, want %d", w, n, got, min(p, n))
			}
		}
	}
	for p := 0; p < len(w); p++ {
		for _, s := range stops {
			for range 4 {
				fill(p)
				w[p] = s
				if got, _ := stringStop(w, 0); got != p {
					t.Fatalf("stringStop(%q) = %d, want %d", w, got, p)
				}
				within(p)
			}
		}
	}
	for range 1000 {
		fill(len(w))
		if got, _ := stringStop(w, 0); got != len(w) {
			t.Fatalf("stringStop(%q) = %d, want %d", w, got, len(w))
		}
		within(len(w))
	}
}
