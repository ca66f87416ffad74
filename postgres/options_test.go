package postgres

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jsonpipe/json/internal/pgtest"
)

func TestNumeric(t *testing.T) {
	c := pgtest.Conn(t)
	if _, err := c.Exec(bg, "CREATE TABLE n (i int, v numeric)"); err != nil {
		t.Fatal(err)
	}
	nums := []string{"0", "-0", "0.0", "0.000", "1", "-1", "10", "100", "1000", "10000", "99999999", "12345.6",
		"0.05", "0.0001", "0.00001", "-0.00012345", "1e0", "1e4", "1e5", "1E-5", "1.5e-3", "1.50", "123456789012345678901234567890.123456789",
		"9.99e20", "1e-20", "5e300", "-7.25e-300", "100000000", "0.1e1", "12.34e-1", "3.14159265358979323846264338327950288"}
	var in strings.Builder
	for i, n := range nums {
		in.WriteString(`{"i":` + itoa(i) + `,"v":` + n + "}\n")
	}
	mustLoad(t, c, "n", in.String(), nil)
	for i, n := range nums {
		var got, want string
		if err := c.QueryRow(bg, "SELECT v::text, $2::numeric::text FROM n WHERE i = $1", i, n).Scan(&got, &want); err != nil {
			t.Fatal(err)
		}
		if got != want {
			t.Errorf("%s: stored %s, PostgreSQL reads it as %s", n, got, want)
		}
	}
}

func itoa(i int) string { return string(appendInt(nil, int64(i))) }

func TestPrimaryKeyIdentity(t *testing.T) {
	c := pgtest.Conn(t)
	res := mustLoad(t, c, "p", `{"a":"x"} {"a":"y"}`, &Options{PrimaryKey: []string{"id"}})
	if res.Rows != 2 {
		t.Fatalf("%+v", res)
	}
	if got, want := columnTypes(t, c, "p"), "id bigint\na text\n"; got != want {
		t.Errorf("columns %q, want %q", got, want)
	}
	if got, want := dump(t, c, "SELECT * FROM p ORDER BY id"), "1|x\n2|y\n"; got != want {
		t.Errorf("rows %q, want %q", got, want)
	}
}

func TestColumnsOption(t *testing.T) {
	type row struct {
		ID    int64    `json:"id"`
		Name  string   `json:"name"`
		Score float64  `json:"score"`
		Tags  []string `json:"tags"`
		When  string   `json:"when"`
	}
	cols, err := ColumnsOf[row]()
	if err != nil {
		t.Fatal(err)
	}
	cols[4].Type = "timestamptz" // a type without a binary writer: text COPY
	cols[1].NotNull = true
	c := pgtest.Conn(t)
	mustLoad(t, c, "c", `[{"id":1,"name":"a","score":2,"tags":["x"],"when":"2024-01-02T03:04:05Z"},{"id":2,"name":"b\\\t"}]`,
		&Options{Columns: cols, PrimaryKey: []string{"id"}})
	if got, want := columnTypes(t, c, "c"), "id bigint\nname text\nscore double precision\ntags jsonb\nwhen timestamp with time zone\n"; got != want {
		t.Errorf("columns %q, want %q", got, want)
	}
	if got, want := dump(t, c, "SELECT * FROM c ORDER BY id"), "1|a|2|[\"x\"]|2024-01-02 03:04:05+00\n2|b\\\t|NULL|NULL|NULL\n"; got != want {
		t.Errorf("rows %q, want %q", got, want)
	}
	// NOT NULL is kept: a row without name is refused, naming it.
	_, err = load(t, c, "c", `{"id":3,"name":"c"}`+"\n"+`{"id":4}`, nil)
	var re *RowError
	if !errors.As(err, &re) || re.Row != 2 {
		t.Fatalf("err %v, want a RowError for row 2", err)
	}
}

