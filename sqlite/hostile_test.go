package sqlite

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/jsonpipe/json/internal/loader"
)

// Keys become column names through identifier quoting; values are only
// ever bound. None of these may do anything but name a column or be
// stored as text.
func TestHostileKeys(t *testing.T) {
	long := strings.Repeat("k", 10<<10)
	keys := []string{`a"; DROP TABLE x; --`, `]`, ``, long, `'`, "`", `[x]`, `a.b`, `"`, `\`, `a b`, `naïve`, `x"`, `"x"`, `--`, `/*`, `?`, `:a`, `$a`, `@a`, `1`}
	var b strings.Builder
	b.WriteByte('{')
	for i, k := range keys {
		if i > 0 {
			b.WriteByte(',')
		}
		b.Write(appendString(nil, k))
		b.WriteString(`:"v` + itoa(i) + `"`)
	}
	b.WriteByte('}')
	row := b.String()
	hostileValue := `{` + string(appendString(nil, keys[0])) + `:"'); DROP TABLE x; --"}`

	for _, table := range []string{"t", `x"; DROP TABLE x; --`, `]`, long[:1000], ``} {
		for _, alter := range []bool{false, true} {
			db := openDB(t)
			if _, err := db.Exec(`CREATE TABLE x (v TEXT); INSERT INTO x VALUES ('still here')`); err != nil {
				t.Fatal(err)
			}
			opts := &Options{}
			if alter {
				// The columns arrive one at a time through ALTER TABLE.
				load(t, db, table, `{"first":1}`, nil)
				opts.Alter = true
			}
			load(t, db, table, row+"\n"+hostileValue+"\n", opts)

			var still string
			if err := db.QueryRow("SELECT v FROM x").Scan(&still); err != nil || still != "still here" {
				t.Fatalf("table %q alter=%v: table x: %q %v", loader.ShortName(table), alter, still, err)
			}
			rows, err := db.Query("SELECT name FROM pragma_table_info(?)", table)
			if err != nil {
				t.Fatal(err)
			}
			var names []string
			for rows.Next() {
				var n string
				rows.Scan(&n)
				names = append(names, n)
			}
			rows.Close()
			want := keys
			if alter {
				want = append([]string{"first"}, keys...)
			}
			if strings.Join(names, "\x00") != strings.Join(want, "\x00") {
				t.Errorf("table %s alter=%v: columns\n%q\nwant\n%q", loader.ShortName(table), alter, names, want)
			}
			got := dump(t, db, "SELECT * FROM "+quoteIdent(table)+" WHERE "+quoteIdent(keys[0])+" = ?", "'); DROP TABLE x; --")
			if !strings.Contains(got, `"a\"; DROP TABLE x; --":"'); DROP TABLE x; --"`) {
				t.Errorf("hostile value row: %s", got)
			}
			// The first row reads back with the same keys and values.
			got = dump(t, db, "SELECT * FROM "+quoteIdent(table)+" WHERE "+quoteIdent(keys[1])+" = 'v1'")
			for i, k := range keys {
				if !strings.Contains(got, string(appendString(nil, k))+`:"v`+itoa(i)+`"`) {
					t.Errorf("table %s: key %s missing from %.200s", loader.ShortName(table), loader.ShortName(k), got)
				}
			}
		}
	}
}

func TestNULNames(t *testing.T) {
	db := openDB(t)
	if _, err := Insert(context.Background(), db, "a\x00b", strings.NewReader(`{"a":1}`), nil); err == nil {
		t.Error("table name with NUL accepted")
	}
}

// SQLite takes 2,000 columns (SQLITE_MAX_COLUMN); one more is an error
// naming the count and the limit, when the table is created and when
// Alter would add it.
func TestTooManyColumns(t *testing.T) {
	wide := func(n int) string {
		var b strings.Builder
		b.WriteByte('{')
		for i := range n {
			if i > 0 {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, `"c%d":%d`, i, i)
		}
		b.WriteString("}\n")
		return b.String()
	}
	db := openDB(t)
	if res := load(t, db, "w", wide(2000), nil); res.Rows != 1 {
		t.Fatalf("2,000 columns: %+v", res)
	}
	const want = "would have 2001 columns, more than SQLite's limit of 2000 (SQLITE_MAX_COLUMN)"
	res, err := Insert(context.Background(), db, "t", strings.NewReader(wide(2001)), nil)
	if err == nil || !strings.Contains(err.Error(), `cannot create table "t": table "t" `+want) || res.Created {
		t.Errorf("create: %v (%+v)", err, res)
	}
	load(t, db, "u", wide(10), nil)
	_, err = Insert(context.Background(), db, "u", strings.NewReader(wide(2001)), &Options{Alter: true})
	var re *RowError
	if !errors.As(err, &re) || re.Row != 1 || !strings.Contains(err.Error(), want) {
		t.Errorf("alter: %v", err)
	}
}

// An empty key is a column named "", as sqlite-utils makes it.
func TestEmptyKey(t *testing.T) {
	db := openDB(t)
	load(t, db, "e", `{"":1,"b":2}`, nil)
	if got := dump(t, db, `SELECT * FROM e`); got != "{\"\":1,\"b\":2}\n" {
		t.Errorf("rows %q", got)
	}
}
