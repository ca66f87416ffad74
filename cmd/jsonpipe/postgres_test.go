package main

import (
	"strconv"
	"strings"
	"testing"

	"github.com/jsonpipe/json/internal/pgtest"
)

// TestPostgresEndToEnd loads into a throwaway PostgreSQL and queries the
// rows back, through the command, with the flags SQLite loads take.
func TestPostgresEndToEnd(t *testing.T) {
	url := pgtest.Schema(t)
	in := "{\"id\":1,\"name\":\"a\",\"tags\":[1]}\n{\"id\":2,\"name\":\"b\"}\n"
	r := jsonpipe(t, in, "insert", "--pk", "id", url, "items")
	if r.code != 0 || !strings.Contains(r.stderr, "inserted 2 rows into items (created the table)") {
		t.Fatalf("insert: %+v", r)
	}
	r = jsonpipe(t, "{\"id\":2,\"name\":\"B\"}\n{\"id\":3,\"name\":\"c\",\"extra\":true}\n", "insert", "--upsert", "--alter", "--nl", "--workers", "2", "--infer-rows", "1", url, "items", "-")
	if r.code != 0 || !strings.Contains(r.stderr, "inserted 1 row into items and updated 1 (added 1 column: \"extra\")") {
		t.Fatalf("upsert: %+v", r)
	}
	r = jsonpipe(t, "", "query", "--nl", url, "SELECT * FROM items ORDER BY id")
	want := "{\"id\":1,\"name\":\"a\",\"tags\":[1],\"extra\":null}\n{\"id\":2,\"name\":\"B\",\"tags\":null,\"extra\":null}\n{\"id\":3,\"name\":\"c\",\"tags\":null,\"extra\":true}\n"
	if r.code != 0 || r.stdout != want {
		t.Fatalf("query: %+v\nwant %s", r, want)
	}
	// A failing row: exit 1, the row named, the committed count said.
	r = jsonpipe(t, "{\"id\":4,\"name\":\"d\"}\n{\"id\":5,\"name\":7}\n", "insert", "--batch-size", "1", "--infer-rows", "1", url, "items")
	if r.code != 0 {
		// name is text: 7 is stored as its text.
		t.Fatalf("insert: %+v", r)
	}
	r = jsonpipe(t, "{\"id\":6}\n{\"id\":\"x\"}\n", "insert", "--batch-size", "1", url, "items")
	if r.code != 1 || !strings.Contains(r.stderr, "row 2 at byte 9") || !strings.Contains(r.stderr, "1 row committed") {
		t.Fatalf("bad row: %+v", r)
	}
	r = jsonpipe(t, `{"id":7,"name":"`+strings.Repeat("x", 100)+`"}`, "insert", "--max-value-size", "50", url, "items")
	if r.code != 1 || !strings.Contains(r.stderr, "row 1") || !strings.Contains(r.stderr, "(--max-value-size)") {
		t.Fatalf("max value size: %+v", r)
	}
	// A value that does not fit a new table's inferred column widens it
	// (twice here), and the summary says to what; --strict-types stops
	// at it instead; into a table the load did not create it is an error.
	r = jsonpipe(t, "{\"n\":1,\"b\":true}\n{\"n\":2.5,\"b\":true}\n{\"n\":\"x\",\"b\":[1]}\n", "insert", "--infer-rows", "1", url, "wide")
	if r.code != 0 || !strings.Contains(r.stderr, `inserted 3 rows into wide (created the table; widened 2 columns: "n" to text, "b" to jsonb)`) {
		t.Fatalf("widening: %+v", r)
	}
	r = jsonpipe(t, "{\"n\":1}\n{\"n\":2.5}\n", "insert", "--infer-rows", "1", url, "wide1")
	if r.code != 0 || !strings.Contains(r.stderr, `inserted 2 rows into wide1 (created the table; widened "n" to double precision)`) {
		t.Fatalf("widening one column: %+v", r)
	}
	r = jsonpipe(t, "{\"n\":1}\n{\"n\":2.5}\n", "insert", "--strict-types", "--infer-rows", "1", "--batch-size", "1", url, "strict")
	if r.code != 1 || !strings.Contains(r.stderr, "row 2 at byte 8") || !strings.Contains(r.stderr, `column "n" is bigint; the value is number 2.5`) || !strings.Contains(r.stderr, "1 row committed") {
		t.Fatalf("--strict-types: %+v", r)
	}
	r = jsonpipe(t, "{\"n\":3.5}\n", "insert", url, "strict")
	if r.code != 1 || !strings.Contains(r.stderr, `column "n" is bigint; the value is number 3.5`) {
		t.Fatalf("a table the load did not create: %+v", r)
	}
	r = jsonpipe(t, "{}", "insert", "--bulk", url, "items")
	if r.code != 2 {
		t.Fatalf("--bulk with PostgreSQL: %+v", r)
	}
	// Over three connections: batches commit in input order, so a bad
	// row 23 leaves rows 1 to 20 (batches of 5), and says so.
	var b strings.Builder
	for i := 1; i <= 40; i++ {
		if i == 23 {
			b.WriteString(`{"id":23,}` + "\n")
			continue
		}
		b.WriteString(`{"id":` + strconv.Itoa(i) + "}\n")
	}
	r = jsonpipe(t, b.String(), "insert", "--connections", "3", "--batch-size", "5", url, "many")
	if r.code != 1 || !strings.Contains(r.stderr, "row 23 at byte") || !strings.Contains(r.stderr, "20 rows committed") {
		t.Fatalf("--connections 3: %+v", r)
	}
	r = jsonpipe(t, "", "query", url, "SELECT count(*) AS n FROM many")
	if r.code != 0 || r.stdout != `[{"n":20}]`+"\n" {
		t.Fatalf("--connections 3: %+v", r)
	}
	r = jsonpipe(t, "{}", "insert", "--connections", "2", t.TempDir()+"/x.db", "items")
	if r.code != 2 || !strings.Contains(r.stderr, "--connections is for PostgreSQL") {
		t.Fatalf("--connections with SQLite: %+v", r)
	}
}

