package json

import (
	"bytes"
	"encoding/binary"
	stdjson "encoding/json"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/jsonpipe/json/internal/chunkio"
)

// refPlainKeyLen is plainKeyLen byte by byte.
func refPlainKeyLen(w []byte) int {
	for k := 1; k < 16; k++ {
		switch c := w[k]; {
		case c == '"':
			return k + 1
		case c == '\\' || c < 0x20 || c >= 0x80:
			return 0
		}
	}
	return 0
}

// TestPlainKeyLen: plainKeyLen against a byte loop, on bytes drawn mostly
// from the ones its word tests tell apart (the stops and their neighbours,
// where a borrow would show), and plainName agreeing with it: a key it
// takes has a name findWords knows, if any field has it.
func TestPlainKeyLen(t *testing.T) {
	r := rand.New(rand.NewPCG(36, 2))
	near := []byte{'"', '\\', 0x00, 0x01, 0x1f, 0x20, 0x21, 0x23, 0x5b, 0x5d, 0x5e, 0x7f, 0x80, 0xc3, 0xff, 'a', 'Z', ':'}
	var w [16]byte
	for range 1_000_000 {
		for k := range w {
			if r.IntN(3) == 0 {
				w[k] = byte(r.Uint32())
			} else {
				w[k] = near[r.IntN(len(near))]
			}
			if r.IntN(2) == 0 { // mostly plain bytes, so that long keys come too
				w[k] = byte(0x20 + r.IntN(0x60))
			}
		}
		if r.IntN(2) == 0 {
			w[1+r.IntN(15)] = '"'
		}
		got, w0, w1 := plainKeyLen(binary.LittleEndian.Uint64(w[:8]), binary.LittleEndian.Uint64(w[8:]))
		if want := refPlainKeyLen(w[:]); got != want {
			t.Fatalf("plainKeyLen(%q) = %d, want %d", w, got, want)
		}
		if got == 0 {
			if w0 != 0 || w1 != 0 {
				t.Fatalf("plainKeyLen(%q) = 0, %#x, %#x: want no words", w, w0, w1)
			}
			continue
		}
		var k [16]byte // the token, the bytes past it zero
		copy(k[:], w[:got])
		if w0 != binary.LittleEndian.Uint64(k[:8]) || w1 != binary.LittleEndian.Uint64(k[8:]) {
			t.Fatalf("plainKeyLen(%q) = %d, %#x, %#x: want the words of %q", w, got, w0, w1, k)
		}
		if name := string(w[1 : got-1]); !plainName(name) {
			t.Fatalf("plainKeyLen takes %q, plainName(%q) is false", w[:got], name)
		}
	}
	for _, name := range []string{"", "a", "fourteen_bytes", "fifteen_bytes__", "a\"b", "a\\b", "tab\t", "é", "del\x7f", "#", "]"} {
		tok := make([]byte, 16, 32)
		copy(tok, `"`+name+`"`)
		n, _, _ := plainKeyLen(binary.LittleEndian.Uint64(tok[:8]), binary.LittleEndian.Uint64(tok[8:]))
		taken := n == len(name)+2
		if taken != plainName(name) {
			t.Errorf("name %q: plainKeyLen takes its key %v, plainName %v", name, taken, plainName(name))
		}
	}
}

// randomName returns a name of 1 to 16 bytes, ASCII letters, digits and
// punctuation, and, one time in ten, one of special in it.
func randomName(r *rand.Rand, special ...byte) string {
	const alphabet = "abcXYZ019_ -#]!~:{}."
	b := make([]byte, 1+r.IntN(16))
	for i := range b {
		b[i] = alphabet[r.IntN(len(alphabet))]
	}
	if r.IntN(10) == 0 {
		b[r.IntN(len(b))] = special[r.IntN(len(special))]
	}
	return string(b)
}

// TestFindWords: findWords finds a struct's field by a plain key exactly
// when the key is its name, among up to 60 names of 1 to 16 bytes (some
// not plain: too long, escaped in a key, non-ASCII), against a map.
func TestFindWords(t *testing.T) {
	r := rand.New(rand.NewPCG(36, 3))
	word := func() string { return randomName(r, '"', '\\', 0xc3, '\t') }
	for round := range 300 {
		sd := &structDecoder{}
		index := map[string]int{}
		for n := 1 + r.IntN(60); len(sd.fields) < n; {
			name := word()
			if _, dup := index[name]; dup {
				continue
			}
			index[name] = len(sd.fields)
			sd.fields = append(sd.fields, fieldDecoder{keyMatch: keyMatch{name: name}, index: len(sd.fields)})
		}
		sd.buildWords()
		var keys []string
		for name := range index {
			keys = append(keys, name, strings.ToUpper(name), name[:len(name)-1], name+"a")
		}
		for range 50 {
			keys = append(keys, word())
		}
		for _, key := range keys {
			w := []byte(`"` + key + `"` + ":{garbage past the key}")[:16]
			n, w0, w1 := plainKeyLen(binary.LittleEndian.Uint64(w), binary.LittleEndian.Uint64(w[8:]))
			if n != len(key)+2 {
				continue // not a plain key: plainKey leaves it to memberKey
			}
			tok := w[:n]
			got := sd.findWords(w0, w1)
			i, ok := index[key]
			switch {
			case ok && (got == nil || got.index != i):
				t.Fatalf("round %d: findWords(%s) = %v, want field %d", round, tok, got, i)
			case !ok && got != nil:
				t.Fatalf("round %d: findWords(%s) = field %d (%q), want none", round, tok, got.index, got.name)
			}
		}
	}
}

