package json

import (
	"bytes"
	stdjson "encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/jsonpipe/json/internal/corpus"
	"github.com/jsonpipe/json/internal/unquote"
)

// onePass runs the one pass of Unmarshal into *any on data, as Unmarshal
// does, and returns what it made and whether it took the input.
func onePass(data []byte) (any, bool) {
	ds := getState()
	defer putState(ds)
	return onePassOn(ds, data)
}

// onePassOn is onePass on the state ds (its guesses and hints stay in it).
func onePassOn(ds *decodeState, data []byte) (any, bool) {
	ds.bd.resetBytes(data)
	ds.d = &ds.bd
	v, ok := ds.unmarshalAny(data)
	ds.bd.resetBytes(nil)
	return v, ok
}

// TestUnmarshalAnyOnePass: the one pass takes every corpus file and each
// input below whole, with encoding/json's value. Unmarshal would give the
// same value through the token path, so this checks the path itself: the
// speed of Unmarshal into any depends on its being taken.
func TestUnmarshalAnyOnePass(t *testing.T) {
	inputs := map[string]string{
		"duplicate keys":      `{"a":1,"a":[2],"a":3}`,
		"numbers":             `[0, -0, 1, -1.5, 1e3, 1E-3, 0.1e+2, 12345678901234567890123, 0.000001234567890123456789, 9007199254740993]`,
		"nested":              `{"a":{"b":{"c":[[],{},[{}],[[1]]]}},"d":[],"e":{}}`,
		"literals":            `[true,false,null,{"t":true,"f":false,"n":null}]`,
		"strings":             `["", "a", "\u00e9\ud83d\ude00", "\ud800x", "a\"b\\c\/", "é", "\t\n"]`,
		"invalid UTF-8":       "[\"a\xffb\", \"\xed\xa0\x80\", {\"k\xfe\":1}]",
		"whitespace":          " \t\r\n{ \"a\" \n:\t1 ,\r\"b\" : [ 1 , 2 ] } \n",
		"escaped keys":        `[{"a\nb":1,"\u0041":2},{"a\nb":3,"\u0041":4}]`,
		"escapes then more":   "[\"a\\n\u00e9b\", \"\\t\xffz\", \"\\u00e9\\ud83d\\ude00\\ud800\\n\", \"x\\\"\\\\\\/\\b\\f\\r\"]",
		"long escaped":        `"` + strings.Repeat(`line of text\n`, 200) + `"`,
		"empty keys":          `[{"":1},{"":2,"x":3}]`,
		"guessed keys":        `[{"a":1,"bb":2},{"a":3,"bb":4},{"bb":5,"a":6},{"a":7},{"ab":8,"a":9}]`,
		"spaced guesses":      `[{"k" :1,"long_key_name_over_13" : 2},{"k" :3,"long_key_name_over_13":4},{"k":5}]`,
		"long guesses":        `[{"a_key_longer_than_13":1},{"a_key_longer_than_13":2},{"a_key_longer_than_1x":3}]`,
		"quoted colons":       `[{"k":1,"a_key_longer_than_13":2},{"k :":3,"a_key_longer_than_13 :":4},{"k":5,"a_key_longer_than_13":6}]`,
		"prefix guesses":      `[{"abcdefghijklm":1},{"abcdefghijkl":2},{"abcdefghijklmn":3}]`,
		"small arrays":        `[[1,2],[3],[4,5,6,7,8,9,10,11,12],[[1,2],[3,4]]]`,
		"keyed by data":       `{"AC":{"gdp":"1","pop":{"en":{"p":"9"}}},"AD":{"gdp":"2","pop":{"ca":{"p":"5"},"es":{}}},"AE":{"gdp":"3"},"AF":{"pop":{}},"AG":{"gdp":"4","x":[{"AC":1}]}}`,
		"top-level string":    `"top"`,
		"top-level spaced":    ` 12 `,
		"keys like values":    `{"true":true,"1":1,"null":null}`,
		"deep but in limit":   strings.Repeat(`[{"a":`, 250) + "1" + strings.Repeat(`}]`, 250),
		"at the pass's depth": strings.Repeat("[", maxOnePassDepth) + strings.Repeat("]", maxOnePassDepth),
	}
	for _, f := range corpus.All(t) {
		inputs["corpus "+f.Name] = string(f.Data)
	}
	for name, in := range inputs {
		onePassAgrees(t, name, []byte(in), onePass)
	}
}

