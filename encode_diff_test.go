package json

import (
	"bytes"
	stdjson "encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
)

// Differential testing of Marshal, MarshalIndent and Encoder against
// encoding/json: for every value the builders make (encode_builders_test.go),
// in every position (encForms) and every API and option (marshalModes), both
// packages must write the same bytes and return the same error (its type,
// its text, and the chain of errors it wraps, SyntaxError offsets included).
// Against the v2-backed encoding/json of Go 1.27 the comparison is reduced
// to what both promise (stdjson_marshal_contract_test.go).

// marshalAPI is one package's encoding entry points.
type marshalAPI struct {
	name          string
	marshal       func(any) ([]byte, error)
	marshalIndent func(any, string, string) ([]byte, error)
	// encode runs one Encoder over vs, set up as asked, and returns what
	// it wrote and each call's error.
	encode func(vs []any, escapeHTML bool, prefix, indent string) ([]byte, []error)
}

var ourMarshal = marshalAPI{"jsonpipe", Marshal, MarshalIndent,
	func(vs []any, escapeHTML bool, prefix, indent string) ([]byte, []error) {
		var buf bytes.Buffer
		enc := NewEncoder(&buf)
		enc.SetEscapeHTML(escapeHTML)
		if prefix != "" || indent != "" {
			enc.SetIndent(prefix, indent)
		}
		var errs []error
		for _, v := range vs {
			errs = append(errs, enc.Encode(v))
		}
		return buf.Bytes(), errs
	}}

var stdMarshal = marshalAPI{"encoding/json", stdjson.Marshal, stdjson.MarshalIndent,
	func(vs []any, escapeHTML bool, prefix, indent string) ([]byte, []error) {
		var buf bytes.Buffer
		enc := stdjson.NewEncoder(&buf)
		enc.SetEscapeHTML(escapeHTML)
		if prefix != "" || indent != "" {
			enc.SetIndent(prefix, indent)
		}
		var errs []error
		for _, v := range vs {
			errs = append(errs, enc.Encode(v))
		}
		return buf.Bytes(), errs
	}}

// A marshalResult is what one mode gives for one value.
type marshalResult struct {
	out  []byte
	errs []error
}

// marshalModes: Marshal, MarshalIndent with two prefix/indent pairs, and an
// Encoder with and without HTML escaping and indentation; "stream" encodes
// the value, then 1, then the value again with one Encoder, so that the
// state an error leaves behind is seen by the next call.
var marshalModes = []struct {
	name   string
	noHTML bool // SetEscapeHTML(false)
	run    func(api marshalAPI, v any) marshalResult
}{
	{"Marshal", false, func(api marshalAPI, v any) marshalResult {
		out, err := api.marshal(v)
		return marshalResult{out, []error{err}}
	}},
	{"MarshalIndent/tab", false, func(api marshalAPI, v any) marshalResult {
		out, err := api.marshalIndent(v, "", "\t")
		return marshalResult{out, []error{err}}
	}},
	{"MarshalIndent/prefix", false, func(api marshalAPI, v any) marshalResult {
		out, err := api.marshalIndent(v, "> ", "  ")
		return marshalResult{out, []error{err}}
	}},
	{"Encoder", false, func(api marshalAPI, v any) marshalResult {
		out, errs := api.encode([]any{v}, true, "", "")
		return marshalResult{out, errs}
	}},
	{"Encoder/noHTML", true, func(api marshalAPI, v any) marshalResult {
		out, errs := api.encode([]any{v}, false, "", "")
		return marshalResult{out, errs}
	}},
	{"Encoder/indent", false, func(api marshalAPI, v any) marshalResult {
		out, errs := api.encode([]any{v}, true, "\t", " ")
		return marshalResult{out, errs}
	}},
	{"Encoder/noHTML+indent", true, func(api marshalAPI, v any) marshalResult {
		out, errs := api.encode([]any{v}, false, "", "    ")
		return marshalResult{out, errs}
	}},
	{"Encoder/stream", false, func(api marshalAPI, v any) marshalResult {
		out, errs := api.encode([]any{v, 1, v}, true, "", "")
		return marshalResult{out, errs}
	}},
}

