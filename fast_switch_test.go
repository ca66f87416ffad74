package json

import (
	"runtime/debug"
	"slices"
	"strings"
	"testing"
	"unsafe"
)

// TestFastPathSwitch checks that the jsonpipe_nofast build tag, as the
// test binary's build information records it, turns the fast paths off
// (fast_on.go, fast_off.go), and that it shows: the string cache hands out
// one string for two equal values decoded into an any (typed plain ASCII
// ones of up to maxLongBlockString bytes are copied without a lookup) in
// the default build, and two strings, each made on its own, without the
// fast paths.
func TestFastPathSwitch(t *testing.T) {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		t.Fatal("no build information in the test binary")
	}
	tagged := false
	for _, s := range bi.Settings {
		if s.Key == "-tags" {
			tagged = slices.Contains(strings.Split(s.Value, ","), "jsonpipe_nofast")
		}
	}
	if fastPaths == tagged {
		t.Fatalf("fastPaths is %v in a build with the jsonpipe_nofast tag %v", fastPaths, tagged)
	}
	var v []any
	long := strings.Repeat("repeated", 20)
	if err := Unmarshal([]byte(`["`+long+`","`+long+`"]`), &v); err != nil {
		t.Fatal(err)
	}
	if len(v) != 2 || v[0] != long || v[1] != long {
		t.Fatalf("got %q", v)
	}
	shared := unsafe.StringData(v[0].(string)) == unsafe.StringData(v[1].(string))
	if shared != fastPaths {
		t.Errorf("two equal strings share their bytes: %v; want %v (fastPaths %v)", shared, fastPaths, fastPaths)
	}
}

// skipNoFast skips a test of what a fast path itself does (what it
// allocates, which path it takes, what its cache holds) in the
// jsonpipe_nofast build, which has no such path; why names it.
func skipNoFast(t testing.TB, why string) {
	t.Helper()
	if !fastPaths {
		t.Skip(why + ": the jsonpipe_nofast build has none")
	}
}

// fastChecks reports whether a test's checks of what a fast path itself
// does apply; in the jsonpipe_nofast build they do not, and it logs why
// (the test's checks of values and errors still run).
func fastChecks(t testing.TB, why string) bool {
	t.Helper()
	if !fastPaths {
		t.Log("not checked: " + why + ": the jsonpipe_nofast build has none")
	}
	return fastPaths
}
