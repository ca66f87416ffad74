package sqlite

import (
	"context"
	"reflect"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/jsonpipe/json/internal/chunkio"
)

func TestRoundTrip(t *testing.T) {
	// Input rows and what a query gives back: the documented mapping is
	// booleans as 0/1, nested values as JSON (compacted), and integral REALs
	// with ".0"; missing keys come back as null.
	tests := []struct {
		name string
		in   string
		out  string
	}{
		{"scalars",
			`{"s":"x","i":-42,"f":1.5,"b":true,"n":null}` + "\n" + `{"s":"","i":9223372036854775807,"f":-0.25,"b":false,"n":null}`,
			`{"s":"x","i":-42,"f":1.5,"b":1,"n":null}` + "\n" + `{"s":"","i":9223372036854775807,"f":-0.25,"b":0,"n":null}` + "\n"},
		{"escapes",
			`{"s":"tab\tquote\"back\\slash\u00e9\ud83d\ude00 nl\n ctl\u0001 \u2028"}`,
			`{"s":"tab\tquote\"back\\slashé😀 nl\n ctl\u0001 \u2028"}` + "\n"},
		{"nested comes back as JSON",
			`{"o":{"a": [1, 2, {"b": null}]},"a":[ "x" , 1e3 ],"e":{},"l":[]}`,
			`{"o":{"a":[1,2,{"b":null}]},"a":["x",1e3],"e":{},"l":[]}` + "\n"},
		{"missing keys are null",
			ndjson(`{"a":1,"b":"x"}`, `{"b":"y"}`, `{"a":3}`, `{}`),
			ndjson(`{"a":1,"b":"x"}`, `{"a":null,"b":"y"}`, `{"a":3,"b":null}`, `{"a":null,"b":null}`)},
		{"key order varies",
			ndjson(`{"a":1,"b":2,"c":3}`, `{"c":6,"a":4,"b":5}`, `{"b":8,"c":9,"a":7}`),
			ndjson(`{"a":1,"b":2,"c":3}`, `{"a":4,"b":5,"c":6}`, `{"a":7,"b":8,"c":9}`)},
		{"duplicate key: last wins",
			`{"a":1,"a":2}`,
			`{"a":2}` + "\n"},
		{"escaped key spelling matches",
			ndjson(`{"ab":1}`, `{"\u0061b":2}`, `{"a\u0062":3}`),
			ndjson(`{"ab":1}`, `{"ab":2}`, `{"ab":3}`)},
		{"key case folds like SQLite",
			ndjson(`{"Name":"x"}`, `{"name":"y"}`, `{"NAME":"z"}`),
			ndjson(`{"Name":"x"}`, `{"Name":"y"}`, `{"Name":"z"}`)},
		{"floats",
			`{"f":0.1}` + "\n" + `{"f":1e-7}` + "\n" + `{"f":1e21}` + "\n" + `{"f":-2.0}` + "\n" + `{"f":123456789.125}`,
			ndjson(`{"f":0.1}`, `{"f":1e-7}`, `{"f":1e+21}`, `{"f":-2.0}`, `{"f":123456789.125}`)},
		{"invalid UTF-8 becomes U+FFFD", "{\"s\":\"a\xffb\"}", `{"s":"a` + "\uFFFD" + `b"}` + "\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			db := openDB(t)
			load(t, db, "t", tc.in, nil)
			if got := dump(t, db, "SELECT * FROM t"); got != tc.out {
				t.Errorf("round trip\n got: %s\nwant: %s", got, tc.out)
			}
			// And back again: exporting and loading the export into a new
			// table gives the same rows.
			out := dump(t, db, "SELECT * FROM t")
			load(t, db, "t2", out, nil)
			if got := dump(t, db, "SELECT * FROM t2"); got != out {
				t.Errorf("second round trip\n got: %s\nwant: %s", got, out)
			}
		})
	}
}

// TestNestedKeptExactly: a nested value is stored as its exact input
// text (WriteQuery compacts it, so read it through an expression, which
// has no declared type and comes back as a string).
func TestNestedKeptExactly(t *testing.T) {
	db := openDB(t)
	load(t, db, "t", `{"o":{"a": [1, 2, {"b": null}]},"a":[ "x" , 1e3 ],"e":{},"l":[]}`, nil)
	got := dump(t, db, "SELECT o || '' AS o, a || '' AS a, e || '' AS e, l || '' AS l FROM t")
	if want := `{"o":"{\"a\": [1, 2, {\"b\": null}]}","a":"[ \"x\" , 1e3 ]","e":"{}","l":"[]"}` + "\n"; got != want {
		t.Errorf("got: %s\nwant: %s", got, want)
	}
}

