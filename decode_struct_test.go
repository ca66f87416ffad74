package json

import (
	"bytes"
	"encoding/binary"
	stdjson "encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/iotest"
	"unsafe"
)

// TestExpectKey: expectKey matches a member start spelt as the name or, as
// when no two fields fold alike, with its letters in another case, with
// or without space around the ':', for every name
// length and wherever the window ends, and consumes exactly the ',', the
// key and the ':'; it takes nothing else. A wrong answer here would not
// change what Unmarshal returns (lookup finds the field anyway), only how
// fast, so it is checked directly.
func TestExpectKey(t *testing.T) {
	skipNoFast(t, "expectKey, the match of an expected key in place,")
	for n := 1; n <= 20; n++ {
		name := "K" + strings.Repeat("x", n-1)
		f := &keyMatch{name: name}
		f.prepareKey(true)
		other := name[:n-1] + "y"
		for _, c := range []struct {
			member string
			match  bool
		}{
			{`"` + name + `":`, true},
			{`"k` + name[1:] + `":`, true},
			{`"` + name + `" :`, true},
			{`"k` + name[1:] + "\"\n\t:", true},
			{` "` + name + `":`, true},
			{`"` + other + `":`, false},
			{`"` + name + `x":`, false},
			{`"` + name[:n-1] + `":`, false},
			{`"` + strings.ToUpper(name) + `":`, true},
			{`"` + strings.ToLower(name) + `":`, true},
			{`"` + name[:n-1] + strings.ToUpper(name[n-1:]) + `":`, true},
			{`"` + strings.ToUpper(other) + `":`, false},
			{`"` + name + `"`, false},
		} {
			// Before a key that is not the first: its ',', right after
			// the value or after whitespace (commaAfterSpace).
			for _, lead := range []string{"", ",", " ,", "\n\t ,"} {
				first := lead == ""
				for _, tail := range []string{"1}", "1" + strings.Repeat(" ", 30) + "}"} {
					data := []byte("{" + lead + c.member + tail)
					var d Decoder
					d.resetBytes(data)
					d.s.br.offset = 1
					got, atKey := expectKey(&d, first, f)
					if got != c.match || !atKey {
						t.Fatalf("expectKey(%q, first=%v, name %q) = %v, %v; want %v, true", data, first, name, got, atKey, c.match)
					}
					// A miss keeps the ',' and the space before the key.
					want := 1 + len(lead) + len(c.member) - len(strings.TrimLeft(c.member, " "))
					if got {
						want = 1 + len(lead) + len(c.member)
					}
					if d.s.br.offset != want {
						t.Fatalf("expectKey(%q, name %q) left the offset at %d, want %d", data, name, d.s.br.offset, want)
					}
				}
			}
		}
		// No ',' where one must come: only whitespace is consumed.
		for _, c := range []struct {
			data string
			want int
		}{{"{1 }", 3}, {"{1}", 2}, {"{1", 2}, {"{1 \n", 4}, {"{1 :", 3}} {
			var d Decoder
			d.resetBytes([]byte(c.data))
			d.s.br.offset = 2
			if hit, atKey := expectKey(&d, false, f); hit || atKey || d.s.br.offset != c.want {
				t.Fatalf("expectKey(%q at 2) = %v, %v and left the offset at %d, want false, false, %d", c.data, hit, atKey, d.s.br.offset, c.want)
			}
		}
	}
}

// TestSetToken: the guess made from a key's token (its words loaded from
// the data) is the one prepareKey builds from the name, for every name
// length, whatever follows the token (a ':', space, the data's end, bytes
// of other keys) and at every capacity from the token's length up (below
// 16 bytes, built from the name); and for a body of invalid UTF-8, whose
// value is not its bytes.
func TestSetToken(t *testing.T) {
	for n := 1; n <= 16; n++ {
		name := strings.Repeat("k", n-1) + "z"
		want := keyMatch{name: name}
		want.prepareKey(false)
		for _, tail := range []string{`:1`, ` :1`, `:`, ``, `,"` + name + `":2`, strings.Repeat(`"`, 20), strings.Repeat("\xff", 20)} {
			tok := []byte(`"` + name + `"` + tail)
			for c := len(name) + 2; c <= len(tok); c++ {
				got := keyMatch{name: "old", fold: true, fold0: 1, keyLen: 3}
				got.setToken(name, tok[:len(name)+2:c])
				if got != want {
					t.Fatalf("setToken(%q, capacity %d) = %+v, want %+v", tok[:c], c, got, want)
				}
			}
		}
	}
	// A body of invalid UTF-8: the name is its value (U+FFFD for each
	// bad byte), not its bytes, and the match is the name's.
	for _, c := range []struct{ tok, name string }{
		{"\"\x80\"00:0000000000", "\ufffd"},
		{"\"a\xff\"  :1" + strings.Repeat(" ", 16), "a\ufffd"},
		{"\"\xe2\x82\":1" + strings.Repeat(" ", 16), "\ufffd\ufffd"},
	} {
		want := keyMatch{name: c.name}
		want.prepareKey(false)
		tok := []byte(c.tok)
		end := bytes.IndexByte(tok[1:], '"') + 2
		var got keyMatch
		got.setToken(c.name, tok[:end])
		if got != want {
			t.Fatalf("setToken(%q, %q) = %+v, want %+v", c.name, tok[:end], got, want)
		}
	}
}

// TestExpectKeyFold: the fold bits are an ASCII letter's only: bytes that
// differ by 0x20 but are not letters ('@' and '`', '[' and '{', digits and
// control bytes) never match, and without fold (two fields fold alike)
// only the name itself does.
func TestExpectKeyFold(t *testing.T) {
	skipNoFast(t, "expectKey, the match of an expected key in place,")
	for _, c := range []struct {
		name, key string
		fold      bool
		match     bool
	}{
		{"a@1_z", "A@1_Z", true, true},
		{"a@1_z", "a`1_z", true, false},
		{"a[z", "a{z", true, false},
		{"a[z", "A[Z", true, true},
		{"x1", "x\u0011", true, false},
		{"Kz", "\u212az", true, false}, // the Kelvin sign folds to k: lookup's, not this test's
		{"Name", "name", false, false},
		{"Name", "Name", false, true},
		{"LongerThanThirteen", "longerthanthirteen", true, true},
		{"LongerThanThirteen", "longerthanthirteen", false, false},
		{"Longer@ThanThirteen", "longer`thanthirteen", true, false},
	} {
		f := &keyMatch{name: c.name}
		f.prepareKey(c.fold)
		data := []byte(`{"` + c.key + `":1` + strings.Repeat(" ", 20) + "}")
		var d Decoder
		d.resetBytes(data)
		d.s.br.offset = 1
		if got, _ := expectKey(&d, true, f); got != c.match {
			t.Errorf("expectKey(%s, name %q, fold %v) = %v, want %v", data, c.name, c.fold, got, c.match)
		}
	}
}

