//go:build goexperiment.jsonv2 && go1.27

package json

import (
	"bytes"
	"encoding"
	stdjson "encoding/json"
	"encoding/json/jsontext"
	jsonv2 "encoding/json/v2"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"
	"testing"
)

// Differential tests of MarshalJSONTo and UnmarshalJSONFrom (jsonto_go127.go)
// against the toolchain's encoding/json, which calls them where it is built
// on encoding/json/v2. Unlike the rest of the differential tests on this
// toolchain (stdjson_contract_test.go), these compare everything: jsonpipe
// follows this encoding/json for such types, so the bytes, the values, the
// errors' types and texts and SyntaxError offsets must all be the same.

// Types whose MarshalJSONTo does one thing each.
type (
	toVal   struct{ N int }    // value receiver: N as a number
	toPtr   struct{ N int }    // pointer receiver: N as a number
	toBoth  struct{ N int }    // MarshalJSON "v1", MarshalJSONTo "v2"
	toMixed struct{ N int }    // MarshalJSON "v1" (value), MarshalJSONTo "v2" (pointer)
	toText  struct{ N int }    // MarshalText "text", MarshalJSONTo "to"
	toKey   string             // string kind with MarshalJSONTo, as a map key
	toInt   int                // int kind, with ,string
	toTwo   struct{}           // writes 1 and 2, ignoring errors
	toTwoE  struct{}           // writes 1 and 2, returning the second's error
	toTwoS  struct{}           // writes 1 and "s", ignoring errors
	toNone  struct{}           // writes nothing
	toFail  struct{}           // returns an error
	toFailW struct{}           // writes a value, then returns an error
	toClose struct{}           // writes ']', closing what it is in
	toOpen  struct{}           // writes '[' and returns
	toBad   struct{}           // WriteValue of invalid JSON, returning the error
	toHTML  struct{}           // a string with HTML and U+2028
	toUTF8  struct{}           // a string with invalid UTF-8
	toRaw   struct{}           // WriteValue with spaces
	toDeep  struct{ In []any } // MarshalEncode of its contents
	toSem   struct{}           // returns a *jsonv2.SemanticError
	toNilOK struct{ N int }    // pointer receiver that handles a nil receiver
	toEmpty struct{ A []int }  // omitempty and omitzero
)

// A byte type with MarshalJSONTo, and structs that embed such types.
type (
	toByte     byte
	toEmbedVal struct {
		toVal
		X int
	}
	toEmbedPtr struct {
		*toNilOK
		X int
	}
	toEmbedTwo struct { // two at one depth: neither is promoted
		toVal
		toBoth
	}
)

// Map and slice kinds with MarshalJSONTo.
type (
	toMap   map[string]int
	toSlice []int
)

func (m toMap) MarshalJSONTo(e *jsontext.Encoder) error {
	return e.WriteToken(jsontext.Int(int64(len(m))))
}
func (s *toSlice) MarshalJSONTo(e *jsontext.Encoder) error {
	if *s == nil {
		return e.WriteToken(jsontext.String("nil slice"))
	}
	return e.WriteToken(jsontext.Int(int64(len(*s))))
}

func (b toByte) MarshalJSONTo(e *jsontext.Encoder) error {
	return e.WriteToken(jsontext.Int(int64(b) + 100))
}

// On Go 1.27, errors.ErrUnsupported falls back to the next representation.
type (
	toUnsup     struct{ A, B int } // nothing written: the struct
	toUnsupJSON struct{ A int }    // nothing written: its MarshalJSON
	toUnsupText struct{ A int }    // nothing written: its MarshalText
	toUnsupW    struct{}           // written, then ErrUnsupported
)

func (v toVal) MarshalJSONTo(e *jsontext.Encoder) error {
	return e.WriteToken(jsontext.Int(int64(v.N)))
}
func (p *toPtr) MarshalJSONTo(e *jsontext.Encoder) error {
	return e.WriteToken(jsontext.Int(int64(p.N)))
}
func (toBoth) MarshalJSON() ([]byte, error)              { return []byte(`"v1"`), nil }
func (toBoth) MarshalJSONTo(e *jsontext.Encoder) error   { return e.WriteToken(jsontext.String("v2")) }
func (toMixed) MarshalJSON() ([]byte, error)             { return []byte(`"v1"`), nil }
func (*toMixed) MarshalJSONTo(e *jsontext.Encoder) error { return e.WriteToken(jsontext.String("v2")) }
func (toText) MarshalText() ([]byte, error)              { return []byte("text"), nil }
func (toText) MarshalJSONTo(e *jsontext.Encoder) error   { return e.WriteToken(jsontext.String("to")) }
func (k toKey) MarshalJSONTo(e *jsontext.Encoder) error {
	return e.WriteToken(jsontext.String("K" + string(k)))
}
func (i toInt) MarshalJSONTo(e *jsontext.Encoder) error {
	s, _ := jsonv2.GetOption(e.Options(), jsonv2.StringifyNumbers)
	_ = s // what a ,string field tells the method is not reproduced (README)
	return e.WriteToken(jsontext.Int(int64(i) * 10))
}

