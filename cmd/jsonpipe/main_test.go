package main

import (
	"bytes"
	"compress/gzip"
	stdjson "encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/jsonpipe/json/internal/pgtest"
)

// bin is the jsonpipe binary, built once for all tests.
var bin string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "jsonpipe-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	bin = filepath.Join(dir, "jsonpipe")
	if runtime.GOOS == "windows" {
		bin += ".exe"
	}
	out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput()
	if err != nil {
		fmt.Fprintf(os.Stderr, "building jsonpipe: %v\n%s", err, out)
		os.RemoveAll(dir)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	if pg, err := pgtest.Start(); err == nil {
		pg.Stop()
	}
	os.Exit(code)
}

type result struct {
	code           int
	stdout, stderr string
}

// jsonpipe runs the binary with stdin and returns what it did.
func jsonpipe(t *testing.T, stdin string, args ...string) result {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Stdin = strings.NewReader(stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return result{code, out.String(), errb.String()}
}

func (r result) must(t *testing.T, code int, stderrHas ...string) {
	t.Helper()
	if r.code != code {
		t.Fatalf("exit %d, want %d\nstdout: %s\nstderr: %s", r.code, code, r.stdout, r.stderr)
	}
	for _, s := range stderrHas {
		if !strings.Contains(r.stderr, s) {
			t.Errorf("stderr %q lacks %q", r.stderr, s)
		}
	}
}

func TestInsertTasksAndQuery(t *testing.T) {
	db := filepath.Join(t.TempDir(), "tasks.db")
	// The README's main job, on the file the repository ships.
	r := jsonpipe(t, "", "insert", "--pk", "id", "--not-null", "title", db, "tasks", "../../testdata/tasks.json")
	r.must(t, 0, "inserted 1,000 rows into tasks (created the table)", "rows/s")
	if r.stdout != "" {
		t.Errorf("stdout %q", r.stdout)
	}
	r = jsonpipe(t, "", "query", db, "SELECT * FROM tasks WHERE id <= 2")
	r.must(t, 0)
	want := `[{"id":1,"title":"Clean Room","done":0},` + "\n" + `{"id":2,"title":"Check Twitter","done":1}]` + "\n"
	if r.stdout != want {
		t.Errorf("query output %q, want %q", r.stdout, want)
	}
	r = jsonpipe(t, "", "query", "--nl", db, "SELECT count(*) AS n, sum(done) AS d FROM tasks")
	r.must(t, 0)
	if r.stdout != `{"n":1000,"d":500}`+"\n" {
		t.Errorf("query --nl output %q", r.stdout)
	}
	// The whole table round-trips through query's output.
	r = jsonpipe(t, "", "query", db, "SELECT * FROM tasks")
	var rows []map[string]any
	if err := stdjson.Unmarshal([]byte(r.stdout), &rows); err != nil || len(rows) != 1000 {
		t.Fatalf("query output does not parse as 1000 rows: %v", err)
	}
	r2 := jsonpipe(t, r.stdout, "insert", db, "copy", "-")
	r2.must(t, 0, "inserted 1,000 rows into copy")
}

func TestInsertStdinNDJSONAndFlags(t *testing.T) {
	db := filepath.Join(t.TempDir(), "x.db")
	in := "{\"id\":1,\"v\":\"a\"}\n{\"id\":2,\"v\":\"b\"}\n"
	jsonpipe(t, in, "insert", "--nl", "--pk", "id", db, "t").must(t, 0, "inserted 2 rows")
	// Same input again: fails on the key, exit 1, nothing committed.
	jsonpipe(t, in, "insert", db, "t").must(t, 1, "row 1 at byte 0", "UNIQUE constraint failed", "0 rows committed")
	// --ignore changes nothing.
	jsonpipe(t, in, "insert", "--ignore", db, "t").must(t, 0, "inserted 0 rows into t (skipped 2 whose key was stored already) in")
	// --replace and --upsert.
	jsonpipe(t, `{"id":2,"v":"B"}`, "insert", "--replace", db, "t").must(t, 0, "inserted or replaced 1 row into t (SQLite does not say how many of each) in")
	jsonpipe(t, `{"id":3,"v":"c","w":1}`, "insert", "--upsert", "--alter", db, "t").must(t, 0, `added 1 column: "w"`)
	r := jsonpipe(t, "", "query", "--nl", db, "SELECT * FROM t ORDER BY id")
	if want := "{\"id\":1,\"v\":\"a\",\"w\":null}\n{\"id\":2,\"v\":\"B\",\"w\":null}\n{\"id\":3,\"v\":\"c\",\"w\":1}\n"; r.stdout != want {
		t.Errorf("rows %q, want %q", r.stdout, want)
	}
	// --nl rejects an array; --array rejects objects.
	jsonpipe(t, `[{"id":9}]`, "insert", "--nl", db, "t").must(t, 1, "want newline-delimited objects")
	jsonpipe(t, `{"id":9}`, "insert", "--array", db, "t").must(t, 1, "want an array")
	// Flags after the positionals work too.
	jsonpipe(t, `{"id":10,"v":"z"}`, "insert", db, "t", "-", "--batch-size", "1").must(t, 0, "inserted 1 row into t in")
}

func TestInsertErrors(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "e.db")
	bad := filepath.Join(dir, "bad.json")
	var b strings.Builder
	for i := 1; i <= 10; i++ {
		if i == 8 {
			b.WriteString(`{"a":1 "b":2}` + "\n")
			continue
		}
		fmt.Fprintf(&b, "{\"a\":%d}\n", i)
	}
	os.WriteFile(bad, []byte(b.String()), 0o644)
	r := jsonpipe(t, "", "insert", "--batch-size", "3", db, "t", bad)
	r.must(t, 1, "bad.json: sqlite: row 8 at byte", "6 rows committed to t")
	r = jsonpipe(t, "", "query", db, "SELECT count(*) AS n FROM t")
	if r.stdout != `[{"n":6}]`+"\n" {
		t.Errorf("after the error: %s", r.stdout)
	}
	jsonpipe(t, "", "insert", "--all-or-nothing", db, "t2", bad).must(t, 1, "0 rows committed")
	jsonpipe(t, "", "query", db, "SELECT * FROM t2").must(t, 1, "no such table")

	jsonpipe(t, "", "insert", db, "t", filepath.Join(dir, "missing.json")).must(t, 1, "no such file")
	jsonpipe(t, "", "query", filepath.Join(dir, "missing.db"), "SELECT 1").must(t, 1, "no such file")
	if _, err := os.Stat(filepath.Join(dir, "missing.db")); err == nil {
		t.Error("query created the missing database")
	}
	jsonpipe(t, "", "query", db, "SELEC 1").must(t, 1, "syntax error")
}

