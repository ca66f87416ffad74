package json

import (
	stdjson "encoding/json"
	"strings"
	"testing"
	"unsafe"
)

// TestScalarNextTakes: the one-pass readers take the values they are for,
// in compact and pretty-printed layouts, and leave the offset after them.
// Like TestExpectKey, this checks speed, not values: if they declined, the
// token path would still give the same results.
func TestScalarNextTakes(t *testing.T) {
	skipNoFast(t, "scalarNext and anyScalarNext, which take values straight from the window,")
	for _, c := range []struct {
		k     direct
		comma bool
		in    string // the value starts after the '[' at index 0
		want  any
	}{
		{directInt64, false, `[123,`, int64(123)},
		{directInt64, true, `[, -45]`, int64(-45)},
		{directInt64, true, "[,\n        7\n]", int64(7)},
		{directFloat64, false, `[1.25}`, 1.25},
		{directFloat64, true, `[,  -0.5 ,`, -0.5},
		{directString, false, `["abc",`, "abc"},
		{directString, true, "[,\n    \"a\\nb\"]", "a\nb"},
		{directString, true, `[, "é"]`, "é"},
		{directBool, false, `[true,`, true},
		{directBool, true, "[,\n  false\n]", false},
		{directPtrBool, false, `[true,`, true},
		{directPtrBool, true, "[,\n  false\n]", false},
		{directNumber, false, `[1.5e-7,`, Number("1.5e-7")},
		{directNumber, true, "[,\n  -0 ]", Number("-0")},
		{directNumber, true, `[, 12.50}`, Number("12.50")},
	} {
		ds := getState()
		ds.bd.resetBytes([]byte(c.in))
		ds.d = &ds.bd
		ds.d.s.br.offset = 1
		var got any
		var ok bool
		switch c.k {
		case directInt64:
			var n int64
			ok = ds.scalarNext(c.k, c.comma, &atArrayComma, unsafe.Pointer(&n))
			got = n
		case directFloat64:
			var x float64
			ok = ds.scalarNext(c.k, c.comma, &atArrayComma, unsafe.Pointer(&x))
			got = x
		case directString:
			var s string
			ok = ds.scalarNext(c.k, c.comma, &atArrayComma, unsafe.Pointer(&s))
			got = s
		case directBool:
			b := !c.want.(bool) // so that a write that did not happen shows
			ok = ds.scalarNext(c.k, c.comma, &atArrayComma, unsafe.Pointer(&b))
			got = b
		case directPtrBool:
			var b *bool
			ok = ds.scalarNext(c.k, c.comma, &atArrayComma, unsafe.Pointer(&b))
			if b != nil {
				got = *b
			}
		case directNumber:
			var n Number
			ok = ds.scalarNext(c.k, c.comma, &atArrayComma, unsafe.Pointer(&n))
			got = n
		}
		if !ok || got != c.want {
			t.Errorf("scalarNext(%q) = %v, %v; want %v, true", c.in, got, ok, c.want)
		} else if o := ds.d.s.br.offset; o >= len(c.in) || !endsValue[c.in[o]] || whitespace[c.in[o-1]] {
			t.Errorf("scalarNext(%q) left the offset at %d", c.in, o)
		}
		// The same value into an interface.
		ds.bd.resetBytes([]byte(c.in))
		ds.d.s.br.offset = 1
		if c.comma { // anyArray reads the ',' itself
			ds.d.s.br.offset = 2
		}
		v, ok := ds.anyScalarNext(&atArrayComma)
		if f, isFloat := c.want.(int64); isFloat {
			c.want = float64(f)
		}
		if n, isNumber := c.want.(Number); isNumber {
			c.want, _ = n.Float64()
		}
		if !ok || v != c.want {
			t.Errorf("anyScalarNext(%q) = %v, %v; want %v, true", c.in, v, ok, c.want)
		}
		putState(ds)
	}
}

