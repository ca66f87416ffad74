package json

import (
	"bytes"
	stdjson "encoding/json"
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"
)

// TestKeysGuessedAhead: a record with members left out has its keys in
// the same order with gaps, and the key at member index n is matched
// against the guesses after n (guessAhead) without being recorded: after
// a full record, a record without "b" leaves every guess in place, in
// both the one pass and the token path. (Without the look ahead, "c" met
// "b"'s guess and took its place, and so on down the record.)
func TestKeysGuessedAhead(t *testing.T) {
	skipNoFast(t, "key guesses")
	full := []byte(`{"a":1,"b":2,"c":3,"d":4,"e":5}`)
	gaps := []byte(`{"a":1,"c":3,"e":5}`)
	check := func(t *testing.T, ds *decodeState) {
		for n, want := range []string{"a", "b", "c", "d", "e"} {
			if got := ds.keyGuess[guessSlot(0, n)].name; got != want {
				t.Errorf("guess for member %d: %q, want %q", n, got, want)
			}
		}
	}
	t.Run("one pass", func(t *testing.T) {
		ds := statePool.New().(*decodeState) // no guesses from other tests
		defer putState(ds)
		for _, in := range [][]byte{full, gaps} {
			ds.bd.resetBytes(in)
			ds.d = &ds.bd
			v, ok := ds.unmarshalAny(in)
			if !ok {
				t.Fatalf("unmarshalAny(%s) gave up", in)
			}
			var want any
			stdjson.Unmarshal(in, &want)
			if !reflect.DeepEqual(v, want) {
				t.Fatalf("unmarshalAny(%s) = %v, want %v", in, v, want)
			}
		}
		check(t, ds)
	})
	t.Run("tokens", func(t *testing.T) {
		d := NewDecoder(bytes.NewReader(append(append(append(full, '\n'), gaps...), "\n{}"...)))
		d.ds = statePool.New().(*decodeState)
		for _, in := range [][]byte{full, gaps} {
			v := map[string]any{} // merged into: the token path, not the one pass
			if err := d.Decode(&v); err != nil {
				t.Fatal(err)
			}
			var want map[string]any
			stdjson.Unmarshal(in, &want)
			if !reflect.DeepEqual(v, want) {
				t.Fatalf("Decode(%s) = %v, want %v", in, v, want)
			}
		}
		if d.ds == nil {
			t.Skip("the decoder kept no state to look at")
		}
		check(t, d.ds)
	})
}

// TestKeysGuessedAheadAgree decodes records whose members are each left
// out at random, in order, out of order, repeated, with long, escaped and
// spaced keys, into any through Unmarshal (the one pass) and a Decoder
// (the token path), and compares them with encoding/json's values: a key
// matched ahead must be that key, and the values after it its own.
func TestKeysGuessedAheadAgree(t *testing.T) {
	keys := []string{"id", "name", "email", "a_rather_long_key_name", "x", "tags", `caf\u00e9`, "n", "price", "ok", "when", "z"}
	r := rand.New(rand.NewPCG(7, 8))
	var all bytes.Buffer
	var docs [][]byte
	for range 3000 {
		var b bytes.Buffer
		b.WriteByte('{')
		order := make([]int, 0, len(keys))
		for i := range keys {
			if i == 0 || r.IntN(2) == 0 {
				order = append(order, i)
			}
		}
		switch r.IntN(10) {
		case 0: // out of order
			r.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
		case 1: // a key twice
			order = append(order, order[r.IntN(len(order))])
		}
		for j, k := range order {
			if j > 0 {
				b.WriteByte(',')
			}
			sep := ":"
			if r.IntN(20) == 0 {
				sep = " : "
			}
			fmt.Fprintf(&b, `"%s"%s`, keys[k], sep)
			switch r.IntN(4) {
			case 0:
				fmt.Fprintf(&b, "%d", r.IntN(1000))
			case 1:
				fmt.Fprintf(&b, `"v%d"`, r.IntN(1000))
			case 2:
				fmt.Fprintf(&b, `{"id":%d,"x":[1,"two"]}`, r.IntN(10))
			default:
				b.WriteString("null")
			}
		}
		b.WriteByte('}')
		docs = append(docs, b.Bytes())
		all.Write(b.Bytes())
		all.WriteByte('\n')
	}
	d := NewDecoder(bytes.NewReader(all.Bytes()))
	for i, doc := range docs {
		var want any
		if err := stdjson.Unmarshal(doc, &want); err != nil {
			t.Fatal(err)
		}
		var got any
		if err := Unmarshal(doc, &got); err != nil {
			t.Fatalf("doc %d: %v", i, err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("Unmarshal(%s) = %v, want %v", doc, got, want)
		}
		m := map[string]any{} // the token path
		if err := d.Decode(&m); err != nil {
			t.Fatalf("doc %d: %v", i, err)
		}
		if !reflect.DeepEqual(m, want) {
			t.Fatalf("Decode(%s) = %v, want %v", doc, m, want)
		}
	}
}