func (toTwo) MarshalJSONTo(e *jsontext.Encoder) error {
	e.WriteToken(jsontext.Int(1))
	e.WriteToken(jsontext.Int(2))
	return nil
}

func (toTwoE) MarshalJSONTo(e *jsontext.Encoder) error {
	if err := e.WriteToken(jsontext.Int(1)); err != nil {
		return err
	}
	return e.WriteToken(jsontext.Int(2))
}

func (toTwoS) MarshalJSONTo(e *jsontext.Encoder) error {
	e.WriteToken(jsontext.Int(1))
	e.WriteToken(jsontext.String("s"))
	return nil
}

func (toNone) MarshalJSONTo(e *jsontext.Encoder) error { return nil }
func (toFail) MarshalJSONTo(e *jsontext.Encoder) error { return errors.New("boom") }
func (toFailW) MarshalJSONTo(e *jsontext.Encoder) error {
	e.WriteToken(jsontext.True)
	return errors.New("boom after")
}
func (toClose) MarshalJSONTo(e *jsontext.Encoder) error { return e.WriteToken(jsontext.EndArray) }
func (toOpen) MarshalJSONTo(e *jsontext.Encoder) error  { return e.WriteToken(jsontext.BeginArray) }
func (toBad) MarshalJSONTo(e *jsontext.Encoder) error   { return e.WriteValue(jsontext.Value(`[1,,2]`)) }
func (toHTML) MarshalJSONTo(e *jsontext.Encoder) error {
	return e.WriteToken(jsontext.String("<a href=\"x\">&\u2028\u2029</a>"))
}
func (toUTF8) MarshalJSONTo(e *jsontext.Encoder) error {
	return e.WriteToken(jsontext.String("a\xffb\xed\xa0\x80c"))
}
func (toRaw) MarshalJSONTo(e *jsontext.Encoder) error {
	return e.WriteValue(jsontext.Value(" { \"a\" : [ 1 , \"<\" ] , \"b\" : { } } "))
}
func (d toDeep) MarshalJSONTo(e *jsontext.Encoder) error { return jsonv2.MarshalEncode(e, d.In) }
func (toSem) MarshalJSONTo(e *jsontext.Encoder) error {
	return &jsonv2.SemanticError{JSONKind: '"', GoType: reflect.TypeFor[int](), Err: errors.New("not this")}
}
func (p *toNilOK) MarshalJSONTo(e *jsontext.Encoder) error {
	if p == nil {
		return e.WriteToken(jsontext.String("nil receiver"))
	}
	return e.WriteToken(jsontext.Int(int64(p.N)))
}
func (v toEmpty) MarshalJSONTo(e *jsontext.Encoder) error {
	return e.WriteToken(jsontext.Int(int64(len(v.A))))
}

func (toUnsup) MarshalJSONTo(e *jsontext.Encoder) error { return errors.ErrUnsupported }
func (toUnsupJSON) MarshalJSONTo(e *jsontext.Encoder) error {
	return fmt.Errorf("no: %w", errors.ErrUnsupported)
}
func (toUnsupJSON) MarshalJSON() ([]byte, error) { return []byte(`"from MarshalJSON"`), nil }
func (*toUnsupText) MarshalJSONTo(e *jsontext.Encoder) error {
	return errors.ErrUnsupported
}
func (toUnsupText) MarshalText() ([]byte, error) { return []byte("from MarshalText"), nil }
func (toUnsupW) MarshalJSONTo(e *jsontext.Encoder) error {
	e.WriteToken(jsontext.Null)
	return errors.ErrUnsupported
}

// An interface with MarshalJSONTo beside another method.
type toIface interface {
	jsonv2.MarshalerTo
	Name() string
}

func (toVal) Name() string { return "toVal" }

