package json

import (
	"bytes"
	stdjson "encoding/json"
	"fmt"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"github.com/jsonpipe/json/internal/chunkio"
)

// bigElem is large enough that fillLong's chunks reach their size cap
// (maxChunkBytes) after a few hundred elements.
type bigElem struct {
	A   int
	S   string
	Pad [4096]byte
}

// array is a JSON array of n elements, elem(i) the i-th, one to a line.
func array(n int, elem func(i int) string) string {
	var b strings.Builder
	b.WriteByte('[')
	for i := range n {
		if i > 0 {
			b.WriteString(",\n ")
		}
		b.WriteString(elem(i))
	}
	b.WriteByte(']')
	return b.String()
}

// TestLongSlices decodes arrays past the scratch buffer, across fillLong's
// chunk boundaries and its chunk size cap, through Unmarshal and through a
// Decoder reading 7 bytes at a time, and compares with encoding/json:
// values, lengths, and the elements kept when an element fails fatally.
func TestLongSlices(t *testing.T) {
	if maxLen := maxChunkBytes / int(reflect.TypeFor[bigElem]().Size()); maxLen > 500 {
		t.Fatalf("bigElem's chunks hold %d elements: the cases below do not reach the cap", maxLen)
	}
	targets := map[string]struct {
		new  func() any
		elem func(i int) string
	}{
		"ints":    {func() any { return new([]int) }, func(i int) string { return fmt.Sprint(i * 7) }},
		"strings": {func() any { return new([]string) }, func(i int) string { return fmt.Sprintf(`"s%d"`, i) }},
		"structs": {func() any { return new([]diffSmall) }, func(i int) string { return fmt.Sprintf(`{"id":%d,"name":"x%d","Score":1.5}`, i, i) }},
		"big":     {func() any { return new([]bigElem) }, func(i int) string { return fmt.Sprintf(`{"A":%d,"S":"%d"}`, i, i) }},
		"numbers": {func() any { return new([]Number) }, func(i int) string { return fmt.Sprintf(`"%d"`, i) }},
		// Inner slices past the scratch buffer, one after another, each
		// taking the same pooled scratch buffer.
		"nested": {func() any { return new([][]int) }, func(i int) string {
			return "[" + strings.Repeat(fmt.Sprint(i, ","), 65+i%80) + "0]"
		}},
	}
	for name, tg := range targets {
		for _, n := range []int{63, 64, 65, 127, 128, 129, 257, 1000, 1537} {
			if name == "nested" && n > 257 {
				continue
			}
			in := array(n, tg.elem)
			check := func(how string, want, got any, werr, gerr error) {
				t.Helper()
				if !sameError(gerr, werr) {
					t.Fatalf("%s %d %s: error %s, want %s", name, n, how, describeError(gerr), describeError(werr))
				}
				if !sameValue(got, want, gerr, werr) {
					t.Fatalf("%s %d %s: got %d elements, want %d, or they differ", name, n, how,
						reflect.ValueOf(got).Elem().Len(), reflect.ValueOf(want).Elem().Len())
				}
			}
			want, got := tg.new(), tg.new()
			check("Unmarshal", want, got, stdjson.Unmarshal([]byte(in), want), Unmarshal([]byte(in), got))
			want, got = tg.new(), tg.new()
			werr := stdjson.NewDecoder(strings.NewReader(in)).Decode(want)
			gerr := NewDecoder(&chunkio.Reader{R: strings.NewReader(in), N: 7}).Decode(got)
			check("Decode", want, got, werr, gerr)
			// A syntax error at the end leaves the target alone.
			bad := in[:len(in)-1] + ",]"
			want, got = tg.new(), tg.new()
			werr = stdjson.NewDecoder(strings.NewReader(bad)).Decode(want)
			gerr = NewDecoder(&chunkio.Reader{R: strings.NewReader(bad), N: 7}).Decode(got)
			check("Decode of a bad array", want, got, werr, gerr)
		}
	}
	// A fatal error in element k keeps elements 0..k, as in encoding/json.
	for _, k := range []int{64, 65, 128, 129, 300, 1000} {
		in := array(1200, func(i int) string {
			if i == k {
				return `"x"`
			}
			return fmt.Sprintf(`"%d"`, i)
		})
		var want, got []Number
		werr, gerr := stdjson.Unmarshal([]byte(in), &want), Unmarshal([]byte(in), &got)
		if !sameError(gerr, werr) || !sameValue(got, want, gerr, werr) {
			t.Errorf("fatal error at %d: got %d elements, %s; want %d, %s", k, len(got), describeError(gerr), len(want), describeError(werr))
		}
		if pinned, perr := classicFatalNumber(nil, in); describeError(gerr) != describeError(perr) || !reflect.DeepEqual(got, pinned) {
			t.Errorf("fatal error at %d: got %d elements, %s; want %d, %s", k, len(got), describeError(gerr), len(pinned), describeError(perr))
		}
	}
}