// TestShapes loads the same rows in every input shape, whole and through
// readers that return 1, 2 and 3 bytes at a time, so every refill path of
// the decoder runs under the inserter.
func TestShapes(t *testing.T) {
	rows := []string{`{"id":1,"s":"a b","n":[1,{"x":"]"}]}`, `{"id":2,"s":"\"}","n":null}`, `{"id":3,"s":"ü","n":{"k":[]}}`}
	want := ndjson(rows...) // n is a JSON column: its values come back as they went in
	shapes := map[string]string{
		"array":         "[" + strings.Join(rows, ",") + "]",
		"array lines":   "[\n" + strings.Join(rows, ",\n") + "\n]\n",
		"ndjson":        strings.Join(rows, "\n") + "\n",
		"ndjson crlf":   strings.Join(rows, "\r\n"),
		"concatenated":  strings.Join(rows, ""),
		"two arrays":    "[" + rows[0] + "]\n[" + rows[1] + "," + rows[2] + "]",
		"array+objects": "[" + rows[0] + "]" + rows[1] + " " + rows[2],
		"spaces":        " \t\n[ " + strings.Join(rows, " ,\n\t ") + " ] \n",
	}
	readers := map[string]func(string) func() any{
		"whole":  func(s string) func() any { return func() any { return strings.NewReader(s) } },
		"1-byte": func(s string) func() any { return func() any { return iotest.OneByteReader(strings.NewReader(s)) } },
		"2-byte": func(s string) func() any { return func() any { return &chunkio.Reader{R: strings.NewReader(s), N: 2} } },
		"3-byte": func(s string) func() any { return func() any { return &chunkio.Reader{R: strings.NewReader(s), N: 3} } },
		"data+EOF": func(s string) func() any {
			return func() any { return iotest.DataErrReader(strings.NewReader(s)) }
		},
	}
	for sname, in := range shapes {
		for rname, mk := range readers {
			t.Run(sname+"/"+rname, func(t *testing.T) {
				for _, per := range []int{1, 2, 128} {
					db := openDB(t)
					r := mk(in)().(interface{ Read([]byte) (int, error) })
					res, err := Insert(context.Background(), db, "t", r, &Options{RowsPerStatement: per, BatchSize: 2})
					if err != nil {
						t.Fatalf("per=%d: %v", per, err)
					}
					if res.Rows != 3 {
						t.Errorf("per=%d: Rows = %d, want 3", per, res.Rows)
					}
					if got := dump(t, db, "SELECT * FROM t"); got != want {
						t.Errorf("per=%d:\n got: %s\nwant: %s", per, got, want)
					}
				}
			})
		}
	}
}

func TestEmptyInputs(t *testing.T) {
	for _, in := range []string{"", " \n\t", "[]", "[ ]\n[]"} {
		db := openDB(t)
		res := load(t, db, "t", in, nil)
		if res.Rows != 0 || res.Created {
			t.Errorf("%q: %+v, want no rows and no table", in, res)
		}
	}
	// With explicit columns, the table is created even for no rows.
	db := openDB(t)
	res := load(t, db, "t", "[]", &Options{Columns: []Column{{Name: "a", Type: "TEXT"}}})
	if !res.Created || schema(t, db, "t") == "" {
		t.Errorf("explicit columns, empty input: %+v", res)
	}
}

