package main

import (
	"encoding/csv"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jsonpipe/json/internal/pgtest"
	"github.com/jsonpipe/json/sqlite"
)

// pets is NDJSON with the awkward values: quotes and commas, an empty
// string, null, a line break, nested objects and arrays.
const pets = `{"id":1,"name":"Cleo, the \"cat\"","tags":["a",{"b":null}],"n":1.5}
{"id":2,"name":"","tags":null,"n":null}
{"id":3,"name":"multi\nline","tags":[],"n":-20}
`

// queryOutputs are what query writes of pets, SELECT id, name, tags, in
// each format, the same for SQLite and PostgreSQL but for how jsonb
// prints ({"b": null}, with a space).
func queryOutputs(space string) map[string]string {
	tags := `["a",` + space + `{"b":` + space + `null}]`
	csvTags := strings.ReplaceAll(tags, `"`, `""`)
	return map[string]string{
		"": `[{"id":1,"name":"Cleo, the \"cat\"","tags":` + tags + `},` + "\n" +
			`{"id":2,"name":"","tags":null},` + "\n" +
			`{"id":3,"name":"multi\nline","tags":[]}]` + "\n",
		"--nl": `{"id":1,"name":"Cleo, the \"cat\"","tags":` + tags + `}` + "\n" +
			`{"id":2,"name":"","tags":null}` + "\n" +
			`{"id":3,"name":"multi\nline","tags":[]}` + "\n",
		"--csv": "id,name,tags\n" +
			`1,"Cleo, the ""cat""","` + csvTags + `"` + "\n" +
			`2,"",` + "\n" +
			"3,\"multi\nline\",[]\n",
		"--tsv": "id\tname\ttags\n" +
			`1` + "\t" + `"Cleo, the ""cat"""` + "\t" + `"` + csvTags + `"` + "\n" +
			"2\t\"\"\t\n" +
			"3\t\"multi\nline\"\t[]\n",
		"--table": "id  name             tags\n" +
			"--  ---------------  " + strings.Repeat("-", len(tags)) + "\n" +
			" 1  Cleo, the \"cat\"  " + tags + "\n" +
			" 2\n" +
			" 3  multi\\nline      []\n",
	}
}

// checkQueryOutputs loads pets into db and queries them back in every
// format.
func checkQueryOutputs(t *testing.T, db, space string) {
	jsonpipe(t, pets, "insert", "--pk", "id", db, "pets").must(t, 0)
	for flag, want := range queryOutputs(space) {
		args := []string{"query", db, "SELECT id, name, tags FROM pets ORDER BY id"}
		if flag != "" {
			args = append(args, flag) // flags may follow the positionals
		}
		r := jsonpipe(t, "", args...)
		r.must(t, 0)
		if r.stdout != want {
			t.Errorf("query %s: got\n%s\nwant\n%s", flag, r.stdout, want)
		}
	}
	// What a CSV reader makes of it.
	r := jsonpipe(t, "", "query", "--csv", db, "SELECT id, name, tags FROM pets ORDER BY id")
	recs, err := csv.NewReader(strings.NewReader(r.stdout)).ReadAll()
	if err != nil || len(recs) != 4 || recs[1][1] != `Cleo, the "cat"` || recs[3][1] != "multi\nline" || recs[2][2] != "" {
		t.Errorf("CSV read back as %q, %v", recs, err)
	}
	// No rows: the header alone (and the rule, for a table).
	for flag, want := range map[string]string{"--csv": "id,name\n", "--tsv": "id\tname\n", "--table": "id  name\n--  ----\n", "": "[]\n", "--nl": ""} {
		r := jsonpipe(t, "", "query", flag, db, "SELECT id, name FROM pets WHERE id < 0")
		if flag == "" {
			r = jsonpipe(t, "", "query", db, "SELECT id, name FROM pets WHERE id < 0")
		}
		r.must(t, 0)
		if r.stdout != want {
			t.Errorf("query %s, no rows: %q, want %q", flag, r.stdout, want)
		}
	}
}

func TestQueryOutputsSQLite(t *testing.T) {
	checkQueryOutputs(t, filepath.Join(t.TempDir(), "p.db"), "")
}

