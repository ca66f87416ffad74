package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/jsonpipe/json/internal/csvin"
	"github.com/jsonpipe/json/internal/loader"
)

// CSV and TSV input (Options.Delimiter) into a real SQLite database.

func csvOpts(sep byte) *Options { return &Options{Delimiter: sep} }

func TestCSVTypesAndValues(t *testing.T) {
	for _, serial := range []bool{false, true} {
		db := openDB(t)
		o := csvOpts(',')
		loader.Tune(o, loader.Tuning{Serial: serial, BlockSize: 64})
		in := "id,score,name,note,empty\r\n" +
			"1,1.5,\"Smith, J\",,\r\n" +
			"007,2,\"say \"\"hi\"\"\nthere\",x,\r\n" +
			"+3,1e3,7,,\n" +
			" 4 ,.5,, y ," // a last line without a line end
		res := load(t, db, "t", in, o)
		if res.Rows != 4 || !res.Created {
			t.Fatalf("result %+v", res)
		}
		if got, want := flatSchema(t, db, "t"), `CREATE TABLE "t" ("id" INTEGER, "score" REAL, "name" TEXT, "note" TEXT, "empty" TEXT)`; got != want {
			t.Errorf("schema:\n got %s\nwant %s", got, want)
		}
		got := dump(t, db, `SELECT id, typeof(id), score, typeof(score), name, typeof(name), note, empty FROM t`)
		want := `{"id":1,"typeof(id)":"integer","score":1.5,"typeof(score)":"real","name":"Smith, J","typeof(name)":"text","note":null,"empty":null}
{"id":7,"typeof(id)":"integer","score":2.0,"typeof(score)":"real","name":"say \"hi\"\nthere","typeof(name)":"text","note":"x","empty":null}
{"id":3,"typeof(id)":"integer","score":1000.0,"typeof(score)":"real","name":"7","typeof(name)":"text","note":null,"empty":null}
{"id":4,"typeof(id)":"integer","score":0.5,"typeof(score)":"real","name":null,"typeof(name)":"null","note":" y ","empty":null}
`
		if got != want {
			t.Errorf("rows:\n got %s\nwant %s", got, want)
		}
	}
}

// csvErr runs a load expected to fail and returns its error.
func csvErr(t *testing.T, db *sql.DB, in string, o *Options) error {
	t.Helper()
	_, err := Insert(context.Background(), db, "t", strings.NewReader(in), o)
	if err == nil {
		t.Fatalf("Insert(%q): no error", in)
	}
	return err
}

func TestCSVRowErrors(t *testing.T) {
	for _, tc := range []struct {
		name, in  string
		row, line int64
		off       int64
		msg       string
	}{
		{"more fields", "a,b\n1,2\n3,4,5\n", 2, 3, 8, "3 fields, but the header names 2 columns"},
		{"fewer fields", "a,b\n1,2\n3\n", 2, 3, 8, "1 fields, but the header names 2 columns"},
		{"bare quote", "a,b\n1,2\n3,x\"y\n", 2, 3, 11, `bare " in an unquoted field`},
		{"text after quote", "a,b\n1,\"x\"y\n", 1, 2, 9, `text after the closing "`},
		{"open quote at EOF", "a,b\n1,2\r\n3,\"x\ny\n", 2, 3, 11, "still open at the end of the input"},
		{"invalid UTF-8", "a,b\n1,2\n3,ab\xff\n", 2, 3, 10, "not valid UTF-8: byte 3 of the field is 0xff"},
		{"line after quoted newline", "a,b\n\"1\n2\",2\n3,4,5\n", 2, 4, 12, "3 fields"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			db := openDB(t)
			err := csvErr(t, db, tc.in, csvOpts(','))
			var re *RowError
			var se *csvin.SyntaxError
			if !errors.As(err, &re) || !errors.As(err, &se) {
				t.Fatalf("error %T %v: want a *RowError holding a *csvin.SyntaxError", err, err)
			}
			if re.Row != tc.row || se.Line != tc.line || re.Offset != tc.off || !strings.Contains(err.Error(), tc.msg) {
				t.Errorf("error %q: row %d line %d offset %d, want row %d line %d offset %d and %q", err, re.Row, se.Line, re.Offset, tc.row, tc.line, tc.off, tc.msg)
			}
			if n := count(t, db, "t"); n != 0 {
				t.Errorf("%d rows kept, want 0 (one batch, rolled back)", n)
			}
		})
	}
}

