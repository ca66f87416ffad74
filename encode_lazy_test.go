package json

import (
	"reflect"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// lazyStrings has short strings of every length the struct loop writes
// itself (4 to 24 bytes) and some it does not.
type lazyStrings struct {
	A string   `json:"a"`
	B string   `json:"b,omitempty"`
	Q string   `json:"q,string"`
	L []string `json:"l,omitempty"`
}

type lazyNested struct {
	Rows []lazyStrings            `json:"rows"`
	ByID map[string]lazyStrings   `json:"by_id"`
	Raw  RawMessage               `json:"raw,omitempty"`
	Ptr  *lazyStrings             `json:"ptr"`
	Deep map[string][]lazyStrings `json:"deep,omitempty"`
}

type lazyWithAny struct {
	S lazyStrings `json:"s"`
	X any         `json:"x"`
}

// lazyTexts: valid text in other scripts, and what encoding/json rewrites:
// invalid UTF-8 (a stray byte, a character cut short, an overlong form, a
// surrogate) and U+2028 and U+2029, at the start, inside and at the end,
// beside ASCII escapes, at lengths from 1 to 40 bytes.
func lazyTexts() []string {
	bad := []string{"\xff", "\x80", "\xe6\x97", "\xc0\xaf", "\xed\xa0\x80", "\u2028", "\u2029", "\xe2\x80", "\xf0\x9f\x98"}
	good := []string{"日本", "é", "😀", "Ωμέγα", "中文字", "“q”", "…"}
	esc := []string{"", "\"", "\\", "<", "&", "\n", "\x01", "a"}
	var out []string
	for _, g := range good {
		for _, e := range esc {
			for n := 1; n <= 40; n += 3 {
				s := strings.Repeat(g+e+"x", 8)
				out = append(out, cutRunes(s, n))
			}
		}
	}
	for _, b := range bad {
		for _, g := range good {
			for _, s := range []string{b + g, g + b, g + b + g, "ab" + b, b + "abcdefgh", "abcd" + b + "efghijklmnop" + g, strings.Repeat(g, 5) + b} {
				out = append(out, s)
			}
		}
	}
	return out
}

// cutRunes is s cut to at most n bytes at a character's start.
func cutRunes(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && s[n]&0xC0 == 0x80 {
		n--
	}
	return s[:n]
}

// TestMarshalLazyStrings: short strings written without their check (a
// type that runs no user code) and checked in the whole output after, or
// encoded again, give encoding/json's bytes: through Marshal and
// MarshalIndent (and Encoder.Encode, which checks every string), with and
// without HTML escaping, in records, slices, maps, beside a RawMessage
// whose invalid UTF-8 stays as it is, with ",string", and in a type with
// an any (checked as before). diffMarshalForm compares every mode, and
// knows where Go 1.27's encoding/json writes other bytes than Go 1.26's,
// which jsonpipe writes (README).
func TestMarshalLazyStrings(t *testing.T) {
	texts := lazyTexts()
	var vals []any
	for i, s := range texts {
		r := lazyStrings{A: s, B: texts[(i+1)%len(texts)], Q: s, L: []string{s, "ok"}}
		// lazyEager strings are checked one by one first: the rows of
		// valid text before r make the lazy check reach r's strings.
		valid := lazyStrings{A: "日本", B: "Ωμέγα", Q: "é", L: []string{"中文字"}}
		rows := []lazyStrings{valid, valid, r, valid, r}
		vals = append(vals, r, &r, []lazyStrings{r, {A: "plain"}}, rows,
			lazyNested{Rows: rows, ByID: map[string]lazyStrings{s: r, "k": {A: "日本語"}}, Ptr: &r},
			lazyNested{Rows: []lazyStrings{valid, valid, {A: "日本"}}, Raw: RawMessage(`"` + "\xff\u2028" + `"`)},
			lazyWithAny{S: r, X: rows})
	}
	for _, v := range vals {
		// every mode of Marshal, MarshalIndent and Encoder, against the
		// toolchain's encoding/json where jsonpipe follows it (README)
		if d := diffMarshalForm(v, "value"); d != "" {
			t.Fatal(d)
		}
	}
}

// TestLazyTypes: which types may be encoded with the lazy check, and that
// short strings in another script are written unchecked in one that may,
// after the first lazyEager and only where they come close together.
func TestLazyTypes(t *testing.T) {
	type withText struct{ T textKey }
	type withMap struct{ M map[valText]int } // an int key's MarshalText
	type recursive struct {
		S    string
		Next *recursive
		Kids []recursive
	}
	for _, c := range []struct {
		v    any
		want bool
	}{
		{lazyStrings{}, true}, {lazyNested{}, true}, {recursive{}, true}, {[]int{}, true},
		{map[string][]float64{}, true}, {RawMessage{}, true},
		{lazyWithAny{}, false}, {withText{}, false}, {withMap{}, false}, {[]any{}, false},
		{map[string]any{}, false}, {textKey(""), false},
	} {
		if got := lazyType(reflect.TypeOf(c.v)); got != c.want {
			t.Errorf("lazyType(%T) = %v, want %v", c.v, got, c.want)
		}
		if got := encoderFor(reflect.TypeOf(c.v), false, false).lazy; got != c.want {
			t.Errorf("encoderFor(%T).lazy = %v, want %v", c.v, got, c.want)
		}
	}
	for _, c := range []struct {
		v         any
		unchecked bool
	}{
		{five("日本"), true}, {five("日本語のテ"), true}, {five("日本語のテキストです"), false},
		{five("plain"), false}, {[]lazyStrings{{A: "日本"}, {A: "日本"}}, false}, // lazyEager: 4
		{lazyWithAny{X: five("日本")}, false},
		// encodeAny's own kinds, which may hold anything.
		{map[string]any{"a": five("日本")}, false}, {[]any{five("日本")}, false},
		{spaced("日本", 100), false}, {spaced("日本", 0), true}, // lazySpacing: 32
	} {
		es := freshEncodeState()
		want := c.unchecked && fastPaths // without the fast paths, every string is checked
		es.startLazy()
		b, err := es.encodeAny(make([]byte, 0, 512), c.v)
		if es.endLazy() && err == nil {
			_, err = es.checkLazy(b, 0, c.v)
		}
		if err != nil || es.unchecked != want {
			t.Errorf("%+v: unchecked %v (%v), want %v", c.v, es.unchecked, err, want)
		}
	}

	// A type whose output failed the check has its strings checked one by
	// one from then on in that state; other types do not.
	es := freshEncodeState()
	for i, c := range []struct {
		v         any
		unchecked bool
	}{
		{five("日本"), true}, {five("日本\xff"), true}, {five("日本"), false},
		{spaced("日本", 0), false}, {[5]lazyStrings(five("日本")), true},
	} {
		es.startLazy()
		b, err := es.encodeAny(make([]byte, 0, 512), c.v)
		unchecked := es.endLazy()
		if err == nil && unchecked {
			b, err = es.checkLazy(b, 0, c.v)
		}
		want, _ := Marshal(c.v) // in another state
		if err != nil || unchecked != (c.unchecked && fastPaths) || string(b) != string(want) {
			t.Errorf("%d: %+v: unchecked %v (%v), want %v; wrote %s, want %s", i, c.v, unchecked, err, c.unchecked, b, want)
		}
	}
}

// freshEncodeState is a state as Marshal's would be if the pool were
// empty: one from the pool may remember a type whose output failed the
// lazy check (lazyOff), as this test's own second part leaves one, and it
// is not put back there.
func freshEncodeState() *encodeState {
	es := &encodeState{}
	es.setEscapeHTML(true)
	return es
}

// five is five records with the string s.
func five(s string) []lazyStrings {
	return []lazyStrings{{A: s}, {A: s}, {A: s}, {A: s}, {A: s}}
}

// spaced is eight records with the string s, each with an ASCII one of n
// bytes beside it.
func spaced(s string, n int) []lazyStrings {
	v := make([]lazyStrings, 8)
	for i := range v {
		v[i] = lazyStrings{A: s, B: strings.Repeat("x", n)}
	}
	return v
}

// textKey has a MarshalText method: user code.
type textKey string

func (k textKey) MarshalText() ([]byte, error) { return []byte("k" + string(k)), nil }

// userCalls counts the calls of the methods below, each user code.
var userCalls atomic.Int64

type (
	valJSON int    // MarshalJSON on the value
	ptrJSON int    // MarshalJSON on the pointer
	valText int    // MarshalText on the value
	ptrText int    // MarshalText on the pointer
	textStr string // MarshalText, on a string kind: not called for a map key
	zeroer  int    // IsZero, which omitzero calls
	recBad  struct {
		Next *recBad `json:",omitempty"`
		P    ptrJSON
	}
)

func (valJSON) MarshalJSON() ([]byte, error)  { userCalls.Add(1); return []byte("1"), nil }
func (*ptrJSON) MarshalJSON() ([]byte, error) { userCalls.Add(1); return []byte("2"), nil }
func (valText) MarshalText() ([]byte, error)  { userCalls.Add(1); return []byte("t"), nil }
func (*ptrText) MarshalText() ([]byte, error) { userCalls.Add(1); return []byte("u"), nil }
func (textStr) MarshalText() ([]byte, error)  { userCalls.Add(1); return []byte("v"), nil }
func (zeroer) IsZero() bool                   { userCalls.Add(1); return false }

// TestLazyMeansNoUserCode: an encoder that says it runs no user code
// (typeEncoder.lazy, decided by the builders from their parts) calls no
// method when it writes a value, through every kind of part, by value and
// through a pointer (which makes the parts addressable, so methods on
// their pointers count); it says so wherever the walk of the whole type
// (lazyType) does, and also where a method on a pointer cannot be called.
func TestLazyMeansNoUserCode(t *testing.T) {
	type fieldPtr struct{ F ptrJSON }
	var lazyNotWalk []string
	for _, v := range []any{
		valJSON(1), ptrJSON(1), valText(1), ptrText(1), textStr("s"),
		struct{ F valJSON }{}, fieldPtr{}, struct{ F valText }{}, struct{ F ptrText }{},
		struct{ F *ptrJSON }{new(ptrJSON)}, struct{ F *valText }{new(valText)},
		[]ptrJSON{1}, []ptrText{1}, [2]ptrJSON{}, [2]valJSON{}, []fieldPtr{{}},
		map[string]ptrJSON{"a": 1}, map[string]valJSON{"a": 1}, map[string]fieldPtr{"a": {}},
		map[string]*ptrJSON{"a": new(ptrJSON)}, map[string][3]ptrText{"a": {}},
		map[valText]int{1: 1}, map[ptrText]int{1: 1}, map[textStr]int{"k": 1},
		struct{ M map[valText]int }{map[valText]int{1: 1}},
		struct{ valJSON }{}, struct{ *ptrJSON }{new(ptrJSON)}, struct{ ptrText }{},
		recBad{Next: &recBad{}}, []recBad{{}}, map[string]recBad{"a": {Next: &recBad{}}},
		lazyStrings{A: "x"}, lazyNested{Ptr: &lazyStrings{}}, []int{1}, struct{ X any }{valJSON(1)},
		struct {
			Z zeroer `json:",omitzero"`
		}{}, struct {
			Z zeroer `json:",omitempty"`
		}{}, struct {
			T time.Time `json:",omitzero"`
		}{},
	} {
		for _, pv := range []any{v, ptrTo(v)} {
			typ := reflect.TypeOf(pv)
			userCalls.Store(0)
			if _, err := Marshal(pv); err != nil {
				t.Fatalf("%T: %v", pv, err)
			}
			te := encoderFor(typ, false, false)
			if calls := userCalls.Load(); te.lazy != (calls == 0) {
				t.Errorf("%T: lazy %v, but %d calls of user code", pv, te.lazy, calls)
			}
			walk := lazyType(typ)
			for _, addr := range []bool{false, true} {
				if got := encoderFor(typ, addr, false).lazy; walk && !got {
					t.Errorf("%T (addr %v): lazyType says no user code, the encoder does not", pv, addr)
				}
			}
			if te.lazy && !walk {
				lazyNotWalk = append(lazyNotWalk, typ.String())
			}
		}
	}
	// Values whose parts' pointer methods cannot be called, as encoding/json
	// calls them only on addressable values: the builders see it, the walk
	// does not.
	want := []string{"json.ptrJSON", "json.ptrText", "json.fieldPtr", "struct { F json.ptrText }",
		"[2]json.ptrJSON", "map[string]json.ptrJSON", "*map[string]json.ptrJSON",
		"map[string]json.fieldPtr", "*map[string]json.fieldPtr",
		"map[string][3]json.ptrText", "*map[string][3]json.ptrText",
		"map[json.ptrText]int", "*map[json.ptrText]int", // an int key: its pointer's MarshalText is not called
		"map[json.textStr]int", "*map[json.textStr]int", // a string key is written as it is
		"struct { json.ptrText }",
		// omitempty does not call IsZero; the walk looks at no tag
		`struct { Z json.zeroer "json:\",omitempty\"" }`, `*struct { Z json.zeroer "json:\",omitempty\"" }`}
	if !slices.Equal(lazyNotWalk, want) {
		t.Errorf("lazy where the walk is not:\n got %q\nwant %q", lazyNotWalk, want)
	}
}

// ptrTo returns a pointer to a copy of v.
func ptrTo(v any) any {
	p := reflect.New(reflect.TypeOf(v))
	p.Elem().Set(reflect.ValueOf(v))
	return p.Interface()
}