func TestUnknownKeyAndAlter(t *testing.T) {
	c := pgtest.Conn(t)
	mustLoad(t, c, "a", `{"x":1}`, nil)
	_, err := load(t, c, "a", `{"x":2} {"x":3,"y":"new"}`, nil)
	var re *RowError
	var te *TypeError
	if !errors.As(err, &re) || re.Row != 2 || !errors.As(err, &te) || !strings.Contains(te.Msg, `"y"`) {
		t.Fatalf("err %v, want a TypeError in row 2 naming y", err)
	}
	if n := count(t, c, "a"); n != 1 {
		t.Fatalf("%d rows after the failed load, want 1", n)
	}
	// A key first seen after the sample, with Alter.
	res := mustLoad(t, c, "a", `{"x":2} {"x":3,"y":"new","z":[1]}`+strings.Repeat(` {"x":4,"z":null}`, 3), &Options{Alter: true, InferRows: 1})
	if res.Rows != 5 || len(res.Added) != 2 {
		t.Fatalf("%+v", res)
	}
	if got, want := columnTypes(t, c, "a"), "x bigint\ny text\nz jsonb\n"; got != want {
		t.Errorf("columns %q, want %q", got, want)
	}
	if got, want := dump(t, c, "SELECT * FROM a ORDER BY x"), "1|NULL|NULL\n2|NULL|NULL\n3|new|[1]\n4|NULL|NULL\n4|NULL|NULL\n4|NULL|NULL\n"; got != want {
		t.Errorf("rows %q, want %q", got, want)
	}
}

func TestExistingTableDefaults(t *testing.T) {
	c := pgtest.Conn(t)
	if _, err := c.Exec(bg, `CREATE TABLE e (id serial PRIMARY KEY, n int NOT NULL DEFAULT 7, s varchar(5), at timestamptz DEFAULT '2000-01-01Z', "Mixed Case" smallint)`); err != nil {
		t.Fatal(err)
	}
	mustLoad(t, c, "e", `{"s":"abc","Mixed Case":3} {"s":"de"}`, nil)
	if got, want := dump(t, c, "SELECT * FROM e ORDER BY id"), "1|7|abc|2000-01-01 00:00:00+00|3\n2|7|de|2000-01-01 00:00:00+00|NULL\n"; got != want {
		t.Errorf("rows %q, want %q", got, want)
	}
	// Out of a column's range, or too long: the row is named.
	for _, tc := range []struct{ in string }{{`{"s":"x"} {"Mixed Case":40000}`}, {`{"s":"x"} {"s":"toolong"}`}} {
		_, err := load(t, c, "e", tc.in, nil)
		var re *RowError
		if !errors.As(err, &re) || re.Row != 2 {
			t.Errorf("%s: err %v, want a RowError for row 2", tc.in, err)
		}
	}
}

// TestNotNullDefaults: the constraints and defaults of a created table,
// for keys the rows have and keys they lack, with hostile text; and the
// errors for what cannot be done.
func TestNotNullDefaults(t *testing.T) {
	c := pgtest.Conn(t)
	opts := &Options{
		NotNull: []string{"title"},
		Defaults: map[string]any{
			"done": false, "prio": 2, "big": uint64(1 << 63), "i32": int32(-5), "i64": int64(1) << 40,
			"w": 1.5, "tiny": 1e-300, "note": `it's a \n "quote"`, "raw": []byte{0, 1, 0xfe},
			"title": "untitled", "gone": nil,
		},
	}
	mustLoad(t, c, "d", `{"title":"a","prio":9} {"title":"b","prio":null}`, opts)
	if got, want := columnTypes(t, c, "d"), "title text\nprio bigint\nbig numeric\ndone boolean\ngone text\ni32 bigint\ni64 bigint\nnote text\nraw bytea\ntiny double precision\nw double precision\n"; got != want {
		t.Errorf("columns %q\nwant    %q", got, want)
	}
	// The rows' own keys are copied (null stays null); the others take
	// their defaults.
	if got, want := dump(t, c, `SELECT title, prio, big, done, gone, i32, i64, note, encode(raw, 'hex'), tiny, w FROM d ORDER BY title`),
		"a|9|9223372036854775808|f|NULL|-5|1099511627776|it's a \\n \"quote\"|0001fe|1e-300|1.5\n"+
			"b|NULL|9223372036854775808|f|NULL|-5|1099511627776|it's a \\n \"quote\"|0001fe|1e-300|1.5\n"; got != want {
		t.Errorf("rows %q\nwant %q", got, want)
	}
	if got := dump(t, c, `SELECT column_default, is_nullable FROM information_schema.columns WHERE table_name = 'd' AND column_name = 'title'`); got != "'untitled'::text|NO\n" {
		t.Errorf("title's default and nullability: %q", got)
	}
	// NOT NULL holds: a later row with a null title is refused and named.
	_, err := load(t, c, "d", `{"title":"c"} {"title":null}`, nil)
	var re *RowError
	var pe *pgconn.PgError
	if !errors.As(err, &re) || re.Row != 2 || !errors.As(err, &pe) || pe.Code != "23502" {
		t.Errorf("null title: %v, want a not-null violation in row 2", err)
	}
	// On an existing table both options are ignored; a load whose rows
	// lack a key leaves that column to the table's default.
	mustLoad(t, c, "d", `{"title":"e"}`, &Options{NotNull: []string{"nosuch"}, Defaults: map[string]any{"x": 1}})
	if got := dump(t, c, `SELECT prio, done FROM d WHERE title = 'e'`); got != "2|f\n" {
		t.Errorf("existing table: %q", got)
	}
	for _, tc := range []struct {
		opts *Options
		want string
	}{
		{&Options{NotNull: []string{"nosuch"}}, "NotNull: table"},
		{&Options{Defaults: map[string]any{"x": math.NaN()}}, "not a finite number"},
		{&Options{Defaults: map[string]any{"x": "a\x00b"}}, "NUL byte"},
		{&Options{Defaults: map[string]any{"x": "\xff"}}, "not valid UTF-8"},
		{&Options{Defaults: map[string]any{"x": struct{}{}}}, "not supported"},
		{&Options{Defaults: map[string]any{strings.Repeat("k", 64): 1}}, "63-byte limit"},
	} {
		_, err := load(t, c, "d2", `{"a":1}`, tc.opts)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: err %v, want %q", tc.opts, err, tc.want)
		}
		if n := dump(t, c, `SELECT count(*) FROM pg_tables WHERE tablename = 'd2'`); n != "0\n" {
			t.Errorf("%+v: table made all the same", tc.opts)
		}
	}
}

