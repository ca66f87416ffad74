// Package utf8dfa reports whether bytes are valid UTF-8, as utf8.Valid
// does, with a branch-free automaton for text that is not ASCII.
//
// utf8.Valid decodes rune by rune, branching on each rune's length; on text
// that mixes runes of different lengths (random Unicode, mixed scripts) the
// branches mispredict. Here each byte moves a state machine of nine states
// (Björn Höhrmann's UTF-8 automaton) with one table load and one shift: the
// "shift-based DFA", where the row of a byte holds every state's next
// state, six bits each, and the current state is the shift that selects
// it. Runs of ASCII are still skipped sixteen bytes at a time.
//
// From 35 bytes on, on amd64 with AVX2, the bytes are checked 32 at a time
// instead, all rules at once (strbody.ValidUTF8AVX2, whose tables the
// escape kernel shares): each byte with the three before it is looked up
// in three 16-entry tables, one bit per kind of error, after Keiser and
// Lemire, "Validating UTF-8 in less than one instruction per byte"
// (2021). No branch depends on the text.
package utf8dfa

import "encoding/binary"

// States, as shifts into a table row. reject is a sink.
const (
	accept = 0 * 6 // between runes
	need1  = 1 * 6 // one continuation byte to come, any
	need2  = 2 * 6 // two, any
	need3  = 3 * 6 // three, any
	e0     = 4 * 6 // after E0: A0-BF, then one more (no overlong)
	ed     = 5 * 6 // after ED: 80-9F, then one more (no surrogate)
	f0     = 6 * 6 // after F0: 90-BF, then two more (no overlong)
	f4     = 7 * 6 // after F4: 80-8F, then two more (at most U+10FFFF)
	reject = 8 * 6
)

// table[b] holds, at bits [s, s+6), the state after byte b in state s.
var table [256]uint64

func init() {
	set := func(b byte, from, to uint64) { table[b] |= to << from }
	for b := 0; b < 256; b++ {
		// Every state not set below rejects.
		for s := uint64(accept); s <= reject; s += 6 {
			table[b] |= reject << s
		}
		c := byte(b)
		clear := func(s uint64) { table[c] &^= 63 << s }
		to := func(s, next uint64) { clear(s); set(c, s, next) }
		switch {
		case c < 0x80:
			to(accept, accept)
		case c < 0xC0: // continuation byte
			to(need1, accept)
			to(need2, need1)
			to(need3, need2)
			if c >= 0xA0 {
				to(e0, need1)
			} else {
				to(ed, need1)
			}
			if c >= 0x90 {
				to(f0, need2)
			} else {
				to(f4, need2)
			}
		case c < 0xC2: // overlong two-byte lead
		case c < 0xE0:
			to(accept, need1)
		case c == 0xE0:
			to(accept, e0)
		case c == 0xED:
			to(accept, ed)
		case c < 0xF0:
			to(accept, need2)
		case c == 0xF0:
			to(accept, f0)
		case c < 0xF4:
			to(accept, need3)
		case c == 0xF4:
			to(accept, f4)
		}
	}
}

const msb = 0x8080808080808080

// validDFA reports whether p is entirely valid UTF-8, exactly as
// utf8.Valid does, by the automaton.
func validDFA(p []byte) bool {
	var s uint64 // accept
	for len(p) >= 16 {
		// Between runes, sixteen bytes of ASCII are skipped at once.
		// One test for both (s is accept, 0, in its low six bits), so that
		// in text where runes end at a block's edge by chance there is no
		// branch to mispredict.
		if (binary.LittleEndian.Uint64(p)|binary.LittleEndian.Uint64(p[8:16]))&msb|s&63 == 0 {
			p = p[16:]
			continue
		}
		// Written out: a loop here costs twice the instructions per byte.
		b := (*[16]byte)(p)
		s = table[b[0]] >> (s & 63)
		s = table[b[1]] >> (s & 63)
		s = table[b[2]] >> (s & 63)
		s = table[b[3]] >> (s & 63)
		s = table[b[4]] >> (s & 63)
		s = table[b[5]] >> (s & 63)
		s = table[b[6]] >> (s & 63)
		s = table[b[7]] >> (s & 63)
		s = table[b[8]] >> (s & 63)
		s = table[b[9]] >> (s & 63)
		s = table[b[10]] >> (s & 63)
		s = table[b[11]] >> (s & 63)
		s = table[b[12]] >> (s & 63)
		s = table[b[13]] >> (s & 63)
		s = table[b[14]] >> (s & 63)
		s = table[b[15]] >> (s & 63)
		p = p[16:]
	}
	for _, c := range p {
		s = table[c] >> (s & 63)
	}
	return s&63 == accept
}