func TestCSVHeaderErrors(t *testing.T) {
	for _, tc := range []struct{ name, in, msg string }{
		{"no input", "", "csv: the input is empty"},
		{"blank lines only", "\n\r\n", "csv: the input is empty"},
		{"duplicate names", "a,b,a\n1,2,3\n", `csv: header: columns 1 and 3 are both named "a"`},
		{"names differing in case", "a,A\n1,2\n", "differ only in letter case"},
		{"empty name", "a,,c\n1,2,3\n", "csv: header: column 2 has no name"},
		{"bad quote in header", "a,b\"\n", `line 1: bare "`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			db := openDB(t)
			err := csvErr(t, db, tc.in, csvOpts(','))
			if !strings.Contains(err.Error(), tc.msg) {
				t.Errorf("error %q, want %q in it", err, tc.msg)
			}
			if n := count(t, db, "t"); n != 0 {
				t.Errorf("%d rows", n)
			}
		})
	}
}

func TestCSVHostileShapes(t *testing.T) {
	t.Run("header only", func(t *testing.T) {
		db := openDB(t)
		res := load(t, db, "t", "a,b\r\n", csvOpts(','))
		if res.Rows != 0 || !res.Created {
			t.Errorf("result %+v", res)
		}
		if got, want := flatSchema(t, db, "t"), `CREATE TABLE "t" ("a" TEXT, "b" TEXT)`; got != want {
			t.Errorf("schema %s, want %s", got, want)
		}
	})
	t.Run("header without line end", func(t *testing.T) {
		db := openDB(t)
		load(t, db, "t", "a", csvOpts(','))
		if got, want := flatSchema(t, db, "t"), `CREATE TABLE "t" ("a" TEXT)`; got != want {
			t.Errorf("schema %s, want %s", got, want)
		}
	})
	t.Run("one column", func(t *testing.T) {
		db := openDB(t)
		// A blank line is skipped, as Python's csv.DictReader skips it.
		res := load(t, db, "t", "n\n1\n\n2\n\"\"\n3", csvOpts(','))
		if res.Rows != 4 {
			t.Errorf("%d rows, want 4", res.Rows)
		}
		if got, want := dump(t, db, "SELECT n FROM t"), "{\"n\":1}\n{\"n\":2}\n{\"n\":null}\n{\"n\":3}\n"; got != want {
			t.Errorf("rows %s, want %s", got, want)
		}
	})
	t.Run("BOM and CR line ends", func(t *testing.T) {
		db := openDB(t)
		load(t, db, "t", "\xef\xbb\xbfa\tb\r1\t\"x\ty\"\r", csvOpts('\t'))
		if got, want := dump(t, db, "SELECT * FROM t"), "{\"a\":1,\"b\":\"x\\ty\"}\n"; got != want {
			t.Errorf("rows %s, want %s", got, want)
		}
	})
	t.Run("wide", func(t *testing.T) {
		db := openDB(t)
		var h, r strings.Builder
		for i := 0; i < 2000; i++ {
			if i > 0 {
				h.WriteByte(',')
				r.WriteByte(',')
			}
			fmt.Fprintf(&h, "c%d", i)
			fmt.Fprintf(&r, "%d", i)
		}
		load(t, db, "t", h.String()+"\n"+r.String()+"\n", csvOpts(','))
		if got := dump(t, db, "SELECT c1999 + 1 AS x FROM t"); got != "{\"x\":2000}\n" {
			t.Errorf("rows %s", got)
		}
	})
}

func TestCSVEmptyStrings(t *testing.T) {
	db := openDB(t)
	o := csvOpts(',')
	o.EmptyStrings = true
	load(t, db, "t", "s,n\nx,1\n,\n", o)
	if got, want := dump(t, db, "SELECT s, n FROM t"), "{\"s\":\"x\",\"n\":1}\n{\"s\":\"\",\"n\":null}\n"; got != want {
		t.Errorf("rows %s, want %s", got, want)
	}
}

