package sqlite

import (
	"bytes"
	"context"
	stdjson "encoding/json"
	"runtime"
	"strings"
	"testing"
)

// TestWriteQueryJSONColumns: text in a column declared JSON (or JSONB)
// comes back as the JSON it holds, compacted; text that is not JSON, and
// every other column, as before.
func TestWriteQueryJSONColumns(t *testing.T) {
	db := openDB(t)
	_, err := db.Exec(`CREATE TABLE j (id INTEGER, doc JSON, b jsonb, t TEXT);
		INSERT INTO j VALUES (1, '{"a": [1, 2],' || char(10) || ' "s": "x\ny"}', '[true]', '{"not":"json column"}');
		INSERT INTO j VALUES (2, 'not json', '', '[1]');
		INSERT INTO j VALUES (3, 42, x'7b7d', NULL);
		INSERT INTO j VALUES (4, '"a string"', '{"k":', '');
		INSERT INTO j VALUES (5, NULL, ' [ ] ', NULL);`)
	if err != nil {
		t.Fatal(err)
	}
	want := ndjson(
		`{"id":1,"doc":{"a":[1,2],"s":"x\ny"},"b":[true],"t":"{\"not\":\"json column\"}"}`,
		`{"id":2,"doc":"not json","b":"","t":"[1]"}`,
		`{"id":3,"doc":42,"b":"e30=","t":null}`,
		`{"id":4,"doc":"a string","b":"{\"k\":","t":""}`,
		`{"id":5,"doc":null,"b":[],"t":null}`)
	for _, procs := range []int{1, 2} { // the plain loop and the pipelined one
		withProcs(t, procs, func() {
			if got := dump(t, db, "SELECT * FROM j ORDER BY id"); got != want {
				t.Errorf("GOMAXPROCS=%d:\n got: %s\nwant: %s", procs, got, want)
			}
		})
	}
	var b bytes.Buffer
	if _, err := WriteQuery(context.Background(), db, &b, Array, "SELECT doc FROM j"); err != nil || !stdjson.Valid(b.Bytes()) {
		t.Errorf("array: %v\n%s", err, b.String())
	}
	// An expression has no declared type: its text is a string.
	if got := dump(t, db, "SELECT json_array(1, 2) AS x, doc AS y FROM j WHERE id = 1"); got != ndjson(`{"x":"[1,2]","y":{"a":[1,2],"s":"x\ny"}}`) {
		t.Errorf("expression: %s", got)
	}
}

// withProcs runs f with GOMAXPROCS set to n.
func withProcs(t *testing.T, n int, f func()) {
	t.Helper()
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(n))
	f()
}

// TestJSONColumnRoundTrip: nested values loaded by Insert come back from
// WriteQuery as the same JSON, not as strings holding it, in either
// output format; a string in a column inferred as JSON stays a string.
func TestJSONColumnRoundTrip(t *testing.T) {
	db := openDB(t)
	in := ndjson(`{"id":1,"tags":["a","b"],"meta":{"n":1,"deep":{"x":[null,true,1.5]}}}`,
		`{"id":2,"tags":[],"meta":null}`,
		`{"id":3,"tags":[{"k":"\"quoted\"\n"}],"meta":{}}`,
		`{"id":4,"tags":"not nested","meta":{"late":"x"}}`,
		// Strings that read as numbers or JSON scalars, past the rows the
		// types were inferred from: kept as they came (TEXT affinity).
		`{"id":5,"tags":"42","meta":"true"}`,
		`{"id":6,"tags":"1e3","meta":" 7"}`,
		`{"id":7,"tags":"\"quoted\"","meta":"null"}`)
	load(t, db, "t", in, &Options{InferRows: 3})
	if got := columnTypes(t, db, "t"); strings.Join(got, ",") != "id INTEGER,tags JSON TEXT,meta JSON TEXT" {
		t.Errorf("columns %q", got)
	}
	if got := dump(t, db, "SELECT typeof(tags) AS a, typeof(meta) AS b FROM t WHERE id >= 5"); got != ndjson(
		`{"a":"text","b":"text"}`, `{"a":"text","b":"text"}`, `{"a":"text","b":"text"}`) {
		t.Errorf("later scalars stored as %s", got)
	}
	if got := dump(t, db, "SELECT * FROM t ORDER BY id"); got != in {
		t.Errorf("got:\n%s\nwant:\n%s", got, in)
	}
	var b bytes.Buffer
	if _, err := WriteQuery(context.Background(), db, &b, Array, "SELECT tags, meta FROM t WHERE id = 1"); err != nil ||
		b.String() != `[{"tags":["a","b"],"meta":{"n":1,"deep":{"x":[null,true,1.5]}}}]`+"\n" {
		t.Errorf("array: %v %s", err, b.String())
	}
}