// encForms puts a value where the encoder treats it differently: as it is
// (not addressable), behind a pointer (addressable: pointer-receiver
// methods are called), as a slice element (addressable), as a map value
// and in an interface in a slice (neither).
var encForms = []struct {
	name string
	wrap func(v any) any
}{
	{"value", func(v any) any { return v }},
	{"pointer", func(v any) any {
		p := reflect.New(reflect.TypeOf(v))
		p.Elem().Set(reflect.ValueOf(v))
		return p.Interface()
	}},
	{"slice", func(v any) any {
		s := reflect.MakeSlice(reflect.SliceOf(reflect.TypeOf(v)), 1, 1)
		s.Index(0).Set(reflect.ValueOf(v))
		return s.Interface()
	}},
	{"mapValue", func(v any) any {
		m := reflect.MakeMap(reflect.MapOf(reflect.TypeFor[string](), reflect.TypeOf(v)))
		m.SetMapIndex(reflect.ValueOf("k"), reflect.ValueOf(v))
		return m.Interface()
	}},
	{"interface", func(v any) any { return []any{v} }},
}

// marshalErrString renders an error and each error it wraps: type, text,
// and a SyntaxError's Offset, which the text leaves out. Both packages'
// SyntaxError types print as *json.SyntaxError.
func marshalErrString(err error) string {
	if err == nil {
		return "<nil>"
	}
	var b strings.Builder
	for e := err; e != nil; e = errors.Unwrap(e) {
		if b.Len() > 0 {
			b.WriteString(" → ")
		}
		fmt.Fprintf(&b, "%T(%v)", e, e)
		switch se := e.(type) {
		case *SyntaxError:
			fmt.Fprintf(&b, "@%d", se.Offset)
		case *stdjson.SyntaxError:
			fmt.Fprintf(&b, "@%d", se.Offset)
		}
	}
	return b.String()
}

func marshalErrsString(errs []error) string {
	s := make([]string, len(errs))
	for i, err := range errs {
		s[i] = marshalErrString(err)
	}
	return strings.Join(s, "; ")
}

// diffMarshalValue compares every mode for v in every form, and returns the
// first difference, or "".
func diffMarshalValue(v any) string {
	if v == nil {
		return diffMarshalForm(nil, "nil")
	}
	for _, form := range encForms {
		if d := diffMarshalForm(form.wrap(v), form.name); d != "" {
			return d
		}
	}
	return ""
}

func diffMarshalForm(v any, form string) string {
	for _, mode := range marshalModes {
		want := mode.run(stdMarshal, v)
		got := mode.run(ourMarshal, v)
		if why := marshalDiffers(got, want, v, mode.noHTML); why != "" {
			return fmt.Sprintf("%s, %s (%T): %s\n got %q\n     %s\nwant %q\n     %s", form, mode.name, v, why,
				got.out, marshalErrsString(got.errs), want.out, marshalErrsString(want.errs))
		}
	}
	return ""
}

// encSeeds: the fixed inputs TestMarshalDiff and TestMarshalRoundTrip run
// every builder on, and FuzzMarshalDiff starts from: the empty input (every
// choice zero), every byte repeated (each choice of a small range in
// turn), and random bytes from a fixed source.
func encSeeds() [][]byte {
	var seeds [][]byte
	seeds = append(seeds, nil)
	for c := range 256 {
		if c < 40 || c%7 == 0 {
			seeds = append(seeds, bytes.Repeat([]byte{byte(c)}, 64))
		}
	}
	r := rand.New(rand.NewPCG(18, 2026))
	for range 64 {
		b := make([]byte, 16+r.IntN(200))
		for i := range b {
			b[i] = byte(r.Uint32())
		}
		seeds = append(seeds, b)
	}
	// Strings with every piece, and the marshalers' every mode.
	pieces := []byte{0x0d}
	for i := range strPieces {
		pieces = append(pieces, 0x80+byte(i))
	}
	seeds = append(seeds, pieces)
	for m := range encMarshalerModes {
		seeds = append(seeds, bytes.Repeat([]byte{byte(m), 12, 'a', '<', 0x80 + 29, '&', 0xff}, 20))
	}
	return seeds
}

// TestMarshalDiff runs every builder over encSeeds, so that go test alone
// covers what FuzzMarshalDiff starts from.
func TestMarshalDiff(t *testing.T) {
	seeds := encSeeds()
	for _, b := range encBuilders {
		t.Run(b.name, func(t *testing.T) {
			for i, seed := range seeds {
				v := b.build(&encFuzz{seed})
				if d := diffMarshalValue(v); d != "" {
					t.Errorf("seed %d %x:\n%s", i, seed, d)
				}
			}
		})
	}
}