func TestQueryOutputsPostgres(t *testing.T) {
	checkQueryOutputs(t, pgtest.Schema(t), " ")
}

func TestQueryOutputUsage(t *testing.T) {
	db := filepath.Join(t.TempDir(), "p.db")
	jsonpipe(t, pets, "insert", db, "pets").must(t, 0)
	for _, flags := range [][]string{{"--csv", "--tsv"}, {"--nl", "--table"}, {"--csv", "--nl"}} {
		jsonpipe(t, "", append(append([]string{"query"}, flags...), db, "SELECT 1")...).must(t, 2, "exclude each other", "usage")
	}
	r := jsonpipe(t, "", "query", "-h")
	r.must(t, 0, "-csv", "-tsv", "-table", "-nl")
	for _, args := range [][]string{{"tables"}, {"tables", "a.db", "b"}, {"schema"}, {"schema", "a.db", "t", "u"}, {"schema", "a.db", ""}, {"tables", "--x", "a.db"}} {
		jsonpipe(t, "", args...).must(t, 2, "usage")
	}
	jsonpipe(t, "", "tables", "-h").must(t, 0, `{"table": NAME, "rows": N}`)
	jsonpipe(t, "", "schema", "-h").must(t, 0, "CREATE")
}

// TestQueryTextFailsMidway: CSV, TSV and a table cut short by an error
// after k rows hold those rows, and standard error says the output is
// incomplete, with the count.
func TestQueryTextFailsMidway(t *testing.T) {
	db := filepath.Join(t.TempDir(), "q.db")
	jsonpipe(t, `{"a":1}`, "insert", db, "t").must(t, 0)
	for _, k := range []int{1, 2000} {
		q := fmt.Sprintf(`WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < %d)
			SELECT i, abs(CASE WHEN i = %d THEN -9223372036854775807 - 1 ELSE i END) AS a FROM c`, k+5000, k+1)
		for flag, lines := range map[string]int{"--csv": k + 1, "--tsv": k + 1, "--table": k + 2} {
			r := jsonpipe(t, "", "query", flag, db, q)
			r.must(t, 1, "integer overflow", fmt.Sprintf("jsonpipe: %s written before the error; the output is incomplete\n", rowCount(int64(k))))
			if strings.Contains(r.stderr, "JSON array") {
				t.Errorf("%s: stderr talks of a JSON array: %q", flag, r.stderr)
			}
			if got := strings.Count(r.stdout, "\n"); got != lines {
				t.Errorf("%s after %d rows: %d lines, want %d", flag, k, got, lines)
			}
		}
	}
	// Failing on the first row: no output at all, not even a header.
	r := jsonpipe(t, "", "query", "--csv", db, "SELECT abs(-9223372036854775807 - 1) AS a")
	r.must(t, 1, "integer overflow")
	if r.stdout != "" || strings.Contains(r.stderr, "written before") {
		t.Errorf("failing first row: %+v", r)
	}
}