// marshalToCases are run by TestMarshalToDiff in every position (encForms:
// as they are, behind a pointer, in a slice, as a map value, in an
// interface) and every mode (marshalModes).
func marshalToCases() []struct {
	name string
	v    any
} {
	return []struct {
		name string
		v    any
	}{
		{"value receiver", toVal{1}},
		{"pointer receiver", toPtr{2}},
		{"nil pointer", (*toVal)(nil)},
		{"nil pointer, pointer receiver", (*toPtr)(nil)},
		{"both methods", toBoth{}},
		{"MarshalJSON by value, MarshalJSONTo by pointer", toMixed{}},
		{"MarshalText too", toText{}},
		{"struct fields", struct {
			A toVal
			B toPtr
			C *toPtr
			D *toVal
			E toMixed
			F toBoth  `json:"f,omitempty"`
			G toEmpty `json:",omitempty"`
			H toEmpty `json:",omitzero"`
			I toInt   `json:",string"`
			J *toInt  `json:",string"`
		}{A: toVal{1}, B: toPtr{2}, C: &toPtr{3}, I: 4}},
		{"slices and arrays", struct {
			S []toPtr
			P []*toPtr
			A [2]toPtr
			M []toMixed
			E []toVal
		}{S: []toPtr{{1}, {2}}, P: []*toPtr{{3}, nil}, A: [2]toPtr{{4}, {5}}, M: make([]toMixed, 2), E: []toVal{}}},
		{"map values", map[string]toPtr{"a": {1}, "b": {2}}},
		{"map of pointers", map[string]*toPtr{"a": {1}, "b": nil}},
		{"map of mixed", map[string]toMixed{"a": {}}},
		{"map keys with MarshalText", map[toText]int{{1}: 1}},
		{"map keys of string kind", map[toKey]toKey{"a": "b", "c": "d"}},
		{"interface MarshalerTo holding a nil pointer", struct{ M jsonv2.MarshalerTo }{(*toNilOK)(nil)}},
		{"interface MarshalerTo holding values", []jsonv2.MarshalerTo{toVal{1}, &toPtr{2}, nil, toBoth{}}},
		{"interface with MarshalJSONTo and more", struct{ I toIface }{toVal{7}}},
		{"Marshaler interface holding both", struct{ M stdjson.Marshaler }{toBoth{}}},
		{"Marshaler interface holding MarshalJSONTo on a pointer", []stdjson.Marshaler{toMixed{}, &toMixed{}}},
		{"TextMarshaler interface holding both", struct{ T encoding.TextMarshaler }{toText{}}},
		{"Stringer holding MarshalJSONTo", struct{ S fmt.Stringer }{toStringer{}}},
		{"writes two values", toTwo{}},
		{"writes two values in a struct", struct{ X toTwo }{}},
		{"writes two values in a struct, second error", struct{ X toTwoE }{}},
		{"writes a number and a string in a struct", struct{ X, Y toTwoS }{}},
		{"writes two values, second error", toTwoE{}},
		{"writes nothing", toNone{}},
		{"error", toFail{}},
		{"error after a value", toFailW{}},
		{"error in a struct after others", struct {
			A int
			B []toFail
		}{1, []toFail{{}}}},
		{"closes the array around it", []any{1, toClose{}}},
		{"closes nothing", toClose{}},
		{"opens an array", toOpen{}},
		{"invalid raw value", struct {
			A string
			B toBad
		}{"xyz", toBad{}}},
		{"HTML and U+2028", toHTML{}},
		{"invalid UTF-8", toUTF8{}},
		{"raw value with spaces", toRaw{}},
		{"nested MarshalEncode", toDeep{[]any{1, "<x>", toVal{2}, &toPtr{3}, map[string]any{"b": toBoth{}, "a": []toMixed{{}}}, EncValM{Mode: 1}}}},
		{"SemanticError", toSem{}},
		{"ErrUnsupported: the struct", toUnsup{1, 2}},
		{"ErrUnsupported: MarshalJSON", toUnsupJSON{3}},
		{"ErrUnsupported: MarshalText", toUnsupText{4}},
		{"ErrUnsupported after a write", toUnsupW{}},
		{"bytes with MarshalJSONTo", struct {
			S []toByte
			A [2]toByte
		}{[]toByte{1, 2}, [2]toByte{3, 4}}},
		{"map and slice kinds", struct {
			M, N toMap
			S, T toSlice
		}{M: toMap{"a": 1}, S: toSlice{1, 2}}},
		{"embedded, promoted", toEmbedVal{toVal{1}, 2}},
		{"embedded pointer, promoted", []toEmbedPtr{{&toNilOK{3}, 4}, {nil, 5}}},
		{"embedded twice, not promoted", toEmbedTwo{toVal{6}, toBoth{7}}},
		{"embedded Number", struct{ Number }{"12"}},
		{"Number", struct {
			N Number
			P *Number
		}{"1.5", nil}},
	}
}

type toStringer struct{}

