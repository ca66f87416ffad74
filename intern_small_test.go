package json

import (
	stdjson "encoding/json"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"unsafe"
)

// TestSmallWholeFloats: the static boxes hold 0 to 1023 as float64s, in
// order; anyFloat gives them for those numbers only (not for -0, 1023.5,
// 1024, -1, NaN or the infinities); and an array of all of them decoded
// into an any allocates nothing per number, where boxed in blocks
// (boxFloat) they would take 17 allocations.
func TestSmallWholeFloats(t *testing.T) {
	if len(smallWholeFloats) != 1024 {
		t.Fatalf("%d boxes, want 1024", len(smallWholeFloats))
	}
	for i, x := range smallWholeFloats {
		if f, ok := x.(float64); !ok || f != float64(i) || math.Signbit(f) {
			t.Fatalf("box %d holds %T %v", i, x, x)
		}
	}
	ds := getState()
	defer putState(ds)
	for _, f := range []float64{0, 1, 7, 1023} {
		if got := ds.anyFloat(f); got != any(f) {
			t.Errorf("anyFloat(%v) = %v", f, got)
		}
	}
	for _, f := range []float64{math.Copysign(0, -1), 1023.5, 0.5, 1024, -1, math.NaN(), math.Inf(1), math.Inf(-1), 1e300} {
		got, ok := ds.anyFloat(f).(float64)
		if !ok || math.Float64bits(got) != math.Float64bits(f) {
			t.Errorf("anyFloat(%v) = %v", f, got)
		}
	}

	var b strings.Builder
	b.WriteByte('[')
	for i := range 1024 {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.Itoa(i))
	}
	b.WriteString(",-0,1024]")
	in := []byte(b.String())
	var want, got any
	if err := stdjson.Unmarshal(in, &want); err != nil {
		t.Fatal(err)
	}
	if err := Unmarshal(in, &got); err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("got %v, %v", got, err)
	}
	if s := got.([]any); !math.Signbit(s[1024].(float64)) {
		t.Errorf("-0 lost its sign")
	}
	if !fastChecks(t, "static boxes for small whole numbers") || raceBuild {
		return // (allocation counts are not meaningful under the race detector)
	}
	allocs := testing.AllocsPerRun(10, func() {
		got = nil
		if err := Unmarshal(in, &got); err != nil {
			t.Fatal(err)
		}
	})
	if allocs > 4 {
		t.Errorf("%.0f allocations for 1,026 numbers, want at most 4", allocs)
	}
}

// TestNonASCIIValueStrings: strings of raw UTF-8 from 1 to 300 bytes, some
// with a bad byte (a stray continuation, a cut rune, 0xFF) at any place,
// decoded into []string, a struct's fields, map values and []any, one
// call and one Decoder over them all, are encoding/json's, U+FFFD and all.
// A typed one of up to maxLongBlockString bytes is checked as it is
// copied into the block of short strings or the long block (valueCopy,
// once the table keeps missing); one that fails the
// check is made again by the unquoting path, and the strings made before
// it in the same block must not change: each is compared after the whole
// document is decoded.
func TestNonASCIIValueStrings(t *testing.T) {
	r := rand.New(rand.NewPCG(36, 97))
	pieces := []string{"a", "é", "語", "🌍", "\u2028", "ß", " "}
	bad := []string{"\x80", "\xff", "\xe8\xaa", "\xf0\x9f\x8c", "\xc3"}
	var bodies []string
	for range 600 {
		n := 1 + r.IntN(300)
		switch r.IntN(4) {
		case 0:
			n = 1 + r.IntN(maxBlockString+8)
		case 1:
			// around the long block's range, both its ends
			n = maxBlockString - 8 + r.IntN(maxLongBlockString-maxBlockString+24)
		}
		var b strings.Builder
		for b.Len() < n {
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
		s := b.String()
		if r.IntN(4) == 0 {
			at := r.IntN(len(s) + 1)
			s = s[:at] + bad[r.IntN(len(bad))] + s[at:]
		}
		bodies = append(bodies, s)
	}
	var doc, rows, lines strings.Builder
	doc.WriteByte('[')
	rows.WriteByte('[')
	for i, s := range bodies {
		if i > 0 {
			doc.WriteByte(',')
			rows.WriteByte(',')
		}
		q := `"` + s + `"` // no quote, backslash or control byte in any piece
		doc.WriteString(q)
		fmt.Fprintf(&rows, `{"a":%s,"b":%s}`, q, `"`+bodies[(i+1)%len(bodies)]+`"`)
		lines.WriteString(`{"a":` + q + "}\n")
	}
	doc.WriteByte(']')
	rows.WriteByte(']')
	type row struct{ A, B string }
	check := func(name string, data string, newV func() any) {
		t.Helper()
		got, want := newV(), newV()
		if err := stdjson.Unmarshal([]byte(data), want); err != nil {
			t.Fatalf("%s: encoding/json: %v", name, err)
		}
		if err := Unmarshal([]byte(data), got); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: Unmarshal differs from encoding/json", name)
		}
	}
	check("[]string", doc.String(), func() any { return new([]string) })
	check("[]any", doc.String(), func() any { return new([]any) })
	check("[]row", rows.String(), func() any { return new([]row) })
	check("[]map[string]string", rows.String(), func() any { return new([]map[string]string) })
	check("[]map[string]any", rows.String(), func() any { return new([]map[string]any) })

	var got, want []row
	sd := stdjson.NewDecoder(strings.NewReader(lines.String()))
	for {
		var v row
		if err := sd.Decode(&v); err != nil {
			break
		}
		want = append(want, v)
	}
	d := NewDecoder(strings.NewReader(lines.String()))
	for {
		var v row
		if err := d.Decode(&v); err != nil {
			if err != io.EOF {
				t.Fatal(err)
			}
			break
		}
		got = append(got, v)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Decoder: values differ from encoding/json's")
	}
}