// TestFieldAt: fieldAt finds a struct's field by the start of a member
// only where the member starts with that field's `"name":` (in either case
// of its ASCII letters where no two fields fold alike), never another
// field, and never one whose name is too long for its two words to hold
// (whose masks are 0); among up to 60 names of 1 to 16 bytes, against
// keyMatch's own compare. Where the names' starts differ (a struct of
// twelve common names), it finds every field.
func TestFieldAt(t *testing.T) {
	r := rand.New(rand.NewPCG(41, 1))
	word := func() string { return randomName(r, 0xc3) }
	build := func(names []string, fold bool) *structDecoder {
		sd := &structDecoder{}
		for i, name := range names {
			sd.fields = append(sd.fields, fieldDecoder{keyMatch: keyMatch{name: name}, index: i})
			sd.fields[i].prepareKey(fold)
		}
		sd.buildStarts()
		return sd
	}
	at := func(sd *structDecoder, member string) *fieldDecoder {
		w := []byte(member + strings.Repeat("~", 16))[:16]
		return sd.fieldAt(binary.LittleEndian.Uint64(w), binary.LittleEndian.Uint64(w[8:]))
	}
	// matches is expectKey's verdict, written out.
	matches := func(f *fieldDecoder, member string) bool {
		key, ok := strings.CutPrefix(member, `"`)
		if !ok {
			return false
		}
		i := strings.Index(key, `":`)
		if i < 0 {
			return false
		}
		key = key[:i]
		return key == f.name || f.fold && asciiFoldEqual([]byte(key), f.name)
	}
	for round := range 300 {
		fold := round%2 == 0
		seen := map[string]bool{}
		var names []string
		for n := 1 + r.IntN(60); len(names) < n; {
			name := word()
			k := name
			if fold {
				k = strings.ToLower(name)
			}
			if seen[k] {
				continue
			}
			seen[k] = true
			names = append(names, name)
		}
		sd := build(names, fold)
		var members []string
		for _, name := range names {
			members = append(members, `"`+name+`":1`, `"`+strings.ToUpper(name)+`":1`,
				`"`+name+`" :1`, `"`+name+`x":1`, `"`+name[:len(name)-1]+`":1`, name+`":1`)
		}
		for range 50 {
			members = append(members, `"`+word()+`":1`)
		}
		for _, m := range members {
			got := at(sd, m)
			if got == nil {
				continue
			}
			if got.keyLen == 0 || !matches(got, m) {
				t.Fatalf("round %d: fieldAt(%s) = field %d (%q, fold %v), which it does not start", round, m, got.index, got.name, got.fold)
			}
		}
	}
	names := []string{"id", "name", "email", "age", "score", "active", "created_at", "city", "zip", "balance", "visits", "phone"}
	sd := build(names, true)
	for i, name := range names {
		for _, m := range []string{`"` + name + `":1`, `"` + strings.ToUpper(name) + `":"x"`} {
			if got := at(sd, m); got == nil || got.index != i {
				t.Errorf("fieldAt(%s) = %v, want field %d", m, got, i)
			}
		}
	}
	// A long name's field is never found, though a member starts as it.
	sd = build([]string{"a_name_past_thirteen", "b"}, false)
	if got := at(sd, `"a_name_past_thirteen":1`); got != nil {
		t.Errorf("fieldAt found %q, whose name is too long to compare", got.name)
	}
	if got := at(sd, `"b":1`); got == nil || got.name != "b" {
		t.Errorf(`fieldAt("b":1) = %v, want field b`, got)
	}
}

type plainKeys struct {
	A string  `json:"thirteen_byte"`
	B string  `json:"fourteen_bytes"`
	C string  `json:"fifteen_bytes__"`
	D int     `json:"#tag"`
	E int     `json:"]x"`
	F float64 `json:"a b"`
	G bool    `json:"id"`
	H *int    `json:"NAME"`
	I string  `json:"name"`
	J []int   `json:"list"`
}