func TestConflictModes(t *testing.T) {
	c := pgtest.Conn(t)
	opts := &Options{PrimaryKey: []string{"id"}}
	mustLoad(t, c, "k", `{"id":1,"a":"one","b":1} {"id":2,"a":"two","b":2}`, opts)

	// Fail: the duplicate's row is named, its batch rolled back.
	_, err := load(t, c, "k", `{"id":3,"a":"three","b":3} {"id":1,"a":"uno","b":null}`, nil)
	var re *RowError
	var pe *pgconn.PgError
	if !errors.As(err, &re) || re.Row != 2 || !errors.As(err, &pe) || pe.Code != "23505" {
		t.Fatalf("err %v, want a unique violation in row 2", err)
	}

	in := `{"id":1,"a":"uno","b":null} {"id":3,"a":"three"} {"id":3,"b":33} {"id":2,"b":22}`
	// Ignore: stored rows stay; of two new rows with one key the first.
	res := mustLoad(t, c, "k", in, &Options{Conflict: Ignore})
	if res.Rows != 4 || res.Changes != 1 {
		t.Errorf("ignore: %+v", res)
	}
	if got, want := dump(t, c, "SELECT * FROM k ORDER BY id"), "1|one|1\n2|two|2\n3|three|NULL\n"; got != want {
		t.Errorf("ignore: rows %q, want %q", got, want)
	}
	// Loading the same input again changes nothing.
	if res := mustLoad(t, c, "k", in, &Options{Conflict: Ignore}); res.Changes != 0 {
		t.Errorf("ignore again: %+v", res)
	}

	// Upsert: non-null values over stored ones, merged in input order.
	res = mustLoad(t, c, "k", in, &Options{Conflict: Upsert})
	if res.Rows != 4 || res.Changes != 3 {
		t.Errorf("upsert: %+v", res)
	}
	if got, want := dump(t, c, "SELECT * FROM k ORDER BY id"), "1|uno|1\n2|two|22\n3|three|33\n"; got != want {
		t.Errorf("upsert: rows %q, want %q", got, want)
	}

	// Replace: the last row with a key wins, nulls included.
	res = mustLoad(t, c, "k", in, &Options{Conflict: Replace})
	if res.Rows != 4 || res.Changes != 3 {
		t.Errorf("replace: %+v", res)
	}
	if got, want := dump(t, c, "SELECT * FROM k ORDER BY id"), "1|uno|NULL\n2|NULL|22\n3|NULL|33\n"; got != want {
		t.Errorf("replace: rows %q, want %q", got, want)
	}

	// Replace on a table with columns the load does not write: they take
	// their defaults, as SQLite's INSERT OR REPLACE leaves them; Upsert
	// keeps them.
	if _, err := c.Exec(bg, "CREATE TABLE r (id bigint PRIMARY KEY, v bigint, note text DEFAULT 'dflt', extra bigint)"); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Exec(bg, "INSERT INTO r VALUES (1, 1, 'kept?', 5), (2, 2, 'kept', 6)"); err != nil {
		t.Fatal(err)
	}
	mustLoad(t, c, "r", `{"id":1,"v":10} {"id":3,"v":30}`, &Options{Conflict: Replace})
	mustLoad(t, c, "r", `{"id":2,"v":20}`, &Options{Conflict: Upsert})
	if got, want := dump(t, c, "SELECT * FROM r ORDER BY id"), "1|10|dflt|NULL\n2|20|kept|6\n3|30|dflt|NULL\n"; got != want {
		t.Errorf("replace, other columns: rows %q, want %q", got, want)
	}

	// Upsert into array columns (their values as PostgreSQL's array
	// literals): the last non-null array of a key wins, whatever its
	// length; a null keeps the stored one.
	if _, err := c.Exec(bg, "CREATE TABLE arr (id bigint PRIMARY KEY, tags text[], n integer[])"); err != nil {
		t.Fatal(err)
	}
	mustLoad(t, c, "arr", `{"id":1,"tags":"{a,b}","n":"{1}"} {"id":2,"tags":"{x}","n":"{2,3}"}`, nil)
	mustLoad(t, c, "arr", `{"id":1,"tags":"{c}","n":null} {"id":1,"tags":"{d,e,f}"} {"id":2,"n":"{4,5,6}"} {"id":2,"tags":null}`,
		&Options{Conflict: Upsert})
	if got, want := dump(t, c, "SELECT id, tags::text, n::text FROM arr ORDER BY id"), "1|{d,e,f}|{1}\n2|{x}|{4,5,6}\n"; got != want {
		t.Errorf("upsert, arrays: rows %q, want %q", got, want)
	}

	// A refusal in the move from the staging table is found by bisection.
	if _, err := c.Exec(bg, "ALTER TABLE k ADD CHECK (b IS NULL OR b < 100)"); err != nil {
		t.Fatal(err)
	}
	_, err = load(t, c, "k", `{"id":5,"b":5} {"id":6,"b":6} {"id":7,"b":700} {"id":8,"b":8}`, &Options{Conflict: Upsert})
	if !errors.As(err, &re) || re.Row != 3 || !errors.As(err, &pe) || pe.Code != "23514" {
		t.Fatalf("err %v, want a check violation in row 3", err)
	}
	if n := count(t, c, "k"); n != 3 {
		t.Errorf("%d rows, want 3", n)
	}

	// Replace and Upsert need a primary key.
	mustLoad(t, c, "nokey", `{"a":1}`, nil)
	if _, err := load(t, c, "nokey", `{"a":1}`, &Options{Conflict: Upsert}); err == nil || !strings.Contains(err.Error(), "primary key") {
		t.Errorf("upsert without a key: %v", err)
	}
}

// TestColumnDefault: Column.Default (the field the one Options shares with
// package sqlite) gives the column a DEFAULT, which fills it when the
// load's COPY does not name it; a value PostgreSQL cannot take is refused
// before anything is made.
func TestColumnDefault(t *testing.T) {
	c := pgtest.Conn(t)
	cols := []Column{{Name: "a", Type: TypeBigint}, {Name: "b", Type: TypeText, Default: "x"}, {Name: "n", Default: 7}}
	mustLoad(t, c, "cd", `{"a":1}`, &Options{Columns: cols})
	if got, want := dump(t, c, `SELECT a, b, n FROM cd`), "1|x|7\n"; got != want {
		t.Errorf("rows %q, want %q", got, want)
	}
	_, err := load(t, c, "cd2", `{"a":1}`, &Options{Columns: []Column{{Name: "a", Default: math.Inf(1)}}})
	if err == nil || !strings.Contains(err.Error(), "not a finite number") {
		t.Errorf("err %v, want the default refused", err)
	}
	if n := dump(t, c, `SELECT count(*) FROM pg_tables WHERE tablename = 'cd2'`); n != "0\n" {
		t.Error("table made all the same")
	}
}
