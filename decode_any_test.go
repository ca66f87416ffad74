package json

import (
	stdjson "encoding/json"
	"fmt"
	"math"
	"reflect"
	"runtime"
	"strings"
	"testing"
)

// arrayOf returns a JSON array of n copies of the value v.
func arrayOf(v string, n int) []byte {
	return []byte("[" + strings.TrimSuffix(strings.Repeat(v+",", n), ",") + "]")
}

// unmarshalAllocs decodes in into a fresh T runs times and returns the
// allocations per call and the last value.
func unmarshalAllocs[T any](t *testing.T, runs int, in []byte) (allocs float64, out T) {
	t.Helper()
	allocs = testing.AllocsPerRun(runs, func() {
		var zero T
		out = zero
		if err := Unmarshal(in, &out); err != nil {
			t.Fatal(err)
		}
	})
	return allocs, out
}

// TestAnyBoxCaches: numbers and strings that repeat are boxed once when
// decoded into any, and the caches never give a wrong value, also when
// two numbers or strings share a slot.
func TestAnyBoxCaches(t *testing.T) {
	skipNoFast(t, "boxes kept for numbers and strings decoded into any")
	for _, v := range []string{`1.5`, `123456789`, `"a string that repeats"`} {
		allocs, _ := unmarshalAllocs[[]any](t, 20, arrayOf(v, 200))
		// The slice, and a box or two; not one per element.
		if allocs > 10 {
			t.Errorf("%s repeated 200 times into []any: %v allocations", v, allocs)
		}
	}

	// Two numbers in one slot, alternating, and then each repeated.
	slotOf := func(f float64) uint64 { return floatSlot(math.Float64bits(f), floatCacheBits) }
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

// TestAnyStringValue: strings into any through the string cache, with its
// boxes: colliding strings, escaped spellings of a cached string, and
// invalid UTF-8 (never served raw from the cache) give encoding/json's
// values.
func TestAnyStringValue(t *testing.T) {
	s1, s2 := "ab", ""
	h := stringHash([]byte(s1)) % stringCacheSize
	for i := 0; s2 == ""; i++ {
		if c := fmt.Sprint("k", i); stringHash([]byte(c))%stringCacheSize == h {
			s2 = c
		}
	}
	for _, in := range []string{
		fmt.Sprintf(`[%q,%q,%q,%q,%q]`, s1, s2, s2, s1, s1),
		`["ab","a\u0062","\u0061b","ab"]`,
		"[\"a\xffb\",\"a\xffb\",\"a\ufffdb\",\"a\xffb\"]",
		"[\"\xff\xfe\",\"\xff\xfe\"]",
		`["\n", "é", "` + strings.Repeat(`a\n\u00e9`+"\xff", 300) + `"]`, // escaped: short, and too long to cache
		"[\"" + strings.Repeat("a\xff", 600) + "\"]",
	} {
		var got, want any
		if err := Unmarshal([]byte(in), &got); err != nil {
			t.Fatal(err)
		}
		if err := stdjson.Unmarshal([]byte(in), &want); err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("%q: got %q, want %q (%v)", in, got, want, err)
		}
	}
}