// namedMarshalCases: hand-picked values, each the case a rule of
// encoding/json's encoder turns on, so that a failure names the rule.
func namedMarshalCases() []struct {
	name string
	v    any
} {
	f := func(b ...byte) *encFuzz { return &encFuzz{b} }
	var nilMap map[string]int
	var nilSlice []string
	var nilPtr *EncPtrM
	var nilIface fmt.Stringer
	return []struct {
		name string
		v    any
	}{
		{"nil", nil},
		{"nil map", nilMap},
		{"nil slice", nilSlice},
		{"nil pointer Marshaler", nilPtr},
		{"nil interface", nilIface},
		{"invalid UTF-8", "a\xffb\xc0\x80c\xed\xa0\x80d"},
		{"HTML", "<a href=\"x\">&amp;</a>"},
		{"U+2028 U+2029", "\u2028\u2029"},
		{"control characters", "\x00\x01\x07\x08\x09\x0a\x0b\x0c\x0d\x1b\x1f\x7f"},
		{"NaN", struct{ F float64 }{f(byte(len(floatPalette) - 1)).float64()}},
		{"+Inf float32", f(byte(len(floatPalette) - 3)).float32()},
		{"1e21", 1e21},
		{"1e-7", 1e-7},
		{"float32 1e-7", float32(1e-7)},
		// float32 and int32 as the loops over fields and elements write
		// them (encFloat32, encInt32), the errors by the type's encoder
		{"float32 fields", struct {
			A    float32
			P, Q *float32
			S    []float32
			M    map[string]float32
		}{1.5, new(float32(0.1)), nil, []float32{1, 1e-7, 3.4e38, -0.25}, map[string]float32{"a": 16777216}}},
		{"float32 field +Inf", struct{ F float32 }{f(byte(len(floatPalette) - 3)).float32()}},
		{"float32 pointer NaN", struct{ P *float32 }{new(f(byte(len(floatPalette) - 1)).float32())}},
		{"float32 slice NaN", []float32{1, f(byte(len(floatPalette) - 1)).float32()}},
		{"int32 fields", struct {
			A, B, C, D int32
			P, Q       *int32
			S          []int32
		}{0, 999, 1000, -2147483648, new(int32(-1)), nil, []int32{7, -7, 2147483647}}},
		{"-0", f(1).float64()},
		{"int64 min", int64(-1 << 63)},
		{"uint64 max", ^uint64(0)},
		{"Number empty", Number("")},
		{"Number invalid", Number("1.")},
		{"Number fields", struct {
			A, B, C, D Number
			P, Q       *Number
		}{"12", "", "-0.5e+3", "0", new(Number("7")), nil}},
		{"Number field invalid", struct{ A, B Number }{"1", "01"}},
		{"Number pointer field invalid", struct{ P *Number }{new(Number("1e"))}},
		{"Number slice invalid", []Number{"1", "x"}},
		{"Number ,string", struct {
			N Number `json:",string"`
		}{"12"}},
		{"RawMessage nil", RawMessage(nil)},
		{"RawMessage spaces and HTML", RawMessage(" { \"a\" : \"<&>\" } ")},
		{"RawMessage invalid", RawMessage(`{"a":}`)},
		{"RawMessage empty", RawMessage{}},
		{"Marshaler spaces", EncValM{Mode: 1}},
		{"Marshaler invalid", EncValM{Mode: 2}},
		{"Marshaler error", EncValM{Mode: 3}},
		{"Marshaler empty", EncValM{Mode: 4}},
		{"Marshaler invalid UTF-8 raw", EncValM{Mode: 9, S: "\xff"}},
		{"pointer Marshaler by value", EncPtrM{Mode: 1}},
		{"pointer Marshaler addressable", &EncPtrM{Mode: 1}},
		{"TextMarshaler error", EncValT{Mode: 2}},
		{"TextMarshaler invalid UTF-8", EncValT{Mode: 4}},
		{"string kind TextMarshaler key", map[encTextStr]int{"k": 1}},
		{"int kind TextMarshaler key", map[encTextInt]int{-3: 1, 20: 2}},
		{"nil TextMarshaler key", map[*encTextPtr]int{nil: 1, {"a"}: 2}},
		{"TextMarshaler key error", map[encTextErr]int{1: 1}},
		{"key error before value error", map[encTextErr]EncValM{1: {Mode: 3}}},
		{"map keys sorted as bytes", map[string]int{"b": 1, "a": 2, "\xff": 3, "é": 4, "Z": 5, "": 6, "aa": 7}},
		{"int keys sorted as strings", map[int]int{10: 1, 9: 2, -1: 3, 100: 4}},
		{"byte slice", []byte("hello, <world>")},
		{"named byte slice", encBytes("x")},
		{"bytes with MarshalJSON", []encByteM{1, 2}},
		{"embedded time", encTimeEmbed{encTimes[2], 1}},
		{"time year 10000", encTimes[4]},
		{"omitzero IsZero", encOmitZero{ZV: encZeroVal{1}, ZP: encZeroPtr{2}}},
		{"chan", make(chan int)},
		{"map chan values empty", map[string]chan int{}},
		{"func field skipped", encTags{Ch: make(chan int)}},
		// the struct encoder keeps a second field table only from the
		// first name that HTML escaping changes
		{"HTML field name after plain ones", struct {
			A, B int
			C    string `json:"c<&>"`
			D    bool
		}{1, 2, "x", true}},
		{"HTML field name first", struct {
			A int `json:"&"`
			B string
		}{1, "y"}},
		{"field names of 32 and 33 bytes", struct {
			A int    `json:"abcdefghijklmnopqrstuvwxyz0123"`
			B string `json:"abcdefghijklmnopqrstuvwxyz01234"`
			C bool   `json:"abcdefghijklmnopqrstuvwxyz<>"`
		}{1, "z", false}},
	}
}