func (toStringer) String() string { return "s" }
func (toStringer) MarshalJSONTo(e *jsontext.Encoder) error {
	return e.WriteToken(jsontext.String("to"))
}

// exactMarshalDiff compares every mode for v in every position, in full,
// and returns the first difference, or "".
func exactMarshalDiff(v any) string {
	for _, form := range encForms {
		w := form.wrap(v)
		for _, mode := range marshalModes {
			want := mode.run(stdMarshal, w)
			got := mode.run(ourMarshal, w)
			if !bytes.Equal(got.out, want.out) || marshalErrsString(got.errs) != marshalErrsString(want.errs) {
				return fmt.Sprintf("%s, %s (%T):\n got %q\n     %s\nwant %q\n     %s", form.name, mode.name, w,
					got.out, marshalErrsString(got.errs), want.out, marshalErrsString(want.errs))
			}
		}
	}
	return ""
}

func TestMarshalToDiff(t *testing.T) {
	for _, tc := range marshalToCases() {
		t.Run(tc.name, func(t *testing.T) {
			if d := exactMarshalDiff(tc.v); d != "" {
				t.Error(d)
			}
		})
	}
}

// TestMarshalToPinned pins what the differential test compares, so that it
// cannot pass by both sides ignoring the methods.
func TestMarshalToPinned(t *testing.T) {
	tests := []struct {
		v    any
		want string
	}{
		{toVal{1}, `1`},
		{toPtr{2}, `{"N":2}`},
		{&toPtr{2}, `2`},
		{toBoth{}, `"v2"`},
		{[]toMixed{{}}, `["v2"]`},
		{map[string]toMixed{"a": {}}, `{"a":"v1"}`},
		{map[toText]toKey{{}: "x"}, `{"text":"Kx"}`},
		{struct{ X toTwo }{}, `{"X":1}`},
		{toTwo{}, `json: error calling MarshalJSONTo for type *json.toTwo: must read or write exactly one value`},
		{toFail{}, `json: error calling MarshalJSONTo for type *json.toFail: boom`},
		{struct{ M jsonv2.MarshalerTo }{(*toNilOK)(nil)}, `{"M":"nil receiver"}`},
	}
	for _, tc := range tests {
		b, err := Marshal(tc.v)
		got := string(b)
		if err != nil {
			got = err.Error()
		}
		if got != tc.want {
			t.Errorf("Marshal(%#v) = %s, want %s", tc.v, got, tc.want)
		}
	}
	// A SyntacticError from the method: offset in the whole output.
	_, err := Marshal(struct {
		A string
		B toTwoE
	}{"xyz", toTwoE{}})
	var se *SyntaxError
	if !errors.As(err, &se) {
		t.Fatalf("error %v (%T), want a *MarshalerError wrapping a *SyntaxError", err, err)
	}
	_, werr := stdjson.Marshal(struct {
		A string
		B toTwoE
	}{"xyz", toTwoE{}})
	var wse *stdjson.SyntaxError
	if !errors.As(werr, &wse) || se.Offset != wse.Offset || se.Error() != wse.Error() {
		t.Errorf("SyntaxError %q at %d, encoding/json's %v", se, se.Offset, werr)
	}
}

// Types whose UnmarshalJSONFrom does one thing each.
type (
	fromVal     struct{ S string } // records the value it read
	fromBoth    struct{ S string } // UnmarshalJSON "v1:", UnmarshalJSONFrom "v2:"
	fromText    struct{ S string } // UnmarshalText "text:", UnmarshalJSONFrom "from:"
	fromKey     string             // string kind with UnmarshalJSONFrom, as a map key
	fromLess    struct{ S string } // reads one token
	fromNone    struct{}           // reads nothing
	fromFail    struct{}           // reads the value, returns an error
	fromFailN   struct{}           // returns an error without reading
	fromSyn     struct{}           // reads '{', then ReadValue: a SyntacticError at '}'
	fromSem     struct{}           // reads the value, returns a *jsonv2.SemanticError
	fromSemPtr  struct{}           // the same, with a JSON pointer
	fromAny     struct{ S string } // UnmarshalDecode into an any: the number's type
	fromStrict  struct{ Err string }
	fromUnsup   struct{ A int } // ErrUnsupported, nothing read: the struct
	fromUnsupJ  struct{ S string }
	fromUnsupT  struct{ S string }
	fromUnsupR  struct{ S string } // ErrUnsupported after reading
	fromUnsupNu struct{ A int }    // ErrUnsupported: a type error in the fallback
)

