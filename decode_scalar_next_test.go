package json

import (
	stdjson "encoding/json"
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
