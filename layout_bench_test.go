package json

import (
	"bytes"
	stdjson "encoding/json"
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"
)

// The same records written in four layouts: compact, indented as
// MarshalIndent writes them, with each line starting with its comma (as
// some pretty-printers write, gemoji's emoji.json among the files users
// feed us), and with spaces around each ':' (Jackson's pretty printer).
// Whitespace is the grammar's to place anywhere between tokens; a fast
// path that expects it only in some places leaves the others to the token
// path, which BenchmarkLayouts shows as one layout much slower than the
// rest.
//
//	go test -run='^$' -bench=Layouts -count=10

type layoutRecord struct {
	ID     int64    `json:"id"`
	Name   string   `json:"name"`
	Tags   []string `json:"tags"`
	Score  float64  `json:"score"`
	Active bool     `json:"active"`
	Meta   struct {
		Source  string `json:"source"`
		Version int    `json:"version"`
	} `json:"meta"`
}

var layouts = []string{"compact", "indent", "leading-comma", "spaced-colon"}

// layoutRecords returns n records, the same for the same n.
func layoutRecords(n int) []layoutRecord {
	r := rand.New(rand.NewPCG(7, 36))
	word := func() string { return randWord(r, 8) }
	rs := make([]layoutRecord, n)
	for i := range rs {
		rec := &rs[i]
		rec.ID = 1e9 + r.Int64N(1e9)
		rec.Name = word() + " " + word()
		for range r.IntN(4) {
			rec.Tags = append(rec.Tags, word())
		}
		rec.Score = float64(r.IntN(100000)) / 100
		rec.Active = r.IntN(2) == 0
		rec.Meta.Source = word()
		rec.Meta.Version = r.IntN(100)
	}
	return rs
}

// randWord returns a word of 3 to 2+n random lowercase letters.
func randWord(r *rand.Rand, n int) string {
	b := make([]byte, 3+r.IntN(n))
	for i := range b {
		b[i] = 'a' + byte(r.IntN(26))
	}
	return string(b)
}

// layOut writes compact, a compact JSON text, in the named layout.
func layOut(compact []byte, layout string) []byte {
	if layout == "compact" {
		return compact
	}
	var out []byte
	depth := 0
	newline := func() {
		out = append(out, '\n')
		for range depth {
			out = append(out, "  "...)
		}
	}
	inString, escaped := false, false
	for i := 0; i < len(compact); i++ {
		c := compact[i]
		if inString {
			out = append(out, c)
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
			continue
		}
		switch c {
		case '"':
			inString = true
			out = append(out, c)
		case '{', '[':
			out = append(out, c)
			if next := compact[i+1]; next == '}' || next == ']' {
				out = append(out, next)
				i++
				continue
			}
			depth++
			newline()
		case '}', ']':
			depth--
			newline()
			out = append(out, c)
		case ',':
			if layout == "leading-comma" {
				newline()
				out = append(out, ", "...)
			} else {
				out = append(out, ',')
				newline()
			}
		case ':':
			if layout == "spaced-colon" {
				out = append(out, " : "...)
			} else {
				out = append(out, ": "...)
			}
		default:
			out = append(out, c)
		}
	}
	return out
}

// TestLayouts checks that every layout is valid JSON and decodes, typed
// and into any, to what the compact text decodes to with encoding/json.
func TestLayouts(t *testing.T) {
	compact, err := stdjson.Marshal(layoutRecords(50))
	if err != nil {
		t.Fatal(err)
	}
	var wantTyped []layoutRecord
	var wantAny any
	if err := stdjson.Unmarshal(compact, &wantTyped); err != nil {
		t.Fatal(err)
	}
	if err := stdjson.Unmarshal(compact, &wantAny); err != nil {
		t.Fatal(err)
	}
	for _, l := range layouts {
		in := layOut(compact, l)
		if l == "leading-comma" && !bytes.Contains(in, []byte("\n  , ")) || l == "spaced-colon" && !bytes.Contains(in, []byte(`" : `)) {
			t.Fatalf("%s: layout not written:\n%.200s", l, in)
		}
		var typed []layoutRecord
		if err := Unmarshal(in, &typed); err != nil || !reflect.DeepEqual(typed, wantTyped) {
			t.Errorf("%s: typed Unmarshal differs from encoding/json's (err %v)", l, err)
		}
		var v any
		if err := Unmarshal(in, &v); err != nil || !reflect.DeepEqual(v, wantAny) {
			t.Errorf("%s: Unmarshal into any differs from encoding/json's (err %v)", l, err)
		}
		typed = nil
		if err := NewDecoder(bytes.NewReader(in)).Decode(&typed); err != nil || !reflect.DeepEqual(typed, wantTyped) {
			t.Errorf("%s: typed Decode differs from encoding/json's (err %v)", l, err)
		}
	}
}

func BenchmarkLayouts(b *testing.B) {
	compact, err := stdjson.Marshal(layoutRecords(2000))
	if err != nil {
		b.Fatal(err)
	}
	for _, l := range layouts {
		in := layOut(compact, l)
		for _, op := range []string{"unmarshal-typed", "unmarshal-any", "decode-typed", "decode-any"} {
			b.Run(fmt.Sprintf("layout=%s/op=%s", l, op), func(b *testing.B) {
				b.SetBytes(int64(len(compact))) // the same records: MB/s comparable across layouts
				for b.Loop() {
					var err error
					switch op {
					case "unmarshal-typed":
						var v []layoutRecord
						err = Unmarshal(in, &v)
					case "unmarshal-any":
						var v any
						err = Unmarshal(in, &v)
					case "decode-typed":
						var v []layoutRecord
						err = NewDecoder(bytes.NewReader(in)).Decode(&v)
					case "decode-any":
						var v any
						err = NewDecoder(bytes.NewReader(in)).Decode(&v)
					}
					if err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