// A byte type with UnmarshalJSONFrom; a struct embedding fromVal; a method
// that reads two values.
type (
	fromByte  byte
	fromEmbed struct {
		fromVal
		X int
	}
	fromMore struct{ S string }
)

func (b *fromByte) UnmarshalJSONFrom(d *jsontext.Decoder) error {
	v, err := d.ReadValue()
	*b = fromByte(len(v))
	return err
}

func (f *fromMore) UnmarshalJSONFrom(d *jsontext.Decoder) error {
	for range 2 {
		v, err := d.ReadValue()
		if err != nil {
			return err
		}
		f.S += string(v) + "|"
	}
	return nil
}

func (f *fromVal) UnmarshalJSONFrom(d *jsontext.Decoder) error {
	v, err := d.ReadValue()
	f.S = "from:" + string(v)
	return err
}
func (f *fromBoth) UnmarshalJSON(b []byte) error { f.S = "v1:" + string(b); return nil }
func (f *fromBoth) UnmarshalJSONFrom(d *jsontext.Decoder) error {
	v, err := d.ReadValue()
	f.S = "v2:" + string(v)
	return err
}
func (f *fromText) UnmarshalText(b []byte) error { f.S = "text:" + string(b); return nil }
func (f *fromText) UnmarshalJSONFrom(d *jsontext.Decoder) error {
	v, err := d.ReadValue()
	f.S = "from:" + string(v)
	return err
}
func (k *fromKey) UnmarshalJSONFrom(d *jsontext.Decoder) error {
	v, err := d.ReadValue()
	*k = fromKey("K" + string(v))
	return err
}
func (f *fromLess) UnmarshalJSONFrom(d *jsontext.Decoder) error {
	t, err := d.ReadToken()
	f.S = t.String()
	return err
}
func (*fromNone) UnmarshalJSONFrom(d *jsontext.Decoder) error { return nil }
func (*fromFail) UnmarshalJSONFrom(d *jsontext.Decoder) error {
	if err := d.SkipValue(); err != nil {
		return err
	}
	return errors.New("boom")
}
func (*fromFailN) UnmarshalJSONFrom(d *jsontext.Decoder) error {
	return errors.New("boom, nothing read")
}
func (*fromSyn) UnmarshalJSONFrom(d *jsontext.Decoder) error {
	if _, err := d.ReadToken(); err != nil {
		return err
	}
	_, err := d.ReadValue()
	return err
}
func (*fromSem) UnmarshalJSONFrom(d *jsontext.Decoder) error {
	d.SkipValue()
	return &jsonv2.SemanticError{JSONKind: '0', JSONValue: jsontext.Value("12"), GoType: reflect.TypeFor[string](), ByteOffset: 3, Err: errors.New("bad")}
}
func (*fromSemPtr) UnmarshalJSONFrom(d *jsontext.Decoder) error {
	d.SkipValue()
	return &jsonv2.SemanticError{JSONKind: '"', GoType: reflect.TypeFor[bool](), JSONPointer: "/a/0", Err: errors.New("bad")}
}
func (f *fromAny) UnmarshalJSONFrom(d *jsontext.Decoder) error {
	var x any
	err := jsonv2.UnmarshalDecode(d, &x)
	f.S = fmt.Sprintf("%T %v", x, x)
	return err
}
func (f *fromStrict) UnmarshalJSONFrom(d *jsontext.Decoder) error {
	var x struct{ A int }
	err := jsonv2.UnmarshalDecode(d, &x)
	if err != nil {
		f.Err = err.Error()
	}
	return nil
}
func (*fromUnsup) UnmarshalJSONFrom(d *jsontext.Decoder) error { return errors.ErrUnsupported }
func (*fromUnsupJ) UnmarshalJSONFrom(d *jsontext.Decoder) error {
	return fmt.Errorf("later: %w", errors.ErrUnsupported)
}
func (f *fromUnsupJ) UnmarshalJSON(b []byte) error              { f.S = "v1:" + string(b); return nil }
func (*fromUnsupT) UnmarshalJSONFrom(d *jsontext.Decoder) error { return errors.ErrUnsupported }
func (f *fromUnsupT) UnmarshalText(b []byte) error              { f.S = "text:" + string(b); return nil }
func (*fromUnsupR) UnmarshalJSONFrom(d *jsontext.Decoder) error {
	d.ReadToken()
	return errors.ErrUnsupported
}
func (*fromUnsupNu) UnmarshalJSONFrom(d *jsontext.Decoder) error { return errors.ErrUnsupported }

