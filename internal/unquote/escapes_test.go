package unquote

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"unicode/utf8"
)

// modelUnescape is Unescape's contract written out in Go, step by step as
// the kernel takes them: where it must stop, what it must write, and the
// runs' bytes it must OR into high (whether one has its top bit set).
func modelUnescape(dst, src []byte, j int) ([]byte, int, uint64) {
	var high uint64
	n := len(src)
	if cap(dst)-len(dst) < 64 {
		dst = slices.Grow(dst, 64) // as unescapeLoop, before the first call
	}
	for {
		// A run: up to 4 words, each with 16 bytes of input from it.
		stopped := false
		for words := 0; words < 4; words++ {
			if j+16 > n {
				return dst, j, high
			}
			if cap(dst)-len(dst) < 16 {
				// The kernel returns for room, unescapeLoop grows dst
				// as here, and the kernel starts a run afresh.
				dst, words = slices.Grow(dst, 64), 0
			}
			k := 0
			for ; k < 8; k++ {
				if c := src[j+k]; c == '"' || c == '\\' || c < 0x20 {
					break
				}
			}
			for _, c := range src[j : j+k] {
				high |= uint64(c) // whether a top bit is set is compared
			}
			dst = append(dst, src[j:j+k]...)
			j += k
			if k < 8 {
				stopped = true
				break
			}
		}
		if !stopped || src[j] != '\\' || j+16 > n {
			return dst, j, high
		}
		if cap(dst)-len(dst) < 16 {
			dst = slices.Grow(dst, 64) // for room at an escape, as above
		}
		c := src[j+1]
		if c != 'u' {
			if EscapeByte[c] == 0 {
				return dst, j, high
			}
			dst = append(dst, EscapeByte[c])
			j += 2
			continue
		}
		r := Hex4(binary.LittleEndian.Uint32(src[j+2:]))
		switch {
		case r < 0:
			return dst, j, high
		case r < 0xd800 || r >= 0xe000:
			dst = utf8.AppendRune(dst, r)
			j += 6
		case r >= 0xdc00 || src[j+6] != '\\' || src[j+7] != 'u':
			return dst, j, high
		default:
			r2 := Hex4(binary.LittleEndian.Uint32(src[j+8:]))
			if r2 < 0xdc00 || r2 >= 0xe000 {
				return dst, j, high
			}
			dst = utf8.AppendRune(dst, 0x10000+(r-0xd800)<<10|(r2-0xdc00))
			j += 12
		}
	}
}

// unescapeLoop calls Unescape as decodeState.unescapeAt does: with 64
// bytes of room or more, again while it stops for room.
func unescapeLoop(dst, src []byte, j int) ([]byte, int, uint64) {
	var high uint64
	for {
		if cap(dst)-len(dst) < 64 {
			dst = slices.Grow(dst, 64)
		}
		n, next, h, full := Unescape(dst, src, j)
		dst, j, high = dst[:n], next, high|h
		if !full {
			return dst, j, high
		}
	}
}

// checkUnescape runs unescapeLoop on src from j onto a copy of dst (cap
// as given) and compares it with the model, and what it decoded with
// encoding/json's value of the same bytes.
func checkUnescape(t *testing.T, dst, src []byte, j int) bool {
	t.Helper()
	// dst's memory is followed by 16 bytes that no write may reach.
	mem := make([]byte, cap(dst)+16)
	for i := range mem {
		mem[i] = 0xa5
	}
	d0 := append(mem[:0:cap(dst)], dst...)
	got, next, high := unescapeLoop(d0, src, j)
	if cap(got) == cap(dst) && !bytes.Equal(mem[cap(dst):], bytes.Repeat([]byte{0xa5}, 16)) {
		t.Errorf("Unescape(%q, j=%d) wrote past its buffer's capacity: % x", src, j, mem[cap(dst):])
		return false
	}
	if !HasKernel {
		if string(got) != string(dst) || next != j || high != 0 {
			t.Errorf("Unescape without a kernel did something: %q, %d, %#x", got, next, high)
			return false
		}
		return true
	}
	want, wnext, whigh := modelUnescape(append(make([]byte, 0, cap(dst)), dst...), src, j)
	const msb = 0x8080808080808080
	if string(got) != string(want) || next != wnext || (high&msb != 0) != (whigh&msb != 0) {
		t.Errorf("Unescape(%q, j=%d, len %d, dst len %d cap %d)\n got %q, next %d, high %#x\nwant %q, next %d, high %#x",
			src, j, len(src), len(dst), cap(dst), got, next, high&msb, want, wnext, whigh&msb)
		return false
	}
	// What it decoded is the value encoding/json gives those bytes (when
	// they are valid UTF-8, which encoding/json would otherwise replace).
	seg := src[j:next]
	if utf8.Valid(seg) {
		var s string
		if err := json.Unmarshal([]byte(`"`+string(seg)+`"`), &s); err != nil {
			t.Errorf("Unescape(%q, j=%d) decoded %q, which encoding/json rejects: %v", src, j, seg, err)
			return false
		}
		if string(got[len(dst):]) != s {
			t.Errorf("Unescape(%q, j=%d) = %q; encoding/json: %q", src, j, got[len(dst):], s)
			return false
		}
	}
	return true
}