func TestInference(t *testing.T) {
	tests := []struct {
		name  string
		in    string
		opts  *Options
		types []string
		out   string // optional
	}{
		{"int then float", ndjson(`{"a":1}`, `{"a":2.5}`), nil, []string{"a REAL"}, ndjson(`{"a":1.0}`, `{"a":2.5}`)},
		{"float then int", ndjson(`{"a":2.5}`, `{"a":1}`), nil, []string{"a REAL"}, ""},
		{"integral float literal", ndjson(`{"a":1.0}`, `{"a":1e2}`), nil, []string{"a REAL"}, ndjson(`{"a":1.0}`, `{"a":100.0}`)},
		{"big integers become REAL", ndjson(`{"a":1}`, `{"a":18446744073709551616}`, `{"a":-9223372036854775809}`), nil, []string{"a REAL"},
			ndjson(`{"a":1.0}`, `{"a":18446744073709552000.0}`, `{"a":-9223372036854776000.0}`)},
		{"int64 extremes stay INTEGER", ndjson(`{"a":9223372036854775807}`, `{"a":-9223372036854775808}`), nil, []string{"a INTEGER"},
			ndjson(`{"a":9223372036854775807}`, `{"a":-9223372036854775808}`)},
		{"booleans are INTEGER", ndjson(`{"a":true}`, `{"a":false}`, `{"a":3}`), nil, []string{"a INTEGER"}, ""},
		{"int and string mix to TEXT", ndjson(`{"a":1}`, `{"a":"x"}`), nil, []string{"a TEXT"}, ndjson(`{"a":"1"}`, `{"a":"x"}`)},
		{"nested is JSON", ndjson(`{"a":{"b":1}}`, `{"a":[1]}`), nil, []string{"a JSON TEXT"}, ndjson(`{"a":{"b":1}}`, `{"a":[1]}`)},
		{"nested with strings is TEXT", ndjson(`{"a":{"b":1}}`, `{"a":"x"}`), nil, []string{"a TEXT"}, ""},
		{"nested mixed with numbers is TEXT", ndjson(`{"a":1}`, `{"a":[1]}`), nil, []string{"a TEXT"}, ndjson(`{"a":"1"}`, `{"a":"[1]"}`)},
		{"all null is TEXT", ndjson(`{"a":null}`, `{"a":null}`), nil, []string{"a TEXT"}, ""},
		{"nulls ignored", ndjson(`{"a":null}`, `{"a":7}`), nil, []string{"a INTEGER"}, ""},
		{"columns in order of first appearance", ndjson(`{"b":1}`, `{"a":"x","b":2}`, `{"c":1.5}`), nil,
			[]string{"b INTEGER", "a TEXT", "c REAL"}, ""},
		{"only the first InferRows rows count", ndjson(`{"a":1}`, `{"a":2}`, `{"a":"x"}`), &Options{InferRows: 2},
			[]string{"a INTEGER"}, ndjson(`{"a":1}`, `{"a":2}`, `{"a":"x"}`)},
		{"pk not in input becomes rowid alias", ndjson(`{"a":"x"}`, `{"a":"y"}`), &Options{PrimaryKey: []string{"id"}},
			[]string{"id INTEGER", "a TEXT"}, ndjson(`{"id":1,"a":"x"}`, `{"id":2,"a":"y"}`)},
		{"integer pk in input", ndjson(`{"a":"x","id":10}`, `{"a":"y","id":null}`), &Options{PrimaryKey: []string{"id"}},
			[]string{"a TEXT", "id INTEGER"}, ndjson(`{"a":"x","id":10}`, `{"a":"y","id":11}`)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			db := openDB(t)
			load(t, db, "t", tc.in, tc.opts)
			if got := columnTypes(t, db, "t"); !reflect.DeepEqual(got, tc.types) {
				t.Errorf("columns %q, want %q\n%s", got, tc.types, schema(t, db, "t"))
			}
			if tc.out != "" {
				if got := dump(t, db, "SELECT * FROM t"); got != tc.out {
					t.Errorf("rows\n got: %s\nwant: %s", got, tc.out)
				}
			}
		})
	}
}

func TestTasksSchema(t *testing.T) {
	db := openDB(t)
	res := load(t, db, "tasks", string(tasksJSON(5, false)), &Options{PrimaryKey: []string{"id"}, NotNull: []string{"title"}})
	want := "CREATE TABLE \"tasks\" (\n  \"id\" INTEGER PRIMARY KEY,\n  \"title\" TEXT NOT NULL,\n  \"done\" INTEGER\n)"
	if got := schema(t, db, "tasks"); got != want {
		t.Errorf("schema\n%s\nwant\n%s", got, want)
	}
	if !(res.Rows == 5 && res.Changes == 5 && res.Created && len(res.Added) == 0) {
		t.Errorf("result %+v", res)
	}
	got := dump(t, db, "SELECT * FROM tasks WHERE id <= 2")
	if want := ndjson(`{"id":1,"title":"Clean Room","done":0}`, `{"id":2,"title":"Check Twitter","done":1}`); got != want {
		t.Errorf("rows\n%s\nwant\n%s", got, want)
	}
}

func TestWithoutMutex(t *testing.T) {
	for in, want := range map[string]string{
		"x.db":                             "x.db?_mutex=no",
		"file:x.db?_journal_mode=WAL":      "file:x.db?_journal_mode=WAL&_mutex=no",
		"x.db?_mutex=full":                 "x.db?_mutex=full",
		"file:x.db?cache=shared&_mutex=no": "file:x.db?cache=shared&_mutex=no",
		"":                                 "",   // a temporary database
		"?x":                               "?x", // go-sqlite3 reads no parameters here
		"x.db?%zz":                         "x.db?%zz",
	} {
		if got := withoutMutex(in); got != want {
			t.Errorf("withoutMutex(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestInsertPathDSN loads through InsertPath into DSNs that carry their own
// parameters, which must still apply next to the _mutex InsertPath adds.
func TestInsertPathDSN(t *testing.T) {
	dir := t.TempDir()
	for _, dsn := range []string{dir + "/a.db", "file:" + dir + "/b.db?_journal_mode=WAL", dir + "/c.db?_mutex=full"} {
		res, err := InsertPath(context.Background(), dsn, "t", strings.NewReader(`[{"a":1},{"a":2}]`), nil)
		if err != nil || res.Rows != 2 {
			t.Fatalf("%s: %+v, %v", dsn, res, err)
		}
	}
	db, err := Open(dir + "/b.db")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var mode string
	if err := db.QueryRow("PRAGMA journal_mode").Scan(&mode); err != nil || mode != "wal" {
		t.Errorf("journal_mode %q, %v: want wal", mode, err)
	}
}
