package strbody

import (
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"
	"unsafe"
)

// plainReference reports whether s is written as it is by a JSON encoder:
// no character in it needs a look.
func plainReference(s string, html bool) bool {
	for j := 0; j < len(s); {
		r, n := utf8.DecodeRuneInString(s[j:])
		if needsLook(r, n, html) {
			return false
		}
		j += n
	}
	return true
}

func checkCopyPlain(t *testing.T, s string) {
	t.Helper()
	for _, html := range []bool{false, true} {
		d := make([]byte, Block+8)
		for i := range d {
			d[i] = 'x'
		}
		got := CopyPlain(d, s, html)
		if want := plainReference(s, html); got != want {
			t.Fatalf("CopyPlain(%q, html %v) = %v, want %v", s, html, got, want)
		}
		if got && string(d[:len(s)]) != s {
			t.Fatalf("CopyPlain(%q, html %v) copied %q", s, html, d[:len(s)])
		}
		if string(d[Block:]) != "xxxxxxxx" {
			t.Fatalf("CopyPlain(%q, html %v) wrote past its block: %q", s, html, d)
		}
	}
}

// TestCopyPlain puts every piece of escapePieces at every place of a
// string of 1 to 32 bytes (after ASCII, after other scripts, cut off by
// the end), and checks random strings of pieces, each in place and laid
// at the end of a page followed by bytes that would complete, or spoil,
// a character cut short there (the kernel must not read past the end).
func TestCopyPlain(t *testing.T) {
	if !useAVX2 {
		t.Skip("no AVX2 kernel in this build or on this CPU")
	}
	const page = 4096
	mem := make([]byte, 3*page)
	base := page - int(uintptr(unsafe.Pointer(&mem[0]))%page) // the start of a page in mem
	end := base + page
	check := func(s string) {
		t.Helper()
		if len(s) == 0 || len(s) > Block {
			return
		}
		checkCopyPlain(t, s)
		for _, after := range []string{"\x80\x80\x80", "\xa8\xa9a", "\"aa"} {
			copy(mem[end-len(s):], s)
			copy(mem[end:], after)
			checkCopyPlain(t, unsafe.String(&mem[end-len(s)], len(s)))
		}
	}
	for _, x := range escapePieces() {
		for _, fill := range []string{"a", "語", "é", "😀"} {
			for n := 0; n <= Block; n++ {
				pre := strings.Repeat(fill, n/len(fill)+1)[:n]
				s := pre + x
				check(s)
				check(s + "語")
				check(x + pre)
			}
		}
	}
	r := rand.New(rand.NewPCG(7, 8))
	pieces := escapePieces()
	for range 20000 {
		var b strings.Builder
		n := 1 + r.IntN(Block)
		for b.Len() < n {
			if r.IntN(6) == 0 {
				b.WriteString(pieces[r.IntN(len(pieces))])
			} else {
				b.WriteString([]string{"a", "語", "é", "😀", " "}[r.IntN(5)])
			}
		}
		check(b.String()[:n])
	}
}

func TestCopyPlainOff(t *testing.T) {
	saved := useAVX2
	defer func() { useAVX2 = saved }()
	useAVX2 = false
	d := make([]byte, Block)
	if CopyPlain(d, "語語", false) || string(d) != string(make([]byte, Block)) {
		t.Fatalf("CopyPlain without the kernel: true or wrote %q", d)
	}
}