// TestLongBlockStrings: typed ASCII values of maxBlockString+1 to
// maxLongBlockString bytes are made side by side in long blocks
// (valueCopy), each the bytes it was decoded from after every later value
// was made; shorter and longer ones beside them are as before. 64 values
// of 400 bytes take two long blocks, not 64 allocations.
func TestLongBlockStrings(t *testing.T) {
	r := rand.New(rand.NewPCG(36, 1024))
	var want []string
	for i := range 400 {
		n := maxBlockString - 4 + r.IntN(maxLongBlockString-maxBlockString+12)
		if i%5 == 0 {
			n = 1 + r.IntN(maxBlockString)
		}
		b := make([]byte, n)
		for j := range b {
			b[j] = 'a' + byte(r.IntN(26))
		}
		if i%3 == 1 {
			// escaped as written (unquotedValue)
			b[r.IntN(n)], b[r.IntN(n)] = '\n', '"'
		}
		want = append(want, string(b))
	}
	doc, err := stdjson.Marshal(want)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	if err := Unmarshal(doc, &got); err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("Unmarshal: values differ (%v)", err)
	}
	type row struct{ A, B string }
	var rows strings.Builder
	for i := 0; i+1 < len(want); i += 2 {
		fmt.Fprintf(&rows, "{\"a\":%q,\"b\":%q}\n", want[i], want[i+1])
	}
	d := NewDecoder(strings.NewReader(rows.String()))
	for i := 0; ; i += 2 {
		var v row
		if err := d.Decode(&v); err == io.EOF {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		if v.A != want[i] || v.B != want[i+1] {
			t.Fatalf("Decoder: row %d differs", i/2)
		}
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("values made earlier changed")
	}

	// Escaped ones with a bad byte, whose U+FFFD is longer than the byte:
	// encoding/json's values.
	var bad strings.Builder
	bad.WriteByte('[')
	for i := range 200 {
		if i > 0 {
			bad.WriteByte(',')
		}
		n := maxBlockString - 8 + r.IntN(maxLongBlockString-maxBlockString+16)
		s := strings.Repeat("\xff", r.IntN(4)) + strings.Repeat("b", n) + `\t` + strings.Repeat("\xc3", r.IntN(3))
		bad.WriteString(`"` + s + `"`)
	}
	bad.WriteByte(']')
	var wantBad, gotBad []string
	if err := stdjson.Unmarshal([]byte(bad.String()), &wantBad); err != nil {
		t.Fatal(err)
	}
	if err := Unmarshal([]byte(bad.String()), &gotBad); err != nil || !reflect.DeepEqual(gotBad, wantBad) {
		t.Fatalf("escaped strings with bad bytes differ from encoding/json's (%v)", err)
	}

	if !fastChecks(t, "long blocks") || raceBuild {
		return // (allocation counts are not meaningful under the race detector)
	}
	long := make([]string, 64)
	for i := range long {
		long[i] = strings.Repeat(string(rune('a'+i%26)), 399) + strconv.Itoa(i%10)
	}
	in, _ := stdjson.Marshal(long)
	allocs := testing.AllocsPerRun(20, func() {
		got = nil
		if err := Unmarshal(in, &got); err != nil {
			t.Fatal(err)
		}
	})
	// Two long blocks (40 strings of 400 bytes to one), the slice, and
	// its growth; one a string would be 64 more.
	if allocs > 6 {
		t.Errorf("%.0f allocations for 64 strings of 400 bytes, want at most 6", allocs)
	}
}