// Every other option works as for JSON: here the primary key, the
// conflict modes, Alter and a small InferRows.
func TestCSVOptions(t *testing.T) {
	db := openDB(t)
	o := csvOpts(',')
	o.PrimaryKey = []string{"id"}
	load(t, db, "t", "id,v\n1,a\n2,b\n", o)
	if got, want := flatSchema(t, db, "t"), `CREATE TABLE "t" ("id" INTEGER PRIMARY KEY, "v" TEXT)`; got != want {
		t.Errorf("schema %s, want %s", got, want)
	}
	err := csvErr(t, db, "id,v\n3,c\n\n1,again\n", o)
	var re *RowError
	if !errors.As(err, &re) || re.Row != 2 || re.Offset != 10 || !strings.Contains(err.Error(), "line 4: UNIQUE constraint failed") {
		t.Errorf("error %v, want row 2 at byte 10, line 4, UNIQUE", err)
	}
	o.Conflict = Upsert
	load(t, db, "t", "id,v\n1,A\n3,c\n", o)
	o.Conflict = Fail
	err = csvErr(t, db, "id,v,w\n4,d,9\n", o)
	if !strings.Contains(err.Error(), `key "w" is not a column`) {
		t.Errorf("error %v", err)
	}
	o.Alter = true
	res := load(t, db, "t", "id,v,w\n4,d,9\n", o)
	if len(res.Added) != 1 {
		t.Errorf("added %v", res.Added)
	}
	if got, want := dump(t, db, "SELECT * FROM t ORDER BY id"), `{"id":1,"v":"A","w":null}
{"id":2,"v":"b","w":null}
{"id":3,"v":"c","w":null}
{"id":4,"v":"d","w":9}
`; got != want {
		t.Errorf("rows %s, want %s", got, want)
	}
	// Types come from the first InferRows rows: a later value that is not
	// a number is stored as it is (SQLite keeps the text in an INTEGER
	// column).
	db2 := openDB(t)
	o2 := csvOpts(',')
	o2.InferRows = 1
	load(t, db2, "t", "n\n1\n2.5\nabc\n", o2)
	if got, want := dump(t, db2, "SELECT n, typeof(n) AS k FROM t"), `{"n":1,"k":"integer"}
{"n":2.5,"k":"real"}
{"n":"abc","k":"text"}
`; got != want {
		t.Errorf("rows %s, want %s", got, want)
	}
}

// A bigger file through the workers (and the pipeline), against the same
// file loaded serially.
func TestCSVWorkers(t *testing.T) {
	var b strings.Builder
	b.WriteString("id,x,s\n")
	for i := 0; i < 20000; i++ {
		fmt.Fprintf(&b, "%d,%d.25,\"row %d, \"\"q\"\"\nline\"\n", i, i, i)
	}
	b.WriteString("1,2,3,4\n")
	for _, serial := range []bool{true, false} {
		db := openDB(t)
		o := csvOpts(',')
		o.Workers = 2
		o.BatchSize = 5000
		loader.Tune(o, loader.Tuning{Serial: serial, BlockSize: 4096})
		res, err := Insert(context.Background(), db, "t", strings.NewReader(b.String()), o)
		var re *RowError
		if !errors.As(err, &re) || re.Row != 20001 || !strings.Contains(err.Error(), "line 40002") {
			t.Fatalf("serial %v: error %v, want row 20001, line 40002", serial, err)
		}
		if res.Rows != 20000 || count(t, db, "t") != 20000 {
			t.Errorf("serial %v: %d rows committed", serial, res.Rows)
		}
		if got, want := dump(t, db, "SELECT * FROM t WHERE id = 19999"), `{"id":19999,"x":19999.25,"s":"row 19999, \"q\"\nline"}`+"\n"; got != want {
			t.Errorf("serial %v: %s, want %s", serial, got, want)
		}
	}
}

// flatSchema is the table's CREATE statement on one line.
func flatSchema(t *testing.T, db *sql.DB, table string) string {
	s := strings.Join(strings.Fields(schema(t, db, table)), " ")
	return strings.NewReplacer("( ", "(", " )", ")").Replace(s)
}