// onePassAgrees checks that pass (a one pass into any) takes in whole,
// with encoding/json's value.
func onePassAgrees(t *testing.T, name string, in []byte, pass func([]byte) (any, bool)) {
	t.Helper()
	got, ok := pass(in)
	if !ok {
		t.Errorf("%s: the one pass gave up", name)
		return
	}
	var want any
	if err := stdjson.Unmarshal(in, &want); err != nil {
		t.Fatalf("%s: encoding/json: %v", name, err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("%s: one pass gave %v, encoding/json %v", name, got, want)
	}
}

// onePassGivesUp checks that pass gives up on in, and that Unmarshal's
// value and error (with its offset) are then encoding/json's.
func onePassGivesUp(t *testing.T, name string, in []byte, pass func([]byte) (any, bool)) {
	t.Helper()
	if _, ok := pass(in); ok {
		t.Errorf("%q: the one pass took it", name)
	}
	var want, got any = "old", "old"
	werr := stdjson.Unmarshal(in, &want)
	gerr := Unmarshal(in, &got)
	if !sameError(gerr, werr) || !sameValue(got, want, gerr, werr) {
		t.Errorf("%q: Unmarshal = %v, %s; encoding/json %v, %s", name, got, errString(gerr), want, errString(werr))
	}
}

// TestUnmarshalAnyGivesUp: on input the one pass cannot decode whole, it
// gives up, and Unmarshal's result (value and error, with its offset) is
// encoding/json's: the token path reads the input again from the start,
// with nothing left over from the pass (a scanner error it met would carry
// an offset relative to the string it was in).
func TestUnmarshalAnyGivesUp(t *testing.T) {
	for _, in := range []string{
		``, ` `, `[1,2`, `{"a":1}x`, `{"a":1,}`, `[1,]`, `{"a" 1}`, `{1:2}`, `[1 2]`,
		`["a\nb\x"]`, "[\"a\\nb\x01\"]", `["a\n`, `"a\n\u12`, `"a\n\ud83d\u12"`, `"\n"x`,
		`{"key": "ab\x"}`, "{\"key\": [\"ab\x01\"]}", `  {"a":"\u12"}`, `["abc`,
		`[01]`, `[1.]`, `[-]`, `[1e]`, `[tru]`, `[nul`, `[1,nulx]`, `{"a":truex}`,
		`[1e400]`, `{"a":[1,-1e999,"x"],"b":2}`, `[1e400, "a\x"]`,
		`12`, `true`, `null`, `-0`, `1e2`,
		strings.Repeat("[", maxOnePassDepth+1) + strings.Repeat("]", maxOnePassDepth+1),
		strings.Repeat(`{"":`, maxOnePassDepth+1) + "1" + strings.Repeat("}", maxOnePassDepth+1),
		strings.Repeat("[", defaultMaxDepth) + strings.Repeat("]", defaultMaxDepth),
		strings.Repeat("[", defaultMaxDepth+1) + strings.Repeat("]", defaultMaxDepth+1),
		strings.Repeat(`{"":`, defaultMaxDepth) + "1" + strings.Repeat("}", defaultMaxDepth),
		strings.Repeat(`{"":`, defaultMaxDepth+1) + "1" + strings.Repeat("}", defaultMaxDepth+1),
		strings.Repeat(`[{"":`, 5000) + "x",
	} {
		name := in
		if len(name) > 40 {
			name = name[:40] + "..."
		}
		onePassGivesUp(t, name, []byte(in), onePass)
	}
}

// TestUnmarshalOnePassTargets: the one pass replaces only what
// encoding/json replaces whole (an *any not holding a pointer, a nil map or
// slice of any given an object or array); every other target and value
// goes to the token path. Either way, Unmarshal's result is encoding/json's.
func TestUnmarshalOnePassTargets(t *testing.T) {
	type T struct{ A, B int }
	for _, c := range []struct {
		target func() any // a pointer
		in     string
		taken  bool
	}{
		{func() any { var x any; return &x }, `{"A":1}`, true},
		{func() any { var x any = 5; return &x }, `[1]`, true},
		{func() any { var x any = map[string]any{"old": 1.0}; return &x }, `{"a":1}`, true},
		{func() any { var x any = &T{B: 2}; return &x }, `{"A":1}`, false},
		{func() any { var x any = &T{B: 2}; return &x }, `null`, false},
		{func() any { var x any = (*T)(nil); return &x }, `{"A":1}`, false},
		{func() any { var m map[string]any; return &m }, `{"a":[1,{"b":null}]}`, true},
		{func() any { var m map[string]any; return &m }, ` {}`, true},
		{func() any { var m map[string]any; return &m }, `null`, false},
		{func() any { var m map[string]any; return &m }, `[1]`, false},
		{func() any { var m map[string]any; return &m }, `{"a":1,}`, false},
		{func() any { m := map[string]any{"old": 1.0, "a": 2.0}; return &m }, `{"a":1}`, false},
		{func() any { var s []any; return &s }, `[1,"a",{}]`, true},
		{func() any { var s []any; return &s }, `[]`, true},
		{func() any { var s []any; return &s }, `{}`, false},
		{func() any { s := []any{1.0, 2.0, 3.0}; return &s }, `[4]`, false},
		{func() any { var m map[string]int; return &m }, `{"a":1}`, false},
	} {
		name := fmt.Sprintf("%T %s", c.target(), c.in)
		ds := getState()
		ds.bd.resetBytes([]byte(c.in))
		ds.d = &ds.bd
		taken := ds.onePass([]byte(c.in), c.target())
		ds.bd.resetBytes(nil)
		putState(ds)
		if want := c.taken && fastPaths; taken != want { // never without the fast paths
			t.Errorf("%s: one pass took it: %v, want %v", name, taken, want)
		}
		want, got := c.target(), c.target()
		werr := stdjson.Unmarshal([]byte(c.in), want)
		gerr := Unmarshal([]byte(c.in), got)
		if !sameError(gerr, werr) || !sameValue(got, want, gerr, werr) {
			t.Errorf("%s: Unmarshal = %#v, %s; encoding/json %#v, %s", name, got, errString(gerr), want, errString(werr))
		}
	}
}

// TestOnePassEscapes: strings with escapes at every place relative to the
// 8-byte words the one pass scans, with ASCII, multi-byte, invalid and
// control bytes around them (a control byte that ends the run after an
// escape is an error, not another escape), decode to encoding/json's
// values, whole or cut.
func TestOnePassEscapes(t *testing.T) {
	pieces := []string{`\n`, `\"`, `\\`, `\u00e9`, `\ud83d\ude00`, `\ud800`, "é", "\xff", "\xe3\x81", "日", "\x01n"}
	// The run between the two pieces: short, or longer than the escape
	// kernel's run (then bodyStop's).
	for n, long := 0, 0; n <= 20; n, long = n+1-long/70, 70-long {
		for _, p := range pieces {
			for _, q := range pieces {
				in := `["` + strings.Repeat("a", n) + p + strings.Repeat("b", 20-n+long) + q + `", 1]`
				var want, got any
				werr := stdjson.Unmarshal([]byte(in), &want)
				gerr := Unmarshal([]byte(in), &got)
				if !sameError(gerr, werr) || !reflect.DeepEqual(got, want) {
					t.Errorf("%q: Unmarshal = %q, %s; encoding/json %q, %s", in, got, errString(gerr), want, errString(werr))
				}
				if _, ok := onePass([]byte(in)); !ok && werr == nil {
					t.Errorf("%q: the one pass gave up", in)
				}
				for cut := len(in) - 12; cut < len(in)-1; cut++ {
					want, got = nil, nil
					werr := stdjson.Unmarshal([]byte(in[:cut]), &want)
					gerr := Unmarshal([]byte(in[:cut]), &got)
					if !sameError(gerr, werr) || !reflect.DeepEqual(got, want) {
						t.Errorf("%q: Unmarshal = %q, %s; encoding/json %q, %s", in[:cut], got, errString(gerr), want, errString(werr))
					}
				}
			}
		}
	}
}

// TestLongStringRuns: a string's runs longer than stringStopWithin's 32
// bytes go on through bodyStop (the strbody kernel). A stop byte (an
// escape, a control byte, the closing quote) or a non-ASCII or invalid
// byte at every place in strings of up to 100 bytes: the one pass, the
// token path from a whole input and from one byte at a time, and Valid
// agree with encoding/json.
func TestLongStringRuns(t *testing.T) {
	for n := 0; n <= 100; n++ {
		for p := 0; p <= n; p++ {
			for _, piece := range []string{`\n`, `\u00e9`, "\x01", "é", "\xff", `"`} {
				body := strings.Repeat("x", p) + piece + strings.Repeat("y", n-p)
				in := `{"k":"` + body + `","n":[1]}`
				var want, got, tok any
				werr := stdjson.Unmarshal([]byte(in), &want)
				gerr := Unmarshal([]byte(in), &got)
				if !sameError(gerr, werr) || !reflect.DeepEqual(got, want) {
					t.Fatalf("Unmarshal(%q) = %q, %s; encoding/json %q, %s", in, got, errString(gerr), want, errString(werr))
				}
				derr := NewDecoder(iotest.OneByteReader(strings.NewReader(in))).Decode(&tok)
				if (derr == nil) != (werr == nil) || !reflect.DeepEqual(tok, want) && werr == nil {
					t.Fatalf("Decode(%q) one byte at a time = %q, %v; encoding/json %q, %v", in, tok, derr, want, werr)
				}
				if Valid([]byte(in)) != stdjson.Valid([]byte(in)) {
					t.Fatalf("Valid(%q) = %v", in, !stdjson.Valid([]byte(in)))
				}
				// Compact and Indent find each string's end on their own
				// (validStringEnd); a second string after the first checks
				// that they found it.
				in2 := `[ "` + body + `" , "<&>" ]`
				var gc, wc, gi, wi bytes.Buffer
				cerr, wcerr := Compact(&gc, []byte(in2)), stdjson.Compact(&wc, []byte(in2))
				ierr, wierr := Indent(&gi, []byte(in2), "", " "), stdjson.Indent(&wi, []byte(in2), "", " ")
				if !sameError(cerr, wcerr) || gc.String() != wc.String() || !sameError(ierr, wierr) || gi.String() != wi.String() {
					t.Fatalf("Compact, Indent(%q) = %q, %v; %q, %v; encoding/json %q, %v; %q, %v", in2, gc.String(), cerr, gi.String(), ierr, wc.String(), wcerr, wi.String(), wierr)
				}
			}
		}
	}
}

// TestStreamOnePassAgrees: Decode into an *any, a nil map[string]any or
// []any reads a top-level object or array that is whole in the window by
// the one pass (streamOnePass). Over every reader shape (whole, where it
// takes nearly every value; a byte at a time, where it takes none; chunks,
// where it takes some), with and without UseNumber, the values and errors
// are encoding/json's; mixed with Token and More, and under SetMaxDepth
// limits below, at and above the pass's own, the values, errors and
// InputOffset are those of the same decoder fed a byte at a time.
func TestStreamOnePassAgrees(t *testing.T) {
	deep := func(n int) string { return strings.Repeat("[", n) + strings.Repeat("]", n) }
	streams := []string{
		`{"a":1,"b":[1,2,{"c":"d"}],"e":null} {"a":2}` + "\n" + `[1,"x",true]`,
		`{"a":1}{"a":"é\u00e9 \n"}[]{}`, `{"a":[[[[1]]]]} {"b":{"c":{"d":{}}}} [[],[{}]]`,
		`{"a":1} {"a":`, `{"a":1} {"a":1,} [1]`, `{"a":1}x`, `[1,2]]`, `{"a":1}]`, `{"a":1e400} {"b":1}`,
		`{"n":12345678901234567890123,"f":1.5e-300,"g":-0}`, `{"a":"\ud800"} {"b":"\u0041"}`, "{\"a\":\"\xff\"} [\"\xfe\"]",
		`  {"k":  [ 1 , 2 ] }  ` + "\t\n", `{"a":1} 5 "s" null true {"b":2} [3]`, `{"a":tru} {"b":1}`, `[1 2]`,
		`{"a":1,"a":2,"A":3}`, deep(5), deep(499) + deep(500) + deep(501) + deep(600), `[` + deep(499) + `]`,
	}
	for _, in := range streams {
		for _, target := range []string{"any", "map", "slice"} {
			for _, opts := range []string{"", "n"} {
				for _, mk := range readerShapesFor(uint64(len(in))) {
					diffDecode(t, []byte(in), target, opts, mk)
				}
			}
		}
		for _, maxDepth := range []int{0, 3, 499, 500, 501, 10000} {
			for _, steps := range []uint64{0xFFFF, 0b0101, 0b0110, 0b1011} {
				newDec := func(r io.Reader) *Decoder {
					d := NewDecoder(r)
					if maxDepth > 0 {
						d.SetMaxDepth(maxDepth)
					}
					return d
				}
				whole := newDec(strings.NewReader(in))
				bytewise := newDec(iotest.OneByteReader(strings.NewReader(in)))
				for i := 0; i < 16; i++ {
					var a, b any
					var ea, eb error
					step := "Token"
					if steps>>i&1 == 1 {
						step = "Decode"
						ea, eb = whole.Decode(&a), bytewise.Decode(&b)
					} else {
						a, ea = whole.Token()
						b, eb = bytewise.Token()
					}
					if fmt.Sprint(a) != fmt.Sprint(b) || fmt.Sprint(ea) != fmt.Sprint(eb) ||
						whole.InputOffset() != bytewise.InputOffset() || whole.More() != bytewise.More() {
						t.Fatalf("%.60q, max depth %d, step %d (%s): %.80v, %v at %d; a byte at a time: %.80v, %v at %d",
							in, maxDepth, i, step, a, ea, whole.InputOffset(), b, eb, bytewise.InputOffset())
					}
					if ea != nil {
						break
					}
				}
			}
		}
	}
}

// TestStreamOnePassUseNumber: with UseNumber, the one pass takes objects
// and arrays of numbers of every form (Numbers made as written, 1e400 and
// 23 digits too), with encoding/json's values.
func TestStreamOnePassUseNumber(t *testing.T) {
	skipNoFast(t, "the one pass")
	in := `{"a":[0,-0,1.50,-12345678901234567890123,1e400,2E-7],"b":{"c":9007199254740993}} [1,{"d":-0.0},"x"]`
	want := stdjson.NewDecoder(strings.NewReader(in))
	want.UseNumber()
	d := NewDecoder(strings.NewReader(in))
	d.UseNumber()
	ds := getState()
	defer putState(ds)
	ds.d, ds.useNumber = d, true
	for range 2 {
		var got, w any
		if !ds.streamOnePass(&got) {
			t.Fatalf("the one pass did not take the value at %d", d.InputOffset())
		}
		if err := want.Decode(&w); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, w) {
			t.Fatalf("got %#v, want %#v", got, w)
		}
	}
}