// TestLongSliceCapacity: a new slice that outgrew the scratch buffer (64
// ints) holds 128 elements first when streamed; past that it is gathered
// in chunks and allocated once, at its length. As Unmarshal's whole input,
// its length is estimated from the rest of the input, and it is never
// left more than a quarter empty.
func TestLongSliceCapacity(t *testing.T) {
	for _, n := range []int{65, 128, 129, 1000, 100000, 131072, 300000, 1000000} {
		in := bytes.Repeat([]byte(`1,`), n)
		in = append(append([]byte{'['}, in[:len(in)-1]...), ']')
		var s, streamed []int
		if err := Unmarshal(in, &s); err != nil || len(s) != n {
			t.Fatalf("%d elements: len %d, %v", n, len(s), err)
		}
		if err := NewDecoder(&chunkio.Reader{R: bytes.NewReader(in), N: 4096}).Decode(&streamed); err != nil || len(streamed) != n {
			t.Fatalf("%d elements, streamed: len %d, %v", n, len(streamed), err)
		}
		if !fastChecks(t, "new slices gathered in a scratch buffer, and the length estimate") {
			continue // every slice grows as append does
		}
		switch {
		case cap(s) < n || cap(s) > n+n/3:
			t.Errorf("%d elements: cap %d, want at most a quarter empty", n, cap(s))
		case n <= 128 && cap(streamed) != 128:
			t.Errorf("%d elements, streamed: cap %d; want 128", n, cap(streamed))
		case n > 128 && cap(streamed) != n:
			t.Errorf("%d elements, streamed: cap %d, want %d", n, cap(streamed), n)
		}
	}
}

// TestLengthEstimate: arrays that end long before the input does (nested,
// one after another, or of varying element sizes) get their exact values,
// and their slices are never left more than a quarter empty.
func TestLengthEstimate(t *testing.T) {
	rows := func(n int) string {
		return array(n, func(i int) string { return fmt.Sprintf(`{"id":%d,"name":"%s"}`, i, strings.Repeat("x", i%97)) })
	}
	cases := map[string]string{
		"rows":                   rows(5000),
		"short rows, then long":  `[` + strings.Repeat(`{"id":1},`, 300) + rows(3000)[1:],
		"long rows, then short":  rows(3000)[:len(rows(3000))-1] + strings.Repeat(`,{"id":1}`, 3000) + `]`,
		"nested, then much more": `[` + rows(200) + `,` + rows(20000) + `]`,
		"many nested":            `[` + strings.TrimSuffix(strings.Repeat(rows(150)+`,`, 100), `,`) + `]`,
	}
	for name, in := range cases {
		var want, got [][]diffSmall
		if name == "rows" || name == "short rows, then long" || name == "long rows, then short" {
			in = `[` + in + `]`
		}
		werr, gerr := stdjson.Unmarshal([]byte(in), &want), Unmarshal([]byte(in), &got)
		if werr != nil || gerr != nil || !reflect.DeepEqual(want, got) {
			t.Fatalf("%s: %v, %v, or the values differ", name, werr, gerr)
		}
		if !fastChecks(t, "the length estimate") {
			continue // every slice grows as append does
		}
		for i, s := range got {
			if len(s) > 128 && cap(s) > len(s)+len(s)/3 {
				t.Errorf("%s: slice %d: len %d, cap %d", name, i, len(s), cap(s))
			}
		}
	}
}