// unmarshalFromCases: an input and a function making a fresh target for it.
func unmarshalFromCases() []struct {
	name string
	in   string
	new  func() any
} {
	type named struct {
		A fromSemPtr
		B int
	}
	return []struct {
		name string
		in   string
		new  func() any
	}{
		{"top level", ` {"a": [1, 2]} `, func() any { return new(fromVal) }},
		{"null", `null`, func() any { return new(fromVal) }},
		{"pointer to pointer", `"x"`, func() any { return new(*fromVal) }},
		{"pointer to pointer, null", `null`, func() any { p := &fromVal{"old"}; return &p }},
		{"both methods", `"s"`, func() any { return new(fromBoth) }},
		{"UnmarshalText too", `"s"`, func() any { return new(fromText) }},
		{"struct fields", `{"A":{"x":[1,{}]},"B":null,"C":null,"D":"d","E":[true]}`, func() any {
			return new(struct {
				A, B fromVal
				C, D *fromVal
				E    fromBoth
			})
		}},
		{"slices", `[[1,2],"x",null,{}]`, func() any { return new([]fromVal) }},
		{"slice of pointers", `[1,null,{"a":"b"}]`, func() any { return new([]*fromVal) }},
		{"array", `[1,2,3]`, func() any { return new([2]fromVal) }},
		{"map values", `{"b":1,"a":[2]}`, func() any { return new(map[string]fromVal) }},
		{"map keys with UnmarshalText", `{"k":1}`, func() any { return new(map[fromText]int) }},
		{"map keys of string kind", `{"k":"v"}`, func() any { return new(map[fromKey]fromKey) }},
		{"interface holding a pointer", `"x"`, func() any { var x any = &fromVal{}; return &x }},
		{"interface holding a value", `"x"`, func() any { var x any = fromVal{}; return &x }},
		{"UnmarshalerFrom field holding a pointer", `{"U":[1]}`, func() any {
			return &struct{ U jsonv2.UnmarshalerFrom }{&fromVal{}}
		}},
		{"pointer to pointer field", `{"P":{"a":1},"Q":null}`, func() any {
			return new(struct{ P, Q **fromVal })
		}},
		{"reads one token", `[[1,2],3,{"a":1},"s"]`, func() any { return new([]fromLess) }},
		{"reads nothing", `[[1,2],3]`, func() any { return new([]fromNone) }},
		{"error, decoding goes on", `{"A":[1],"B":2,"C":"c"}`, func() any {
			return new(struct {
				A fromFail
				B int
				C fromVal
			})
		}},
		{"error without reading", `{"A":{"x":1},"B":2}`, func() any {
			return new(struct {
				A fromFailN
				B int
			})
		}},
		{"type error first", `{"A":"x","B":[1]}`, func() any {
			return new(struct {
				A int
				B fromFail
			})
		}},
		{"method error first", `{"B":[1],"A":"x"}`, func() any {
			return new(struct {
				A int
				B fromFail
			})
		}},
		{"SyntacticError", `{"X":[{}],"Y":1}`, func() any {
			return new(struct {
				X []fromSyn
				Y int
			})
		}},
		{"SemanticError", `{"A":1,"B":2}`, func() any {
			return new(struct {
				A fromSem
				B int
			})
		}},
		{"SemanticError with a pointer, anonymous root", `{"A":1,"B":2}`, func() any {
			return new(struct {
				A fromSemPtr
				B int
			})
		}},
		{"SemanticError with a pointer, named root", `{"A":1,"B":2}`, func() any { return new(named) }},
		{"UnmarshalDecode into any", `[1.5,{"a":2}]`, func() any { return new(fromAny) }},
		{"UnmarshalDecode of an unknown field", `{"A":1,"Z":2}`, func() any { return new(fromStrict) }},
		{"ErrUnsupported: the struct", `{"A":1,"B":2}`, func() any { return new(fromUnsup) }},
		{"ErrUnsupported: the struct, in a slice", `[{"A":1},{"A":"x"},{"A":3}]`, func() any { return new([]fromUnsupNu) }},
		{"ErrUnsupported: UnmarshalJSON", `[1,"a"]`, func() any { return new([]fromUnsupJ) }},
		{"ErrUnsupported: UnmarshalText", `["a",null,1]`, func() any { return new([]fromUnsupT) }},
		{"ErrUnsupported after a read", `[[1],2]`, func() any { return new([]fromUnsupR) }},
		{"bytes with UnmarshalJSONFrom", `[[1,2],"abc",3]`, func() any { return new([]fromByte) }},
		{"bytes with UnmarshalJSONFrom, from a string", `{"A":"AQI=","B":1}`, func() any {
			return new(struct {
				A []fromByte
				B int
			})
		}},
		{"embedded, promoted", `{"X":1}`, func() any { return new(fromEmbed) }},
		{"reads past its value, at the top", `"a"`, func() any { return new(fromMore) }},
		{"embedded Number", `12`, func() any { return new(struct{ Number }) }},
		{"Number", `{"N":12,"P":"x"}`, func() any {
			return new(struct {
				N Number
				P *Number
			})
		}},
		{"syntax error after", `{"A":1,"B":x}`, func() any {
			return new(struct{ A, B fromVal })
		}},
	}
}

