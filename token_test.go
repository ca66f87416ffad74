package json

import (
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

func TestTokenMatchesEncodingJSON(t *testing.T) {
	extra := []string{
		`{}x`, `truex`, `nulll`, `{"a" 1}`, `[1 2]`, `[`, `"abc`, `{,`, `{1}`, `[,`, `{"a":}`,
		` \a`, `{ "\a" }`, `[0. `, `fal `, `[0:`, `{"k",`, `{"k"}`, `n`, `nul`, `{"`, `{"k"`, `{"k":`,
		` [0`, `[0,`, `[1e999]`, `1e999`, `"\ud800"`, `"\ud800\u0041"`, "\"a\xffb\"", `{"a":1 "b":2}`,
		`["a" "b"]`, `{"a"1}`, `[[[]]]]`, `{}}`, "\xef\xbb\xbf{}", `{"a":{"b":[1,{"c":"d"}]}}`,
	}
	var inputs []string
	for _, tc := range tokenCases {
		inputs = append(inputs, tc.in)
	}
	inputs = append(inputs, extra...)
	for _, in := range inputs {
		for _, useNumber := range []bool{false, true} {
			want := stdTokens(in, useNumber)
			for shape, r := range map[string]io.Reader{
				"whole":   strings.NewReader(in),
				"onebyte": iotest.OneByteReader(strings.NewReader(in)),
			} {
				got := ourTokens(r, in, useNumber)
				if !sameTokenStream(diffTokenStream(got), diffTokenStream(want)) {
					t.Errorf("%q (UseNumber %v, %s):\n got  %q\n want %q", in, useNumber, shape, got, want)
				}
			}
		}
	}
}
