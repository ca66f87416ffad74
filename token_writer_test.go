package json

import (
	"bytes"
	stdjson "encoding/json"
	"errors"
	"io"
	"math"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/jsonpipe/json/internal/corpus"
)

// copyTokens reads src with NextToken and writes every token with w: strings
// unquoted and written again with Key or String, numbers with RawValue,
// literals with Bool and Null. It is what a program that rewrites a stream
// does, and its output must decode to what src decodes to.
func copyTokens(w *TokenWriter, src []byte) error {
	d := NewDecoder(bytes.NewReader(src))
	var objects []bool // the open containers: true for an object
	wantKey := false
	var str []byte
	for {
		tok, err := d.NextToken()
		if err == io.EOF {
			return w.Close()
		}
		if err != nil {
			return err
		}
		afterValue := true
		switch tok[0] {
		case '{':
			err = w.BeginObject()
			objects = append(objects, true)
			wantKey, afterValue = true, false
		case '[':
			err = w.BeginArray()
			objects = append(objects, false)
			wantKey, afterValue = false, false
		case '}':
			err = w.EndObject()
			objects = objects[:len(objects)-1]
		case ']':
			err = w.EndArray()
			objects = objects[:len(objects)-1]
		case '"':
			str = d.AppendUnquoted(str[:0], tok)
			if wantKey {
				err = w.Key(string(str))
				wantKey, afterValue = false, false
			} else if len(str)%2 == 0 {
				err = w.StringBytes(str)
			} else {
				err = w.String(string(str))
			}
		case 't', 'f':
			err = w.Bool(tok[0] == 't')
		case 'n':
			err = w.Null()
		default:
			err = w.RawValue(tok)
		}
		if err != nil {
			return err
		}
		if afterValue {
			wantKey = len(objects) > 0 && objects[len(objects)-1]
		}
	}
}

// Every corpus file, copied token by token, decodes to what the file
// decodes to, and its bytes are what Marshal writes for a RawMessage of the
// file (compacted and HTML-escaped) where the file's strings need no other
// escapes than Marshal's.
func TestTokenWriterCorpus(t *testing.T) {
	files := corpus.All
	if testing.Short() {
		files = corpus.Files
	}
	for _, f := range files(t) {
		var out bytes.Buffer
		w := NewTokenWriter(&out)
		if err := copyTokens(w, f.Data); err != nil {
			t.Fatalf("%s: %v", f.Name, err)
		}
		var got, want any
		if err := stdjson.Unmarshal(out.Bytes(), &got); err != nil {
			t.Fatalf("%s: the output does not decode: %v", f.Name, err)
		}
		stdjson.Unmarshal(f.Data, &want)
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: the copy decodes to another value", f.Name)
		}
		if !bytes.HasSuffix(out.Bytes(), []byte("\n")) || bytes.Count(out.Bytes(), []byte("\n")) != 1 {
			t.Errorf("%s: want one value and one newline", f.Name)
		}
	}
}