// TestMarshalDiffNamed runs namedMarshalCases in every position and mode.
func TestMarshalDiffNamed(t *testing.T) {
	tests := namedMarshalCases()
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if d := diffMarshalValue(tc.v); d != "" {
				t.Error(d)
			}
		})
	}
}

// TestMarshalDiffers checks the comparison itself: it must report a
// difference of one byte, of an error's text and of a wrapped SyntaxError's
// offset, so that the differential tests, which pass trivially while
// Marshal forwards to encoding/json, fail on any difference once it does
// not.
func TestMarshalDiffers(t *testing.T) {
	synErr := func(off int64) error {
		return &MarshalerError{Type: reflect.TypeFor[EncValM](), Err: &SyntaxError{msg: "unexpected end of JSON input", Offset: off}}
	}
	want := marshalResult{[]byte(`{"a":"<"}`), []error{nil}}
	tests := []struct {
		name    string
		got     marshalResult
		classic bool // a difference only the classic comparison sees
	}{
		{"one byte", marshalResult{[]byte(`{"a":"="}`), []error{nil}}, false},
		{"escape", marshalResult{[]byte(`{"a":"\u003c"}`), []error{nil}}, false},
		{"an error", marshalResult{nil, []error{&UnsupportedValueError{Str: "NaN"}}}, false},
		{"one more call", marshalResult{[]byte(`{"a":"<"}`), []error{nil, nil}}, false},
	}
	for _, tc := range tests {
		if why := marshalDiffers(tc.got, want, nil, false); why == "" && (stdClassic || !tc.classic) {
			t.Errorf("%s: no difference reported", tc.name)
		}
	}
	a := marshalResult{nil, []error{synErr(0)}}
	for _, got := range []marshalResult{{nil, []error{synErr(3)}}, {nil, []error{&MarshalerError{Type: reflect.TypeFor[EncValM](), Err: errors.New("x")}}}} {
		if why := marshalDiffers(got, a, nil, false); why == "" && stdClassic {
			t.Errorf("%s against %s: no difference reported", marshalErrsString(got.errs), marshalErrsString(a.errs))
		}
	}
}