func TestUsage(t *testing.T) {
	for _, args := range [][]string{
		{},
		{"frobnicate"},
		{"insert"},
		{"insert", "only.db"},
		{"insert", "a.db", "t", "f.json", "extra"},
		{"insert", "--replace", "--ignore", "a.db", "t"},
		{"insert", "--nl", "--array", "a.db", "t"},
		{"insert", "--batch-size", "0", "a.db", "t"},
		{"insert", "--batch-size", "x", "a.db", "t"},
		{"insert", "--default", "novalue", "a.db", "t"},
		{"insert", "--nope", "a.db", "t"},
		{"query", "a.db"},
	} {
		r := jsonpipe(t, "", args...)
		if r.code != 2 || !strings.Contains(r.stderr, "usage") {
			t.Errorf("%q: exit %d, stderr %q; want 2 and usage", args, r.code, r.stderr)
		}
	}
	jsonpipe(t, "", "help").must(t, 0)
	jsonpipe(t, "", "insert", "-h").must(t, 0, "-batch-size")
}

func TestProgressAndDefaults(t *testing.T) {
	db := filepath.Join(t.TempDir(), "p.db")
	var b strings.Builder
	for i := 0; i < 200000; i++ {
		b.WriteString(`{"title":"t"}` + "\n")
	}
	r := jsonpipe(t, b.String(), "insert", "--progress", "--batch-size", "50000",
		"--default", "done=false", "--default", "prio=2", "--default", `note="x y"`, "--default", "w=1.5", db, "t", "-")
	r.must(t, 0, "rows/s", "inserted 200,000 rows")
	if !strings.Contains(r.stderr, "jsonpipe: 50,000 rows") {
		t.Errorf("no progress lines in %q", r.stderr)
	}
	// Defaults for keys the input lacks add columns holding the default.
	r = jsonpipe(t, "", "query", "--nl", db, "SELECT * FROM t LIMIT 1")
	if want := `{"title":"t","done":0,"note":"x y","prio":2,"w":1.5}` + "\n"; r.stdout != want {
		t.Errorf("row %q, want %q", r.stdout, want)
	}
}

