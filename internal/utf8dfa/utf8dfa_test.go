package utf8dfa

import (
	"math/rand/v2"
	"testing"
	"unicode/utf8"
)

// TestAgainstStdlibShort compares with utf8.Valid on every sequence of up
// to three bytes (two with -short), and on every four-byte sequence whose bytes come from the
// values where UTF-8's rules change.
func TestAgainstStdlibShort(t *testing.T) {
	check := func(b []byte) {
		if got, want := Valid(b), utf8.Valid(b); got != want {
			t.Fatalf("Valid(% x) = %v, want %v", b, got, want)
		}
	}
	n := 1 << 24 // every sequence of three bytes
	if testing.Short() {
		n = 1 << 16 // every sequence of two
	}
	b := make([]byte, 3)
	for i := 0; i < n; i++ {
		b[0], b[1], b[2] = byte(i), byte(i>>8), byte(i>>16)
		check(b[:1+i%3])
		check(b)
	}
	edges := []byte{0x00, 0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC1, 0xC2, 0xDF, 0xE0, 0xE1, 0xEC, 0xED, 0xEE, 0xEF, 0xF0, 0xF1, 0xF3, 0xF4, 0xF5, 0xFF}
	b = make([]byte, 4)
	for _, x := range edges {
		for _, y := range edges {
			for _, z := range edges {
				for _, w := range edges {
					b[0], b[1], b[2], b[3] = x, y, z, w
					check(b)
				}
			}
		}
	}
}

// TestAgainstStdlibRandom: random mixes of ASCII, valid runes of every
// length, and bad bytes, at every alignment (the eight-byte ASCII skip).
func TestAgainstStdlibRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 200000; i++ {
		var b []byte
		for n := r.IntN([]int{40, 200}[i%2]); n > 0; n-- { // short and long
			switch r.IntN(6) {
			case 0, 1:
				b = append(b, byte('a'+r.IntN(26)))
			case 2:
				b = utf8.AppendRune(b, rune(r.IntN(0x800)))
			case 3:
				b = utf8.AppendRune(b, rune(r.IntN(0x10000)))
			case 4:
				b = utf8.AppendRune(b, rune(0x10000+r.IntN(0x100000)))
			case 5:
				if r.IntN(8) == 0 {
					b = append(b, byte(r.IntN(256)))
				}
			}
		}
		if got, want := Valid(b), utf8.Valid(b); got != want {
			t.Fatalf("Valid(% x) = %v, want %v", b, got, want)
		}
	}
}

func FuzzValid(f *testing.F) {
	f.Add([]byte("héllo, 世界 🌍"))
	f.Add([]byte{0xED, 0xA0, 0x80})
	f.Add([]byte("aaaaaaaa\xF4\x90\x80\x80"))
	f.Fuzz(func(t *testing.T, b []byte) {
		if got, want := Valid(b), utf8.Valid(b); got != want {
			t.Fatalf("Valid(% x) = %v, want %v", b, got, want)
		}
	})
}

var sink bool

func benchText(kind string) []byte {
	r := rand.New(rand.NewPCG(3, 4))
	var b []byte
	for len(b) < 64<<10 {
		switch kind {
		case "ascii":
			b = append(b, byte(' '+r.IntN(95)))
		case "japanese":
			if r.IntN(10) == 0 {
				b = append(b, ' ')
			} else {
				b = utf8.AppendRune(b, rune(0x3041+r.IntN(0x5000)))
			}
		case "random":
			b = utf8.AppendRune(b, rune(0x80+r.IntN(0x10FF80)))
			if b[len(b)-1] == 0xBD && b[len(b)-2] == 0xBF && b[len(b)-3] == 0xEF {
				b = b[:len(b)-3] // a replacement of a surrogate
			}
		case "accented": // mostly ASCII, now and then a letter like é
			if r.IntN(100) == 0 {
				b = utf8.AppendRune(b, rune(0xC0+r.IntN(0x40)))
			} else {
				b = append(b, byte('a'+r.IntN(26)))
			}
		case "mixed":
			if r.IntN(3) == 0 {
				b = utf8.AppendRune(b, rune(0x80+r.IntN(0x800)))
			} else {
				b = append(b, byte('a'+r.IntN(26)))
			}
		}
	}
	return b
}

func BenchmarkValid(b *testing.B) {
	for _, kind := range []string{"ascii", "accented", "japanese", "random", "mixed"} {
		text := benchText(kind)
		if !utf8.Valid(text) {
			b.Fatal(kind)
		}
		b.Run("impl=dfa/text="+kind, func(b *testing.B) {
			b.SetBytes(int64(len(text)))
			for b.Loop() {
				sink = Valid(text)
			}
		})
		b.Run("impl=stdlib/text="+kind, func(b *testing.B) {
			b.SetBytes(int64(len(text)))
			for b.Loop() {
				sink = utf8.Valid(text)
			}
		})
	}
}
