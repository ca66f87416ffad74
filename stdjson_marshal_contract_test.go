package json

import (
	"bytes"
	stdjson "encoding/json"
	"errors"
	"io"
	"reflect"
	"strings"
)

// What the encoding differential tests can ask of the toolchain's
// encoding/json (the decoding side's contract is stdjson_contract_test.go).
//
// jsonpipe encodes as the classic encoding/json does (Go 1.26, and Go 1.27
// with GOEXPERIMENT=nojsonv2), on every toolchain. Where the toolchain
// builds that classic implementation (stdClassic), marshalDiffers compares
// everything: the bytes, and each error's type, text and wrapped chain,
// SyntaxError offsets included.
//
// Go 1.27's default encoding/json is built on encoding/json/v2, whose
// encoder differs from the classic one by design in these ways (found by
// encoding every builder's value over encSeeds with both and comparing):
//
//  1. Invalid UTF-8 in a string (a Go string, a map key, MarshalText's
//     output) is written as the raw bytes of U+FFFD; the classic encoder
//     writes the escape \ufffd (and \\ufffd inside a ,string field).
//  2. With SetEscapeHTML(false), U+2028 and U+2029 in what MarshalJSON or a
//     RawMessage returns are escaped as \u2028 and \u2029; the classic
//     encoder copies them as they are (it always escapes them in strings it
//     writes itself).
//  3. Map keys are sorted after invalid UTF-8 is replaced; the classic
//     encoder sorts the keys as they are, so keys with invalid UTF-8 come in
//     a different order.
//  4. Errors from MarshalJSON and MarshalText, and invalid output from them,
//     name the pointer type (*T where the classic text says T), wrap other
//     errors and give other SyntaxError offsets (v2's offset in the whole
//     output, the classic one's within the method's output).
//  5. An invalid Number is a *MarshalerError (from Number's MarshalJSONTo);
//     the classic encoder returns a plain error, "json: invalid number
//     literal". A map key's failing MarshalText is a *MarshalerError; the
//     classic encoder returns a plain "json: encoding error for type".
//  6. A map whose key type is no string, integer or TextMarshaler (bool,
//     arrays) fails with *UnsupportedValueError ("object member name must be
//     a string"); the classic encoder with *UnsupportedTypeError.
//  7. Maps with float keys are encoded (v2 formats the key as a number in a
//     string); the classic encoder returns *UnsupportedTypeError.
//  8. Struct tag names that the classic encoder rejects (with a quote, a
//     backslash or a control character) are used as far as v2 parses them;
//     the classic encoder uses the field's Go name.
//  9. Values nested more than 10,000 levels deep fail (v2's depth limit);
//     the classic encoder writes them (TestMarshalDeep pins that).
//
// So on that toolchain marshalDiffers compares what both promise alike:
//
//   - whether each call fails, and the class of its error (marshalErrClass),
//     with the equivalences of 5 and 6;
//   - the bytes, with the escapes of 1 (and of 2, where HTML escaping is
//     off) written as the characters they stand for on both sides; where a
//     key had invalid UTF-8 (3), the values the outputs decode to, or
//     their bytes in any order (v2BytesDiffer; TestV2BytesDiffer);
//   - nothing for values of the types of 7 and 8 (v2Skips), and, in the
//     round trip, nothing typed for maps whose keys cannot be decoded into
//     (v2DecodeDiffersType, a decoding difference);
//   - nothing for 9: TestMarshalDeep compares with the classic encoder only.
//
// These differences were found by encoding every builder's value over
// encSeeds and random inputs, the named cases and the cycles, with Go 1.26
// and with Go 1.27.4, and comparing; under this contract all of them agree,
// and the corpus files agree byte for byte in every mode.
//
// One exception: a type's MarshalJSONTo, which only the v2-backed
// encoding/json calls, is called by jsonpipe there too, with that
// encoding/json's bytes and errors, so jsonto_go127_test.go compares
// everything for such types (exactMarshalDiff), in every position and mode.
//
// The classic behaviour stays checked on every toolchain by the pinned
// expectations (TestMarshalPinned, TestMarshalCycles, TestMarshalDeep) and
// against the classic implementation itself by running these tests on Go
// 1.26 and on Go 1.27 with GOEXPERIMENT=nojsonv2.

// marshalErrClass is the part of an encoding error both implementations
// agree on.
func marshalErrClass(err error) string {
	var te *UnsupportedTypeError
	var ve *UnsupportedValueError
	var me *MarshalerError
	switch {
	case err == nil:
		return "ok"
	case errors.As(err, &te):
		return "unsupported type"
	case errors.As(err, &ve):
		return "unsupported value"
	case errors.As(err, &me):
		return "marshaler"
	}
	return "other"
}