// TestKeysNamingOneColumn: keys that SQLite takes for one column (they
// differ only in ASCII case) in one row are an error naming the row, its
// offset and both keys, with the rows committed before it: in the first
// row, in a later row with --alter and without, and into an existing
// table. A key in another case alone in its row still loads.
func TestKeysNamingOneColumn(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "k.db")
	in := filepath.Join(dir, "arr.json")
	os.WriteFile(in, []byte(`[{"Group":"a","group":"b","id":1}]`), 0o644)
	jsonpipe(t, "", "insert", db, "first", in).must(t, 1,
		`arr.json: sqlite: row 1 at byte 21: keys "Group" and "group" both name column "Group"`, "0 rows committed to first")
	jsonpipe(t, "", "query", db, "SELECT * FROM first").must(t, 1, "no such table")

	later := "{\"id\":1,\"Group\":\"a\"}\n{\"id\":2,\"GROUP\":\"b\"}\n{\"id\":3,\"group\":\"c\",\"Group\":\"d\"}\n"
	for _, alter := range []string{"--infer-rows=1", "--alter"} {
		jsonpipe(t, later, "insert", "--batch-size", "1", "--infer-rows", "1", alter, db, "later"+alter[2:7]).must(t, 1,
			"standard input: sqlite: row 3 at byte 69: keys \"group\" and \"Group\" both name column \"Group\"", "2 rows committed to later")
	}
	added := "{\"id\":1}\n{\"id\":2,\"Group\":\"a\",\"group\":\"b\"}\n"
	jsonpipe(t, added, "insert", "--batch-size", "1", "--infer-rows", "1", "--alter", db, "added").must(t, 1,
		"row 2 at byte 36: keys \"Group\" and \"group\" both name column \"Group\"", "1 row committed to added")

	jsonpipe(t, `{"id":0,"group":"x"}`, "insert", db, "existing").must(t, 0)
	jsonpipe(t, "{\"id\":1,\"GROUP\":\"y\"}\n{\"id\":2,\"Group\":\"z\",\"GROUP\":\"w\"}\n", "insert", "--batch-size", "1", db, "existing").must(t, 1,
		"row 2 at byte 48: keys \"Group\" and \"GROUP\" both name column \"group\"", "1 row committed to existing")
	r := jsonpipe(t, "", "query", "--nl", db, "SELECT * FROM existing ORDER BY id")
	if want := "{\"id\":0,\"group\":\"x\"}\n{\"id\":1,\"group\":\"y\"}\n"; r.stdout != want {
		t.Errorf("existing: %q, want %q", r.stdout, want)
	}
}

