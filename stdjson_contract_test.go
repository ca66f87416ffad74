package json

import (
	stdjson "encoding/json"
	"errors"
	"io"
	"reflect"
)

// What the differential tests can ask of the toolchain's encoding/json.
//
// jsonpipe decodes as the classic encoding/json does (Go 1.26, and Go 1.27
// with GOEXPERIMENT=nojsonv2) on every toolchain: the same values, error
// types, messages, offsets, Struct and Field (README, "Which encoding/json").
// Where the toolchain builds that classic implementation (stdClassic), every
// differential test compares all of that.
//
// Where encoding/json is built on encoding/json/v2 (Go 1.27's default), its
// error texts, offsets, Struct/Field paths and, in the cases listed in the
// README, its values differ from the classic ones by design. Comparing them
// there would test Go's changes, not ours, so on that toolchain the
// differential tests compare what both implementations promise alike:
//
//   - whether a call fails, and the class of its error (errClass);
//   - the decoded value when both calls succeed (sameValue);
//   - after a failure, the value only for a syntax error, which leaves the
//     target as it was in both (sameValue).
//
// One exception: a type's UnmarshalJSONFrom, which only the v2-backed
// encoding/json calls, is called by jsonpipe there too, with that
// encoding/json's results and errors, so jsonto_go127_test.go compares
// those in full (values, error types, texts, offsets), and
// jsonto_classic_test.go, where neither package calls it, as above.
//
// The exact texts and offsets stay checked on every toolchain by the pinned
// expectations (tokenCases, the conformance baseline, the hand-written wants
// in the tests), and against the classic implementation itself by the runs of
// .ci/run on Go 1.26 and on Go 1.27 with GOEXPERIMENT=nojsonv2.

// errClass is the part of an error that both encoding/json implementations
// agree on: no error, a syntax error or truncated input, the clean end of a
// stream, an invalid Unmarshal target, or anything else (type mismatches,
// errors from Unmarshaler methods, misused ,string tags, bad base64).
func errClass(err error) string {
	var se *SyntaxError
	var sse *stdjson.SyntaxError
	var ie *InvalidUnmarshalError
	switch {
	case err == nil:
		return "ok"
	case err == io.EOF:
		return "EOF"
	case errors.As(err, &se), errors.As(err, &sse), err == io.ErrUnexpectedEOF:
		return "syntax"
	case errors.As(err, &ie):
		return "invalid"
	}
	return "semantic"
}

// diffErr renders an error for a differential comparison: all of it
// (describeError) against the classic encoding/json, its class against the
// v2-backed one.
func diffErr(err error) string {
	if stdClassic {
		return describeError(err)
	}
	return errClass(err)
}

// sameError reports whether our error agrees with encoding/json's as far as
// this toolchain's encoding/json can tell (see above).
func sameError(got, want error) bool { return diffErr(got) == diffErr(want) }

// sameValue reports whether our decoded value agrees with encoding/json's,
// given the errors both returned. Against the classic encoding/json the
// values must be equal whatever happened. Against the v2-backed one, a
// value is compared when both calls succeeded or both failed on syntax (the
// target is then untouched); after any other error the two leave different
// partial results by design: v2 goes on after a string that is not a
// number in a Number and after a misused ,string tag, where the classic one
// stops, and stores a zero where the classic one leaves a nil.
func sameValue(got, want any, gerr, werr error) bool {
	if !stdClassic {
		gc, wc := errClass(gerr), errClass(werr)
		if (gc != "ok" && gc != "syntax" && gc != "EOF") || (wc != "ok" && wc != "syntax" && wc != "EOF") {
			return true
		}
	}
	return reflect.DeepEqual(got, want)
}

// stopsStream reports whether an error ends a differential stream of
// Decode or Token calls: any error but a type mismatch, which both
// implementations report and then go past.
func stopsStream(gerr, werr error) bool {
	if stdClassic {
		return werr != nil && !isTypeError(werr)
	}
	return (werr != nil && !isTypeError(werr)) || (gerr != nil && !isTypeError(gerr))
}

// diffTokenStream prepares a rendered Token stream (tokenStream) for a
// differential comparison: as it is against the classic encoding/json, with
// its errors reduced to their kind (errorOrNot) against the v2-backed one.
func diffTokenStream(s []string) []string {
	if stdClassic {
		return s
	}
	return errorOrNot(s)
}

// v2StreamDifference reports the two results of a Decode that follows
// Token calls which the v2-backed encoding/json gives differently by design
// (README, "Which encoding/json"); a differential stream stops there. Where
// a key is due, the classic encoding/json refuses to Decode ("not at
// beginning of value") and the v2-backed one decodes the key as a string;
// where input ends after a comma, the classic one returns io.EOF and the
// v2-backed one io.ErrUnexpectedEOF. TestDecodeAfterToken pins both.
func v2StreamDifference(gerr, werr error) bool {
	if stdClassic {
		return false
	}
	if se, ok := gerr.(*SyntaxError); ok && se.msg == "not at beginning of value" {
		return true
	}
	return gerr == io.EOF && werr == io.ErrUnexpectedEOF
}