// TestAnyMembersByData: in an object whose keys have met other keys'
// guesses stopGuessing times in a row, the rest of the members are read by
// anyMembersByData, with no guesses. Its values are encoding/json's
// (members of every kind, spacing, escaped, empty and repeated keys; into
// a map made at the object's size or gathered first), and on a fault
// there the one pass gives up and Unmarshal's value and error are
// encoding/json's, as through a Decoder reading a byte at a time (the
// token path, where anyKey stops guessing at the same count).
func TestAnyMembersByData(t *testing.T) {
	skipNoFast(t, "key guesses")
	// object writes an object of n members whose keys no other object has
	// (prefix p), each value from vals in turn, joined by sep.
	vals := []string{`1`, `"s"`, `{"in":[1,{"x":null}]}`, `[true,false]`, `-2.5e3`, `{}`, `[]`, `"\u00e9\n"`}
	object := func(p string, n int, sep string) string {
		var b strings.Builder
		b.WriteString("{")
		for i := range n {
			if i > 0 {
				b.WriteString("," + sep)
			}
			fmt.Fprintf(&b, `"%s%d"%s:%s%s`, p, i, sep, sep, vals[i%len(vals)])
		}
		return b.String() + sep + "}"
	}
	rows := func(objs ...string) string { return "[" + strings.Join(objs, ",") + "]" }
	fresh := func(in []byte) (any, bool) {
		ds := statePool.New().(*decodeState) // no guesses from other tests
		defer putState(ds)
		return onePassOn(ds, in)
	}
	good := map[string]string{
		"same sizes":    rows(object("a", 10, ""), object("b", 10, ""), object("c", 10, "")), // maps made at their size
		"varying sizes": rows(object("a", 6, ""), object("b", 12, ""), object("c", 9, ""), object("d", 5, "")),
		"spaced":        rows(object("a", 8, " \n"), object("b", 8, " \n"), object("c", 8, "\t")),
		"nested":        `{"x":` + rows(object("a", 7, ""), object("b", 7, "")) + `,"y":` + object("c", 9, "") + `}`,
		"odd keys":      rows(object("a", 6, ""), `{"b0":1,"b1":2,"b2":3,"b3":4,"b\n4":5,"":6,"b\u00e95":7,"b3":8,"a5":9}`),
		"keys again":    rows(object("a", 8, ""), `{"b0":1,"b1":2,"b2":3,"b3":4,"a4":5,"a5":6,"a6":7,"a7":8}`, object("c", 2, "")), // a4 on are their places' guesses again
	}
	for name, in := range good {
		onePassAgrees(t, name, []byte(in), fresh)
	}
	// Faults in the fifth member of the second object and after it
	// (anyMembersByData reads from the fourth, the fourth miss in a row).
	first := object("a", 8, "")
	for _, rest := range []string{
		`"b4" 5}`, `"b4":}`, `"b4":5 "b5":6}`, `"b4":5,}`, `"b4":5,"b5"}`, `b4:5}`, `"b4`, `"b4":`, `"b4":5`,
		`"b4":5,`, `"b4\x":5}`, "\"b4\x01\":5}", `"b4":[1,}`, `"b4":5]`, `"b4":5}}`, `"b4":{"c":1,"d":2,"e":3,"f":4,"g":5,"h"}}`,
		`"b4"x5}`, `"b4":5;"b5":6}`, // a byte in place of the ':' or the ','
		`"b4":"x"` + "\x00", // the input ends right after the value (the mark is cut)
	} {
		in := "[" + first + `,{"b0":0,"b1":1,"b2":2,"b3":3,` + rest + "]"
		if r, ok := strings.CutSuffix(rest, "\x00"); ok {
			in = "[" + first + `,{"b0":0,"b1":1,"b2":2,"b3":3,` + r
		}
		onePassGivesUp(t, rest, []byte(in), fresh)
	}
	// Where a key is its place's guess again, the guesses go on from it, at
	// its place: the keys after it meet their own guesses, and the guesses
	// stay as they were (the fourth key, read without guesses, is not made
	// one).
	ds := statePool.New().(*decodeState)
	defer putState(ds)
	for _, in := range []string{object("a", 8, ""), `{"b0":0,"b1":1,"b2":2,"b3":3,"a4":4,"a5":5,"a6":6,"a7":7}`} {
		if _, ok := onePassOn(ds, []byte(in)); !ok {
			t.Fatalf("unmarshalAny(%s) gave up", in)
		}
	}
	for n, want := range []string{"b0", "b1", "b2", "a3", "a4", "a5", "a6", "a7"} {
		if got := ds.keyGuess[guessSlot(0, n)].name; got != want {
			t.Errorf("guess for member %d: %q, want %q", n, got, want)
		}
	}
	// The token path: the same inputs through a Decoder a byte at a time.
	for name, in := range good {
		var want, got any
		if err := stdjson.Unmarshal([]byte(in), &want); err != nil {
			t.Fatal(err)
		}
		if err := NewDecoder(iotest.OneByteReader(strings.NewReader(in))).Decode(&got); err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("%s: Decode a byte at a time = %v, %v; want %v", name, got, err, want)
		}
	}
}