// TestPostgresNotNullDefault: --not-null and --default make the created
// table's constraints, as for SQLite.
func TestPostgresNotNullDefault(t *testing.T) {
	url := pgtest.Schema(t)
	r := jsonpipe(t, `{"title":"t"}`+"\n", "insert", "--not-null", "title",
		"--default", "done=false", "--default", "prio=2", "--default", `note="x y"`, "--default", "w=1.5", url, "t", "-")
	if r.code != 0 || !strings.Contains(r.stderr, "inserted 1 row into t (created the table)") {
		t.Fatalf("insert: %+v", r)
	}
	r = jsonpipe(t, "", "query", "--nl", url, "SELECT * FROM t")
	if want := `{"title":"t","done":false,"note":"x y","prio":2,"w":1.5}` + "\n"; r.code != 0 || r.stdout != want {
		t.Errorf("row %+v, want %q", r, want)
	}
	r = jsonpipe(t, `{"title":null}`, "insert", url, "t")
	if r.code != 1 || !strings.Contains(r.stderr, "row 1") || !strings.Contains(r.stderr, "not-null") {
		t.Errorf("null title: %+v", r)
	}
}

// TestPostgresKeysDifferingInCase: PostgreSQL's quoted names keep case,
// so keys that SQLite would refuse as one column are two columns here.
func TestPostgresKeysDifferingInCase(t *testing.T) {
	url := pgtest.Schema(t)
	jsonpipe(t, `[{"Group":"a","group":"b","id":1}]`, "insert", url, "g").must(t, 0, "inserted 1 row into g (created the table)")
	jsonpipe(t, `{"id":2,"GROUP":"c","group":"d"}`, "insert", "--alter", url, "g").must(t, 0, "(added 1 column: ")
	r := jsonpipe(t, "", "query", "--nl", url, "SELECT * FROM g ORDER BY id")
	if want := "{\"Group\":\"a\",\"group\":\"b\",\"id\":1,\"GROUP\":null}\n{\"Group\":null,\"group\":\"d\",\"id\":2,\"GROUP\":\"c\"}\n"; r.code != 0 || r.stdout != want {
		t.Errorf("rows %+v, want %q", r, want)
	}
}

// TestPostgresQueryFailsMidway: as TestQueryFailsMidway, for a query
// PostgreSQL fails part-way.
func TestPostgresQueryFailsMidway(t *testing.T) {
	url := pgtest.Schema(t)
	for _, k := range []int{1, 1000, 100_000} {
		q := `SELECT g AS i, g / (g - ` + strconv.Itoa(k+1) + `) AS d FROM generate_series(1, ` + strconv.Itoa(k+5000) + `) g`
		checkFailedQuery(t, k, "division by zero", func(args ...string) result {
			return jsonpipe(t, "", append(append([]string{"query"}, args...), url, q)...)
		})
	}
}

// A duplicate key in PostgreSQL gets the same hint as in SQLite, and the
// options' names are the command's flags.
func TestPostgresMessagesInFlagTerms(t *testing.T) {
	url := pgtest.Schema(t)
	jsonpipe(t, `{"id":1}`, "insert", "--pk", "id", url, "t").must(t, 0, "inserted 1 row into t (created the table) in")
	jsonpipe(t, `{"id":1}`, "insert", url, "t").must(t, 1, "duplicate key", "hint: a row's key is stored already: --ignore skips such rows, --replace replaces them, --upsert updates them")
	jsonpipe(t, `{"id":2,"x":1}`, "insert", url, "t").must(t, 1, `key "x" is not a column of table "t" (--alter adds it)`)
	jsonpipe(t, `{"x":1}`, "insert", "--pk", "x", url, "u").must(t, 0, "inserted 1 row")
	jsonpipe(t, `{"x":1}`, "insert", "--upsert", url, "v").must(t, 1, "--upsert needs a primary key (--pk, or the table's own)")
	jsonpipe(t, "{\"id\":1}\n{\"id\":2}\n", "insert", "--ignore", url, "t").must(t, 0, "inserted 1 row into t (skipped 1 whose key was stored already) in")
}

// The summary splits what PostgreSQL tells apart: inserted and replaced,
// and rows merged into a later one of the same key.
func TestPostgresSummarySplit(t *testing.T) {
	url := pgtest.Schema(t)
	jsonpipe(t, "{\"id\":1,\"v\":1}\n", "insert", "--pk", "id", url, "s").must(t, 0, "inserted 1 row into s (created the table)")
	jsonpipe(t, "{\"id\":1,\"v\":2}\n{\"id\":2,\"v\":3}\n{\"id\":2,\"v\":4}\n", "insert", "--replace", url, "s").
		must(t, 0, "inserted 1 row into s and replaced 1 (1 row merged into a later row of the same key) in")
}
