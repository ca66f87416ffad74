package json

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// compareKeys must order keys exactly as strings.Compare does, prefixes and
// all: zero bytes, keys that are prefixes of others, bytes above 0x7f.
func TestCompareKeys(t *testing.T) {
	alphabet := []string{"", "\x00", "a", "b", "\x7f", "\x80", "\xff", "abcdefgh", "abcdefg"}
	r := rand.New(rand.NewPCG(1, 2))
	key := func() string {
		var sb strings.Builder
		for n := r.IntN(4); n > 0; n-- {
			sb.WriteString(alphabet[r.IntN(len(alphabet))])
		}
		return sb.String()
	}
	for range 100000 {
		a, b := key(), key()
		got := compareKeys(keyPrefix(a), keyPrefix(b), a, b)
		if want := strings.Compare(a, b); got != want {
			t.Fatalf("compareKeys(%q, %q) = %d, want %d", a, b, got, want)
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