// TestAnyKeyStarts: records whose members are left out or come in a new
// order, so that keys miss their places' guesses and are found by their
// starts (keyStarts), decode in the one pass to encoding/json's values;
// keys that share their first bytes (id, idx, id_2, i) and keys in other
// cases are told apart; and after the first records the starts do find
// keys (a later record's members all found where they missed).
func TestAnyKeyStarts(t *testing.T) {
	keys := []string{"id", "idx", "id_2", "i", "name", "Name", "NAME", "city", "created_at", "a_key_past_thirteen"}
	r := rand.New(rand.NewPCG(41, 3))
	ds := statePool.New().(*decodeState)
	defer putState(ds)
	for round := range 200 {
		var b strings.Builder
		b.WriteString("[")
		for rec := range 8 {
			if rec > 0 {
				b.WriteString(",")
			}
			b.WriteString("{")
			first := true
			for _, k := range r.Perm(len(keys)) {
				if round%2 == 0 && r.IntN(2) == 0 {
					continue
				}
				if !first {
					b.WriteString(",")
				}
				first = false
				fmt.Fprintf(&b, "%q:%d", keys[k], r.IntN(100))
			}
			b.WriteString("}")
		}
		b.WriteString("]")
		in := []byte(b.String())
		var want any
		if err := stdjson.Unmarshal(in, &want); err != nil {
			t.Fatal(err)
		}
		got, ok := onePassOn(ds, in)
		if !ok || !reflect.DeepEqual(got, want) {
			t.Fatalf("round %d: unmarshalAny(%s) = %v, %v; want %v", round, in, got, ok, want)
		}
	}
	if !fastPaths {
		return // no guesses, and no starts, without the fast paths
	}
	found := 0
	for _, k := range keys {
		for _, st := range ds.keyStarts {
			if st.name == k {
				if len(k)+3 > 16 {
					t.Errorf("keyStarts holds %q, a key too long for shortAt to find", k)
				}
				found++
				break
			}
		}
	}
	if found < len(keys)/2 {
		t.Errorf("keyStarts holds %d of the %d keys after 200 rounds", found, len(keys))
	}
}