// sameMarshalErrClass: our (classic) error and the v2-backed one are of one
// class, or of the classes that differences 5 and 6 pair.
func sameMarshalErrClass(got, want error) bool {
	return sameMarshalErrClassText(marshalErrClass(got), errText(got), marshalErrClass(want), errText(want))
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

func sameMarshalErrClassText(gc, gmsg, wc, wmsg string) bool {
	switch {
	case gc == wc:
		return true
	case gc == "other" && wc == "marshaler":
		return strings.HasPrefix(gmsg, "json: invalid number literal ") || strings.HasPrefix(gmsg, "json: encoding error for type ")
	case gc == "unsupported type" && wc == "unsupported value":
		return strings.HasPrefix(gmsg, "json: unsupported type: map[") && strings.Contains(wmsg, "object member name must be a string")
	}
	return false
}

// marshalDiffers compares our result of one marshal mode for v with
// encoding/json's, and says how they differ, or returns "". noHTML: the
// mode set SetEscapeHTML(false), where difference 2 can arise.
func marshalDiffers(got, want marshalResult, v any, noHTML bool) string {
	if len(got.errs) != len(want.errs) {
		return "a different number of calls"
	}
	if stdClassic {
		if !bytes.Equal(got.out, want.out) {
			return "bytes differ"
		}
		if marshalErrsString(got.errs) != marshalErrsString(want.errs) {
			return "errors differ"
		}
		return ""
	}
	if v2Skips(reflect.ValueOf(v), 0) {
		return ""
	}
	for i := range got.errs {
		if !sameMarshalErrClass(got.errs[i], want.errs[i]) {
			return "error classes differ (v2-backed encoding/json)"
		}
	}
	return v2BytesDiffer(got.out, want.out, noHTML)
}

// v2BytesDiffer compares outputs as marshalDiffers does against the
// v2-backed encoding/json.
func v2BytesDiffer(got, want []byte, noHTML bool) string {
	g, w := v2Normalize(got, noHTML), v2Normalize(want, noHTML)
	if bytes.Equal(g, w) {
		return ""
	}
	if bytes.Contains(g, []byte("\ufffd")) {
		// Difference 3: keys with invalid UTF-8 are sorted apart. The
		// outputs must then decode to the same values (without
		// MarshalIndent's "> " prefix; a string holds no raw newline), or,
		// where two keys became one after the replacement (and the last
		// one's value wins in decoding), at least hold the same bytes.
		unprefix := func(b []byte) []byte { return bytes.ReplaceAll(b, []byte("\n> "), []byte("\n")) }
		gv, gerr := jsonValues(unprefix(g))
		wv, werr := jsonValues(unprefix(w))
		if gerr == nil && werr == nil && (reflect.DeepEqual(gv, wv) || sameByteCounts(g, w)) {
			return ""
		}
	}
	return "bytes differ (v2-backed encoding/json, after v2Normalize)"
}

// v2Normalize writes the escapes of differences 1 and 2 as the characters
// they stand for: \ufffd, and \\ufffd (the escape escaped again in a
// ,string field); with noHTML, \u2028 and \u2029 too (with HTML escaping
// on, both implementations escape them everywhere, so they stay compared). It reads escapes in order, so an
// escaped backslash followed by one of them is not mistaken for the
// doubled form. Both sides go through it, so its few collisions (a string
// holding a backslash and "ufffd") only make the comparison weaker, never
// wrong.
func v2Normalize(b []byte, noHTML bool) []byte {
	out := make([]byte, 0, len(b))
	for i := 0; i < len(b); i++ {
		c := b[i]
		if c != '\\' || i+1 == len(b) {
			out = append(out, c)
			continue
		}
		if b[i+1] == 'u' && i+6 <= len(b) {
			switch string(b[i+2 : i+6]) {
			case "fffd":
				out, i = append(out, "\ufffd"...), i+5
				continue
			case "2028", "2029":
				if noHTML {
					r := "\u2028"
					if b[i+5] == '9' {
						r = "\u2029"
					}
					out, i = append(out, r...), i+5
					continue
				}
			}
		}
		if b[i+1] == '\\' && i+7 <= len(b) && string(b[i+2:i+7]) == "ufffd" {
			out, i = append(out, "\ufffd"...), i+6
			continue
		}
		out, i = append(out, c, b[i+1]), i+1
	}
	return out
}

// sameByteCounts reports whether a and b hold the same bytes, in any order.
func sameByteCounts(a, b []byte) bool {
	var n [256]int
	for _, c := range a {
		n[c]++
	}
	for _, c := range b {
		n[c]--
	}
	return n == [256]int{}
}

// jsonValues decodes every JSON value in b (several for an Encoder's
// stream).
func jsonValues(b []byte) ([]any, error) {
	var vs []any
	d := stdjson.NewDecoder(bytes.NewReader(b))
	for {
		var v any
		if err := d.Decode(&v); err == io.EOF {
			return vs, nil
		} else if err != nil {
			return nil, err
		}
		vs = append(vs, v)
	}
}

// v2Skips reports whether v holds a value of a type of differences 7 or 8
// (a struct with a rejected tag name, a map with float keys, even nil).
func v2Skips(v reflect.Value, depth int) bool {
	if !v.IsValid() || depth > 100 {
		return false
	}
	if v.Type() == reflect.TypeFor[encBadTagNames]() {
		return true
	}
	switch v.Kind() {
	case reflect.Interface, reflect.Pointer:
		return !v.IsNil() && v2Skips(v.Elem(), depth+1)
	case reflect.Slice, reflect.Array:
		for i := range v.Len() {
			if v2Skips(v.Index(i), depth+1) {
				return true
			}
		}
	case reflect.Map:
		if k := v.Type().Key().Kind(); k == reflect.Float32 || k == reflect.Float64 {
			return true
		}
		for it := v.MapRange(); it.Next(); {
			if v2Skips(it.Key(), depth+1) || v2Skips(it.Value(), depth+1) {
				return true
			}
		}
	case reflect.Struct:
		for i := range v.NumField() {
			if v2Skips(v.Field(i), depth+1) {
				return true
			}
		}
	}
	return false
}
