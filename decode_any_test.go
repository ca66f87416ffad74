package json

import (
	stdjson "encoding/json"
	"fmt"
	"math"
	"reflect"
	"strings"
	"testing"
)

// TestAnyBoxCaches: numbers and strings that repeat are boxed once when
// decoded into any, and the caches never give a wrong value, also when
// two numbers or strings share a slot.
func TestAnyBoxCaches(t *testing.T) {
	repeat := func(v string, n int) []byte {
		return []byte("[" + strings.TrimSuffix(strings.Repeat(v+",", n), ",") + "]")
	}
	for _, v := range []string{`1.5`, `123456789`, `"a string that repeats"`} {
		in := repeat(v, 200)
		var out []any
		allocs := testing.AllocsPerRun(20, func() {
			out = nil
			if err := Unmarshal(in, &out); err != nil {
				t.Fatal(err)
			}
		})
		// The slice, and a box or two; not one per element.
		if allocs > 10 {
			t.Errorf("%s repeated 200 times into []any: %v allocations", v, allocs)
		}
	}

	// Two numbers in one slot, alternating, and then each repeated.
	slotOf := func(f float64) uint64 { return (math.Float64bits(f) * 0x9E3779B97F4A7C15) >> (64 - floatCacheBits) }
	a, b := 1.0, 2.0
	for slotOf(b) != slotOf(a) {
		b++
	}
	var sb strings.Builder
	sb.WriteString("[")
	var want []any
	// a becomes resident, then b takes its place, then a again.
	order := "aaabbbababbaaab"
	for i := 0; i < len(order); i++ {
		x := a
		if order[i] == 'b' {
			x = b
		}
		if i > 0 {
			sb.WriteString(",")
		}
		fmt.Fprint(&sb, x)
		want = append(want, x)
	}
	sb.WriteString("]")
	var got []any
	if err := Unmarshal([]byte(sb.String()), &got); err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("colliding numbers: got %v, %v; want %v", got, err, want)
	}

	// Strings in one string-cache slot, alternating, as values and keys.
	s1 := "ab"
	h := stringHash([]byte(s1)) % stringCacheSize
	s2 := ""
	for i := 0; s2 == ""; i++ {
		if c := fmt.Sprint("k", i); stringHash([]byte(c))%stringCacheSize == h {
			s2 = c
		}
	}
	in := fmt.Sprintf(`[%q,%q,{%q:%q},%q,%q,%q]`, s1, s2, s1, s2, s1, s1, s2)
	var gotS, wantS any
	Unmarshal([]byte(in), &gotS)
	if err := stdjson.Unmarshal([]byte(in), &wantS); err != nil || !reflect.DeepEqual(gotS, wantS) {
		t.Errorf("colliding strings: got %v, want %v (%v)", gotS, wantS, err)
	}
}

// TestAnyStringGuard: anyString of a string that is not the one in its
// slot boxes it without caching it.
func TestAnyStringGuard(t *testing.T) {
	ds := new(decodeState)
	s1, s2 := "ab", ""
	h := stringHash([]byte(s1)) % stringCacheSize
	for i := 0; s2 == ""; i++ {
		if c := fmt.Sprint("k", i); stringHash([]byte(c))%stringCacheSize == h {
			s2 = c
		}
	}
	if v := ds.anyString(s1); v != s1 {
		t.Fatalf("got %v", v)
	}
	if v := ds.anyString(s2); v != s2 {
		t.Fatalf("after %q: got %v, want %q", s1, v, s2)
	}
}
