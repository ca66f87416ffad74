package sqlite

import (
	"bytes"
	"context"
	"encoding/csv"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestWriteQueryText(t *testing.T) {
	db := openDB(t)
	_, err := db.Exec(`CREATE TABLE v ("a,b" TEXT, i INTEGER, r REAL, bl BLOB, d DATETIME, flag BOOLEAN, j JSON);
		INSERT INTO v VALUES ('say "hi",' || char(13) || char(10) || 'bye', -9223372036854775808, 1.0, x'00ff10', '2024-01-02 03:04:05', 1, '{"k": [1]}');
		INSERT INTO v VALUES (NULL, NULL, 9e999, x'', NULL, 0, NULL);
		INSERT INTO v VALUES ('', 0, -1.5e-7, NULL, NULL, NULL, '[]');
		INSERT INTO v VALUES ('tab	é' || char(27), 12345, -9e999, NULL, NULL, NULL, NULL);`)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		layout Layout
		want   string
	}{
		{LayoutCSV, "\"a,b\",i,r,bl,d,flag,j\n" +
			"\"say \"\"hi\"\",\r\nbye\",-9223372036854775808,1.0,AP8Q,2024-01-02T03:04:05Z,true,\"{\"\"k\"\": [1]}\"\n" +
			",,Inf,\"\",,false,\n" +
			"\"\",0,-1.5e-7,,,,[]\n" +
			"tab\té\x1b,12345,-Inf,,,,\n"},
		{LayoutTSV, "a,b\ti\tr\tbl\td\tflag\tj\n" +
			"\"say \"\"hi\"\",\r\nbye\"\t-9223372036854775808\t1.0\tAP8Q\t2024-01-02T03:04:05Z\ttrue\t\"{\"\"k\"\": [1]}\"\n" +
			"\t\tInf\t\"\"\t\tfalse\t\n" +
			"\"\"\t0\t-1.5e-7\t\t\t\t[]\n" +
			"\"tab\té\x1b\"\t12345\t-Inf\t\t\t\t\n"},
		{LayoutTable, "" +
			"a,b                                  i        r  bl    d                     flag   j\n" +
			"----------------  --------------------  -------  ----  --------------------  -----  ----------\n" +
			"say \"hi\",\\r\\nbye  -9223372036854775808      1.0  AP8Q  2024-01-02T03:04:05Z  true   {\"k\": [1]}\n" +
			"                                            Inf                              false\n" +
			"                                     0  -1.5e-7                                     []\n" +
			"tab\\té\\x1b                       12345     -Inf\n"},
	}
	for _, tc := range tests {
		var b bytes.Buffer
		n, err := WriteQueryText(context.Background(), db, &b, tc.layout, "SELECT * FROM v")
		if err != nil || n != 4 {
			t.Fatalf("%v: n=%d err=%v", tc.layout, n, err)
		}
		if b.String() != tc.want {
			t.Errorf("%v: got\n%s\nwant\n%s", tc.layout, b.String(), tc.want)
		}
	}
	// What encoding/csv reads back is each value's text.
	var b bytes.Buffer
	WriteQueryText(context.Background(), db, &b, LayoutCSV, "SELECT * FROM v")
	recs, err := csv.NewReader(&b).ReadAll()
	if err != nil || len(recs) != 5 || recs[1][0] != "say \"hi\",\nbye" || recs[1][6] != `{"k": [1]}` {
		t.Errorf("read back %q, %v", recs, err)
	}
}