// Structs for TestKeyCaseAgree: one whose fields all fold apart (every key
// spelt in any case is one field's), one where two fold alike.
type keyCaseUnique struct {
	Name      string
	Email     string `json:"EMail"`
	ID        int
	URLPath   string `json:"url_path"`
	At1       int    `json:"at@1"`
	Kind      string
	LongField string `json:"LongerThanThirteen"`
}

type keyCaseTwins struct {
	Name  string
	NAME  string `json:"NAME"`
	Other int
}

// TestKeyCaseAgree: keys spelt in every case (the name, lower, upper,
// each letter at random, the Kelvin sign for a k), in order, shuffled and
// repeated, decode as encoding/json decodes them, into fresh and filled
// values: expectKey's folded match takes a key only where lookup would.
func TestKeyCaseAgree(t *testing.T) {
	r := rand.New(rand.NewPCG(27, 11))
	spell := func(name string, how int) string {
		switch how {
		case 0:
			return name
		case 1:
			return strings.ToLower(name)
		case 2:
			return strings.ToUpper(name)
		case 3:
			if stdClassic && strings.ContainsAny(name, "kK") {
				return strings.Replace(strings.Replace(name, "k", "\u212a", 1), "K", "\u212a", 1)
			}
		}
		b := []byte(name)
		for i, c := range b {
			if ('a' <= c|0x20 && c|0x20 <= 'z') && r.IntN(2) == 0 {
				b[i] ^= 0x20
			}
		}
		return string(b)
	}
	check := func(names []string, values []string, newV func() any) {
		t.Helper()
		for round := range 300 {
			var b strings.Builder
			b.WriteString("{")
			order := r.Perm(len(names))
			if round%3 == 0 {
				order = append(order, r.IntN(len(names))) // a key again: the last wins
			}
			for k, i := range order {
				if k > 0 {
					b.WriteString([]string{",", ", ", ",\n "}[r.IntN(3)])
				}
				fmt.Fprintf(&b, "%q%s%s", spell(names[i], r.IntN(5)), []string{":", " : "}[r.IntN(2)], values[i])
			}
			b.WriteString("}")
			data := []byte(b.String())
			for _, filled := range []bool{false, true} {
				got, want := newV(), newV()
				if filled {
					fill := []byte(`{"Name":"x","EMail":"y","ID":7,"NAME":"z","Other":9}`)
					stdjson.Unmarshal(fill, got)
					stdjson.Unmarshal(fill, want)
				}
				errGot, errWant := Unmarshal(data, got), stdjson.Unmarshal(data, want)
				if (errGot == nil) != (errWant == nil) || !reflect.DeepEqual(got, want) {
					t.Fatalf("Unmarshal(%s) = %+v, %v; encoding/json: %+v, %v", data, got, errGot, want, errWant)
				}
			}
		}
	}
	check([]string{"Name", "EMail", "ID", "url_path", "at@1", "Kind", "LongerThanThirteen"},
		[]string{`"a"`, `"b@c"`, `12`, `"/p"`, `3`, `"k"`, `"long"`},
		func() any { return new(keyCaseUnique) })
	check([]string{"Name", "NAME", "Other"}, []string{`"a"`, `"b"`, `5`},
		func() any { return new(keyCaseTwins) })
}

// TestSkipNextAgrees: a member no field takes, passed over in one pass when
// it is whole in the window (Unmarshal, a Decoder over bytes), gives the
// values and errors of the token path, which a Decoder reading one byte at
// a time takes: nesting at and past SetMaxDepth's limit, broken values
// inside, and what follows the value.
func TestSkipNextAgrees(t *testing.T) {
	type rec struct{ A, B int }
	var inputs []string
	for k := 0; k <= 6; k++ {
		nest := strings.Repeat("[", k) + "1" + strings.Repeat("]", k)
		inputs = append(inputs,
			`{"zz":`+nest+`,"a":1,"b":2}`,
			`{"a":1,"zz":{"y":`+nest+`},"b":2}`,
			`{"zz":`+nest+`x,"a":1}`,
			`{"zz":`+nest[:len(nest)-min(k, 1)]+`,"a":1}`)
	}
	inputs = append(inputs, `{"zz":"a\u00e9\\","a":1}`, `{"zz":[1,{"q":"r"}] , "b" : 5}`, `{"zz":tru}`, `{"zz":nul,"a":1}`,
		`{"zz":1.5e+3,"a":1}`, `{"zz":1.5e+,"a":1}`, `{"zz":[1 2],"a":1}`, `{"zz":{"k":1 "l":2},"a":1}`)
	for _, in := range inputs {
		for maxDepth := 1; maxDepth <= 8; maxDepth++ {
			decode := func(r io.Reader) (rec, string) {
				var v rec
				d := NewDecoder(r)
				d.SetMaxDepth(maxDepth)
				err := d.Decode(&v)
				return v, fmt.Sprint(err)
			}
			got, gotErr := decode(strings.NewReader(in))
			want, wantErr := decode(iotest.OneByteReader(strings.NewReader(in)))
			if got != want || gotErr != wantErr {
				t.Errorf("%s, max depth %d: got %+v, %s; one byte at a time: %+v, %s", in, maxDepth, got, gotErr, want, wantErr)
			}
		}
		var v, w rec
		err := Unmarshal([]byte(in), &v)
		werr := stdjson.Unmarshal([]byte(in), &w)
		if v != w || !sameError(err, werr) {
			t.Errorf("Unmarshal(%s) = %+v, %v; encoding/json: %+v, %v", in, v, err, w, werr)
		}
	}
}

// Types for TestUnknownKeysAgree: two struct types, one inside the other,
// so that keys no field has are remembered for both at once.
type unknownInner struct {
	K string `json:"k"`
	N int    `json:"n"`
}

type unknownOuter struct {
	ID    int64        `json:"id"`
	Name  string       `json:"name"`
	Inner unknownInner `json:"inner"`
	Tags  []string     `json:"tags"`
	Score float64      `json:"score"`
	Ptr   *int         `json:"ptr"`
}