// Bools read in one pass (scalarNext's directBool): true, false, and null,
// which leaves a bool as it was, in struct fields and slice and array
// elements, fresh and prefilled, give encoding/json's values and errors.
func TestBoolOnePass(t *testing.T) {
	type flags struct {
		A, B bool
		C    []bool
		D    [3]bool
	}
	for _, in := range []string{
		`{"A":true,"B":false,"C":[true,false,null,true],"D":[true,null,true]}`,
		`{"A":null,"B":null,"C":[null],"D":[null,null,null,null]}`,
		`{"A":tru}`, `{"A":truex}`, `{"A":true,"B":nul`, `{"C":[true,falsy]}`,
	} {
		for _, prefilled := range []bool{false, true} {
			var got, want flags
			if prefilled {
				got = flags{true, true, []bool{true, true, true, true, true}, [3]bool{true, true, true}}
				want = got
				want.C = append([]bool(nil), got.C...)
			}
			err := Unmarshal([]byte(in), &got)
			werr := stdjson.Unmarshal([]byte(in), &want)
			if !sameError(err, werr) || !sameValue(got, want, err, werr) {
				t.Fatalf("%s (prefilled %v): got %+v (%v), want %+v (%v)", in, prefilled, got, err, want, werr)
			}
			if in == `{"A":true,"B":nul` && describeError(err) != `SyntaxError("invalid character ' ' in literal null (expecting 'l')", 17)` {
				t.Errorf("%s: error %s, want the classic encoding/json's", in, describeError(err)) // pinned: v2 says "unexpected end of JSON input"
			}
		}
	}
}

// Members out of the order of the struct's fields (a member before them
// absent, unknown, or written later), which lookup finds and scalarNext
// then reads as after expectKey's hit, and pointers to bools, which
// pointerNext reads, give encoding/json's values and errors, fresh and
// prefilled, with the error anywhere in the value or after it.
func TestOutOfOrderMembers(t *testing.T) {
	type rec struct {
		I  int64
		F  float64
		S  string
		B  bool
		PI *int64
		PS *string
		PB *bool
		PF *float64
		A  any
	}
	for _, in := range []string{
		`{"A":"x","PF":1.5,"PB":true,"PS":"s","PI":7,"B":true,"S":"t","F":2.5,"I":3}`,
		`{"B":true,"I":3,"PB":false,"unknown":[1,{"a":2}],"PI":null,"S":"\u00e9"}`,
		`{"pb" : true , "i" : -1 , "ps":null, "PB":null}`,
		`{"PB":false,"PB":true}`,
		`{"S":"a","PB":1}`, `{"S":"a","PB":"true"}`, `{"S":"a","PB":tru}`, `{"S":"a","PB":truex}`,
		`{"S":"a","PB":true`, `{"F":1,"I":1.5}`, `{"F":1,"I":"1"}`, `{"PS":"a","PI":nul}`,
		`{"B":true,"S":"a\x"}`, `{"PB" true}`, `{"PB":true,}`,
	} {
		for _, prefilled := range []bool{false, true} {
			var got, want rec
			if prefilled {
				i, s, b, f := int64(9), "old", true, 9.5
				got = rec{I: 1, F: 1, S: "o", B: true, PI: &i, PS: &s, PB: &b, PF: &f, A: "a"}
				i2, s2, b2, f2 := i, s, b, f
				want = rec{I: 1, F: 1, S: "o", B: true, PI: &i2, PS: &s2, PB: &b2, PF: &f2, A: "a"}
			}
			err := Unmarshal([]byte(in), &got)
			werr := stdjson.Unmarshal([]byte(in), &want)
			if !sameError(err, werr) || !sameValue(got, want, err, werr) {
				t.Errorf("%s (prefilled %v): got %+v (%v), want %+v (%v)", in, prefilled, got, err, want, werr)
			}
		}
	}
}

// TestFlagAt: flagAt reads what literalAt reads for true and false, with
// every byte after the literal and every length of data from the literal
// alone (then both decline: no byte ends it) to past the 8 bytes it loads
// (below them flagTail reads it), and declines null, cut and misspelt
// literals, and literals followed by a byte that cannot end a value.
func TestFlagAt(t *testing.T) {
	for _, lit := range []string{"true", "false", "null", "tru", "fals", "trUe", "falsE", "ttrue", "f"} {
		if v, end := flagAt([]byte(" "+lit), 1); end != 0 {
			t.Errorf("flagAt(%q) = %v, %d: read a literal no byte ends", " "+lit, v, end)
		}
		for c := range 256 {
			for pad := 0; pad <= 4; pad++ {
				data := []byte(" " + lit + string(rune(0)) + strings.Repeat(" ", pad))
				data[1+len(lit)] = byte(c)
				v, end := flagAt(data, 1)
				w, wend := literalAt(data, 1)
				switch {
				case end == 0 && wend != 0 && w != nil:
					t.Errorf("flagAt(%q) declined; literalAt: %v, %d", data, w, wend)
				case end != 0 && (end != wend || w != v):
					t.Errorf("flagAt(%q) = %v, %d; literalAt: %v, %d", data, v, end, w, wend)
				}
			}
		}
	}
}
