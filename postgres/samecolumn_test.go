package postgres

import (
	"errors"
	"strings"
	"testing"

	"github.com/jsonpipe/json/internal/pgtest"
)

// PostgreSQL compares quoted names byte for byte, and the loader always
// quotes them: keys that differ only in letter case are two columns,
// whether they are first seen in the first row, in a later one (Alter), or
// are the columns of an existing table. (SQLite, which ignores ASCII case,
// refuses such a row instead: two keys there would lose a value.)
func TestKeysDifferingInCase(t *testing.T) {
	c := pgtest.Conn(t)
	mustLoad(t, c, "first", `[{"Group":"a","group":"b","id":1}]`, nil)
	if got := dump(t, c, `SELECT "Group", "group", id FROM first`); got != "a|b|1\n" {
		t.Errorf("first row: %q", got)
	}

	in := ndjson(`{"id":1,"Group":"a"}`, `{"id":2,"group":"b"}`, `{"id":3,"GROUP":"c","group":"d","Group":"e"}`)
	mustLoad(t, c, "later", in, &Options{InferRows: 1, Alter: true})
	if got := dump(t, c, `SELECT * FROM later ORDER BY id`); got != "1|a|NULL|NULL\n2|NULL|b|NULL\n3|e|d|c\n" {
		t.Errorf("later rows with Alter: %q", got)
	}
	// Without Alter, another case is another key, which the table lacks.
	res, err := load(t, c, "later2", in, &Options{InferRows: 1, BatchSize: 1})
	var re *RowError
	if !errors.As(err, &re) || re.Row != 2 || !strings.Contains(err.Error(), `key "group" is not a column`) || res.Rows != 1 {
		t.Errorf("later row without Alter: %v, %+v", err, res)
	}

	if _, err := c.Exec(bg, `CREATE TABLE existing (id bigint, "Group" text, "group" text)`); err != nil {
		t.Fatal(err)
	}
	mustLoad(t, c, "existing", `{"id":1,"group":"x","Group":"y"}`, nil)
	if got := dump(t, c, `SELECT * FROM existing`); got != "1|y|x\n" {
		t.Errorf("existing table: %q", got)
	}
}

// One key given twice in a row, spelled alike or escaped differently, is
// one column: its last value wins, as in encoding/json and in package
// sqlite.
func TestKeyGivenTwice(t *testing.T) {
	c := pgtest.Conn(t)
	mustLoad(t, c, "twice", ndjson(`{"a":1,"a":2}`, `{"a":3,"\u0061":4}`, `{"\u0061":5,"a":"6"}`), nil)
	if got := dump(t, c, `SELECT a FROM twice`); got != "2\n4\n6\n" {
		t.Errorf("rows %q", got)
	}
}

// Keys that PostgreSQL would cut to the same 63 bytes (NAMEDATALEN - 1)
// would be one column: any key longer than that is refused, naming the
// row, and the batches before it stay.
func TestKeysCutToOneName(t *testing.T) {
	c := pgtest.Conn(t)
	long := strings.Repeat("k", 63)
	in := ndjson(`{"id":1}`, `{"id":2,"`+long+`x":1,"`+long+`y":2}`)
	for _, alter := range []bool{false, true} {
		res, err := load(t, c, "cut", in, &Options{InferRows: 1, BatchSize: 1, Alter: alter})
		var re *RowError
		var te *TypeError
		if !errors.As(err, &re) || !errors.As(err, &te) || re.Row != 2 || re.Offset != int64(len(`{"id":1}`+"\n"+`{"id":2,"`+long+`x"`)) ||
			!strings.Contains(err.Error(), "63-byte limit") || res.Rows != 1 {
			t.Errorf("Alter %v: %v (%+v)", alter, err, res)
		}
		c.Exec(bg, "DROP TABLE cut")
	}
	// In the first row, the table is not created.
	res, err := load(t, c, "cut", `[{"`+long+`x":1,"`+long+`y":2}]`, nil)
	if err == nil || res.Rows != 0 || res.Created {
		t.Errorf("first row: %v (%+v)", err, res)
	}
}
