package json

import (
	"strings"
	"testing"
)

func TestValid(t *testing.T) {
	for _, tc := range tokenCases {
		want := tc.err == "" && len(tc.tokens) > 0 && !strings.HasPrefix(tc.name, "stream")
		if got := Valid([]byte(tc.in)); got != want {
			t.Errorf("%s: Valid(%q) = %v, want %v", tc.name, tc.in, got, want)
		}
	}
	for _, in := range []string{`{} x`, `1 2`, `[1] [2]`, "\ufeff{}"} {
		if Valid([]byte(in)) {
			t.Errorf("Valid(%q) = true", in)
		}
	}
}

// TestUnmarshalSyntaxErrors checks the errors checkOne gives (what Unmarshal
// reports for a syntax error) against encoding/json's, message and offset.
func TestUnmarshalSyntaxErrors(t *testing.T) {
	for _, tc := range tokenCases {
		if strings.HasPrefix(tc.name, "stream") {
			continue
		}
		if got, want := ourCheck([]byte(tc.in)), stdCheck([]byte(tc.in)); !sameError(got, want) {
			t.Errorf("%s: %q\n got  %s\n want %s", tc.name, tc.in, errString(got), errString(want))
		}
	}
}