// TestUnknownKeysAgree: records with members no field has, at places
// that repeat from record to record (where the decoder remembers their
// keys, decodeState.seen) and that change (a remembered key where a field's
// is, or another unknown one), decode as encoding/json decodes them:
// Unmarshal, a Decoder over the whole input and over one byte at a time
// (keys at the window's end), and with DisallowUnknownFields. The keys
// include the empty one, keys of 13 to 16 bytes and longer, a prefix of a
// field's name, a field's name escaped or in another case (a field's),
// an escaped unknown key, and invalid UTF-8.
func TestUnknownKeysAgree(t *testing.T) {
	r := rand.New(rand.NewPCG(31, 7))
	unknown := []string{`"x"`, `"nam"`, `"namex"`, `""`, `"trace_id"`, `"thirteen_char"`, `"fourteen_chars"`,
		`"fifteen_chars__"`, `"a_long_unknown_key_name"`, `"été"`, `"\u0078"`, `"na\u006de"`, `"NAME"`,
		"\"\xff\"", `"in\"ner"`, `"k"`, `"n"`}
	values := []string{`1`, `"s"`, `null`, `{"name":1,"x":[1,2]}`, `[{"k":"v"}]`, `true`, `-0.5e3`, `""`}
	fields := []struct{ key, value string }{{`"id"`, `7`}, {`"name"`, `"a"`}, {`"inner"`, ``}, {`"tags"`, `["t"]`},
		{`"score"`, `1.5`}, {`"ptr"`, `3`}}
	innerFields := []struct{ key, value string }{{`"k"`, `"v"`}, {`"n"`, `4`}}
	// A record's plan: each field, or not, with unknown members after it.
	type member struct{ key, value string }
	plan := func(fs []struct{ key, value string }) [][]member {
		var p [][]member
		for range len(fs) + 1 {
			var after []member
			for r.IntN(3) == 0 {
				after = append(after, member{unknown[r.IntN(len(unknown))], values[r.IntN(len(values))]})
			}
			p = append(p, after)
		}
		return p
	}
	sep := func(b *strings.Builder, first *bool) {
		if !*first {
			b.WriteString([]string{",", ", ", ",\n"}[r.IntN(3)])
		}
		*first = false
	}
	write := func(b *strings.Builder, fs []struct{ key, value string }, p [][]member, inner func(*strings.Builder)) {
		b.WriteString("{")
		first := true
		for _, m := range p[0] {
			sep(b, &first)
			b.WriteString(m.key + []string{":", " : "}[r.IntN(2)] + m.value)
		}
		for i, f := range fs {
			if r.IntN(8) != 0 {
				sep(b, &first)
				b.WriteString(f.key + []string{":", " : "}[r.IntN(2)])
				if f.value == "" {
					inner(b)
				} else {
					b.WriteString(f.value)
				}
			}
			for _, m := range p[i+1] {
				sep(b, &first)
				b.WriteString(m.key + []string{":", " : "}[r.IntN(2)] + m.value)
			}
		}
		b.WriteString("}")
	}
	for round := range 400 {
		outer, inner := plan(fields), plan(innerFields)
		var b strings.Builder
		b.WriteString("[")
		for i := range 1 + r.IntN(8) {
			if i > 0 {
				b.WriteString(",")
			}
			if r.IntN(4) == 0 { // the plan changes
				outer, inner = plan(fields), plan(innerFields)
			}
			write(&b, fields, outer, func(b *strings.Builder) { write(b, innerFields, inner, nil) })
		}
		b.WriteString("]")
		checkDecodeAgrees[[]unknownOuter](t, round, []byte(b.String()))
	}
}

// checkDecodeAgrees checks that data decodes into a T as encoding/json
// decodes it: Unmarshal, a Decoder over the whole of data and over one
// byte at a time (keys and values at the window's end), with and without
// DisallowUnknownFields.
func checkDecodeAgrees[T any](t *testing.T, round int, data []byte) {
	t.Helper()
	var got, want T
	err, werr := Unmarshal(data, &got), stdjson.Unmarshal(data, &want)
	if !sameError(err, werr) || !sameValue(got, want, err, werr) {
		t.Fatalf("round %d: Unmarshal(%s) = %+v, %v; encoding/json: %+v, %v", round, data, got, err, want, werr)
	}
	for _, disallow := range []bool{false, true} {
		sd := stdjson.NewDecoder(bytes.NewReader(data))
		if disallow {
			sd.DisallowUnknownFields()
		}
		var want T
		werr := sd.Decode(&want)
		for _, in := range []io.Reader{bytes.NewReader(data), iotest.OneByteReader(bytes.NewReader(data))} {
			var got T
			d := NewDecoder(in)
			if disallow {
				d.DisallowUnknownFields()
			}
			if err := d.Decode(&got); !sameError(err, werr) || !sameValue(got, want, err, werr) {
				t.Fatalf("round %d, DisallowUnknownFields %v: Decode(%s) = %+v, %v; encoding/json: %+v, %v",
					round, disallow, data, got, err, want, werr)
			}
		}
	}
}

// decodedBy returns a pooled state (given back when the test ends) that
// has decoded in, an array of T, with no keys remembered before, and T's
// struct decoder there (seenDecoder).
func decodedBy[T any](t *testing.T, in []byte) (*decodeState, *structDecoder) {
	t.Helper()
	ds := getState()
	t.Cleanup(func() { putState(ds) })
	ds.seen = nil
	var v []T
	if err := ds.unmarshal(in, &v); err != nil {
		t.Fatal(err)
	}
	return ds, seenDecoder[T](t, ds)
}

// seenDecoder returns the decoder of T that has keys remembered in ds
// (the struct's, not an order decoder).
func seenDecoder[T any](t *testing.T, ds *decodeState) *structDecoder {
	t.Helper()
	if ds.seen != nil {
		for _, g := range ds.seen.keys {
			if g.sd != nil && g.sd.t == reflect.TypeFor[T]() && g.sd.orderPos == nil {
				return g.sd
			}
		}
	}
	t.Fatalf("no key remembered for %v", reflect.TypeFor[T]())
	return nil
}

