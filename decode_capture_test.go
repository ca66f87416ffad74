package json

import (
	"bytes"
	"io"
	"math/rand/v2"
	"strings"
	"testing"
	"testing/iotest"
)

// captureInputs are streams of values longer than a small window: arrays
// and objects of records, with strings, escapes, numbers and nesting, and
// the same made invalid (cut, a byte changed) at many places.
func captureInputs() []string {
	r := rand.New(rand.NewPCG(7, 36))
	var rec func(depth int) string
	rec = func(depth int) string {
		switch k := r.IntN(9); {
		case k == 0 && depth < 4:
			var b strings.Builder
			b.WriteByte('[')
			for i := range r.IntN(6) {
				if i > 0 {
					b.WriteString(", ")
				}
				b.WriteString(rec(depth + 1))
			}
			b.WriteByte(']')
			return b.String()
		case k <= 2 && depth < 4:
			var b strings.Builder
			b.WriteString("{ ")
			for i := range r.IntN(6) {
				if i > 0 {
					b.WriteByte(',')
				}
				b.WriteString(`"k` + strings.Repeat("x", r.IntN(12)) + `\n" :`)
				b.WriteString(rec(depth + 1))
			}
			b.WriteString("}")
			return b.String()
		case k == 3:
			return `"s\u00e9\"` + strings.Repeat("é", r.IntN(30)) + `"`
		case k == 4:
			return "-12.5e3"
		case k == 5:
			return "1234567"
		case k == 6:
			return "true"
		case k == 7:
			return "null"
		}
		return `""`
	}
	var ins []string
	for n := 0; n < 12; n++ {
		var b strings.Builder
		b.WriteByte('[')
		for i := range 20 + r.IntN(200) {
			if i > 0 {
				b.WriteString(",\n ")
			}
			b.WriteString(rec(1))
		}
		b.WriteString("]")
		arr := b.String()
		obj := `{"a": ` + arr + `, "b" : {"c":` + rec(1) + `}, "d":7}`
		ins = append(ins, arr+" "+obj+" 12 "+arr, obj)
		for k := 0; k < 6; k++ {
			at := r.IntN(len(arr))
			ins = append(ins, arr[:at], arr[:at]+"x"+arr[at+1:], arr[:at]+"]"+arr[at:], obj[:at%len(obj)]+"}")
		}
	}
	ins = append(ins, `[[[[[[[[1]]]]]]]]`, `{"a":{"a":{"a":{"a":{"a":{"a":{}}}}}}}`, `[1,2,]`, `{"a":1,}`, `[}`, `]`, `}`, "", " ",
		// Top-level values and what touches them.
		"12x 5", "truex", "1]", "null,", `"a"b`, "1.5e3.2", "[1]x", "{}{}", "12-3", "-", "0012", `"a""b"`, "[1][2]")
	return ins
}

// TestCaptureValue: Decode's capture (skipWhole where the window holds a
// part whole, NextToken for the rest) returns what RawValue returns, the
// same bytes or the same error, and leaves the stream where RawValue
// does, over windows and reads of every size and a depth limit.
func TestCaptureValue(t *testing.T) {
	readers := []func(string) io.Reader{
		func(s string) io.Reader { return strings.NewReader(s) },
		func(s string) io.Reader { return iotest.HalfReader(strings.NewReader(s)) },
		func(s string) io.Reader { return iotest.OneByteReader(strings.NewReader(s)) },
	}
	for n, in := range captureInputs() {
		for k, newReader := range readers {
			for _, depth := range []int{defaultMaxDepth, 5} {
				want := NewDecoderBuffer(newReader(in), make([]byte, 0, 64))
				got := NewDecoderBuffer(newReader(in), make([]byte, 0, 64))
				want.SetMaxDepth(depth)
				got.SetMaxDepth(depth)
				ds := getState()
				ds.d = got
				for v := 0; ; v++ {
					wraw, werr := want.RawValue()
					graw, gerr := ds.captureValue()
					if !bytes.Equal(graw, wraw) || errString(gerr) != errString(werr) || got.InputOffset() != want.InputOffset() {
						t.Fatalf("input %d, reader %d, depth %d, value %d: %.60q, %v at %d; RawValue: %.60q, %v at %d",
							n, k, depth, v, graw, gerr, got.InputOffset(), wraw, werr, want.InputOffset())
					}
					if werr != nil {
						break
					}
				}
				putState(ds)
			}
		}
	}
}

// TestCaptureValueInArray: the capture as Decode makes it after Token has
// opened an array or an object (the separator not yet read, then the
// element; a member's value after its key): the same bytes, errors and
// offsets as RawValue, up to the closing bracket's error.
func TestCaptureValueInArray(t *testing.T) {
	for n, in := range captureInputs() {
		for _, small := range []bool{false, true} {
			mk := func() *Decoder {
				if small {
					return NewDecoderBuffer(iotest.HalfReader(strings.NewReader(in)), make([]byte, 0, 64))
				}
				return NewDecoder(strings.NewReader(in))
			}
			want, got := mk(), mk()
			wtok, werr := want.Token()
			gtok, gerr := got.Token()
			if werr != nil || gerr != nil || wtok != gtok {
				continue
			}
			ds := getState()
			ds.d = got
			for v := 0; ; v++ {
				if _, isObj := wtok.(Delim); isObj && wtok == Delim('{') {
					// A key first, by Token, then its value.
					wk, we := want.Token()
					gk, ge := got.Token()
					if wk != gk || errString(we) != errString(ge) {
						t.Fatalf("input %d: key %v, %v; want %v, %v", n, gk, ge, wk, we)
					}
					if we != nil {
						break
					}
				}
				wraw, werr := want.RawValue()
				graw, gerr := ds.captureValue()
				if !bytes.Equal(graw, wraw) || errString(gerr) != errString(werr) || got.InputOffset() != want.InputOffset() {
					t.Fatalf("input %d (small %v), element %d: %.60q, %v at %d; RawValue: %.60q, %v at %d",
						n, small, v, graw, gerr, got.InputOffset(), wraw, werr, want.InputOffset())
				}
				if werr != nil {
					break
				}
			}
			putState(ds)
		}
	}
}
