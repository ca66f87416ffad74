package json

import (
	stdjson "encoding/json"
	"math"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

// TestSmallWholeFloats: the static boxes hold 0 to 1023 as float64s, in
// order; anyFloat gives them for those numbers only (not for -0, 1023.5,
// 1024, -1, NaN or the infinities); and an array of all of them decoded
// into an any allocates nothing per number, where boxed in blocks
// (boxFloat) they would take 17 allocations.
func TestSmallWholeFloats(t *testing.T) {
	if len(smallWholeFloats) != 1024 {
		t.Fatalf("%d boxes, want 1024", len(smallWholeFloats))
	}
	for i, x := range smallWholeFloats {
		if f, ok := x.(float64); !ok || f != float64(i) || math.Signbit(f) {
			t.Fatalf("box %d holds %T %v", i, x, x)
		}
	}
	ds := getState()
	defer putState(ds)
	for _, f := range []float64{0, 1, 7, 1023} {
		if got := ds.anyFloat(f); got != any(f) {
			t.Errorf("anyFloat(%v) = %v", f, got)
		}
	}
	for _, f := range []float64{math.Copysign(0, -1), 1023.5, 0.5, 1024, -1, math.NaN(), math.Inf(1), math.Inf(-1), 1e300} {
		got, ok := ds.anyFloat(f).(float64)
		if !ok || math.Float64bits(got) != math.Float64bits(f) {
			t.Errorf("anyFloat(%v) = %v", f, got)
		}
	}

	var b strings.Builder
	b.WriteByte('[')
	for i := range 1024 {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.Itoa(i))
	}
	b.WriteString(",-0,1024]")
	in := []byte(b.String())
	var want, got any
	if err := stdjson.Unmarshal(in, &want); err != nil {
		t.Fatal(err)
	}
	if err := Unmarshal(in, &got); err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("got %v, %v", got, err)
	}
	if s := got.([]any); !math.Signbit(s[1024].(float64)) {
		t.Errorf("-0 lost its sign")
	}
	if !fastChecks(t, "static boxes for small whole numbers") || raceBuild {
		return // (allocation counts are not meaningful under the race detector)
	}
	allocs := testing.AllocsPerRun(10, func() {
		got = nil
		if err := Unmarshal(in, &got); err != nil {
			t.Fatal(err)
		}
	})
	if allocs > 4 {
		t.Errorf("%.0f allocations for 1,026 numbers, want at most 4", allocs)
	}
}