// TestUnknownKeyRemembered: a key no field has is remembered where it was
// read, as the match of its token and colon, and a remembered key is
// passed over without a lookup: planted where a field's key comes, it
// takes that member (a test of the path, not a thing that can happen,
// since only keys lookup found no field for are remembered).
func TestUnknownKeyRemembered(t *testing.T) {
	skipNoFast(t, "remembered unknown keys")
	ds, sd := decodedBy[unknownInner](t, []byte(`[{"k":"a","zz":1,"n":1},{"k":"b","zz":[2],"n":2}]`))
	g := &ds.seen.keys[seenSlot(sd, 1, 0)] // after "k", the first unknown
	words := func(tok []byte) (m keyMatch) {
		m.setWords("", tok)
		return m
	}
	if want := words([]byte(`"zz"` + strings.Repeat(" ", 16))[:4]); g.sd != sd || g.key != want {
		t.Fatalf("slot after k: %p %+v, want %p %+v", g.sd, g.key, sd, want)
	}
	// Planted for another type, the key is a field's still. (Into a slice
	// with room: a zero struct or slice of them takes the typed one pass,
	// which has no remembered keys.)
	in := []byte(`[{"n":5,"k":"a"}]` + strings.Repeat(" ", 16))
	for _, c := range []struct {
		sd   *structDecoder
		want unknownInner
	}{{&structDecoder{}, unknownInner{K: "a", N: 5}}, {sd, unknownInner{K: "a"}}} {
		ds.seen.keys[seenSlot(sd, 0, 0)] = seenKey{sd: c.sd, key: words(in[2:5])} // `"n"`
		w := make([]unknownInner, 0, 1)
		if err := ds.unmarshal(in, &w); err != nil {
			t.Fatal(err)
		}
		if len(w) != 1 || w[0] != c.want {
			t.Fatalf("with \"n\" planted as unknown for %p (unknownInner's %p): %+v, want [%+v]", c.sd, sd, w, c.want)
		}
	}
}

// seenFold's fields fold to names no other field folds to (its keys are
// matched folded); seenExact's do not (NAME and name), so its keys are
// matched byte for byte.
type seenFold struct {
	Alpha   int    `json:"alpha"`
	Bravo   string `json:"bravo"`
	Charlie int    `json:"charlie"`
	Delta   string `json:"delta"`
	Echo    *int   `json:"echo"`
	Foxtrot bool   `json:"foxtrot"`
	Long    string `json:"a_long_field_name"`
}

type seenExact struct {
	Upper string `json:"NAME"`
	Lower string `json:"name"`
	Alpha int    `json:"alpha"`
	Bravo string `json:"bravo"`
	Inner seenFold
}

// TestSeenKeysAgree: members in orders other than the struct's (one that
// holds for a few records and then changes, reversed, new in each record,
// some left out), among them keys in another case, escaped, with space
// before the ':', repeated, unknown, and a name over 13 bytes, decode as
// encoding/json decodes them: where the decoder remembers a key read in
// place of the field it expected (decodeState.seen), and where it has
// stopped trusting what it remembers. Unmarshal, a Decoder over the whole
// input and over one byte at a time (keys at the window's end), and with
// DisallowUnknownFields.
func TestSeenKeysAgree(t *testing.T) {
	r := rand.New(rand.NewPCG(32, 8))
	foldKeys := [][]string{{`"alpha"`, `"ALPHA"`, `"\u0061lpha"`}, {`"bravo"`, `"Bravo"`}, {`"charlie"`}, {`"delta"`, `"dElta"`},
		{`"echo"`}, {`"foxtrot"`}, {`"a_long_field_name"`, `"A_LONG_FIELD_NAME"`}}
	foldValues := []string{`1`, `"b"`, `3`, `"d"`, `null`, `true`, `"l"`}
	exactKeys := [][]string{{`"NAME"`}, {`"name"`, `"Name"`, `"nAME"`}, {`"alpha"`, `"Alpha"`}, {`"bravo"`}, {`"Inner"`, `"inner"`}}
	exactValues := []string{`"U"`, `"l"`, `2`, `"b"`, ``}
	unknown := []string{`"zz"`, `"alph"`, `"alphaa"`, `""`}
	// A record's plan: the order of its members and which are left out.
	plan := func(n int) []int {
		var p []int
		for _, i := range r.Perm(n) {
			if r.IntN(5) != 0 {
				p = append(p, i)
			}
		}
		if r.IntN(4) == 0 {
			p = append(p, -1) // an unknown member
		}
		if r.IntN(6) == 0 && len(p) > 0 {
			p = append(p, p[0]) // a member again
		}
		return p
	}
	write := func(b *strings.Builder, p []int, keys [][]string, values []string, inner func(*strings.Builder)) {
		b.WriteString("{")
		for j, i := range p {
			if j > 0 {
				b.WriteString([]string{",", ", ", ",\n"}[r.IntN(3)])
			}
			colon := []string{":", ":", " : "}[r.IntN(3)]
			if i < 0 {
				b.WriteString(unknown[r.IntN(len(unknown))] + colon + `[1,{"a":2}]`)
				continue
			}
			k := keys[i][0]
			if r.IntN(4) == 0 {
				k = keys[i][r.IntN(len(keys[i]))]
			}
			b.WriteString(k + colon)
			if values[i] == "" {
				inner(b)
			} else {
				b.WriteString(values[i])
			}
		}
		b.WriteString("}")
	}
	for round := range 300 {
		outer, in := plan(len(exactKeys)), plan(len(foldKeys))
		reverse := round%3 == 0
		var b strings.Builder
		b.WriteString("[")
		for i := range 1 + r.IntN(12) {
			if i > 0 {
				b.WriteString(",")
			}
			switch {
			case reverse:
				outer, in = []int{4, 3, 2, 1, 0}, []int{6, 5, 4, 3, 2, 1, 0}
			case round%3 == 1 || r.IntN(5) == 0: // a new order in each record, or now and then
				outer, in = plan(len(exactKeys)), plan(len(foldKeys))
			}
			write(&b, outer, exactKeys, exactValues, func(b *strings.Builder) { write(b, in, foldKeys, foldValues, nil) })
		}
		b.WriteString("]")
		checkDecodeAgrees[[]seenExact](t, round, []byte(b.String()))
	}
}