// TestAnyObjectHint: a map for an any is made at the size of the last object
// in the same place, but a large object does not make a small one after it
// allocate as much (maxObjectHint); values are encoding/json's either way.
func TestAnyObjectHint(t *testing.T) {
	var big strings.Builder
	big.WriteString("{")
	for i := range 300 {
		if i > 0 {
			big.WriteString(",")
		}
		fmt.Fprintf(&big, `"k%d":%d`, i, i)
	}
	big.WriteString("}")
	const pairs = 50
	bigs := arrayOf(big.String(), pairs)
	mixed := arrayOf(big.String()+`,{"a":1}`, pairs)
	for _, in := range [][]byte{bigs, mixed, []byte(`[{"a":1,"b":2},{},{"c":3}]`)} {
		var got, want any
		if err := Unmarshal(in, &got); err != nil {
			t.Fatal(err)
		}
		if err := stdjson.Unmarshal(in, &want); err != nil || !reflect.DeepEqual(got, want) {
			t.Fatalf("%.40s…: values differ from encoding/json's (%v)", in, err)
		}
	}
	// The hints themselves, on a state of the test's own.
	hints := func(in []byte) (most int) {
		ds := new(decodeState)
		ds.bd.maxDepth = defaultMaxDepth
		ds.bd.resetBytes(in)
		ds.d = &ds.bd
		var v any
		if err := ds.unmarshalBytes(in, &v); err != nil {
			t.Fatal(err)
		}
		for _, h := range ds.objectHints {
			most = max(most, int(h))
		}
		return most
	}
	if h := hints([]byte(`[{"a":1,"b":2,"c":3}]`)); h != 3 {
		t.Errorf("after a three-member object the largest hint is %d, want 3", h)
	}
	if h := hints(bigs); h != maxObjectHint {
		t.Errorf("after 300-member objects the largest hint is %d, want %d", h, maxObjectHint)
	}

	// Objects of 20 members in a row: each map after the first is made at
	// its size (the map, its directory, table and groups: 4 allocations),
	// not grown from 8 slots to 16 and 32 (7).
	skipNoFast(t, "maps made at the size of the last object in the same place")
	var obj strings.Builder
	obj.WriteString("{")
	for i := range 20 {
		if i > 0 {
			obj.WriteString(",")
		}
		fmt.Fprintf(&obj, `"k%d":true`, i)
	}
	obj.WriteString("}")
	allocs, _ := unmarshalAllocs[any](t, 20, arrayOf(obj.String(), 100))
	if per := allocs / 100; per > 5 {
		t.Errorf("%.2f allocations per 20-member object", per)
	}
}

// A large array decoded into any again allocates only its result: the
// pooled element buffer it was gathered on is kept, not grown anew.
func TestAnyLargeArrayAllocs(t *testing.T) {
	if raceBuild {
		t.Skip("allocation counts are not meaningful under the race detector")
	}
	for _, n := range []int{10_000, 50_000} {
		allocs, out := unmarshalAllocs[any](t, 10, arrayOf(string(arrayOf("true", n)), 1))
		// Two []any, each boxed.
		if allocs > 4 {
			t.Errorf("%d-element array into any: %v allocations, want 4", n, allocs)
		}
		if got := len(out.([]any)[0].([]any)); got != n {
			t.Fatalf("decoded %d elements, want %d", got, n)
		}
	}
}

// [] decoded into any is an empty, non-nil []any that costs no allocation.
func TestAnyEmptyArray(t *testing.T) {
	for _, in := range []string{`[]`, `[[]]`, `[ ]`, "[\n]", `{"a":[],"b":[[],[1]]}`, `[[],[],{}]`, `[]]`, `[[]`, `{"a":[]]}`, `[],`} {
		var got, want any
		err := Unmarshal([]byte(in), &got)
		werr := stdjson.Unmarshal([]byte(in), &want)
		if (err == nil) != (werr == nil) || !reflect.DeepEqual(got, want) {
			t.Fatalf("%s: got %#v (%v), want %#v (%v)", in, got, err, want, werr)
		}
		if err != nil {
			if _, ok := err.(*SyntaxError); !ok || err.Error() != werr.Error() {
				t.Errorf("%s: error %v, want %v", in, err, werr)
			}
		}
	}
	var v any
	if err := Unmarshal([]byte(`[]`), &v); err != nil || v.([]any) == nil || len(v.([]any)) != 0 {
		t.Fatalf("[] into any: %#v, %v", v, err)
	}
	if raceBuild {
		return // allocation counts are not meaningful under the race detector
	}
	skipNoFast(t, "one shared box for every [] decoded into any")
	allocs, _ := unmarshalAllocs[any](t, 20, arrayOf("[]", 100))
	if allocs > 2 { // the outer slice, boxed
		t.Errorf("100 empty arrays into any: %v allocations, want 2", allocs)
	}
}