// TestV2BytesDiffer checks the reduced comparison used against the
// v2-backed encoding/json (stdjson_marshal_contract_test.go) on both
// toolchains: it forgives the contract's differences 1 to 3 and nothing
// else.
func TestV2BytesDiffer(t *testing.T) {
	tests := []struct {
		name             string
		classic, v2      string
		noHTML, forgiven bool
	}{
		{"invalid UTF-8", `"a\ufffdb"`, "\"a\ufffdb\"", false, true},
		{"invalid UTF-8 ,string", `{"S":"\"\\ufffd\""}`, "{\"S\":\"\\\"\ufffd\\\"\"}", false, true},
		{"escaped backslash then \\ufffd", `"\\\ufffd"`, "\"\\\\\ufffd\"", false, true},
		{"MarshalJSON's U+2028 without HTML escaping", "[\"\u2028\"]\n", "[\"\\u2028\"]\n", true, true},
		{"U+2028 with HTML escaping", "[\"\u2028\"]\n", "[\"\\u2028\"]\n", false, false},
		{"keys sorted apart", `{"\ufffd\u0000":2,"\ufffd":1}`, "{\"\ufffd\":1,\"\ufffd\\u0000\":2}", false, true},
		{"keys that became one", `{"\ufffd":2,"\ufffd":1}`, "{\"\ufffd\":1,\"\ufffd\":2}", false, true},
		{"keys sorted apart, indented with a prefix", "{\n>   \"\\ufffd\\u0000\": 2,\n>   \"\\ufffd\": 1\n> }", "{\n>   \"\ufffd\": 1,\n>   \"\ufffd\\u0000\": 2\n> }", false, true},
		{"another value", `{"\ufffd":2}`, "{\"\ufffd\":3}", false, false},
		{"another escape", `"\u003c"`, `"<"`, false, false},
		{"U+FFFD for another character", `"\ufffd"`, `"x"`, false, false},
	}
	for _, tc := range tests {
		if why := v2BytesDiffer([]byte(tc.classic), []byte(tc.v2), tc.noHTML); (why == "") != tc.forgiven {
			t.Errorf("%s: %q against %q: %q, want forgiven %v", tc.name, tc.classic, tc.v2, why, tc.forgiven)
		}
	}
}

// storedIndirect and the in-place path of encodeAny on every shape of
// value an interface can hold: pointer-shaped types (held in the data word
// itself), zero-size ones, and the rest, each compared with encoding/json
// and with the same value reached through a pointer.
func TestEncodeInterfaceShapes(t *testing.T) {
	n := 7
	type onePtr struct{ P *int }
	type oneMap struct{ M map[string]int }
	type nested struct{ In onePtr }
	type twoWords struct {
		P *int
		S string
	}
	type empty struct{}
	type withEmpty struct {
		A empty
		N int
	}
	cases := []struct {
		v        any
		indirect bool
	}{
		{onePtr{&n}, false},
		{onePtr{}, false},
		{oneMap{map[string]int{"k": 1}}, false},
		{nested{onePtr{&n}}, false},
		{[1]*int{&n}, false},
		{[1]onePtr{{&n}}, false},
		{twoWords{&n, "s"}, true},
		{empty{}, true},
		{[0]int{}, true},
		{withEmpty{N: 3}, true},
		{[2]*int{&n, nil}, true},
		{[3]int{1, 2, 3}, true},
		{RawMessage(`[1, 2]`), true},
		{struct{ A, B int }{1, 2}, true},
	}
	for _, c := range cases {
		typ := reflect.TypeOf(c.v)
		if got := storedIndirect(typ); got != c.indirect {
			t.Errorf("storedIndirect(%v) = %v, want %v", typ, got, c.indirect)
		}
		want, err := stdjson.Marshal(c.v)
		if err != nil {
			t.Fatal(err)
		}
		p := reflect.New(typ)
		p.Elem().Set(reflect.ValueOf(c.v))
		for _, v := range []any{c.v, p.Interface(), []any{c.v}, map[string]any{"k": c.v}} {
			wantV, _ := stdjson.Marshal(v)
			got, err := Marshal(v)
			if err != nil || !bytes.Equal(got, wantV) {
				t.Errorf("Marshal(%#v) = %s, %v; want %s", v, got, err, wantV)
			}
		}
		if len(want) == 0 {
			t.Errorf("%v: encoding/json wrote nothing", typ)
		}
	}
}

// plainInteger against the full grammar (isValidNumber): it may say no to
// a valid number, never yes to an invalid one.
func TestPlainInteger(t *testing.T) {
	for _, s := range append([]string{"0", "7", "10", "999999999999999999999", "00", "01", "-1", "1.5", "1e3", " 1", "1 ", "+1", "", "1a", "١"}, func() []string {
		var ns []string
		for _, n := range encNumbers {
			ns = append(ns, string(n))
		}
		return ns
	}()...) {
		if plainInteger(s) && !isValidNumber(s) {
			t.Errorf("plainInteger(%q) but not a valid number", s)
		}
		if want := s != "" && strings.Trim(s, "0123456789") == "" && (s[0] != '0' || len(s) == 1); plainInteger(s) != want {
			t.Errorf("plainInteger(%q) = %v, want %v", s, plainInteger(s), want)
		}
	}
}