// TestNonASCIIValuesRepeat: a typed non-ASCII value misses the string
// table, so after a few misses in a row valueString copies the next ones
// without a look; values that repeat must still come back to the table and
// be shared from it once that run is over. Eight names, 304 times, into
// []string (checkRepeatsShared).
func TestNonASCIIValuesRepeat(t *testing.T) {
	checkRepeatsShared[string](t, []string{"ボルシア・ドルトムント", "バイエルン・ミュンヘン", "Реал Мадрид", "Ολυμπιακός",
		"Ájax Åmsterdäm", "Galatasaray SK İstanbul", "Benfica Lisboa ção", "Céltic Glasgöw"})
}

// checkRepeatsShared decodes 304 values, each one of names in turn, into
// a []T (string or any), and checks that every value is its name and that
// the last hundred are len(names) strings in memory, each shared from the
// string table. The pooled state the call gets may be anywhere in a run
// without the table (a missRun's), with any of the names in its slots, as
// an earlier call left it: from any such start, every value from the
// 200th on is a hit (the worst start, stepped through for missesToSkip 4
// and skipTable 64, makes its last copy at the 199th: three runs and the
// misses between them), so the last hundred of 304 are.
func checkRepeatsShared[T any](t *testing.T, names []string) {
	t.Helper()
	var doc strings.Builder
	doc.WriteByte('[')
	n := 3*(skipTable+missesToSkip) + 100
	for i := range n {
		if i > 0 {
			doc.WriteByte(',')
		}
		doc.WriteString(strconv.Quote(names[i%len(names)]))
	}
	doc.WriteByte(']')
	var got []T
	if err := Unmarshal([]byte(doc.String()), &got); err != nil {
		t.Fatal(err)
	}
	for i, v := range got {
		if s, _ := any(v).(string); s != names[i%len(names)] {
			t.Fatalf("value %d = %q, want %q", i, s, names[i%len(names)])
		}
	}
	if !fastChecks(t, "values shared from the string table") {
		return
	}
	data := map[*byte]bool{}
	for _, v := range got[n-100:] {
		s, _ := any(v).(string)
		data[unsafe.StringData(s)] = true
	}
	if len(data) != len(names) {
		t.Errorf("the last 100 values are %d strings in memory, want %d (one a name, from the table)", len(data), len(names))
	}
}

// TestAnyLongStrings: strings of more than maxBlockString bytes decoded
// into an any skip the string table while it keeps missing (anyRun): 64
// new ones of 400 bytes a call take about one allocation each, their
// boxes, where each took two (the string, then its box); and values that
// repeat come back to the table once a run is over, as typed ones do
// (TestNonASCIIValuesRepeat): the last 100 of 304 values, each one of
// eight strings, are eight strings in memory.
func TestAnyLongStrings(t *testing.T) {
	var names []string
	for i := range 8 {
		names = append(names, strings.Repeat(string(rune('a'+i)), 150)+strconv.Itoa(i)+"/path")
	}
	checkRepeatsShared[any](t, names)
	if !fastPaths || raceBuild {
		return // (no fast paths; or allocation counts not meaningful under the race detector)
	}
	var got []any
	inputs := make([][]byte, 102)
	for i := range inputs {
		var b strings.Builder
		b.WriteByte('[')
		for j := range 64 {
			if j > 0 {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, `"%0400d"`, i*64+j)
		}
		b.WriteByte(']')
		inputs[i] = []byte(b.String())
	}
	run := 0
	allocs := testing.AllocsPerRun(100, func() {
		got = nil
		if err := Unmarshal(inputs[run], &got); err != nil {
			t.Fatal(err)
		}
		run++
	})
	// 64 boxes, the strings of the misses that end a run (4 in 68), a
	// long block or two, the slice: one allocation a string would be
	// 128 and more.
	if allocs > 80 {
		t.Errorf("%.0f allocations for 64 new strings of 400 bytes into an any, want at most 80", allocs)
	}
}