// TestPlainKeysAgree: records whose members come in a new order each time
// (so that keys miss the field expected and are read by plainKey), with
// keys of 13 to 16 bytes around the two words' limit, keys in another
// case, escaped, unknown and empty, a member twice, space before the ':',
// against encoding/json, as checkDecodeAgrees decodes them, and read in
// pieces of random sizes (keys, and their ':', at the window's end).
func TestPlainKeysAgree(t *testing.T) {
	r := rand.New(rand.NewPCG(36, 4))
	keys := [][]string{
		{`"thirteen_byte"`, `"THIRTEEN_BYTE"`, `"thirteen_byt\u0065"`},
		{`"fourteen_bytes"`, `"Fourteen_Bytes"`},
		{`"fifteen_bytes__"`, `"FIFTEEN_BYTES__"`},
		{`"#tag"`, `"#TAG"`},
		{`"]x"`, `"]X"`},
		{`"a b"`, `"A B"`},
		{`"id"`, `"ID"`, `"\u0069d"`},
		{`"NAME"`, `"nAME"`},
		{`"name"`, `"Name"`},
		{`"list"`, `"LIST"`},
	}
	values := []string{`"a"`, `"b"`, `"c"`, `4`, `-5`, `6.5`, `true`, `null`, `"n"`, `[1,2]`}
	unknown := []string{`"thirteen_bytf"`, `"fourteen_byte"`, `"fifteen_bytes_"`, `"sixteen_bytes___"`, `""`, `"x"`, `"é"`, `"id\n"`}
	for round := range 400 {
		var b strings.Builder
		b.WriteString("[")
		for i := range 1 + r.IntN(8) {
			if i > 0 {
				b.WriteString(",")
			}
			b.WriteString("{")
			n := 0
			for _, k := range r.Perm(len(keys)) {
				if r.IntN(5) == 0 {
					continue
				}
				if n > 0 {
					b.WriteString([]string{",", ", ", ",\n "}[r.IntN(3)])
				}
				n++
				colon := []string{":", ":", " :", "\n: "}[r.IntN(4)]
				if r.IntN(6) == 0 {
					b.WriteString(unknown[r.IntN(len(unknown))] + colon + `{"a":[1]},`)
				}
				key := keys[k][0]
				if r.IntN(4) == 0 {
					key = keys[k][r.IntN(len(keys[k]))]
				}
				b.WriteString(key + colon + values[k])
				if r.IntN(8) == 0 { // a member again, later: its value wins
					b.WriteString("," + keys[k][0] + colon + values[(k+1)%len(values)])
				}
			}
			b.WriteString("}")
		}
		b.WriteString("]")
		data := []byte(b.String())
		checkDecodeAgrees[[]plainKeys](t, round, data)
		// Read in pieces of 1 to 40 bytes: keys, and the ':' after them,
		// at the window's end.
		sizes := make([]int, 1+r.IntN(8))
		for i := range sizes {
			sizes[i] = 1 + r.IntN(40)
		}
		var got, want []plainKeys
		werr := stdjson.Unmarshal(data, &want)
		err := NewDecoder(&chunkio.Reader{R: bytes.NewReader(data), Sizes: sizes}).Decode(&got)
		if !sameError(err, werr) || !reflect.DeepEqual(got, want) {
			t.Fatalf("round %d, read in pieces of %v: Decode(%s) = %+v, %v; encoding/json: %+v, %v", round, sizes, data, got, err, want, werr)
		}
	}
}

type orderedInts struct {
	Alpha   int `json:"alpha"`
	Bravo   int `json:"bravo"`
	Charlie int `json:"charlie"`
	Delta   int `json:"delta"`
	Echo    int `json:"echo"`
	Foxtrot int `json:"foxtrot"`
}

// TestKeysOutOfOrderAllocs proves that keys out of order allocate nothing:
// records whose members come in a new order each (read by plainKey,
// looked up by findWords, the guesses ended), in one order not the
// struct's (the remembered keys' slots), left out, and `{}`, into an array
// of structs of ints.
func TestKeysOutOfOrderAllocs(t *testing.T) {
	if raceBuild {
		t.Skip("allocation counts are not meaningful under the race detector")
	}
	keys := []string{"alpha", "bravo", "charlie", "delta", "echo", "foxtrot"}
	r := rand.New(rand.NewPCG(36, 5))
	record := func(order []int) string {
		var b strings.Builder
		for j, k := range order {
			if j > 0 {
				b.WriteString(",")
			}
			b.WriteString(`"` + keys[k] + `":` + string(rune('1'+k)))
		}
		return "{" + b.String() + "}"
	}
	for _, name := range []string{"shuffled", "sorted backwards", "some left out"} {
		recs := make([]string, 16)
		for i := range recs {
			switch name {
			case "shuffled":
				recs[i] = record(r.Perm(len(keys)))
			case "sorted backwards":
				recs[i] = record([]int{5, 4, 3, 2, 1, 0})
			default:
				recs[i] = record([]int{0, 2, 5}[:1+i%3])
			}
		}
		recs[7] = "{}"
		in := []byte("[" + strings.Join(recs, ",") + "]")
		allocs, out := unmarshalAllocs[[16]orderedInts](t, 200, in)
		if allocs != 0 {
			t.Errorf("%s: %v allocations a call, want 0", name, allocs)
		}
		var want [16]orderedInts
		if err := stdjson.Unmarshal(in, &want); err != nil || out != want {
			t.Errorf("%s: got %+v, encoding/json %+v (%v)", name, out, want, err)
		}
	}
}
