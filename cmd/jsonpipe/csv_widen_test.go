package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jsonpipe/json/internal/pgtest"
)

// widenCSV is a CSV file whose column n is an integer in its first rows,
// then 1.5 (row 23, line 24), then abc (row 24), then integers again; the
// rows as `i|n` lines.
func widenCSV(t *testing.T) (file, rows string) {
	var in, want strings.Builder
	in.WriteString("i,n\n")
	for i := 1; i <= 30; i++ {
		n := fmt.Sprint(i * 10)
		switch i {
		case 23:
			n = "1.5"
		case 24:
			n = "abc"
		}
		fmt.Fprintf(&in, "%d,%s\n", i, n)
		fmt.Fprintf(&want, "%d|%s\n", i, n)
	}
	file = filepath.Join(t.TempDir(), "wide.csv")
	if err := os.WriteFile(file, []byte(in.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return file, want.String()
}

// pipeRows turns query --nl output of objects {"i":..,"n":..} into i|n lines.
func pipeRows(out string) string {
	r := strings.NewReplacer(`{"i":`, "", `,"n":`, "|", `"`, "", "}", "")
	return r.Replace(out)
}

// TestCSVWidenPostgres: through the command, a CSV column detected as
// bigint widens to double precision, then text, in a table the load
// creates, the summary saying so, every row stored; --strict-types stops
// at the first misfit, naming its row and line; into a table the user
// made, the misfit is an error as for JSON.
func TestCSVWidenPostgres(t *testing.T) {
	url := pgtest.Schema(t)
	f, want := widenCSV(t)
	jsonpipe(t, "", "insert", "--csv", "--infer-rows", "2", "--batch-size", "5", url, "wide", f).
		must(t, 0, `inserted 30 rows into wide (created the table; widened "n" to text)`)
	r := jsonpipe(t, "", "query", "--nl", url, "SELECT i, n FROM wide ORDER BY i")
	if got := pipeRows(r.stdout); r.code != 0 || got != want {
		t.Errorf("rows:\n%s want\n%s (%+v)", got, want, r)
	}
	r = jsonpipe(t, "", "query", "--nl", url, "SELECT format_type(atttypid, atttypmod) AS t FROM pg_attribute WHERE attrelid = 'wide'::regclass AND attname = 'n'")
	if r.stdout != "{\"t\":\"text\"}\n" {
		t.Errorf("column type %+v", r)
	}
	jsonpipe(t, "i,n\n1,1\n2,2.5\n", "insert", "--csv", "--infer-rows", "1", url, "wide1", "-").
		must(t, 0, `inserted 2 rows into wide1 (created the table; widened "n" to double precision)`)

	jsonpipe(t, "", "insert", "--csv", "--strict-types", "--infer-rows", "2", "--batch-size", "5", url, "strict", f).
		must(t, 1, "wide.csv: postgres: row 23 at byte ", ": line 24: ", `column "n" is bigint; the value is number 1.5`, "20 rows committed")

	jsonpipe(t, "", "query", url, "CREATE TABLE mine (i bigint, n bigint)").must(t, 0)
	jsonpipe(t, "", "insert", "--csv", "--infer-rows", "2", url, "mine", f).
		must(t, 1, "row 23 at byte ", "line 24: ", `column "n" is bigint; the value is number 1.5`, "0 rows committed")
	// The same rows as JSON: the same error, but for the line.
	jsonpipe(t, "{\"i\":1,\"n\":1.5}\n", "insert", url, "mine").must(t, 1, "row 1", `column "n" is bigint; the value is number 1.5`)
}

// TestCSVPastSampleSQLite: into SQLite the values past the sample are
// stored as they are, typeof() integer, real and text, the column still
// INTEGER; no widening is reported.
func TestCSVPastSampleSQLite(t *testing.T) {
	db := filepath.Join(t.TempDir(), "w.db")
	f, want := widenCSV(t)
	r := jsonpipe(t, "", "insert", "--csv", "--infer-rows", "2", "--batch-size", "5", db, "wide", f)
	r.must(t, 0, "inserted 30 rows into wide (created the table)")
	if strings.Contains(r.stderr, "widened") {
		t.Errorf("stderr %q", r.stderr)
	}
	r = jsonpipe(t, "", "query", "--nl", db, "SELECT i, n FROM wide ORDER BY i")
	if got := pipeRows(r.stdout); got != want {
		t.Errorf("rows:\n%s want\n%s", got, want)
	}
	r = jsonpipe(t, "", "query", "--nl", db, "SELECT typeof(n) AS k, count(*) AS c FROM wide GROUP BY k ORDER BY k")
	if want := "{\"k\":\"integer\",\"c\":28}\n{\"k\":\"real\",\"c\":1}\n{\"k\":\"text\",\"c\":1}\n"; r.stdout != want {
		t.Errorf("types %q, want %q", r.stdout, want)
	}
	r = jsonpipe(t, "", "query", "--nl", db, "SELECT type FROM pragma_table_info('wide') WHERE name = 'n'")
	if r.stdout != "{\"type\":\"INTEGER\"}\n" {
		t.Errorf("column type %q", r.stdout)
	}
	// --strict-types is for PostgreSQL: SQLite stores the values the same.
	jsonpipe(t, "", "insert", "--csv", "--strict-types", "--infer-rows", "2", db, "wide2", f).must(t, 0, "inserted 30 rows into wide2")
}

// TestCSVEmptyFieldsCommand: an empty field in an integer column is NULL;
// with --empty-strings only a text column's empty field is "".
func TestCSVEmptyFieldsCommand(t *testing.T) {
	db := filepath.Join(t.TempDir(), "e.db")
	in := "n,x,s\n1,1.5,a\n,,\n"
	jsonpipe(t, in, "insert", "--csv", db, "plain").must(t, 0, "inserted 2 rows")
	jsonpipe(t, in, "insert", "--csv", "--empty-strings", db, "es").must(t, 0, "inserted 2 rows")
	for table, want := range map[string]string{
		"plain": "{\"n\":null,\"tn\":\"null\",\"x\":null,\"tx\":\"null\",\"s\":null,\"ts\":\"null\"}\n",
		"es":    "{\"n\":null,\"tn\":\"null\",\"x\":null,\"tx\":\"null\",\"s\":\"\",\"ts\":\"text\"}\n",
	} {
		r := jsonpipe(t, "", "query", "--nl", db, "SELECT n, typeof(n) AS tn, x, typeof(x) AS tx, s, typeof(s) AS ts FROM "+table+" WHERE rowid = 2")
		if r.stdout != want {
			t.Errorf("%s: %q, want %q", table, r.stdout, want)
		}
	}
}