// TestQueryFailsMidway: a query whose row k+1 fails writes its first k
// rows and nothing that passes for a complete result (an array left open,
// NDJSON that stops), says on standard error why and how many rows were
// written, and exits 1.
func TestQueryFailsMidway(t *testing.T) {
	db := filepath.Join(t.TempDir(), "q.db")
	jsonpipe(t, `{"a":1}`, "insert", db, "t").must(t, 0)
	for _, k := range []int{1, 1000, 100_000} {
		// abs() of the smallest int64 is an integer overflow in SQLite.
		q := fmt.Sprintf(`WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < %d)
			SELECT i, abs(CASE WHEN i = %d THEN -9223372036854775807 - 1 ELSE i END) AS a FROM c`, k+5000, k+1)
		checkFailedQuery(t, k, "integer overflow", func(args ...string) result {
			return jsonpipe(t, "", append(append([]string{"query"}, args...), db, q)...)
		})
	}
}

// checkFailedQuery runs query (with and without --nl) and checks that it
// failed as TestQueryFailsMidway says, after k rows.
func checkFailedQuery(t *testing.T, k int, why string, query func(args ...string) result) {
	t.Helper()
	for _, nl := range []bool{false, true} {
		var r result
		if nl {
			r = query("--nl")
		} else {
			r = query()
		}
		r.must(t, 1, why, fmt.Sprintf("jsonpipe: %s written before the error; the output is incomplete", rowCount(int64(k))))
		var v any
		if nl {
			lines := strings.Split(r.stdout, "\n")
			if len(lines) != k+1 || lines[k] != "" || stdjson.Unmarshal([]byte(lines[k-1]), &v) != nil {
				t.Errorf("after %d rows, --nl: %d lines, ending %q", k, len(lines)-1, r.stdout[max(0, len(r.stdout)-50):])
			}
			continue
		}
		if stdjson.Unmarshal([]byte(r.stdout), &v) == nil || !strings.HasPrefix(r.stdout, "[{") || strings.Count(r.stdout, "\n") != k {
			t.Errorf("after %d rows: output parses, or is not the %d rows: ends %q", k, k, r.stdout[max(0, len(r.stdout)-50):])
		}
		if !strings.Contains(r.stderr, "(its JSON array is not closed)") {
			t.Errorf("stderr %q does not say the array is open", r.stderr)
		}
	}
}

// TestDatabaseCannotBeOpened: a database in a directory that does not
// exist, or a file that is not a database, is an error naming the
// database and what is wrong with it, not the input file.
func TestDatabaseCannotBeOpened(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "arr.json")
	os.WriteFile(in, []byte(`[{"Group":"a","id":1}]`), 0o644)
	notDB := filepath.Join(dir, "notes.txt")
	os.WriteFile(notDB, []byte("plain text, no database\n"), 0o644)
	missing := filepath.Join(dir, "nodir", "x.db")
	for _, tc := range []struct{ db, why string }{
		{missing, "directory " + filepath.Join(dir, "nodir") + " does not exist"},
		{notDB, "the file is not an SQLite database"},
		{in, "the file is not an SQLite database (it holds JSON)"},
	} {
		want := "jsonpipe: sqlite: database " + tc.db + ": " + tc.why + "\n"
		r := jsonpipe(t, "", "insert", tc.db, "t", in)
		r.must(t, 1, want)
		if strings.HasPrefix(r.stderr, "jsonpipe: "+in+": ") {
			t.Errorf("insert: the error is put on the input: %q", r.stderr)
		}
		jsonpipe(t, "", "query", tc.db, "SELECT 1").must(t, 1, want)
	}
	if _, err := os.Stat(filepath.Join(dir, "nodir")); err == nil {
		t.Error("the missing directory was created")
	}
	// A PostgreSQL server that cannot be reached is not the input's fault
	// either.
	r := jsonpipe(t, "", "insert", "postgres://nobody@127.0.0.1:1/nodb", "t", in)
	r.must(t, 1, "nodb")
	if strings.HasPrefix(r.stderr, "jsonpipe: "+in+": ") {
		t.Errorf("insert: the error is put on the input: %q", r.stderr)
	}
	if b, _ := os.ReadFile(notDB); string(b) != "plain text, no database\n" {
		t.Errorf("the file that is not a database changed: %q", b)
	}
}

