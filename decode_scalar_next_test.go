package json

import (
	"testing"
	"unsafe"
)

// TestScalarNextTakes: the one-pass readers take the values they are for,
// in compact and pretty-printed layouts, and leave the offset after them.
// Like TestExpectKey, this checks speed, not values: if they declined, the
// token path would still give the same results.
func TestScalarNextTakes(t *testing.T) {
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
			ok = ds.scalarNext(c.k, c.comma, (*Decoder).stateArrayComma, unsafe.Pointer(&n))
			got = n
		case directFloat64:
			var x float64
			ok = ds.scalarNext(c.k, c.comma, (*Decoder).stateArrayComma, unsafe.Pointer(&x))
			got = x
		case directString:
			var s string
			ok = ds.scalarNext(c.k, c.comma, (*Decoder).stateArrayComma, unsafe.Pointer(&s))
			got = s
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
		v, ok := ds.anyScalarNext((*Decoder).stateArrayComma)
		if f, isFloat := c.want.(int64); isFloat {
			c.want = float64(f)
		}
		if !ok || v != c.want {
			t.Errorf("anyScalarNext(%q) = %v, %v; want %v, true", c.in, v, ok, c.want)
		}
		putState(ds)
	}
}