// TestScriptEscapes: strings of another script written in \u escapes
// (words of escapes one after another) turn on unescapeAt's loop for
// them (uScript), and strings of escapes in no order turn it off again;
// with surrogate pairs, lone surrogates, bad digits, one-letter escapes
// and the input's end among the words, typed and into any, the values
// and errors are encoding/json's either way.
func TestScriptEscapes(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	word := func(b *strings.Builder, script bool) {
		// (a word of script has six letters or more: five in six of its
		// escapes or more are followed by another)
		for n := 6 + r.IntN(10); n > 0; n-- {
			switch k := r.IntN(40); {
			case k == 0:
				b.WriteString(`\ud83d\ude00`)
			case k == 1:
				b.WriteString(`\ud800`)
			case k == 2:
				b.WriteString(`\udc00`)
			case k == 3 && !script:
				b.WriteString(`\u12G4`)
			case k == 4:
				b.WriteString(`\n`)
			case !script && k < 24:
				b.WriteByte(byte('a' + r.IntN(26)))
			default:
				fmt.Fprintf(b, `\u%04x`, []int{0x430, 0x627, 0x4e00, 0x3b1}[r.IntN(4)]+r.IntN(30))
			}
		}
	}
	ds := getState()
	defer putState(ds)
	for round := range 600 {
		script := round%100 < 70 // runs of script strings, then mixed ones
		var b strings.Builder
		b.WriteString(`["`)
		for w := 1 + r.IntN(6); w > 0; w-- {
			word(&b, script)
			b.WriteByte(' ')
		}
		b.WriteString(`", "x"]`)
		in := b.String()
		// cut first: the whole string, last, sets uScript
		for _, in := range []string{in[:len(in)-6-r.IntN(min(len(in)-6, 30))], in} {
			var want, got any
			werr := stdjson.Unmarshal([]byte(in), &want)
			gerr := ds.unmarshal([]byte(in), &got)
			if !sameError(gerr, werr) || !reflect.DeepEqual(got, want) {
				t.Fatalf("%q (uScript %v): Unmarshal into any = %q, %s; encoding/json %q, %s", in, ds.uScript, got, errString(gerr), want, errString(werr))
			}
			var wantS, gotS []string
			werr = stdjson.Unmarshal([]byte(in), &wantS)
			gerr = ds.unmarshal([]byte(in), &gotS)
			if !sameError(gerr, werr) || !reflect.DeepEqual(gotS, wantS) {
				t.Fatalf("%q (uScript %v): Unmarshal into []string = %q, %s; encoding/json %q, %s", in, ds.uScript, gotS, errString(gerr), wantS, errString(werr))
			}
		}
		if !fastPaths || unquote.HasKernel {
			// No one pass (no unescapeAt), or the kernel decodes the
			// escapes, and the guess serves only the loop without one
			// (the purego build tests it): the values alone.
			continue
		}
		if round%100 == 69 && !ds.uScript {
			t.Fatalf("round %d: uScript off after 70 strings of script", round)
		}
		if round%100 == 99 && ds.uScript {
			t.Fatalf("round %d: uScript on after 30 strings in no order", round)
		}
	}
}