// gzip and a byte order mark are taken as they come; CSV gets a hint.
func TestInsertGzipBOMAndCSVHint(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "t.db")
	var b bytes.Buffer
	w := gzip.NewWriter(&b)
	w.Write([]byte("\xEF\xBB\xBF[{\"a\":1},{\"a\":2}]"))
	w.Close()
	gz := filepath.Join(dir, "in.json.gz")
	if err := os.WriteFile(gz, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	jsonpipe(t, "", "insert", "--progress", db, "t", gz).must(t, 0, "2 rows into t")
	jsonpipe(t, "\xEF\xBB\xBF{\"a\":3}\n", "insert", db, "t").must(t, 0, "into t")
	jsonpipe(t, "a,b\n1,2\n", "insert", db, "t").must(t, 1, "row 1 at byte 1", "the input looks like CSV", "hint: the input looks like CSV: load it with --csv")
	if r := jsonpipe(t, "", "query", "--nl", db, "SELECT a FROM t"); r.stdout != "{\"a\":1}\n{\"a\":2}\n{\"a\":3}\n" {
		t.Fatalf("query: %+v", r)
	}
}

// Errors are said in the command's flags, a duplicate key gets a hint,
// and the summary's counts have their plurals right.
func TestMessagesInFlagTerms(t *testing.T) {
	db := filepath.Join(t.TempDir(), "t.db")
	jsonpipe(t, `{"id":1}`, "insert", "--pk", "id", db, "t").must(t, 0, "inserted 1 row into t (created the table) in")
	jsonpipe(t, `{"id":1}`, "insert", db, "t").must(t, 1, "UNIQUE constraint failed: t.id", "0 rows committed", "hint: a row's key is stored already: --ignore skips such rows, --replace replaces them, --upsert updates them")
	jsonpipe(t, `{"id":2,"x":1}`, "insert", db, "t").must(t, 1, `key "x" is not a column of table "t" (--alter adds it)`)
	jsonpipe(t, `{"id":2,"x":1,"y":2}`, "insert", "--alter", db, "t").must(t, 0, `inserted 1 row into t (added 2 columns: "x", "y") in`)
	jsonpipe(t, "{\"id\":2}\n{\"id\":3}\n", "insert", "--ignore", db, "t").must(t, 0, "inserted 1 row into t (skipped 1 whose key was stored already) in")
	jsonpipe(t, `{"x":1}`, "insert", "--upsert", db, "u").must(t, 1, `sqlite: --upsert needs a primary key: table "u" has none and no --pk was given`)
	jsonpipe(t, `{"x":"abcdefgh"}`, "insert", "--max-value-size", "4", db, "u").must(t, 1, "(--max-value-size)")
	jsonpipe(t, `{"x":1}`, "insert", "--not-null", "y", db, "v").must(t, 1, `sqlite: --not-null: table "v" has no column "y"`)
	r := jsonpipe(t, `{"id":1}`, "insert", "--ignore", db, "t")
	r.must(t, 0, "inserted 0 rows into t (skipped 1 whose key was stored already)")
	if strings.Contains(r.stderr, "hint") {
		t.Errorf("hint with --ignore: %s", r.stderr)
	}
}

// --truncate empties the table first; --flatten makes a_b columns.
func TestTruncateAndFlatten(t *testing.T) {
	db := filepath.Join(t.TempDir(), "t.db")
	jsonpipe(t, `{"id":1,"a":{"b":1}}`, "insert", "--flatten", db, "t").must(t, 0, "inserted 1 row into t (created the table)")
	jsonpipe(t, "{\"id\":2,\"a\":{\"b\":2}}\n{\"id\":3,\"a\":{\"b\":3}}\n", "insert", "--flatten", "--truncate", db, "t").must(t, 0, "inserted 2 rows into t (its rows deleted first)")
	if r := jsonpipe(t, "", "query", "--nl", db, "SELECT * FROM t"); r.stdout != "{\"id\":2,\"a_b\":2}\n{\"id\":3,\"a_b\":3}\n" {
		t.Fatalf("query: %+v", r)
	}
}