// The pieces of TestUnescape's bodies: runs, the escapes the kernel
// decodes (one letter, \u), and what it leaves to its caller or stops at.
var (
	unescapeRuns  = []string{"a", "bc", "xyz0123", "é", "中", "😀", "\xff", "\xc3", " ", "~", "\x7f"}
	unescapeShort = []string{`\n`, `\"`, `\\`, `\/`, `\b`, `\f`, `\r`, `\t`}
	unescapeU     = []string{`\u0041`, `\u007f`, `\u0080`, `\u00e9`, `\u00E9`, `\u07ff`, `\u0800`, `\u4e2d`,
		`\uFFFF`, `\uffff`, `\u0000`, `\ud83d\ude00`, `\uD83D\uDE00`, `\udbff\udfff`, `\ud800\udc00`}
	unescapeStops = []string{`\'`, `\x`, `\u`, `\u00`, `\u12g4`, `\u00G0`, `\ud83d`, `\ude00`, `\ud83d\u0041`,
		`\ud83d\ud83d`, `\ud83d\udbff`, `\ud83d\ue000`, `\ud83d\n`, `\ud83dx`, "\x01", "\x1f", `"`, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJ"}
	unescapePieces = slices.Concat(unescapeRuns, unescapeShort, unescapeU, unescapeStops)
)

// TestUnescape builds bodies from pieces that take every path (and stop
// it), and checks Unescape from every place in them, onto buffers with
// little room, against the model and encoding/json.
func TestUnescape(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 36))
	for i := 0; i < 2000; i++ {
		var b bytes.Buffer
		b.WriteByte('"')
		pieces, room := r.IntN(12), r.IntN(80)
		if i%4 == 0 { // long enough to fill a buffer of the least room Unescape keeps
			pieces, room = 40+r.IntN(40), 64+r.IntN(16)
		}
		for n := pieces; n > 0; n-- {
			p := unescapePieces[r.IntN(len(unescapePieces))]
			if r.IntN(3) > 0 { // mostly what the kernel decodes
				p = unescapeShort[r.IntN(len(unescapeShort))]
				if r.IntN(2) == 0 {
					p = unescapeU[r.IntN(len(unescapeU))]
				}
			}
			b.WriteString(p)
		}
		b.WriteByte('"')
		b.WriteString("  ,  \"next\": 1}"[:r.IntN(16)])
		src := b.Bytes()
		l := r.IntN(4)
		dst := make([]byte, l, l+room)
		for j := 0; j < len(src); j++ {
			if !checkUnescape(t, dst, src, j) {
				return
			}
		}
	}
}