// Strings and floats come out as Marshal writes them; top-level values are
// separated by newlines.
func TestTokenWriterValues(t *testing.T) {
	strs := []string{"", "plain", "<a&b>", "\u2028\u2029", "tab\there \"q\" \\", "\x00\x1f\x7f", "bad \xff utf-8", "é€😀"}
	floats := []float64{0, math.Copysign(0, -1), 1, -1.5, 1e20, 1e21, 1e-6, 1e-7, 123456789.125, math.MaxFloat64, math.SmallestNonzeroFloat64, 0.1, 1.0 / 3}
	for _, html := range []bool{true, false} {
		var out bytes.Buffer
		w := NewTokenWriter(&out)
		w.SetEscapeHTML(html)
		var want bytes.Buffer
		enc := NewEncoder(&want)
		enc.SetEscapeHTML(html)
		for _, s := range strs {
			w.String(s)
			w.StringBytes([]byte(s))
			enc.Encode(s)
			enc.Encode(s)
		}
		for _, f := range floats {
			w.Float(f)
			enc.Encode(f)
			if f32 := float32(f); !math.IsInf(float64(f32), 0) {
				w.Float32(f32)
				enc.Encode(f32)
			}
		}
		w.Int(math.MinInt64)
		w.Uint(math.MaxUint64)
		w.Bool(true)
		w.Bool(false)
		w.Null()
		enc.Encode(int64(math.MinInt64))
		enc.Encode(uint64(math.MaxUint64))
		enc.Encode(true)
		enc.Encode(false)
		enc.Encode(nil)
		w.BeginObject()
		for _, s := range strs {
			w.Key(s)
			w.String(s)
		}
		w.EndObject()
		m := map[string]string{}
		for _, s := range strs {
			m[s] = s
		}
		enc.Encode(m) // with its keys sorted: compared by members below
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		gotLines := strings.Split(out.String(), "\n")
		wantLines := strings.Split(want.String(), "\n")
		if len(gotLines) != len(wantLines) {
			t.Fatalf("html %v: %d lines, want %d", html, len(gotLines), len(wantLines))
		}
		for i := range gotLines[:len(gotLines)-2] {
			if gotLines[i] != wantLines[i] {
				t.Errorf("html %v, value %d: got %s, want %s", html, i, gotLines[i], wantLines[i])
			}
		}
		// The object: same members, in the order written.
		var gm map[string]string
		if err := Unmarshal([]byte(gotLines[len(gotLines)-2]), &gm); err != nil || !reflect.DeepEqual(gm, decodeStd(t, wantLines[len(wantLines)-2])) {
			t.Errorf("html %v: object %s, want the members of %s (%v)", html, gotLines[len(gotLines)-2], wantLines[len(wantLines)-2], err)
		}
	}
}

