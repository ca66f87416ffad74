package json

import (
	"fmt"
	"reflect"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"
	"testing"
)

// Value types for TestWordMapsAgree: structs and arrays of 0 to 17 words
// and more.
type (
	wmName struct {
		Official string `json:"official"`
		Common   string `json:"common,omitempty"`
	}
	wmPoint struct{ X, Y float64 }
	wmMixed struct {
		ID   int64             `json:"id"`
		Tags []string          `json:"tags"`
		Ptr  *wmName           `json:"ptr"`
		Sub  map[string]wmName `json:"sub,omitempty"`
		Ok   bool              `json:"ok,string"`
	}
	wmEight struct {
		A, B, C, D string
	}
	wmNine struct {
		wmEight
		E int
	}
	wmSixteen struct {
		wmEight
		S [4]string
	}
	wmSeventeen struct {
		wmSixteen
		E int
	}
	wmBig struct {
		Rows []wmName
		Tags [20]string
		Ptr  *wmName `json:",omitempty"`
		N    float64
	}
	wmBigJSON struct {
		wmBig
		V smValJSON
	}
	wmSmall struct{ A, B, C int32 } // 12 bytes: not whole words
	wmTree  struct {
		Name string
		Kids map[string]wmTree
	}
	wmWithJSON   struct{ V smValJSON }
	wmWithAny    struct{ V any }
	wmWithPtrTxt struct{ T *smText }
	wmKey        string
)

// TestWordMapsAgree: maps with string-kind keys and struct or array values
// of 0 to 16 whole words, ranged over as map[string][n]uintptr, and of
// more than 128 bytes, ranged over as map[string]unsafe.Pointer
// (wordsMapEncoder), give encoding/json's bytes in every form and mode;
// the types that may not go that way (a value of 12 bytes, or one that
// runs user code or holds an interface) do not, and still agree.
func TestWordMapsAgree(t *testing.T) {
	name := func(i int) wmName { return wmName{fmt.Sprint("name <", i, ">"), strings.Repeat("é", i%3)} }
	n1 := name(1)
	cases := []struct {
		v     any
		words bool // written by wordsMapEncoder
	}{
		{map[string]struct{}{"b": {}, "a": {}}, true},
		{map[string][1]int{"x": {7}}, true},
		{map[string]wmName{"fra": name(1), "deu": name(2), "<&>": name(3), "": {}}, true},
		{map[wmKey]wmName{"z": name(4), "y": name(5)}, true},
		{map[string]wmPoint{"p": {1.5, -2}, "q": {1e21, 0}}, true},
		{map[string][3]string{"s": {"a", "b\n", "c"}}, true},
		{map[string][2]*wmName{"p": {&n1, nil}}, true},
		{map[string]wmMixed{"m": {ID: 1 << 60, Tags: []string{"t"}, Ptr: &n1, Sub: map[string]wmName{"k": n1}, Ok: true}, "z": {}}, true},
		{map[string]wmEight{"e": {"a", "b", "c", "d"}}, true},
		{map[string]wmTree{"root": {Name: "r", Kids: map[string]wmTree{"a": {Name: "a"}, "b": {Name: "b", Kids: map[string]wmTree{}}}}}, true},
		{map[string]wmName(nil), true},
		{map[string]wmName{}, true},
		{map[string]wmNine{"n": {wmEight{"a", "b", "c", "d"}, 9}}, true},
		{map[string]wmSixteen{"n": {wmEight{"a", "b", "c", "d"}, [4]string{"e", "f", "g", "h"}}}, true},
		// Past 128 bytes, kept out of the map's slots: no copy at all.
		{map[string]wmSeventeen{"n": {wmSixteen{S: [4]string{"e"}}, 17}, "m": {}}, true},
		{map[string][129]byte{"b": {1, 2, 3, 128: '<'}}, true},
		{map[string]wmBig{"big": {Rows: []wmName{n1}, Tags: [20]string{"a", 19: "z"}, Ptr: &n1}, "zero": {}}, true},
		{map[string]wmBigJSON{"j": {}}, false},
		{map[string]wmSmall{"s": {1, 2, 3}}, false},
		{map[string]wmWithJSON{"j": {3}}, false},
		{map[string]wmWithAny{"a": {1}, "b": {map[string]any{"x": nil}}}, false},
		{map[string]wmWithPtrTxt{"t": {}}, false},
		{map[string][2]any{"a": {1, "x"}}, false},
		{map[string]smValJSON{"v": 1}, false}, // runs user code (it goes as stringMapEncoder[uint64])
	}
	big := map[string]wmName{}
	for i := range 300 {
		big[fmt.Sprintf("k%03d-%d", (i*37)%300, i)] = name(i)
	}
	cases = append(cases, struct {
		v     any
		words bool
	}{big, true})
	if !indirectMapValues() {
		t.Errorf("indirectMapValues: this runtime keeps values of more than %d bytes in a map's slots", maxInlineMapValue)
	}
	for _, c := range cases {
		mt := reflect.TypeOf(c.v)
		if got := wordsMapEncoder(mt) != nil; got != c.words {
			t.Errorf("%v: written by wordsMapEncoder %v, want %v", mt, got, c.words)
		}
		if d := diffMarshalValue(c.v); d != "" {
			t.Errorf("%v: %s", mt, d)
		}
	}
}

// TestWordMapsUnderGC: the copies wordsMapEncoder writes from hide their
// pointers from the garbage collector; the map keeps the originals alive.
// Maps whose strings are referenced by nothing else, written through an
// Encoder while collections run, give the bytes written before, and
// nothing is freed under the copies. (A stress, not a proof: the map is
// live to the encoder's end anyway, as es.leave reads its pointer last;
// its worth is in running under -race, where checkptr checks every
// pointer the encoders derive from the copies.)
func TestWordMapsUnderGC(t *testing.T) {
	make1 := func(i int) map[string]wmMixed {
		m := map[string]wmMixed{}
		for j := range 20 {
			k := fmt.Sprint("key", j, "-", i)
			s := strings.Repeat(fmt.Sprint(j), 1+j%5)
			m[k] = wmMixed{ID: int64(i*100 + j), Tags: []string{s, k + s}, Ptr: &wmName{Official: s + k}}
		}
		return m
	}
	want := make([]string, 16)
	for i := range want {
		b, err := Marshal(make1(i))
		if err != nil {
			t.Fatal(err)
		}
		want[i] = string(b)
	}
	defer debug.SetGCPercent(debug.SetGCPercent(1)) // a collection every few maps
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		for {
			select {
			case <-stop:
				return
			default:
				runtime.GC()
			}
		}
	})
	rounds := 2000
	if testing.Short() {
		rounds = 200
	}
	var sb strings.Builder
	enc := NewEncoder(&sb)
	for r := range rounds {
		i := r % len(want)
		sb.Reset()
		if err := enc.Encode(make1(i)); err != nil {
			t.Fatal(err)
		}
		if got := strings.TrimSuffix(sb.String(), "\n"); got != want[i] {
			t.Fatalf("round %d: got %.200s\nwant %.200s", r, got, want[i])
		}
	}
	close(stop)
	wg.Wait()
}