func TestWriteQueryTextShapes(t *testing.T) {
	db := openDB(t)
	db.Exec("CREATE TABLE t (a INTEGER, b TEXT)")
	for _, tc := range []struct {
		layout Layout
		q      string
		want   string
	}{
		{LayoutCSV, "SELECT * FROM t", "a,b\n"},
		{LayoutTSV, "SELECT * FROM t", "a\tb\n"},
		{LayoutTable, "SELECT * FROM t", "a  b\n-  -\n"},
		{LayoutCSV, "SELECT 1 AS x, 'a' AS y", "x,y\n1,a\n"},
		{LayoutCSV, "SELECT value AS v FROM json_each('[1,2,3]')", "v\n1\n2\n3\n"},
		{LayoutTable, "SELECT value AS v, 'x' AS s FROM json_each('[1,100,10]')", "  v  s\n---  -\n  1  x\n100  x\n 10  x\n"},
	} {
		var b bytes.Buffer
		if _, err := WriteQueryText(context.Background(), db, &b, tc.layout, tc.q); err != nil {
			t.Fatalf("%s: %v", tc.q, err)
		}
		if b.String() != tc.want {
			t.Errorf("%v %s: %q, want %q", tc.layout, tc.q, b.String(), tc.want)
		}
	}
	if _, err := WriteQueryText(context.Background(), db, &bytes.Buffer{}, LayoutCSV, "SELECT nope FROM t"); err == nil {
		t.Error("bad query gave no error")
	}
}

// TestWriteQueryTextFailure: a query failing part-way leaves the rows
// before the error; failing at once, nothing, not even the header.
func TestWriteQueryTextFailure(t *testing.T) {
	db := openDB(t)
	// abs() of the smallest integer overflows: row 3 fails.
	q := "SELECT abs(value) AS v FROM json_each('[1, 2, -9223372036854775808]')"
	for _, procs := range []int{1, 2} {
		withProcs(t, procs, func() {
			for _, layout := range []Layout{LayoutCSV, LayoutTSV, LayoutTable} {
				var b bytes.Buffer
				n, err := WriteQueryText(context.Background(), db, &b, layout, q)
				if err == nil || n != 2 || !strings.Contains(b.String(), "2\n") {
					t.Errorf("%v: n=%d err=%v out %q", layout, n, err, b.String())
				}
				b.Reset()
				n, err = WriteQueryText(context.Background(), db, &b, layout, "SELECT abs(-9223372036854775808) AS v")
				if err == nil || n != 0 || b.Len() != 0 {
					t.Errorf("%v, failing first row: n=%d err=%v out %q", layout, n, err, b.String())
				}
			}
		})
	}
}

// TestWriteQueryTextLarge: CSV streams many rows in pieces, in order.
func TestWriteQueryTextLarge(t *testing.T) {
	db := openDB(t)
	var w countingWriter
	const rows = 20000
	n, err := WriteQueryText(context.Background(), db, &w, LayoutCSV,
		"WITH RECURSIVE g(i) AS (SELECT 1 UNION ALL SELECT i+1 FROM g WHERE i < ?) SELECT i, printf('%0100d', i) AS s FROM g", rows)
	if err != nil || n != rows || w.lines != rows+1 || w.writes < 2 {
		t.Errorf("n=%d err=%v lines=%d writes=%d", n, err, w.lines, w.writes)
	}
}

type countingWriter struct{ lines, writes int }

func (w *countingWriter) Write(p []byte) (int, error) {
	w.lines += bytes.Count(p, []byte{'\n'})
	w.writes++
	return len(p), nil
}

func TestWriteQueryTextPath(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.db")
	db, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	load(t, db, "t", `[{"a":1,"n":{"k":"v"}},{"a":2,"n":null}]`, nil)
	db.Close()
	var b bytes.Buffer
	n, err := WriteQueryTextPath(context.Background(), path, &b, LayoutCSV, "SELECT * FROM t WHERE a > ?", 0)
	if err != nil || n != 2 || b.String() != "a,n\n1,\"{\"\"k\"\":\"\"v\"\"}\"\n2,\n" {
		t.Errorf("n=%d err=%v out %q", n, err, b.String())
	}
	none := filepath.Join(t.TempDir(), "none.db")
	_, err = WriteQueryTextPath(context.Background(), none, &b, LayoutCSV, "SELECT 1")
	var de *DBError
	if !errors.As(err, &de) {
		t.Errorf("missing file: %v", err)
	}
	if _, statErr := os.Stat(none); statErr == nil {
		t.Error("a query created a database")
	}
}
