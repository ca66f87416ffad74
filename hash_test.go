package json

import (
	"fmt"
	"math"
	"testing"
)

// TestStringHashSpreads: strings that differ only in a few bytes (ids,
// dates, times and URLs that differ in their last digits, words in their
// last letters, codes) take about as many slots of the string table as
// random slots would: each slot holds one string, so strings that share
// one evict each other and are made again each time they come back.
func TestStringHashSpreads(t *testing.T) {
	const n = 600
	sets := map[string]func(i int) string{
		"ids":   func(i int) string { return fmt.Sprintf("user-%d", 1000+i) },
		"urls":  func(i int) string { return fmt.Sprintf("https://api.github.com/repos/octo/hello/issues/%d", 1300+i) },
		"times": func(i int) string { return fmt.Sprintf("2024-05-01T10:%02d:%02dZ", i/60, i%60) },
		"words": func(i int) string { return fmt.Sprintf("abcdef%c%c", 'a'+i/26%26, 'a'+i%26) },
		"short": func(i int) string { return fmt.Sprintf("k%c%c", 'a'+i/26%26, 'a'+i%26) },
		"codes": func(i int) string { return fmt.Sprintf("%c%c", 'A'+i/26%26, 'A'+i%26) },
		"nums":  func(i int) string { return fmt.Sprint(85370 + i*7919) },
		"mid17": func(i int) string { return fmt.Sprintf("aaaaaa%05dbbbbbb", i) }, // the middle word's bytes
	}
	// The slots n random strings take, on average: 1024(1 - e^(-n/1024)),
	// about 454; a set passes with 80% of that.
	want := int(0.8 * stringCacheSize * (1 - math.Exp(-float64(n)/stringCacheSize)))
	for name, f := range sets {
		slots := map[uint32]bool{}
		for i := range n {
			slots[stringSlot(stringHash([]byte(f(i))))] = true
		}
		if len(slots) < want {
			t.Errorf("%s: %d strings such as %q take %d slots; want at least %d", name, n, f(1), len(slots), want)
		}
	}
}
