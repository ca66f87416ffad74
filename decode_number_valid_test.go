package json

import (
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"
)

// jsonNumber is RFC 8259's number grammar.
var jsonNumber = regexp.MustCompile(`^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?$`)

// TestValidNumber checks isValidNumber (which Marshal runs on every
// Number), of a string and of a []byte, against the grammar: hand-picked
// literals, then random strings of digits with one byte of any value put
// anywhere, at every length around the eight-byte words skipDigits reads.
func TestValidNumber(t *testing.T) {
	check := func(s string) {
		t.Helper()
		want := jsonNumber.MatchString(s)
		if got := isValidNumber(s); got != want {
			t.Fatalf("isValidNumber(%q) = %v, want %v", s, got, want)
		}
		if got := isValidNumber([]byte(s)); got != want {
			t.Fatalf("isValidNumber([]byte(%q)) = %v, want %v", s, got, want)
		}
	}
	for _, s := range []string{"", "-", "0", "-0", "00", "01", "-01", "1", "12345678", "123456789", "1.", ".5", "1.5",
		"1.5e", "1.5e+", "1.5e+3", "1e3", "1E-3", "1e03", "0.000000000000000001", "123456789.123456789e+123456789",
		"1.2.3", "1e2e3", "+1", "1 ", " 1", "1x", "0x10", "1e", "-.5", "-1.5E-0", "9999999999999999999999999"} {
		check(s)
	}
	r := rand.New(rand.NewPCG(1, 2))
	parts := []string{"-", "0", "1", "9", ".", "e", "E", "+", "-"}
	for range 200000 {
		n := r.IntN(40)
		var b strings.Builder
		if r.IntN(2) == 0 {
			b.WriteString(parts[r.IntN(3)])
		}
		for range n {
			if r.IntN(12) == 0 {
				b.WriteString(parts[r.IntN(len(parts))])
			} else {
				b.WriteByte(byte('0' + r.IntN(10)))
			}
		}
		s := []byte(b.String())
		if len(s) > 0 && r.IntN(3) == 0 {
			s[r.IntN(len(s))] = byte(r.IntN(256)) // any byte: '/', ':', 0x80, 0xff...
		}
		check(string(s))
	}
}