// TestSeenTrust: a struct type's remembered keys are tried while they
// hold the keys read, no longer once the order changes from record to
// record, and again some misses later; and a key remembered for a field
// is matched as that field's, without a lookup (planted where another
// key comes, it takes that member).
func TestSeenTrust(t *testing.T) {
	skipNoFast(t, "remembered keys")
	ds := getState()
	defer putState(ds)
	ds.seen = nil
	records := func(order func(i int) []int) []byte {
		keys := []string{`"alpha":1`, `"bravo":"b"`, `"charlie":3`, `"delta":"d"`, `"echo":5`, `"foxtrot":true`}
		var b strings.Builder
		b.WriteString("[")
		for i := range 40 {
			if i > 0 {
				b.WriteString(",")
			}
			b.WriteString("{")
			for j, k := range order(i) {
				if j > 0 {
					b.WriteString(",")
				}
				b.WriteString(keys[k])
			}
			b.WriteString("}")
		}
		return []byte(b.String() + "]")
	}
	r := rand.New(rand.NewPCG(1, 1))
	var v []seenFold
	decode := func(data []byte) int8 {
		if err := ds.unmarshal(data, &v); err != nil {
			t.Fatal(err)
		}
		return ds.seen.trust[seenDecoder[seenFold](t, ds).slot]
	}
	reversed := func(int) []int { return []int{5, 4, 3, 2, 1, 0} }
	// In one order every remembered key but the last is the one there (the
	// last, after the last member, meets the object's end).
	if trust := decode(records(reversed)); trust < maxTrust-1 {
		t.Errorf("after records in one order: trust %d, want %d or %d", trust, maxTrust-1, maxTrust)
	}
	if trust := decode(records(func(int) []int { return r.Perm(6) })); trust >= 0 {
		t.Errorf("after records in a new order each: trust %d, want it below 0", trust)
	}
	var trust int8
	for range 20 { // about 100 misses a call: distrusted and tried again within one
		if trust = decode(records(reversed)); trust >= maxTrust-1 {
			break
		}
	}
	if trust < maxTrust-1 {
		t.Errorf("after records in one order again: trust %d, want %d or %d", trust, maxTrust-1, maxTrust)
	}
	// A field remembered after alpha is matched as that field's key is,
	// not looked up: foxtrot's, made to match charlie's key, takes the
	// member "charlie" (lookup would find charlie, an int, and fail).
	sd := seenDecoder[seenFold](t, ds)
	in := []byte(`{"alpha":1,"charlie":true}` + strings.Repeat(" ", 16))
	ds.seen.keys[seenSlot(sd, 1, 0)] = seenKey{sd: sd, field: 6}
	keep := sd.fields[5].keyMatch
	sd.fields[5].keyMatch = sd.fields[2].keyMatch
	var w seenFold
	err := ds.unmarshal(in, &w)
	sd.fields[5].keyMatch = keep
	if err != nil || !w.Foxtrot || w.Charlie != 0 {
		t.Fatalf("with foxtrot remembered after alpha, matching charlie's key: %+v, %v; want Foxtrot true", w, err)
	}
}

// orderRec's members come, in TestOrderDecoder, in orders not its own.
// Its names include two that fold alike (NAME and name: the first in the
// struct's order wins a key in another case), one too long for a key's
// two words, and one not ASCII.
type orderRec struct {
	Upper string   `json:"NAME"`
	Lower string   `json:"name"`
	ID    int64    `json:"id"`
	Long  string   `json:"a_long_member_name"`
	Price float64  `json:"price"`
	Ete   string   `json:"été"`
	Tags  []string `json:"tags"`
	Inner seenFold `json:"inner"`
	OK    bool     `json:"ok"`
	Ptr   *int     `json:"ptr"`
}

// TestOrderDecoderGaps: objects in the struct's order with members left
// out (an embedded pointer present in half of them) build no order
// decoder, which would put those members last and make every object that
// has them miss (buildOrder).
func TestOrderDecoderGaps(t *testing.T) {
	skipNoFast(t, "remembered keys")
	var b strings.Builder
	b.WriteString("[")
	for i := range 100 {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString(`{"a":1,`)
		if i%2 == 0 {
			b.WriteString(`"b":"x","c":"y",`)
		}
		b.WriteString(`"d":2,"e":3}`)
	}
	b.WriteString("]")
	_, sd := decodedBy[orderGap](t, []byte(b.String()))
	if o := sd.order.Load(); o != nil || sd.orderTries.Load() != maxOrderTries {
		t.Errorf("order decoder %v after %d tries, want none after %d", o, sd.orderTries.Load(), maxOrderTries)
	}
	checkDecodeAgrees[[]orderGap](t, 0, []byte(b.String()))
}

// TestOrderDecoderEmbedded: an order decoder that takes an object over at
// a field of an embedded pointer (resume), allocated, given null, and
// where it cannot be set (an unexported type); at a field with the
// string option; built from keys up to an unknown member, with a field no
// object has.
func TestOrderDecoderEmbedded(t *testing.T) {
	skipNoFast(t, "remembered keys")
	recs := []string{`{"b":"1","z":2,"zz":0}`, `{"b":null,"z":2,"zz":0}`, `{"b":"x","z":2,"zz":0}`,
		`{"b":"3","z":2,"b":[]}`, `{"b":7,"z":2}`, `{"b":"4","z":2,"b":{"c":"5"}}`}
	var b strings.Builder
	for i := range 100 {
		b.WriteString(`,` + recs[0])
		if i >= 60 {
			b.WriteString(`,` + recs[i%len(recs)])
		}
	}
	in := []byte("[" + b.String()[1:] + "]")
	checkOrderBuilt[orderEmbed](t, in)
	checkOrderBuilt[orderHiddenEmbed](t, in)
}

// checkOrderBuilt decodes in into []T, checks that T's order decoder was
// built, and then checks that all of in decodes as encoding/json does.
func checkOrderBuilt[T any](t *testing.T, in []byte) {
	t.Helper()
	ds := getState()
	defer putState(ds)
	ds.seen = nil
	var v []T
	err := ds.unmarshal(in, &v)
	if sd := seenDecoder[T](t, ds); sd.order.Load() == nil {
		t.Fatalf("%T: no order decoder (%v)", v, err)
	}
	checkDecodeAgrees[[]T](t, 0, in)
}

type orderEmbed struct {
	Z int `json:"z"`
	*OrderEmbedded
}

type OrderEmbedded struct {
	B int `json:"b,string"`
	C int `json:"c"` // (in no object: placed last)
}

type orderHiddenEmbed struct {
	Z int `json:"z"`
	*orderHidden
}

type orderHidden struct {
	B int `json:"b,string"`
	C int `json:"c"`
}

type orderGap struct {
	A int    `json:"a"`
	B string `json:"b"`
	C string `json:"c"`
	D int    `json:"d"`
	E int    `json:"e"`
}

