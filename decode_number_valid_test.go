package json

import (
	"encoding/binary"
	"math"
	"math/rand/v2"
	"regexp"
	"strconv"
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

// BenchmarkValidNumber times the check Marshal runs on every Number, on
// the number kinds of the shape sweep: 4,096 different numbers of a kind
// a turn.
func BenchmarkValidNumber(b *testing.B) {
	r := rand.New(rand.NewPCG(5, 6))
	kinds := []struct {
		name string
		gen  func() string
	}{
		{"small", func() string { return strconv.Itoa(r.IntN(1000)) }},
		{"id", func() string { return strconv.FormatInt(1<<60+r.Int64N(1<<62), 10) }},
		{"price", func() string { return strconv.FormatFloat(float64(r.IntN(1000000))/100, 'f', -1, 64) }},
		{"float17", func() string { return strconv.FormatFloat(r.Float64()*1000, 'f', -1, 64) }},
		{"exp", func() string {
			return strconv.FormatFloat(r.NormFloat64()*math.Pow(10, float64(r.IntN(600)-300)), 'g', -1, 64)
		}},
		{"neg", func() string { return strconv.FormatInt(-1-r.Int64N(1<<(1+r.IntN(60))), 10) }},
	}
	for _, k := range kinds {
		nums := make([]Number, 4096)
		size := 0
		for i := range nums {
			nums[i] = Number(k.gen())
			size += len(nums[i])
		}
		b.Run("kind="+k.name, func(b *testing.B) {
			b.SetBytes(int64(size))
			buf := make([]byte, 0, 2*size)
			for b.Loop() {
				buf = buf[:0]
				for _, n := range nums {
					var err error
					if buf, err = appendNumber(buf, n, false); err != nil {
						b.Fatal(err)
					}
				}
			}
		})
	}
}

// TestValidNumberShort checks validNumber on every string of up to 7 bytes
// over the bytes that matter to the grammar (and a byte of none), and on
// every length to 26 with each of those bytes at each place in a run of
// digits, against the grammar as the regular expression states it: the
// short numbers are decided by where their non-digits are (nonDigitBits),
// whose edges are the string's length (1, 3, 4, 7, 8, 16, 17, 24, 25) and a
// non-digit's place in the words read.
func TestValidNumberShort(t *testing.T) {
	alphabet := []byte("019-.e+x")
	if testing.Short() {
		alphabet = []byte("09-.e+")
	}
	b := make([]byte, 0, 24)
	var walk func(n int)
	walk = func(n int) {
		if want := jsonNumber.Match(b); validNumber(b) != want {
			t.Fatalf("validNumber(%q) = %v, want %v", b, !want, want)
		}
		if n == 0 {
			return
		}
		for _, c := range alphabet {
			b = append(b, c)
			walk(n - 1)
			b = b[:len(b)-1]
		}
	}
	walk(7)
	for n := 1; n <= 26; n++ {
		for _, first := range []byte("-105") {
			for i := 0; i < n; i++ {
				for j := i; j < n; j++ {
					for _, c := range []byte("-.eE+/:a\x00\xff") {
						b = b[:0]
						b = append(b, first)
						for len(b) < n {
							b = append(b, byte('1'+len(b)%9))
						}
						b[i], b[j] = c, '.'
						if want := jsonNumber.Match(b); validNumber(b) != want {
							t.Fatalf("validNumber(%q) = %v, want %v", b, !want, want)
						}
					}
				}
			}
		}
	}
}

// TestNonDigitBits: each byte value at each place of a word of digits.
func TestNonDigitBits(t *testing.T) {
	for i := 0; i < 8; i++ {
		for c := 0; c < 256; c++ {
			w := []byte("01234567")
			w[i] = byte(c)
			want := uint(0)
			if c < '0' || c > '9' {
				want = 1 << i
			}
			if got := nonDigitBits(binary.LittleEndian.Uint64(w)); got != want {
				t.Fatalf("nonDigitBits(%q) = %08b, want %08b", w, got, want)
			}
		}
	}
}

func FuzzValidNumber(f *testing.F) {
	for _, s := range []string{"0", "-12.5e+7", "123456789012345678901234", "1.", "01", "9999.99", "1e-07"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := isValidNumber(s), jsonNumber.MatchString(s); got != want {
			t.Fatalf("isValidNumber(%q) = %v, want %v", s, got, want)
		}
	})
}

// TestAppendNumberLit checks the copy and check Marshal runs on a Number
// against the grammar: every string of up to 5 bytes over digits, sign,
// point, exponent and a stray byte, then random ones of up to 20 bytes
// (the word paths end at 16), each appended to a buffer with room and to
// one without: the bytes before are kept, the number follows them when it
// is one, and nothing is added when it is not.
func TestAppendNumberLit(t *testing.T) {
	check := func(s string) {
		t.Helper()
		want := jsonNumber.MatchString(s)
		for _, room := range []int{0, 16, 40} {
			b := make([]byte, 3, 3+room)
			copy(b, "ab,")
			got, ok := appendNumberLit(b, s)
			if ok != want {
				t.Fatalf("appendNumberLit(%q) with room %d = %v, want %v", s, room, ok, want)
			}
			wantOut := "ab,"
			if want {
				wantOut += s
			}
			if string(got) != wantOut {
				t.Fatalf("appendNumberLit(%q) with room %d wrote %q, want %q", s, room, got, wantOut)
			}
		}
	}
	alphabet := "0159.-+eE/:x\x80"
	var gen func(prefix string)
	gen = func(prefix string) {
		if len(prefix) > 0 {
			check(prefix)
		}
		if len(prefix) == 5 {
			return
		}
		for i := 0; i < len(alphabet); i++ {
			gen(prefix + alphabet[i:i+1])
		}
	}
	gen("")
	r := rand.New(rand.NewPCG(3, 4))
	for range 300000 {
		n := 1 + r.IntN(20)
		s := make([]byte, n)
		for i := range s {
			if r.IntN(6) == 0 {
				s[i] = alphabet[r.IntN(len(alphabet))]
			} else {
				s[i] = byte('0' + r.IntN(10))
			}
		}
		check(string(s))
	}
}