func decodeStd(t *testing.T, s string) map[string]string {
	var m map[string]string
	if err := stdjson.Unmarshal([]byte(s), &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// Tokens out of order are an error, which sticks; nothing is written for
// them.
func TestTokenWriterOrder(t *testing.T) {
	for _, c := range []struct {
		name string
		do   func(w *TokenWriter) error
		err  string
		out  string
	}{
		{"EndArray at the top", func(w *TokenWriter) error { return w.EndArray() }, "json: TokenWriter: EndArray where a top-level value is due", ""},
		{"Key at the top", func(w *TokenWriter) error { return w.Key("k") }, "json: TokenWriter: Key where a top-level value is due", ""},
		{"Key in an array", func(w *TokenWriter) error { w.BeginArray(); return w.Key("k") }, "json: TokenWriter: Key where an array element or EndArray is due", "["},
		{"value for a key", func(w *TokenWriter) error { w.BeginObject(); return w.Int(1) }, "json: TokenWriter: Int where a key or EndObject is due", "{"},
		{"second value", func(w *TokenWriter) error { w.BeginObject(); w.Key("a"); w.Null(); return w.String("x") }, "json: TokenWriter: String where another key or EndObject is due", `{"a":null`},
		{"EndObject after a key", func(w *TokenWriter) error { w.BeginObject(); w.Key("a"); return w.EndObject() }, "json: TokenWriter: EndObject where the value of a key is due", `{"a":`},
		{"EndObject in an array", func(w *TokenWriter) error { w.BeginArray(); w.Int(1); return w.EndObject() }, "json: TokenWriter: EndObject where another array element or EndArray is due", `[1`},
		{"RawValue for a key", func(w *TokenWriter) error { w.BeginObject(); return w.RawValue([]byte(`1`)) }, "json: TokenWriter: RawValue where a key or EndObject is due", "{"},
		{"Close inside", func(w *TokenWriter) error { w.BeginArray(); return w.Close() }, "json: TokenWriter closed inside a value", "["},
		{"invalid RawValue", func(w *TokenWriter) error { w.BeginArray(); w.Int(1); return w.RawValue([]byte(`{"a":}`)) }, "invalid character '}' looking for beginning of value", "[1"},
		{"NaN", func(w *TokenWriter) error { w.BeginArray(); return w.Float(math.NaN()) }, "json: unsupported value: NaN", "["},
		{"Inf32", func(w *TokenWriter) error { w.BeginArray(); return w.Float32(float32(math.Inf(-1))) }, "json: unsupported value: -Inf", "["},
		{"too deep", func(w *TokenWriter) error {
			for range defaultMaxDepth {
				w.BeginArray()
			}
			return w.BeginObject()
		}, "json: TokenWriter: exceeded max depth", strings.Repeat("[", defaultMaxDepth)},
	} {
		w := NewTokenWriter(nil)
		err := c.do(w)
		if err == nil || err.Error() != c.err {
			t.Errorf("%s: error %v, want %s", c.name, err, c.err)
			continue
		}
		if got := string(w.Bytes()); got != c.out {
			t.Errorf("%s: wrote %.40q, want %.40q", c.name, got, c.out)
		}
		// The error sticks.
		if err2 := w.Null(); err2 != err {
			t.Errorf("%s: then Null returned %v, want the first error", c.name, err2)
		}
		if len(w.Bytes()) != len(c.out) {
			t.Errorf("%s: wrote more after the error", c.name)
		}
	}
	var se *SyntaxError
	w := NewTokenWriter(nil)
	if err := w.RawValue([]byte("[1,]")); !errors.As(err, &se) {
		t.Errorf("invalid RawValue: %T, want *SyntaxError", err)
	}
	var ue *UnsupportedValueError
	if _, err := AppendFloat(nil, math.Inf(1), 64); !errors.As(err, &ue) {
		t.Errorf("AppendFloat(+Inf): %T, want *UnsupportedValueError", err)
	}
}

// A nested document: RawValue compacts; Depth follows; the output goes to
// the writer in pieces once the buffer passes 4 KiB, and all of it on
// Close.
func TestTokenWriterStream(t *testing.T) {
	var out bytes.Buffer
	writes := 0
	w := NewTokenWriter(writerFunc(func(p []byte) (int, error) {
		writes++
		return out.Write(p)
	}))
	var want bytes.Buffer
	for i := range 1000 {
		w.BeginObject()
		w.Key("i")
		w.Int(int64(i))
		w.Key("raw")
		w.RawValue([]byte(` { "a" : [ 1 , "<x>" ] } `))
		w.Key("list")
		if w.Depth() != 1 {
			t.Fatalf("Depth %d, want 1", w.Depth())
		}
		w.BeginArray()
		w.EndArray()
		w.EndObject()
		want.WriteString(`{"i":` + strconv.Itoa(i) + `,"raw":{"a":[1,"\u003cx\u003e"]},"list":[]}` + "\n")
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if out.String() != want.String() {
		t.Errorf("output differs:\n got %.200s\nwant %.200s", out.String(), want.String())
	}
	if writes < want.Len()/(8<<10) || writes > want.Len()/twFlushAt+1 {
		t.Errorf("%d writes for %d bytes", writes, want.Len())
	}
	// A failing writer's error sticks.
	boom := errors.New("boom")
	w.Reset(writerFunc(func(p []byte) (int, error) { return 0, boom }))
	w.Null()
	if err := w.Flush(); err != boom {
		t.Errorf("Flush: %v, want boom", err)
	}
	if err := w.Null(); err != boom {
		t.Errorf("then Null: %v, want boom", err)
	}
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }

// TestTokenWriterAllocs: writing a document to a reused TokenWriter
// allocates nothing.
func TestTokenWriterAllocs(t *testing.T) {
	if raceBuild {
		t.Skip("allocation counts are not meaningful under the race detector")
	}
	w := NewTokenWriter(io.Discard)
	key := []byte("bytes <&>")
	doc := func() {
		w.Reset(io.Discard)
		w.BeginObject()
		w.Key("name")
		w.String("gopher \u2028 \xff")
		w.Key("tags")
		w.BeginArray()
		for i := range 100 {
			w.Int(int64(i))
			w.Uint(uint64(i))
			w.Float(float64(i) / 7)
			w.Float32(float32(i) / 7)
			w.StringBytes(key)
			w.Bool(i%2 == 0)
			w.Null()
			w.RawValue([]byte(`{"a": [1, 2]}`))
		}
		w.EndArray()
		w.EndObject()
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
	}
	doc()
	if n := testing.AllocsPerRun(100, doc); n != 0 {
		t.Errorf("%v allocations, want 0", n)
	}
}