// TestUnescapeHex decodes every \u escape that is no surrogate, in lower
// and upper case, and every byte in each place of the four digits.
func TestUnescapeHex(t *testing.T) {
	pad := "................"
	for r := 0; r < 0x10000; r++ {
		if r >= 0xd800 && r < 0xe000 {
			continue
		}
		for _, f := range []string{`\u%04x`, `\u%04X`} {
			if !checkUnescape(t, nil, fmt.Appendf(nil, f+`"`+pad, r), 0) {
				return
			}
		}
	}
	for p := 0; p < 4; p++ {
		for c := 0; c < 256; c++ {
			src := []byte(`\u0000"` + pad)
			src[2+p] = byte(c)
			if !checkUnescape(t, nil, src, 0) {
				return
			}
		}
	}
	// Words of bytes near the digits' bounds and above 0x80, where a
	// carry from one byte could reach the next.
	r := rand.New(rand.NewPCG(3, 36))
	near := []byte("/0189:@AFG`afg\x7f\x80\xaf\xb0\xb9\xba\xc0\xdf\xe0\xe1\xe6\xe7\xff")
	for i := 0; i < 200000; i++ {
		src := []byte(`\u0000"` + pad)
		for p := 2; p < 6; p++ {
			src[p] = near[r.IntN(len(near))]
		}
		if !checkUnescape(t, nil, src, 0) {
			return
		}
	}
	for hi := 0xd800; hi < 0xdc00; hi += 0x3f {
		for lo := 0xdc00; lo < 0xe000; lo += 0x1f {
			if !checkUnescape(t, nil, fmt.Appendf(nil, `\u%04x\u%04x"`+pad, hi, lo), 0) {
				return
			}
		}
	}
}

// TestUnescapeProgress: on bodies it decodes whole (no bad escape, no run
// of 32 bytes, 16 bytes after the quote), the kernel reaches the quote,
// whatever room it starts with: the caller's loop does not do its work.
func TestUnescapeProgress(t *testing.T) {
	if !HasKernel {
		t.Skip("no kernel in this build (purego, or not amd64): Unescape does nothing, as TestUnescape checks")
	}
	r := rand.New(rand.NewPCG(7, 36))
	for i := 0; i < 2000; i++ {
		var b bytes.Buffer
		for n := r.IntN(200); n > 0; n-- {
			b.WriteString(unescapeRuns[r.IntN(len(unescapeRuns))])
			b.WriteString(unescapeShort[r.IntN(len(unescapeShort))])
			b.WriteString(unescapeU[r.IntN(len(unescapeU))])
		}
		body := b.Len()
		b.WriteString(`"................`)
		got, next, _ := unescapeLoop(make([]byte, 0, r.IntN(8)), b.Bytes(), 0)
		if next != body {
			t.Fatalf("Unescape stopped at %d of %q, not at the quote (%d)", next, b.Bytes(), body)
		}
		var s string
		if !utf8.Valid(b.Bytes()[:body]) {
			continue // encoding/json would replace the bad bytes; TestUnescape checks them
		}
		if err := json.Unmarshal(append([]byte{'"'}, b.Bytes()[:body+1]...), &s); err != nil || s != string(got) {
			t.Fatalf("Unescape(%q) = %q; encoding/json: %q, %v", b.Bytes(), got, s, err)
		}
	}
}

func FuzzUnescape(f *testing.F) {
	for _, p := range unescapePieces {
		f.Add([]byte(p+p+`"0123456789abcdef`), 0)
	}
	f.Fuzz(func(t *testing.T, src []byte, j int) {
		if j < 0 || j > len(src) {
			return
		}
		checkUnescape(t, make([]byte, 1, 9), src, j)
	})
}

// TestUnescapeRoom calls Unescape itself, as no caller in this module
// does, with less room than it needs: it writes nothing and says so.
func TestUnescapeRoom(t *testing.T) {
	src := []byte(`\u4e2d\n` + `abc\ud83d\ude00` + `"................`)
	for _, j := range []int{0, 8} { // at an escape, and at a run
		for room := 0; room < 24; room++ {
			mem := bytes.Repeat([]byte{0xa5}, 3+room+16)
			n, next, high, full := Unescape(mem[:3:3+room], src, j)
			if !bytes.Equal(mem[3+room:], bytes.Repeat([]byte{0xa5}, 16)) {
				t.Fatalf("j=%d, room %d: wrote past the capacity: % x", j, room, mem[3+room:])
			}
			if !HasKernel {
				if n != 3 || next != j || high != 0 || full {
					t.Fatalf("without a kernel: %d, %d, %#x, %v", n, next, high, full)
				}
				continue
			}
			if room < 16 && (!full || n != 3 || next != j) {
				t.Fatalf("j=%d, room %d: %d, %d, %v; want 3, %d, true (no room)", j, room, n, next, full, j)
			}
			if room >= 16 && (n == 3 || next == j) {
				t.Fatalf("j=%d, room %d: %d, %d, %v; want some decoded", j, room, n, next, full)
			}
		}
	}
}
