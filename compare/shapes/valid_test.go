package shapes

import (
	stdjson "encoding/json"
	"fmt"
	"strings"
	"testing"
)

// notJSON is input that encoding/json's Valid rejects, most of it inside
// strings, where a validator that only finds the closing quote accepts it.
var notJSON = []string{
	`["\q"]`,          // an escape JSON does not have
	`["\x41"]`,        // nor this one
	`["\u12"]`,        // \u with two hex digits
	`["\u12zz"]`,      // \u with letters that are not hex
	"[\"a\x01b\"]",    // a raw control character
	"[\"tab\there\"]", // a raw tab
	`["\"]`,           // the closing quote escaped: no end
	`[1.]`,            // a number without its fraction
	`[01]`,            // a leading zero
	`[1,]`,            // a trailing comma
	`{"a" 1}`,         // no colon
	`[tru]`,           // a truncated literal
}

// laxValid lists the libraries whose Valid is known to accept some of
// notJSON, and why. Their Valid does other (less) work than encoding/json's,
// so its speed is no target: benchmarks/report.py leaves them out of the
// op=valid ratios (VALID_LAX there), and TestValidRejects fails when this
// list stops being true, either way.
var laxValid = map[string]string{
	"sonic":     "sonic's Valid skips strings to their closing quote without checking escapes or control characters",
	"sonic_std": "ConfigStd's Valid is the same skip",
}

// TestValidRejects checks every library's Valid against encoding/json's
// verdict on notJSON: jsonpipe and the timed peers must reject all of it,
// but for the libraries in laxValid, which must still accept some.
func TestValidRejects(t *testing.T) {
	for _, s := range notJSON {
		if stdjson.Valid([]byte(s)) {
			t.Fatalf("encoding/json accepts %q: not a test input", s)
		}
	}
	for _, im := range allImpls() {
		var accepted []string
		for _, s := range notJSON {
			if im.valid([]byte(s)) {
				accepted = append(accepted, fmt.Sprintf("%q", s))
			}
		}
		why, lax := laxValid[im.name]
		switch {
		case len(accepted) > 0 && lax:
			t.Logf("valid-lax %s: accepts %s (%s)", im.name, strings.Join(accepted, " "), why)
		case len(accepted) > 0 && (im.timed || im.name == "jsonpipe"):
			t.Errorf("%s's Valid accepts %s, which encoding/json rejects", im.name, strings.Join(accepted, " "))
		case len(accepted) > 0:
			t.Logf("%s (not timed) accepts %s", im.name, strings.Join(accepted, " "))
		case lax:
			t.Errorf("%s's Valid now rejects all of notJSON: take it out of laxValid and VALID_LAX in benchmarks/report.py", im.name)
		}
	}
}
