package order

import (
	"slices"
	"strconv"
	"testing"
)

// TestOf checks that without a round the list is kept, that with one each
// round and name gives a permutation, the same on every call, and that
// over ten rounds of two benchmarks several libraries come first and
// several come right after a given one, and that the name is in the seed.
func TestOf(t *testing.T) {
	listed := []string{"jsonpipe", "encoding_json", "goccy", "sonic", "sonic_std"}
	was := slices.Clone(listed)
	for _, v := range []string{"", "x"} {
		t.Setenv(Env, v)
		if got := Of(listed, "a"); !slices.Equal(got, listed) {
			t.Fatalf("%s=%q: %v, want the listed order %v", Env, v, got, listed)
		}
	}
	firsts := map[string]bool{}
	after := map[string]bool{} // who ran right after encoding_json
	differ := false            // the two names ordered otherwise in some round
	for round := 1; round <= 10; round++ {
		t.Setenv(Env, strconv.Itoa(round))
		var prev []string
		for _, name := range []string{"BenchmarkShapes/case=a/form=doc/op=marshal", "BenchmarkShapes/case=b/form=doc/op=marshal"} {
			got := Of(listed, name)
			if again := Of(listed, name); !slices.Equal(got, again) {
				t.Fatalf("round %d, %s: %v, then %v", round, name, got, again)
			}
			if !slices.Equal(slices.Sorted(slices.Values(got)), slices.Sorted(slices.Values(listed))) {
				t.Fatalf("round %d, %s: %v is not a permutation of %v", round, name, got, listed)
			}
			firsts[got[0]] = true
			if i := slices.Index(got, "encoding_json"); i+1 < len(got) {
				after[got[i+1]] = true
			}
			if prev != nil && !slices.Equal(prev, got) {
				differ = true
			}
			prev = got
		}
	}
	if len(firsts) < 3 || len(after) < 3 {
		t.Errorf("over 10 rounds of two benchmarks, first: %v, after encoding_json: %v; want each of at least 3 libraries", firsts, after)
	}
	if !differ {
		t.Errorf("two benchmarks ran their libraries in one order in each of 10 rounds: the name is not in the seed")
	}
	if !slices.Equal(listed, was) {
		t.Errorf("Of changed the list it was given: %v, was %v", listed, was)
	}
}