// sameUnmarshal compares two targets and errors: in full, or, where
// classic, only as far as the classic and the v2-backed encoding/json agree
// (sameError, sameValue: the error comes from jsonpipe's classic part).
func sameUnmarshal(got, want any, gerr, werr error, classic bool) bool {
	if classic {
		return sameError(gerr, werr) && sameValue(got, want, gerr, werr)
	}
	return describeError(gerr) == describeError(werr) && reflect.DeepEqual(got, want)
}

// unmarshalResult renders a target and an error.
func unmarshalResult(v any, err error) string {
	return fmt.Sprintf("%+v | %s", reflect.Indirect(reflect.ValueOf(v)).Interface(), describeError(err))
}

// classicErrorCases: the cases whose error comes from jsonpipe's classic
// part, compared as the contract says (stdjson_contract_test.go).
var classicErrorCases = map[string]bool{
	"type error first":   true,
	"syntax error after": true,
	// the fallbacks are jsonpipe's own decoders
	"ErrUnsupported: the struct, in a slice": true,
	"ErrUnsupported: UnmarshalText":          true,
	"Number":                                 true,
}

func TestUnmarshalFromDiff(t *testing.T) {
	for _, tc := range unmarshalFromCases() {
		classic := classicErrorCases[tc.name]
		t.Run(tc.name, func(t *testing.T) {
			got, want := tc.new(), tc.new()
			gerr := Unmarshal([]byte(tc.in), got)
			werr := stdjson.Unmarshal([]byte(tc.in), want)
			if !sameUnmarshal(got, want, gerr, werr, classic) {
				t.Errorf("Unmarshal(%s):\n got %s\nwant %s", tc.in, unmarshalResult(got, gerr), unmarshalResult(want, werr))
			}
			// Decode, twice from one stream, with each option.
			for opt := range 4 {
				in := " " + tc.in + "\n" + tc.in
				gd, wd := NewDecoder(strings.NewReader(in)), stdjson.NewDecoder(strings.NewReader(in))
				if opt&1 != 0 {
					gd.UseNumber()
					wd.UseNumber()
				}
				if opt&2 != 0 {
					gd.DisallowUnknownFields()
					wd.DisallowUnknownFields()
				}
				for i := range 3 {
					got, want := tc.new(), tc.new()
					gerr, werr := gd.Decode(got), wd.Decode(want)
					if !sameUnmarshal(got, want, gerr, werr, classic) {
						t.Errorf("Decode #%d (options %d) of %q:\n got %s\nwant %s", i, opt, in,
							unmarshalResult(got, gerr), unmarshalResult(want, werr))
					}
					if werr != nil && !isTypeError(werr) && werr == io.EOF {
						break
					}
				}
			}
		})
	}
}

// TestUnmarshalFromPinned pins what the differential test compares.
func TestUnmarshalFromPinned(t *testing.T) {
	var v struct {
		A fromVal
		B *fromBoth
		M map[fromText]fromVal
	}
	err := Unmarshal([]byte(`{"A":[1, 2],"B":"b","M":{"k":null}}`), &v)
	if err != nil || v.A.S != "from:[1, 2]" || v.B.S != `v2:"b"` || v.M[fromText{"text:k"}].S != "from:null" {
		t.Errorf("got %+v, %v", v, err)
	}
	var s []fromLess
	err = Unmarshal([]byte(`[[1],2]`), &s)
	if err == nil || err.Error() != "must read or write exactly one value" || len(s) != 2 || s[1].S != "2" {
		t.Errorf("got %+v, %v", s, err)
	}
}

// TestMethodOptions checks the options a method is handed: those
// encoding/json hands it, which the Encoders and Decoders reused from their
// pools can be Reset with.
func TestMethodOptions(t *testing.T) {
	o := methodOptions()
	for i, opts := range o.enc {
		if html, _ := jsonv2.GetOption(opts, jsontext.EscapeForHTML); html != (i == 1) {
			t.Errorf("enc[%d]: EscapeForHTML %v", i, html)
		}
		var buf bytes.Buffer
		e := jsontext.NewEncoder(&buf, opts)
		e.Reset(&buf, opts) // would panic with encoding/json's in-method mark
	}
	for i, opts := range o.dec {
		if strict, _ := jsonv2.GetOption(opts, jsonv2.RejectUnknownMembers); strict != (i&2 != 0) {
			t.Errorf("dec[%d]: RejectUnknownMembers %v", i, strict)
		}
		d := jsontext.NewDecoder(strings.NewReader("1"), opts)
		d.Reset(strings.NewReader("1"), opts)
	}
}

