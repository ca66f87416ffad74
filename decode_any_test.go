package json

import (
	"bytes"
	stdjson "encoding/json"
	"fmt"
	"reflect"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"unsafe"
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

// TestAnyBoxCaches: strings that repeat are boxed once when decoded into
// any, numbers are boxed in blocks (boxFloat), and the string cache never
// gives a wrong value, also when two strings share a slot.
func TestAnyBoxCaches(t *testing.T) {
	// Allocation counts mean nothing under the race detector (sync.Pool
	// drops pooled state at random); the check of values below still runs.
	if fastChecks(t, "boxes kept for strings and blocks of boxes for numbers decoded into any") && !raceBuild {
		for _, v := range []string{`1.5`, `123456789`, `"a string that repeats"`} {
			allocs, _ := unmarshalAllocs[[]any](t, 20, arrayOf(v, 200))
			// The slice, and a box or a few blocks of them (16, then 64
			// numbers a block); not one per element.
			if allocs > 10 {
				t.Errorf("%s repeated 200 times into []any: %v allocations", v, allocs)
			}
		}
	}

	// Strings in one string-cache slot, alternating, as values and keys.
	s1 := "ab"
	h := stringSlot(stringHash([]byte(s1)))
	s2 := ""
	for i := 0; s2 == ""; i++ {
		if c := fmt.Sprint("k", i); stringSlot(stringHash([]byte(c))) == h {
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
	h := stringSlot(stringHash([]byte(s1)))
	for i := 0; s2 == ""; i++ {
		if c := fmt.Sprint("k", i); stringSlot(stringHash([]byte(c))) == h {
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

// object returns a JSON object of n members "k0" to "k<n-1>", each value v.
func object(n int, v string) string {
	var b strings.Builder
	b.WriteString("{")
	for i := range n {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `"k%d":%s`, i, v)
	}
	b.WriteString("}")
	return b.String()
}

// TestMapsMadeAtSize: a new map[string]any is made at the size of the
// last object in the same place while those sizes hold, and where they
// vary, at the end of its object at its number of members; a new
// map[string]V of a scalar V always so. Either way a map is not grown on
// the way. Values are encoding/json's, a key that comes twice keeps its
// last value, and the members gathered are dropped from the pooled state,
// after an object that ends and after one that fails.
func TestMapsMadeAtSize(t *testing.T) {
	big := object(300, "1")
	for _, in := range [][]byte{arrayOf(big, 50), arrayOf(big+`,{"a":1}`, 50),
		[]byte(`[{"a":1,"b":2},{},{"c":3,"c":4,"d":{"e":5,"e":6}}]`), []byte(`{"a":[{"b":{}}],"a":{"c":1}}`)} {
		var got, want any
		if err := Unmarshal(in, &got); err != nil {
			t.Fatal(err)
		}
		if err := stdjson.Unmarshal(in, &want); err != nil || !reflect.DeepEqual(got, want) {
			t.Fatalf("%.40s…: values differ from encoding/json's (%v)", in, err)
		}
		var gotM, wantM []map[string]int
		if err := Unmarshal(in, &gotM); err == nil {
			stdjson.Unmarshal(in, &wantM)
			if !reflect.DeepEqual(gotM, wantM) {
				t.Fatalf("%.40s… into []map[string]int: values differ from encoding/json's", in)
			}
		}
	}
	// Into a map that is there, members are added to it, as encoding/json does.
	m := map[string]int{"x": 1}
	if err := Unmarshal([]byte(`{"y":2,"x":3}`), &m); err != nil || !reflect.DeepEqual(m, map[string]int{"x": 3, "y": 2}) {
		t.Fatalf("into a map that is there: %v (%v)", m, err)
	}

	// Nothing gathered stays behind in a state of the test's own, after
	// objects read through and one that fails (a stream cut inside it).
	ds := new(decodeState)
	ds.bd.maxDepth = defaultMaxDepth
	for _, in := range []string{`[{"a":"x","b":{"c":"y"}}]`, `{"a":{"b":"x","c":`} {
		ds.bd.resetBytes([]byte(in))
		ds.d = &ds.bd
		var v any
		ds.unmarshalBytes([]byte(in), &v)
		for i, e := range ds.members[:cap(ds.members)] {
			if e != (anyEntry{}) {
				t.Fatalf("after %s: member %d gathered is still there: %v", in, i, e)
			}
		}
		if len(ds.members) != 0 {
			t.Fatalf("after %s: %d members left gathered", in, len(ds.members))
		}
	}
	dec := NewDecoder(strings.NewReader(`{"a":1,"b":2,"c":`))
	var mi map[string]int
	if err := dec.Decode(&mi); err == nil || mi != nil {
		t.Fatalf("a map cut short: %v, %v; want an error and no map", mi, err)
	}

	// Objects of 20 members and of 3 in turn: each map is made at its size
	// (20 members: the map, its directory, table and groups, 4 allocations;
	// 3: the map and its group, 2), not at the last one's and grown from
	// 3 to 8, 16 and 32 slots.
	skipNoFast(t, "maps made at their size")
	if raceBuild {
		t.Skip("allocation counts mean nothing under the race detector")
	}
	allocs, _ := unmarshalAllocs[any](t, 20, arrayOf(object(20, "true"), 100))
	if per := allocs / 100; per > 5 {
		t.Errorf("%.2f allocations per 20-member object, all alike, into any; want at most 5", per)
	}
	pair := object(20, "true") + "," + object(3, "true")
	allocs, _ = unmarshalAllocs[any](t, 20, arrayOf(pair, 50))
	if per := allocs / 50; per > 6.5 {
		t.Errorf("%.2f allocations per pair of objects into any, want at most 6.5", per)
	}
	typed := `{"m":` + object(20, "1") + `},{"m":` + object(3, "1") + `}`
	allocs, _ = unmarshalAllocs[[]struct{ M map[string]int }](t, 20, arrayOf(typed, 50))
	if per := allocs / 50; per > 6.5 {
		t.Errorf("%.2f allocations per pair of objects into map[string]int, want at most 6.5", per)
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

// TestStringBoxes: strings decoded into any are boxed in shared blocks
// (boxString), short ones only, and the state keeps the rest of its block
// at the call's end: the next call boxes its strings there, and the first
// call's values stay as they were. It runs one state through Unmarshal's
// steps, so that it can look at the state the call leaves for the pool.
func TestStringBoxes(t *testing.T) {
	skipNoFast(t, "strings boxed in shared blocks")
	// shorts strings of up to maxBlockString bytes, then a longer one: a new
	// state's first block has 8 boxes, the next 32, so the long one comes
	// where the second block has room.
	const shorts = 38
	var in []byte
	in = append(in, '[')
	for i := range shorts {
		if i > 0 {
			in = append(in, ',')
		}
		in = fmt.Appendf(in, `"box %03d %s"`, i, strings.Repeat("y", i%3*60)) // 8, 68 and 128 bytes
	}
	in = append(in, `,"`+strings.Repeat("z", maxBlockString+1)+`"]`...)

	ds := statePool.New().(*decodeState)
	ds.bd.resetBytes(in)
	ds.d = &ds.bd
	var v any
	if err := ds.unmarshalBytes(in, &v); err != nil {
		t.Fatal(err)
	}
	if ds.strBoxes == nil {
		t.Error("no block of boxes after decoding new strings into any")
	}
	inBlock := 0
	for i, x := range v.([]any) {
		// A box in a block is a string header's size after the one
		// before it (or starts a new block).
		adjacent := false
		if i > 0 {
			prev := v.([]any)[i-1]
			adjacent = uintptr((*eface)(unsafe.Pointer(&x)).data)-uintptr((*eface)(unsafe.Pointer(&prev)).data) == unsafe.Sizeof("")
		}
		if adjacent {
			inBlock++
		}
		if i == shorts && adjacent {
			t.Errorf("the %d-byte string was boxed in the block", maxBlockString+1)
		}
	}
	if inBlock < 30 {
		t.Errorf("%d of %d short strings boxed next to the one before, want most", inBlock, shorts)
	}
	ds.endCall()
	if ds.strBoxAt == len(ds.strBoxes) {
		t.Fatal("the state drops the rest of its block of boxes at the call's end")
	}
	rest := unsafe.Pointer(&ds.strBoxes[ds.strBoxAt])

	// More strings through the same state: the first call's values stay.
	var w any
	other := bytes.ReplaceAll(in, []byte("box"), []byte("xob"))
	for call := range 10 {
		ds.bd.resetBytes(other)
		ds.d = &ds.bd
		if err := ds.unmarshalBytes(other, &w); err != nil {
			t.Fatal(err)
		}
		if x := w.([]any)[0]; call == 0 && (*eface)(unsafe.Pointer(&x)).data != rest {
			t.Error("the next call's first string is not boxed in the rest of the block")
		}
		ds.endCall()
	}
	for i, x := range v.([]any) {
		if want := fmt.Sprintf("box %03d", i); i < shorts && !strings.HasPrefix(x.(string), want) {
			t.Fatalf("element %d is %q after more decoding, want %s...", i, x, want)
		}
	}

	// A full block is not kept: it would keep all its strings alive.
	ds.strBoxAt = len(ds.strBoxes)
	ds.endCall()
	if ds.strBoxes != nil {
		t.Error("the state keeps a full block of boxes")
	}
}

// TestFloatBoxes: numbers decoded into any are boxed side by side in
// blocks (boxFloat), whole numbers from 0 to 1023 in the static boxes, and
// the block, which holds no pointer, stays with the state at the call's
// end: the next call boxes its numbers in the rest of it. Each box holds
// its own number, also after more calls through the same state. It runs
// one state through Unmarshal's steps, as TestStringBoxes.
func TestFloatBoxes(t *testing.T) {
	skipNoFast(t, "numbers boxed in shared blocks")
	// 100 numbers: a new state's first block has 16 boxes, the next 64, so
	// the third block is cut into too. Each tenth is a small whole number.
	const count = 100
	value := func(i, call int) float64 {
		if i%10 == 0 {
			return float64(i)
		}
		return float64(call*1000+i) + 0.25
	}
	input := func(call int) []byte {
		in := []byte{'['}
		for i := range count {
			if i > 0 {
				in = append(in, ',')
			}
			in = strconv.AppendFloat(in, value(i, call), 'g', -1, 64)
		}
		return append(in, ']')
	}
	decode := func(ds *decodeState, in []byte) []any {
		ds.bd.resetBytes(in)
		ds.d = &ds.bd
		var v any
		if err := ds.unmarshalBytes(in, &v); err != nil {
			t.Fatal(err)
		}
		return v.([]any)
	}
	ds := statePool.New().(*decodeState)
	first := decode(ds, input(0))
	if ds.floatBoxes == nil {
		t.Error("no block of boxes after decoding numbers into any")
	}
	adjacent := 0
	var prev unsafe.Pointer
	for i, x := range first {
		p := (*eface)(unsafe.Pointer(&x)).data
		if i%10 == 0 {
			if p != (*eface)(unsafe.Pointer(&smallWholeFloats[i])).data {
				t.Errorf("%d: not its static box", i)
			}
			continue
		}
		if prev != nil && uintptr(p)-uintptr(prev) == unsafe.Sizeof(0.0) {
			adjacent++
		}
		prev = p
	}
	// 90 boxed numbers: 89 after another, each next to it but at the two
	// places where a block starts (where the allocator may have put the
	// block right after the one before): 87 or more.
	if adjacent < 80 {
		t.Errorf("%d of 90 boxed numbers next to the one boxed before, want most", adjacent)
	}
	ds.endCall()
	if ds.floatBoxAt == len(ds.floatBoxes) {
		t.Fatal("the state drops the rest of its block of boxes at the call's end")
	}
	rest := unsafe.Pointer(&ds.floatBoxes[ds.floatBoxAt])
	for call := 1; call <= 10; call++ {
		v := decode(ds, input(call))
		if call == 1 {
			if p := (*eface)(unsafe.Pointer(&v[1])).data; p != rest {
				t.Error("the next call's first number is not boxed in the rest of the block")
			}
		}
		ds.endCall()
	}
	for i, x := range first {
		if x != value(i, 0) {
			t.Fatalf("element %d is %v after more decoding, want %v", i, x, value(i, 0))
		}
	}
}

// TestBoxesShared: goroutines decoding numbers and strings into any
// through the pool share the pooled states' blocks of boxes from call to
// call; each keeps its values while the others box theirs in the rest of
// the same blocks (under -race, a box written twice is a race too).
func TestBoxesShared(t *testing.T) {
	const workers, calls, count = 4, 50, 20
	errs := make(chan error, workers)
	for w := range workers {
		go func() {
			var kept [][]any
			for c := range calls {
				in := []byte{'['}
				for i := range count {
					if i > 0 {
						in = append(in, ',')
					}
					if i%2 == 0 {
						in = strconv.AppendFloat(in, float64(w*1e6+c*1e3+i)+0.5, 'g', -1, 64)
					} else {
						in = fmt.Appendf(in, `"w%d c%d i%d"`, w, c, i)
					}
				}
				var v any
				if err := Unmarshal(append(in, ']'), &v); err != nil {
					errs <- err
					return
				}
				kept = append(kept, v.([]any))
			}
			for c, xs := range kept {
				for i, x := range xs {
					var want any = float64(w*1e6+c*1e3+i) + 0.5
					if i%2 == 1 {
						want = fmt.Sprintf("w%d c%d i%d", w, c, i)
					}
					if x != want {
						errs <- fmt.Errorf("worker %d call %d element %d: %v, want %v", w, c, i, x, want)
						return
					}
				}
			}
			errs <- nil
		}()
	}
	for range workers {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
}

// TestKeyedByDataKeepsGuesses: once three keys of an object into any have
// met other keys' guesses (an object keyed by ids or names), its later
// keys are not made guesses: they never come again, and making each one
// cost a tenth of the time of such objects. The guesses made before stay,
// in both the one pass and the token path.
func TestKeyedByDataKeepsGuesses(t *testing.T) {
	skipNoFast(t, "key guesses")
	first := []byte(`{"k1":1,"k2":2,"k3":3,"k4":4,"k5":5,"k6":6}`)
	second := []byte(`{"x1":1,"x2":2,"x3":3,"x4":4,"x5":5,"x6":6}`)
	check := func(t *testing.T, ds *decodeState) {
		for n, want := range []string{"x1", "x2", "x3", "k4", "k5", "k6"} {
			if got := ds.keyGuess[guessSlot(0, n)].name; got != want {
				t.Errorf("guess for member %d: %q, want %q", n, got, want)
			}
		}
	}
	t.Run("one pass", func(t *testing.T) {
		ds := statePool.New().(*decodeState) // no guesses from other tests
		defer putState(ds)
		for _, in := range [][]byte{first, second} {
			if _, ok := onePassOn(ds, in); !ok {
				t.Fatalf("unmarshalAny(%s) gave up", in)
			}
		}
		check(t, ds)
	})
	t.Run("tokens", func(t *testing.T) {
		// A third value in the window keeps the decoder's state (keepState).
		d := NewDecoder(bytes.NewReader(append(append(append(first, '\n'), second...), "\n{}"...)))
		d.ds = statePool.New().(*decodeState)
		for range 2 {
			v := map[string]any{} // merged into: the token path, not the one pass
			if err := d.Decode(&v); err != nil {
				t.Fatal(err)
			}
		}
		if d.ds == nil {
			t.Skip("the decoder kept no state to look at")
		}
		check(t, d.ds)
	})
}

// TestAnyBlockSizes: a call's first block of small arrays has 8 elements,
// the next ones 32, and the next call starts short again: a small document
// with an array or two does not allocate a 512-byte block for them.
func TestAnyBlockSizes(t *testing.T) {
	skipNoFast(t, "small arrays cut from shared blocks")
	ds := statePool.New().(*decodeState)
	for _, c := range []struct {
		in   string
		left int // elements left in the block after the call
	}{
		{`[[1,2]]`, 8 - 2 - 1},                           // the inner array, then the outer one
		{`[[1,2],[3,4],[5,6],[7,8],[9,10]]`, 32 - 2 - 5}, // the fifth inner array starts the second block
		{`{"a":[true,false,null]}`, 8 - 3},
	} {
		ds.bd.resetBytes([]byte(c.in))
		ds.d = &ds.bd
		var got, want any
		if err := ds.unmarshalBytes([]byte(c.in), &got); err != nil {
			t.Fatal(err)
		}
		if left := len(ds.anyBlock) - ds.anyBlockAt; left != c.left {
			t.Errorf("%s: %d elements left in the block, want %d", c.in, left, c.left)
		}
		if err := stdjson.Unmarshal([]byte(c.in), &want); err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("%s: %v, want %v (%v)", c.in, got, want, err)
		}
		ds.endCall()
	}
}
