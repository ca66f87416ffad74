package json

import (
	"bytes"
	stdjson "encoding/json"
	"fmt"
	"testing"

	"github.com/jsonpipe/json/internal/chunkio"
)

var fuzzSeeds = []string{
	`{"a":[1,2.5e3,-0,true,false,null,"x\"\u00e9\ud834\udd1e"]}`,
	`[{"k":{"k":[[]]}},{}]`, `"\ud800"`, "\"a\xffb\"", `1 2 [3] {"a":4}`, `[1,]`, `{"a" 1}`,
	`00`, `1a`, `[-]`, `[1.e5]`, `nul`, `{"a":1`, `"abc\`, `[0. `, "\ufeff[]", `{,}`, `{}x`,
}

// FuzzTokenDiff: for any input, Token yields what encoding/json's
// Decoder.Token yields (values, and error or not), but for the one documented
// difference (sameTokenStream). Syntax errors for the input as a whole match
// Unmarshal's to the message and offset.
func FuzzTokenDiff(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add([]byte(s), false)
	}
	f.Fuzz(func(t *testing.T, data []byte, useNumber bool) {
		in := string(data)
		want := stdTokens(in, useNumber)
		got := ourTokens(bytes.NewReader(data), in, useNumber)
		if !sameTokenStream(errorOrNot(got), errorOrNot(want)) {
			t.Fatalf("%q:\n got  %q\n want %q", in, got, want)
		}
		if g, w := ourCheck(data), stdCheck(data); !sameError(g, w) {
			t.Fatalf("syntax error for %q:\n got  %s\n want %s", in, errString(g), errString(w))
		}
	})
}

// FuzzChunked: the whole input and the same input fed in small chunks give
// identical tokens and errors.
func FuzzChunked(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add([]byte(s), []byte{1, 2, 3})
	}
	f.Fuzz(func(t *testing.T, data, sizes []byte) {
		whole, werr := collect(NewDecoder(bytes.NewReader(data)))
		chunked, cerr := collect(NewDecoderBuffer(&chunkio.Reader{R: bytes.NewReader(data), N: 1, Sizes: readSizes(sizes)}, make([]byte, 0, 1+len(sizes)%7)))
		if fmt.Sprintf("%q", whole) != fmt.Sprintf("%q", chunked) || errString(werr) != errString(cerr) {
			t.Fatalf("%q in chunks %v:\n whole   %q %s\n chunked %q %s", data, sizes, whole, errString(werr), chunked, errString(cerr))
		}
	})
}

// readSizes turns fuzzed bytes into the read sizes of a chunkio.Reader,
// each 1..8, cycled. No bytes give no sizes, and the reader's N (1) holds.
func readSizes(b []byte) []int {
	sizes := make([]int, len(b))
	for i, c := range b {
		sizes[i] = int(c)%8 + 1
	}
	return sizes
}

// FuzzValid: Valid, a validator of its own, agrees with encoding/json.Valid
// and with the token path (checkOne), which words the errors where Valid
// says no.
func FuzzValid(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add([]byte(s))
	}
	for _, tc := range validCases {
		f.Add([]byte(tc.in))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		got := Valid(data)
		if want := stdjson.Valid(data); got != want {
			t.Fatalf("Valid(%q) = %v, encoding/json says %v", data, got, want)
		}
		if err := ourCheck(data); got != (err == nil) {
			t.Fatalf("Valid(%q) = %v, but checkOne says %v", data, got, err)
		}
	})
}