func TestTablesAndSchemaSQLite(t *testing.T) {
	db := filepath.Join(t.TempDir(), "s.db")
	jsonpipe(t, pets, "insert", "--pk", "id", db, "pets").must(t, 0)
	jsonpipe(t, `{"x":1}`, "insert", db, `we"ird`).must(t, 0)
	jsonpipe(t, "[]", "insert", db, "empty").must(t, 0) // no rows, no columns: no table
	r := jsonpipe(t, "", "query", db, `CREATE INDEX pets_name ON pets(name)`)
	r.must(t, 0)
	r = jsonpipe(t, "", "tables", db)
	r.must(t, 0)
	if want := `[{"table":"pets","rows":3},` + "\n" + `{"table":"we\"ird","rows":1}]` + "\n"; r.stdout != want {
		t.Errorf("tables: %q, want %q", r.stdout, want)
	}
	petsSchema := "CREATE TABLE \"pets\" (\n  \"id\" INTEGER PRIMARY KEY,\n  \"name\" TEXT,\n  \"tags\" JSON TEXT,\n  \"n\" REAL\n);\n" +
		"CREATE INDEX pets_name ON pets(name);\n"
	r = jsonpipe(t, "", "schema", db)
	r.must(t, 0)
	if want := petsSchema + "CREATE TABLE \"we\"\"ird\" (\n  \"x\" INTEGER\n);\n"; r.stdout != want {
		t.Errorf("schema: got\n%s\nwant\n%s", r.stdout, want)
	}
	r = jsonpipe(t, "", "schema", db, "PETS") // SQLite ignores ASCII case in names
	r.must(t, 0)
	if r.stdout != petsSchema {
		t.Errorf("schema PETS: got\n%s\nwant\n%s", r.stdout, petsSchema)
	}
	jsonpipe(t, "", "schema", db, "nope").must(t, 1, `jsonpipe: no table "nope" in `+db)
	// An empty database, and none at all.
	empty := filepath.Join(t.TempDir(), "e.db")
	e, err := sqlite.Open(empty)
	if err == nil {
		_, err = e.Exec("PRAGMA user_version = 1") // creates the file
		e.Close()
	}
	if err != nil {
		t.Fatal(err)
	}
	r = jsonpipe(t, "", "tables", empty)
	r.must(t, 0)
	if r.stdout != "[]\n" {
		t.Errorf("tables of an empty database: %q", r.stdout)
	}
	missing := filepath.Join(t.TempDir(), "missing.db")
	for _, cmd := range []string{"tables", "schema"} {
		jsonpipe(t, "", cmd, missing).must(t, 1, "no such file")
	}
}

func TestTablesAndSchemaPostgres(t *testing.T) {
	url := pgtest.Schema(t)
	jsonpipe(t, pets, "insert", "--pk", "id", "--not-null", "name", "--default", "n=2.5", url, "pets").must(t, 0)
	jsonpipe(t, `{"x":1}`, "insert", url, `We"ird`).must(t, 0)
	r := jsonpipe(t, "", "query", url, `CREATE INDEX pets_name ON pets (name)`)
	r.must(t, 0)
	r = jsonpipe(t, "", "tables", url)
	r.must(t, 0)
	if want := `[{"table":"We\"ird","rows":1},` + "\n" + `{"table":"pets","rows":3}]` + "\n"; r.stdout != want {
		t.Errorf("tables: %q, want %q", r.stdout, want)
	}
	r = jsonpipe(t, "", "schema", url, "pets")
	r.must(t, 0)
	petsSchema := "CREATE TABLE pets (\n  id bigint NOT NULL,\n  name text NOT NULL,\n  tags jsonb,\n  n double precision DEFAULT '2.5'::double precision,\n" +
		"  CONSTRAINT pets_pkey PRIMARY KEY (id)\n);\n"
	if !strings.HasPrefix(r.stdout, petsSchema) || !strings.Contains(r.stdout, "CREATE INDEX pets_name ON ") || !strings.HasSuffix(r.stdout, " USING btree (name);\n") {
		t.Errorf("schema pets: got\n%s\nwant it to begin\n%s", r.stdout, petsSchema)
	}
	r = jsonpipe(t, "", "schema", url)
	r.must(t, 0)
	if !strings.HasPrefix(r.stdout, "CREATE TABLE \"We\"\"ird\" (\n  x bigint\n);\nCREATE TABLE pets (") {
		t.Errorf("schema: got\n%s", r.stdout)
	}
	// Names are matched exactly, as PostgreSQL matches a quoted name.
	jsonpipe(t, "", "schema", url, "PETS").must(t, 1, `jsonpipe: no table "PETS" in `)
	// The schema read back creates the same table.
	r = jsonpipe(t, "", "schema", url, "pets")
	ddl := strings.ReplaceAll(strings.SplitN(r.stdout, ";\n", 2)[0], "CREATE TABLE pets", "CREATE TABLE pets2")
	ddl = strings.ReplaceAll(ddl, "pets_pkey", "pets2_pkey")
	jsonpipe(t, "", "query", url, ddl).must(t, 0)
	r = jsonpipe(t, "", "schema", url, "pets2")
	if want := strings.ReplaceAll(strings.ReplaceAll(petsSchema, "pets", "pets2"), "pets2_pkey", "pets2_pkey"); r.stdout != want {
		t.Errorf("schema pets2: got\n%s\nwant\n%s", r.stdout, want)
	}
}