// TestUnmarshalFromAfterToken decodes values inside a stream read with
// Token. (Not a method's SyntacticError there: jsonpipe's Decode moves a
// *SyntaxError's offset after Token as the classic encoding/json counts,
// where the v2-backed one counts from the value; README.)
func TestUnmarshalFromAfterToken(t *testing.T) {
	const in = ` [ {"a":1}, {}, {"B":[[1],2]}, {"A": [1, 2], "B": []}, {"C":[1]} ] `
	gd, wd := NewDecoder(strings.NewReader(in)), stdjson.NewDecoder(strings.NewReader(in))
	gt, gerr := gd.Token()
	wt, werr := wd.Token()
	if gt != wt || gerr != nil || werr != nil {
		t.Fatalf("Token: %v, %v; encoding/json %v, %v", gt, gerr, wt, werr)
	}
	for i := 0; gd.More() && wd.More(); i++ {
		var g, w struct {
			A fromVal
			B []fromLess
			C fromFail
		}
		gerr, werr := gd.Decode(&g), wd.Decode(&w)
		if !sameUnmarshal(&g, &w, gerr, werr, false) {
			t.Errorf("Decode #%d:\n got %s\nwant %s", i, unmarshalResult(&g, gerr), unmarshalResult(&w, werr))
		}
	}
}

// TestUnmarshalFromReadsPast pins a documented difference (README): a
// method that reads past its value meets the end of its input in jsonpipe,
// where encoding/json lets it read on into the array around it.
func TestUnmarshalFromReadsPast(t *testing.T) {
	var got, want []fromMore
	gerr := Unmarshal([]byte(`[1,2,3]`), &got)
	werr := stdjson.Unmarshal([]byte(`[1,2,3]`), &want)
	if g := describeError(gerr); g != `SyntaxError("unexpected end of JSON input", 2)` {
		t.Errorf("Unmarshal: %s", g)
	}
	if len(want) != 2 || want[0].S != "1|2|" {
		t.Errorf("encoding/json: %+v, %v; want the method to have read 1 and 2", want, werr)
	}
}

// Counting MarshalJSONTo methods, for TestLazyMarshalTo.
type (
	toCountVal int
	toCountPtr int
)

func (toCountVal) MarshalJSONTo(e *jsontext.Encoder) error {
	userCalls.Add(1)
	return e.WriteToken(jsontext.Int(1))
}

func (*toCountPtr) MarshalJSONTo(e *jsontext.Encoder) error {
	userCalls.Add(1)
	return e.WriteToken(jsontext.Int(2))
}

// TestLazyMarshalTo is TestLazyMeansNoUserCode for MarshalJSONTo: the
// encoder that says it runs no user code (typeEncoder.lazy) calls no
// MarshalJSONTo, by value and through a pointer, in every kind of part; and
// one that calls it says so.
func TestLazyMarshalTo(t *testing.T) {
	type field struct{ F toCountPtr }
	lazies, called := 0, 0
	for _, v := range []any{
		toCountVal(1), toCountPtr(1), struct{ F toCountVal }{}, field{},
		[]toCountPtr{1}, [2]toCountPtr{}, map[string]toCountVal{"a": 1}, map[string]toCountPtr{"a": 1},
		map[string]*toCountPtr{"a": new(toCountPtr)}, []field{{}}, struct{ *toCountPtr }{new(toCountPtr)},
	} {
		for _, pv := range []any{v, ptrTo(v)} {
			userCalls.Store(0)
			if _, err := Marshal(pv); err != nil {
				t.Fatalf("%T: %v", pv, err)
			}
			lazy := encoderFor(reflect.TypeOf(pv), false, false).lazy
			calls := userCalls.Load()
			if lazy != (calls == 0) {
				t.Errorf("%T: lazy %v, but %d calls of MarshalJSONTo", pv, lazy, calls)
			}
			if lazy {
				lazies++
			} else if calls > 0 {
				called++
			}
		}
	}
	// Both kinds met: pointer methods of parts not addressable are not
	// called (lazy); the others are.
	if lazies == 0 || called == 0 {
		t.Errorf("%d lazy, %d calling: the cases test one side only", lazies, called)
	}
}
