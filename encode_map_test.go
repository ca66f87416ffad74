package json

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// keyOrder and sortOrder must order keys exactly as strings.Compare does,
// prefixes and all: zero bytes, keys that are prefixes of others, bytes
// above 0x7f, keys that share their packed bytes; with 8, 16 and 32 bits
// for the index.
func TestSortOrder(t *testing.T) {
	alphabet := []string{"", "\x00", "a", "b", "\x7f", "\x80", "\xff", "abcdefgh", "abcdefg"}
	r := rand.New(rand.NewPCG(1, 2))
	key := func() string {
		var sb strings.Builder
		for n := r.IntN(4); n > 0; n-- {
			sb.WriteString(alphabet[r.IntN(len(alphabet))])
		}
		return sb.String()
	}
	for _, n := range []int{0, 1, 2, 3, 12, 13, 40, 255, 256, 257, 1000, 65536, 65537} {
		keys := make([]string, n)
		for i := range keys {
			keys[i] = key()
		}
		bits := orderBits(n)
		order := make([]uint64, n)
		for i, k := range keys {
			order[i] = keyOrder(k, i, bits)
		}
		sortOrder(order, bits, func(i int) string { return keys[i] })
		seen := make([]bool, n)
		for j, o := range order {
			i := int(o & (1<<bits - 1))
			if seen[i] {
				t.Fatalf("n=%d: index %d twice", n, i)
			}
			seen[i] = true
			if j > 0 {
				prev := keys[order[j-1]&(1<<bits-1)]
				if strings.Compare(prev, keys[i]) > 0 {
					t.Fatalf("n=%d: %q before %q", n, prev, keys[i])
				}
			}
		}
	}
}

// Maps whose keys share long prefixes, or are prefixes of each other, come
// out in encoding/json's order, for map[string]any and the other maps.
func TestMarshalMapKeyOrder(t *testing.T) {
	keys := []string{"", "a", "abcdefgh", "abcdefghi", "abcdefgh\x00", "abcdefg", "abcdefgi", "\xff\xfe", "é", "B", "abcdefgha"}
	m1 := map[string]any{}
	m2 := map[string]int{}
	m3 := map[int]bool{}
	for i, k := range keys {
		m1[k], m2[k] = i, i
	}
	for _, i := range []int{-10, -2, 0, 1, 10, 100, 9, 99, 1000, -100} {
		m3[i] = true
	}
	vals := []any{m1, m2, m3, map[string]any{"x": m2}}
	// every size on both sides of where sorting by insertion stops
	r := rand.New(rand.NewPCG(3, 4))
	for n := 0; n <= 30; n++ {
		m := map[string]any{}
		for len(m) < n {
			m[keys[r.IntN(len(keys))]+keys[r.IntN(len(keys))]+keys[r.IntN(len(keys))]] = len(m)
		}
		vals = append(vals, m)
	}
	for _, v := range vals {
		if d := diffMarshalForm(v, "map"); d != "" {
			t.Errorf("Marshal(%v): %s", v, d)
		}
	}
}

// keyOrder packs a key's first bytes as a loop over them would, for every
// length of key.
func TestKeyOrder(t *testing.T) {
	k := "\x01\x82\x03\xf4\x05\x86\x07\xf8\x09"
	for n := 0; n <= len(k); n++ {
		var want uint64
		for j := 0; j < n && j < 8; j++ {
			want |= uint64(k[j]) << (56 - 8*j)
		}
		for _, bits := range []uint{8, 16, 32} {
			w := want>>bits<<bits | 5
			if got := keyOrder(k[:n], 5, bits); got != w {
				t.Errorf("keyOrder(%q, 5, %d) = %#x, want %#x", k[:n], bits, got, w)
			}
		}
	}
}