// orderRace is decoded by TestOrderDecoder's goroutines at once, so that
// its order decoder is built by several (run with -race in CI).
type orderRace struct {
	A int    `json:"a"`
	B string `json:"b"`
	C int    `json:"c"`
	D string `json:"d"`
}

// TestOrderDecoder: a struct type whose members come in one order, not
// its own, gets a decoder with its fields in that order
// (structDecoder.order), whose tables find the field the struct's own
// decoder finds for every key, and objects decode as encoding/json
// decodes them once it is in use: in that order, in others (reversed,
// shuffled), with members left out, repeated, unknown, in another case,
// escaped; through Unmarshal and a Decoder, whole and a byte at a time.
func TestOrderDecoder(t *testing.T) {
	skipNoFast(t, "remembered keys")
	keys := [][]string{{`"NAME"`}, {`"name"`, `"Name"`, `"nAmE"`}, {`"id"`, `"ID"`, `"\u0069d"`},
		{`"a_long_member_name"`, `"A_LONG_MEMBER_NAME"`}, {`"price"`, `"PRICE"`}, {`"été"`, `"ÉTÉ"`, `"\u00e9t\u00e9"`},
		{`"tags"`}, {`"inner"`, `"Inner"`}, {`"ok"`, `"OK"`}, {`"ptr"`}}
	// (inner's members in seenFold's order: no key of seenFold remembered,
	// in a slot that might be orderRec's.)
	values := []string{`"U"`, `"l"`, `7`, `"long"`, `1.25`, `"e"`, `["a","b"]`, `{"alpha":1,"bravo":"b"}`, `true`, `null`}
	sorted := []int{0, 3, 2, 7, 1, 8, 4, 9, 6, 5} // by the keys' bytes
	r := rand.New(rand.NewPCG(33, 9))
	record := func(b *strings.Builder, order []int, vary bool) {
		b.WriteString("{")
		for j, i := range order {
			if j > 0 {
				b.WriteString(",")
			}
			if i < 0 {
				b.WriteString(`"zz":[1]`)
				continue
			}
			k := keys[i][0]
			if vary && r.IntN(4) == 0 {
				k = keys[i][r.IntN(len(keys[i]))]
			}
			b.WriteString(k + ":" + values[i])
		}
		b.WriteString("}")
	}
	records := func(n int, order func() []int, vary bool) []byte {
		var b strings.Builder
		b.WriteString("[")
		for i := range n {
			if i > 0 {
				b.WriteString(",")
			}
			record(&b, order(), vary)
		}
		return []byte(b.String() + "]")
	}
	ds, sd := decodedBy[orderRec](t, records(40, func() []int { return sorted }, false))
	o := sd.order.Load()
	if o == nil {
		t.Fatalf("no order decoder after 40 records in one order")
	}
	for i, f := range sorted {
		if o.fields[i].name != sd.fields[f].name || o.fields[i].index != i || o.orderPos[f] != i {
			t.Errorf("order decoder's field %d: %q (index %d, place %d), want %q", i, o.fields[i].name, o.fields[i].index, o.orderPos[f], sd.fields[f].name)
		}
	}
	// Each table's entries are the same fields, at their new places.
	for name, tabs := range map[string][2][]uint16{"exact": {sd.exact, o.exact}, "folded": {sd.folded, o.folded}, "starts": {sd.starts, o.starts}} {
		for h, x := range tabs[0] {
			if y := tabs[1][h]; (x == 0) != (y == 0) || x != 0 && sd.fields[x-1].name != o.fields[y-1].name {
				t.Errorf("%s table, entry %d: %d, the order decoder's %d", name, h, x, y)
			}
		}
	}
	for h, w := range sd.words {
		if v := o.words[h]; v.w0 != w.w0 || v.w1 != w.w1 || w.w0 != 0 && sd.fields[w.index].name != o.fields[v.index].name {
			t.Errorf("words table, entry %d: %+v, the order decoder's %+v", h, w, v)
		}
	}
	// Every key finds the same field by name in both: exactly, folded,
	// and by a plain key's words.
	find := func(sd *structDecoder, tok []byte) *fieldDecoder {
		escaped := bytes.IndexByte(tok, '\\') >= 0
		if f := sd.find(sd.exact, tok[1:len(tok)-1], false); f != nil && !escaped {
			return f
		}
		return sd.lookupSlow(ds, tok, escaped)
	}
	for _, ks := range keys {
		for _, k := range ks {
			tok := []byte(k)
			if f1, f2 := find(sd, tok), find(o, tok); f1 == nil || f2 == nil || f1.name != f2.name || f2 != &o.fields[f2.index] {
				t.Errorf("key %s: %v and %v in the order decoder", k, f1, f2)
			}
			if len(tok) <= 16 && plainName(string(tok[1:len(tok)-1])) {
				var b [16]byte
				copy(b[:], tok)
				w0, w1 := binary.LittleEndian.Uint64(b[:8]), binary.LittleEndian.Uint64(b[8:])
				if g1, g2 := sd.findWords(w0, w1), o.findWords(w0, w1); (g1 == nil) != (g2 == nil) || g1 != nil && g1.name != g2.name {
					t.Errorf("key %s by its words: %v and %v in the order decoder", k, g1, g2)
				}
			}
			if len(tok) <= 15 {
				var b [16]byte
				copy(b[copy(b[:], tok):], ":")
				w0, w1 := binary.LittleEndian.Uint64(b[:8]), binary.LittleEndian.Uint64(b[8:])
				if g1, g2 := sd.fieldAt(w0, w1), o.fieldAt(w0, w1); (g1 == nil) != (g2 == nil) || g1 != nil && (g1.name != g2.name || g2 != &o.fields[g2.index]) {
					t.Errorf("key %s by its start: %v and %v in the order decoder", k, g1, g2)
				}
			}
		}
	}
	if sd.orderFor(ds.seen) != o || o.orderFor(ds.seen) != nil || o.order.Load() != nil {
		t.Errorf("orderFor: the struct's decoder's is not its order decoder, or the order decoder has one")
	}
	// Not switched to while its own remembered keys are distrusted (its
	// guesses missed), and tried again some objects later.
	ds.seen.trust[o.slot] = -1
	if sd.orderFor(ds.seen) != nil {
		t.Errorf("orderFor with the order decoder distrusted: not nil")
	}
	ds.seen.trust[o.slot] = distrusted
	if sd.orderFor(ds.seen) != nil || sd.orderFor(ds.seen) != o {
		t.Errorf("orderFor: the order decoder not tried again after its trust came back")
	}
	reversed := func() []int { return []int{9, 8, 7, 6, 5, 4, 3, 2, 1, 0} }
	for round := range 300 {
		if round%6 >= 4 {
			var in string
			switch {
			case round%12 == 4:
				// Records in a new order each, read with no guesses
				// (keyUnguessed, and keyMissed where it backs off): keys
				// spelled in other ways, unknown members, whitespace
				// after some ',' and before some ':'.
				in = string(records(10+r.IntN(20), func() []int {
					p := r.Perm(len(keys))
					if r.IntN(3) == 0 {
						p = slices.Insert(p, r.IntN(len(p)), -1)
					}
					return p
				}, true))
				var b strings.Builder
				for k := 0; k < len(in); k++ {
					if in[k] == ':' && r.IntN(5) == 0 {
						b.WriteString(" ")
					}
					b.WriteByte(in[k])
					if in[k] == ',' && r.IntN(5) == 0 {
						b.WriteString("\n ")
					}
				}
				in = b.String()
			case round%6 == 4:
				// Sorted records, the ones after the first taken over
				// by the order decoder, with whitespace before each ','
				// and '}': resume's objectMore on the token path.
				in = string(records(10+r.IntN(20), func() []int { return sorted }, false))
				in = strings.NewReplacer(",", " \n,", "}", "\t}").Replace(in)
			default:
				// Sorted records with a fault in the input's second
				// half where the order decoder takes over (the second
				// member: NAME, the first, is the struct's first field
				// too): a ',' dropped or doubled, a '}' or a member
				// where the ',' goes, the input cut there, a value of
				// another type, not a value.
				in = string(records(10+r.IntN(20), func() []int { return sorted }, false))
				const at = `"a_long_member_name":"long"`
				i := len(in)/2 + strings.Index(in[len(in)/2:], at)
				j := i + len(at) // the ',' after it
				switch r.IntN(7) {
				case 0:
					in = in[:j] + in[j+1:]
				case 1:
					in = in[:j] + "," + in[j:]
				case 2:
					in = in[:j] + "}" + in[j:]
				case 3:
					in = in[:j] + ` "id":1` + in[j:]
				case 4:
					in = in[:j]
				case 5:
					in = in[:i] + `"a_long_member_name":[1,{}]` + in[j:]
				default:
					in = in[:i] + `"a_long_member_name":tru` + in[j:]
				}
			}
			checkDecodeAgrees[[]orderRec](t, round, []byte(in))
			continue
		}
		var order func() []int
		switch round % 4 {
		case 0:
			order = func() []int { return sorted }
		case 1:
			order = reversed
		case 2:
			order = func() []int { return r.Perm(len(keys)) }
		default: // sorted, some left out, some again, unknown ones
			order = func() []int {
				var p []int
				for _, i := range sorted {
					if r.IntN(6) != 0 {
						p = append(p, i)
					}
					if r.IntN(8) == 0 {
						p = append(p, -1)
					}
				}
				if r.IntN(5) == 0 && len(p) > 0 {
					p = append(p, p[r.IntN(len(p))])
				}
				return p
			}
		}
		checkDecodeAgrees[[]orderRec](t, round, records(1+r.IntN(30), order, round%2 == 0))
	}
	if sd.order.Load() != o {
		t.Errorf("the order decoder changed")
	}
	// Built by goroutines at once (a race for -race to find).
	in := []byte(strings.Repeat(`{"d":"x","c":3,"b":"y","a":1},`, 40))
	in = append(append([]byte("["), in[:len(in)-1]...), ']')
	var wg sync.WaitGroup
	errs := make(chan error, 4)
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 20 {
				var w []orderRace
				if err := Unmarshal(in, &w); err != nil || len(w) != 40 || w[39] != (orderRace{1, "y", 3, "x"}) {
					errs <- fmt.Errorf("%v, %d records, last %+v", err, len(w), w[len(w)-1])
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

type unguessedRec struct {
	A    string  `json:"a"`
	B    int     `json:"b"`
	C    float64 `json:"c"`
	D    bool    `json:"d"`
	L    []int   `json:"l"`
	Long string  `json:"a_key_past_fourteen"`
}

// TestMembersUnguessed: the loop that reads the rest of an object where
// decode guesses no more takes members with plain keys of fields, and
// their values of every kind (a type error is recorded, and the loop goes
// on, as encoding/json does), and the '}'; it stops at a syntax error in
// a value, and before anything else, having consumed nothing of that
// member. Then records whose order changes from one to the next, with
// faults and members of every kind after the first few, decode as
// encoding/json decodes them.
func TestMembersUnguessed(t *testing.T) {
	skipNoFast(t, "the loop is a fast path")
	ds, sd := decodedBy[unguessedRec](t, []byte(`[{"b":1,"a":"x"}]`))
	pad := strings.Repeat(" ", 16)
	long := strings.Repeat("x", 20)
	// Each input is `{"d":true` and then what the loop reads; stop is
	// where it stops (its offset after the prefix), "" for the end.
	for _, c := range []struct {
		in, stop          string
		end, err, typeErr bool
		want              unguessedRec
	}{
		{in: `,"a":"x","b":2,"c":1.5}`, end: true, want: unguessedRec{A: "x", B: 2, C: 1.5}},
		{in: `, "a":"x",` + "\n\t" + `"b":-3 }`, end: true, want: unguessedRec{A: "x", B: -3}},
		{in: `}`, end: true},
		{in: ` }`, end: true},
		{in: `,"a":"x","l":[1],"b":2}`, end: true, want: unguessedRec{A: "x", B: 2, L: []int{1}}},
		{in: `,"a":"x","b":"2","c":1}`, end: true, typeErr: true, want: unguessedRec{A: "x", C: 1}},
		{in: `,"a":"x","b":null}`, end: true, want: unguessedRec{A: "x"}}, // as encoding/json: no change
		{in: `,"a":"x","c":1e999}`, end: true, typeErr: true, want: unguessedRec{A: "x"}},
		{in: `,"a":"x","b":-}`, stop: `}`, err: true, want: unguessedRec{A: "x"}},
		{in: `,"a":"x","l":[1,]}`, stop: `]}`, err: true, want: unguessedRec{A: "x"}},
		{in: `,"a":"x", "b" :2}`, stop: `, "b" :2}`, want: unguessedRec{A: "x"}},
		{in: `,"a":"x","zz":2}`, stop: `,"zz":2}`, want: unguessedRec{A: "x"}},
		{in: `,"a":"x","B":2}`, end: true, want: unguessedRec{A: "x", B: 2}}, // no two fields fold alike: fieldAt folds
		{in: `,"a":"x","bb":2}`, stop: `,"bb":2}`, want: unguessedRec{A: "x"}},
		{in: `,"a":"x","\u0062":2}`, stop: `,"\u0062":2}`, want: unguessedRec{A: "x"}},
		{in: `,"a":"x","a_key_past_fourteen":"y"}`, stop: `,"a_key_past_fourteen":"y"}`, want: unguessedRec{A: "x"}},
		{in: `,"a":"x",}`, stop: `,}`, want: unguessedRec{A: "x"}},
		{in: `,"a":"x",,"b":2}`, stop: `,,"b":2}`, want: unguessedRec{A: "x"}},
		{in: `,"a":"x" ,"b":2}`, stop: `,"b":2}`, want: unguessedRec{A: "x"}}, // the space consumed
		{in: `,"a":"x"]`, stop: `]`, want: unguessedRec{A: "x"}},
		{in: `,"a""x"}`, stop: `,"a""x"}`},
		{in: `,"a":"` + long + `","b":2`, stop: `,"b":2`, want: unguessedRec{A: long}}, // the window's end: no room for two words
	} {
		prefix := `{"d":true`
		in := prefix + c.in
		if !strings.HasSuffix(c.in, `,"b":2`) {
			in += pad
		}
		d := NewDecoder(strings.NewReader(in))
		for range 3 {
			if _, err := d.NextToken(); err != nil {
				t.Fatal(err)
			}
		}
		ds.d, ds.saved, ds.stack = d, nil, ds.stack[:0]
		var v unguessedRec
		end, err := sd.membersUnguessed(ds, unsafe.Pointer(&v))
		wantOff := len(in) - len(pad)
		if c.stop != "" {
			wantOff = len(prefix) + strings.LastIndex(c.in, c.stop)
		}
		if end != c.end || (err != nil) != c.err || !reflect.DeepEqual(v, c.want) ||
			(ds.saved != nil) != c.typeErr || !c.err && d.InputOffset() != int64(wantOff) {
			t.Errorf("%s: end %v, error %v, %+v, type error %v, at %d; want %v, %v, %+v, %v, at %d",
				in, end, err, v, ds.saved, d.InputOffset(), c.end, c.err, c.want, c.typeErr, wantOff)
		}
	}
	ds.d = nil

	// Whole records: the first ones set decode to stop guessing, then
	// each record has one change after its first three members.
	r := rand.New(rand.NewPCG(39, 1))
	members := []string{`"a":"x"`, `"b":2`, `"c":1.5`, `"d":true`, `"l":[1,2]`, `"a_key_past_fourteen":"y"`}
	faults := []string{`"b":"2"`, `"b":null`, `"c":-`, `"c":1e999`, `"zz":{"a":1}`, `"B":3`, `"\u0061":"e"`, `"a" : "s"`,
		`"l":{}`, `"d":1`, `"a":"x","a":"y"`, `}`, `,`, `"b":2,`, `"b":2 `, `"l":[1,`, `"b"`, `"b":`, `"b":2 "c":3`, `"b":2"c":3`}
	for round := range 200 {
		objects := make([]string, 12)
		for i := range objects {
			var ms []string
			for j, k := range r.Perm(len(members)) {
				if i >= 8 && j == 3 && r.IntN(2) == 0 {
					ms = append(ms, faults[r.IntN(len(faults))])
				}
				ms = append(ms, members[k])
			}
			objects[i] = "{" + strings.Join(ms, ",") + "}"
		}
		checkDecodeAgrees[[]unguessedRec](t, round, []byte("["+strings.Join(objects, ",")+"]"))
	}
}

// startsRec has names that share their first bytes (which starts cannot
// tell apart), names of one byte (which make every start short), a name
// too long for two words, two fields that fold alike (so no field folds),
// and an embedded struct's promoted field.
type startsRec struct {
	ID    int64   `json:"id"`
	IDX   string  `json:"id_x"`
	IDY   int     `json:"idy"`
	X     float64 `json:"x"`
	Name  string  `json:"name"`
	Name2 string  `json:"Name"`
	City  string  `json:"city"`
	CityI int     `json:"city_id"`
	Long  string  `json:"a_name_past_thirteen"`
	startsInner
}

type startsInner struct {
	Zip string `json:"zip"`
}

// startsFold: no two fields fold alike, so keys in other cases match.
type startsFold struct {
	ID    int64   `json:"id"`
	IDX   string  `json:"id_x"`
	Score float64 `json:"score"`
	City  string  `json:"city"`
	Zip   string  `json:"ZIP"`
}

// TestStartsAgree: records whose members come in a new order each time
// (so that decode stops guessing and finds each member by its start),
// with keys in other cases, unknown keys that start as fields' do, space
// before the ':', and escaped keys, decode as encoding/json decodes them,
// into a struct whose fields' starts collide and into one whose fields
// fold.
func TestStartsAgree(t *testing.T) {
	r := rand.New(rand.NewPCG(41, 2))
	members := []string{`"id":1`, `"id_x":"a"`, `"idy":2`, `"x":1.5`, `"name":"n"`, `"Name":"N"`, `"city":"c"`,
		`"city_id":3`, `"a_name_past_thirteen":"l"`, `"zip":"z"`, `"score":0.5`, `"ZIP":"Z"`}
	odd := []string{`"ID":7`, `"Id_X":"b"`, `"NAME":"u"`, `"CITY":"d"`, `"Zip":"y"`, `"id_":1`, `"idz":1`, `"cit":1`,
		`"city_idx":1`, `"x" :2.5`, `"name" : "s"`, `"\u0069d":9`, `"SCORE":1`, `"zip2":1`, `"a_name_past_thirteeN":"m"`}
	for round := range 300 {
		objects := make([]string, 10)
		for i := range objects {
			var ms []string
			for _, k := range r.Perm(len(members)) {
				if r.IntN(4) == 0 {
					continue
				}
				ms = append(ms, members[k])
				if r.IntN(6) == 0 {
					ms = append(ms, odd[r.IntN(len(odd))])
				}
			}
			objects[i] = "{" + strings.Join(ms, ",") + "}"
		}
		data := []byte("[" + strings.Join(objects, ",") + "]")
		checkDecodeAgrees[[]startsRec](t, round, data)
		checkDecodeAgrees[[]startsFold](t, round, data)
	}
}