// Literals decoded into any in one pass (literalAt) give encoding/json's
// values and errors, at the end of the input and before bad bytes too.
func TestAnyLiterals(t *testing.T) {
	for _, in := range []string{
		`[true,false,null]`, `{"a":true,"b":false,"c":null}`, "[null\n,true ]", `[false]`,
		`[truex]`, `[nul]`, `[true}`, `[tru`, `[true`, `{"a":nullx}`, `{"a":fals}`, `[true"x"]`, `[null,]`,
		`true`, `null `, `false,`,
	} {
		var got, want any
		err := Unmarshal([]byte(in), &got)
		werr := stdjson.Unmarshal([]byte(in), &want)
		if !sameError(err, werr) || !sameValue(got, want, err, werr) {
			t.Fatalf("%s: got %#v %s, want %#v %s", in, got, describeError(err), want, describeError(werr))
		}
	}
	// The classic encoding/json's texts and offsets, pinned so that they
	// are checked on every toolchain (stdjson_contract_test.go).
	for _, c := range []struct {
		in, msg string
		off     int64
	}{
		{`[truex]`, "invalid character 'x' after array element", 6},
		{`[nul]`, "invalid character ']' in literal null (expecting 'l')", 5},
		{`[true}`, "invalid character '}' after array element", 6},
		{`[tru`, "invalid character ' ' in literal true (expecting 'e')", 4},
		{`[true`, "unexpected end of JSON input", 5},
		{`{"a":nullx}`, "invalid character 'x' after object key:value pair", 10},
		{`{"a":fals}`, "invalid character '}' in literal false (expecting 'e')", 10},
		{`[true"x"]`, "invalid character '\"' after array element", 6},
		{`[null,]`, "invalid character ']' looking for beginning of value", 7},
		{`false,`, "invalid character ',' after top-level value", 6},
	} {
		var got any
		err := Unmarshal([]byte(c.in), &got)
		if want := describeError(&SyntaxError{msg: c.msg, Offset: c.off}); describeError(err) != want {
			t.Errorf("%s: error %s, want %s", c.in, describeError(err), want)
		}
	}
}

// Small arrays decoded into any are cut from shared blocks (makeAnySlice);
// each has its own capacity, so an append to one cannot write into the next.
func TestAnySmallArraysApart(t *testing.T) {
	var v any
	if err := Unmarshal([]byte(`[[1],[2,3],[],[4]]`), &v); err != nil {
		t.Fatal(err)
	}
	outer := v.([]any)
	first := outer[0].([]any)
	if len(first) != 1 || cap(first) != 1 {
		t.Fatalf("len %d cap %d, want 1 and 1", len(first), cap(first))
	}
	_ = append(first, "x")
	_ = append(outer[1].([]any), "y")
	want := []any{[]any{1.0}, []any{2.0, 3.0}, []any{}, []any{4.0}}
	if !reflect.DeepEqual(outer, want) {
		t.Fatalf("after appends: %v, want %v", outer, want)
	}
}

// The block small arrays are cut from is not kept in the pooled state after
// a call: it would keep that call's values alive (here a 4 MiB string)
// until the pool drops the state.
func TestAnyBlockNotKept(t *testing.T) {
	const n = 4 << 20
	in := []byte(`[["` + strings.Repeat("x", n) + `"]]`)
	heap := func() uint64 {
		runtime.GC() // once: the pool's states survive one collection
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return m.HeapAlloc
	}
	before := heap()
	var v any
	if err := Unmarshal(in, &v); err != nil || len(v.([]any)[0].([]any)[0].(string)) != n {
		t.Fatalf("%v", err)
	}
	v = nil
	if after := heap(); after > before+n/2 {
		t.Errorf("heap %d bytes before, %d after the value was dropped: the decoded string is still alive", before, after)
	}
	runtime.KeepAlive(in) // alive in both measurements
}

// 100 arrays of two elements into any: each array's header is boxed (100
// allocations), but their elements come from shared blocks, 16 arrays to a
// block (7), not one allocation each (100).
func TestAnySmallArraysAllocs(t *testing.T) {
	if raceBuild {
		t.Skip("allocation counts are not meaningful under the race detector")
	}
	skipNoFast(t, "small []any cut from shared blocks")
	allocs, out := unmarshalAllocs[any](t, 20, arrayOf("[true,false]", 100))
	if len(out.([]any)) != 100 {
		t.Fatalf("decoded %d arrays, want 100", len(out.([]any)))
	}
	if want := 2 + 100 + 7; allocs > float64(want) {
		t.Errorf("100 two-element arrays into any: %v allocations, want %d", allocs, want)
	}
}
