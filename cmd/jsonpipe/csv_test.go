package main

import (
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"testing"
)

// CSV and TSV in, through the built binary.
func TestInsertCSVAndTSV(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "c.db")
	f := filepath.Join(dir, "people.csv")
	os.WriteFile(f, []byte("id,name,score\r\n1,\"Ann, A\",1.5\r\n2,,2\r\n"), 0o644)
	jsonpipe(t, "", "insert", "--csv", "--pk", "id", db, "people", f).must(t, 0, "inserted 2 rows into people")
	r := jsonpipe(t, "", "query", "--nl", db, "SELECT id, typeof(id) AS k, name, score FROM people ORDER BY id")
	if want := "{\"id\":1,\"k\":\"integer\",\"name\":\"Ann, A\",\"score\":1.5}\n{\"id\":2,\"k\":\"integer\",\"name\":null,\"score\":2.0}\n"; r.stdout != want {
		t.Errorf("rows %q, want %q", r.stdout, want)
	}
	// The same file again: the key's conflict names the CSV row and line.
	jsonpipe(t, "", "insert", "--csv", db, "people", f).must(t, 1, "people.csv: sqlite: row 1 at byte 15: line 2: UNIQUE constraint failed", "0 rows committed")
	jsonpipe(t, "", "insert", "--csv", "--upsert", db, "people", f).must(t, 0, "inserted or updated 2 rows into people")
	// The same rows gzipped: the input is sniffed before CSV is read.
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte("\ufeffid,name,score\n3,Cy,3\n"))
	zw.Close()
	jsonpipe(t, gz.String(), "insert", "--csv", db, "people", "-").must(t, 0, "inserted 1 row into people")
	// TSV from standard input, --empty-strings.
	jsonpipe(t, "a\tb\nx\t\n", "insert", "--tsv", "--empty-strings", db, "tsv").must(t, 0, "inserted 1 row into tsv")
	r = jsonpipe(t, "", "query", "--nl", db, "SELECT * FROM tsv")
	if want := "{\"a\":\"x\",\"b\":\"\"}\n"; r.stdout != want {
		t.Errorf("rows %q, want %q", r.stdout, want)
	}
	// Errors.
	jsonpipe(t, "a,b\n1,2\n3\n", "insert", "--csv", db, "bad").must(t, 1, "row 2 at byte 8: csv: line 3: 1 fields, but the header names 2 columns", "0 rows committed")
	jsonpipe(t, "", "insert", "--csv", db, "bad").must(t, 1, "csv: the input is empty")
	jsonpipe(t, "a,a\n", "insert", "--csv", db, "bad").must(t, 1, `columns 1 and 2 are both named "a"`)
	jsonpipe(t, "", "insert", "--csv", "--nl", db, "bad").must(t, 2, "exclude each other")
	jsonpipe(t, "", "insert", "--empty-strings", db, "bad").must(t, 2, "--empty-strings is for --csv and --tsv")
}