// TestLengthEstimateToEnd: an array that is Unmarshal's whole input (a
// JSON array of rows) is allocated at its estimated length at its first
// growth, not grown step by step: one allocation past the scratch buffer
// when its rows are alike, a few more when the estimate was far off;
// never more than a quarter empty; the same values as encoding/json.
func TestLengthEstimateToEnd(t *testing.T) {
	type row struct {
		ID int
		X  float64
	}
	alike := func(n int) string {
		return array(n, func(i int) string { return fmt.Sprintf(`{"ID":%d,"X":%d.5}`, 100000+i, i%1000) })
	}
	cases := []struct {
		name   string
		in     string
		allocs float64 // at most
	}{
		{"alike 1000", alike(1000), 1},
		{"alike 50000", alike(50000), 1},
		{"spaced", strings.ReplaceAll(alike(20000), ",", ", "), 1},
		// Too long: made again at its length (the array and reflect's
		// header for it).
		{"short rows, then long", `[` + strings.Repeat(`{"ID":1},`, 300) + alike(20000)[1:], 3},
		// Too short, its first rows longer than the rest (as often in
		// real data): made again once, from the density of the rows
		// since the estimate, and kept (the array and reflect's header
		// for it), where doubling had to be copied again at its length.
		{"first rows longer", `[` + strings.Repeat(`{"ID":100000,"X":999.25,"Y":7},`, 200) + alike(20000)[1:], 3},
		// Far too short: made again twice (from the rows since the
		// estimate, then doubled).
		{"long rows, then short", alike(5000)[:len(alike(5000))-1] + strings.Repeat(`,{}`, 20000) + `]`, 5},
	}
	for _, c := range cases {
		var want, got []row
		werr, gerr := stdjson.Unmarshal([]byte(c.in), &want), Unmarshal([]byte(c.in), &got)
		if werr != nil || gerr != nil || !reflect.DeepEqual(want, got) {
			t.Fatalf("%s: %v, %v, or the values differ", c.name, werr, gerr)
		}
		if !fastChecks(t, "the length estimate") {
			continue
		}
		if cap(got) > len(got)+len(got)/3 {
			t.Errorf("%s: len %d, cap %d", c.name, len(got), cap(got))
		}
		if raceBuild {
			continue // allocation counts are not meaningful under the race detector
		}
		in := []byte(c.in)
		var s []row
		allocs := testing.AllocsPerRun(5, func() {
			s = nil
			if err := Unmarshal(in, &s); err != nil {
				t.Fatal(err)
			}
		})
		if allocs > c.allocs {
			t.Errorf("%s: %.0f allocations, want at most %.0f", c.name, allocs, c.allocs)
		}
	}
}

// TestSliceMoveKinds: new slices of one to a few elements, which moveTo
// allocates with make (strings, elements without pointers) or through
// reflect (the rest), hold encoding/json's values, at their length, after
// a garbage collection (at their length: made at once, with the fast
// paths); and each element type gets the way meant for it.
func TestSliceMoveKinds(t *testing.T) {
	type tag string
	type flat struct {
		A int8
		B float64
		C [3]bool
	}
	type withPtr struct {
		N int
		S string
	}
	type rec struct {
		S  []string
		T  []tag
		I  []int64
		F  []float64
		B  []bool
		U8 []uint8
		I8 []int8
		FS []flat
		PS []withPtr
		P  []*int
	}
	for _, c := range []struct {
		t    reflect.Type
		want moveKind
	}{
		{reflect.TypeFor[string](), moveStrings}, {reflect.TypeFor[tag](), moveStrings},
		{reflect.TypeFor[int64](), moveFlat}, {reflect.TypeFor[bool](), moveFlat}, {reflect.TypeFor[flat](), moveFlat},
		{reflect.TypeFor[withPtr](), moveReflect}, {reflect.TypeFor[*int](), moveReflect}, {reflect.TypeFor[any](), moveReflect},
	} {
		if got := moveKindOf(c.t); got != c.want {
			t.Errorf("moveKindOf(%v) = %d, want %d", c.t, got, c.want)
		}
	}
	for _, in := range []string{
		`{"S":["a"],"T":["bb","cc"],"I":[1,2,3],"F":[1.5],"B":[true,false,true],"U8":[1,2,255],"I8":[-1,2,-3,4,-5],` +
			`"FS":[{"A":1,"B":2.5,"C":[true,false,true]},{"A":-2}],"PS":[{"N":1,"S":"x"}],"P":[1,null]}`,
		`{"S":[],"I":[],"FS":[],"PS":[]}`,
		`{"S":["a","b","c","d","e","f","g"],"U8":[7],"I8":[1]}`,
		`{"S":["a",1]}`, `{"I":[1,"x",3]}`, `{"FS":[{"A":1},{"A":1000}]}`,
	} {
		var got, want rec
		err := Unmarshal([]byte(in), &got)
		werr := stdjson.Unmarshal([]byte(in), &want)
		runtime.GC()
		if !sameError(err, werr) || !sameValue(got, want, err, werr) {
			t.Errorf("%s:\n got %+v (%v)\nwant %+v (%v)", in, got, err, want, werr)
		}
		v := reflect.ValueOf(got)
		for i := 0; i < v.NumField() && fastPaths; i++ { // (without them, slices grow as append grows them)
			if f := v.Field(i); f.Len() != f.Cap() {
				t.Errorf("%s: %s has length %d, capacity %d", in, v.Type().Field(i).Name, f.Len(), f.Cap())
			}
		}
	}
}

// TestScratchKeptBounded: a scratch buffer that grew past maxKeptScratch
// (a map's members gather in one, growing as they come) is not kept by
// the state, not even above its stack's free ones (scratchStack leaves a
// buffer taken where it was), and the short slices beside it gather in
// kept buffers.
func TestScratchKeptBounded(t *testing.T) {
	type rec struct {
		M    map[string]string
		Tags []string
	}
	var b strings.Builder
	b.WriteString(`{"M":{`)
	for i := range maxKeptScratch / 8 {
		fmt.Fprintf(&b, `"k%d":"v",`, i)
	}
	b.WriteString(`"z":"v"}}`)
	long := b.String()
	ds := getState()
	defer putState(ds)
	big := func() (n int) {
		for _, st := range ds.scratchSlices {
			for _, sc := range st.bufs {
				if sc != nil && uintptr(sc.buf.Cap())*sc.size > maxKeptScratch {
					n++
				}
			}
		}
		return n
	}
	for i, doc := range []string{`{"M":{"a":"1","b":"2"},"Tags":["x","y"]}`, long, `{"M":{"c":"3"},"Tags":["z"]}`, long} {
		var v rec
		if err := ds.unmarshal([]byte(doc), &v); err != nil {
			t.Fatal(err)
		}
		if n := len(v.M); (len(doc) == len(long)) != (n > 2) {
			t.Fatalf("document %d: %d members", i, n)
		}
		if n := big(); n != 0 {
			t.Errorf("after document %d: %d scratch buffers past maxKeptScratch kept", i, n)
		}
	}
	if fastChecks(t, "which scratch buffers the state keeps") {
		kept := 0
		for _, st := range ds.scratchSlices {
			kept += st.free
		}
		if kept == 0 {
			t.Errorf("no scratch buffer kept for the short slices")
		}
	}
}
