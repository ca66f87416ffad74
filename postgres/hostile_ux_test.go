package postgres

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/jsonpipe/json/internal/pgtest"
)

// wideRow is one NDJSON row of n keys c0, c1, ..., each with the value v.
func wideRow(n int, v string) string {
	var b strings.Builder
	b.WriteByte('{')
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `"c%d":%s`, i, v)
	}
	b.WriteString("}\n")
	return b.String()
}

// PostgreSQL takes 1,600 columns; one more is an error naming the count
// and the limit, when the table is created and when Alter would add it.
func TestTooManyColumns(t *testing.T) {
	c := pgtest.Conn(t)
	if res := mustLoad(t, c, "w", wideRow(1600, "true"), nil); res.Rows != 1 {
		t.Fatalf("1,600 columns: %+v", res)
	}
	const want = "would have 1601 columns, more than PostgreSQL's limit of 1600"
	res, err := load(t, c, "t", wideRow(1601, "true"), nil)
	if err == nil || !strings.Contains(err.Error(), `cannot create table "t": table "t" `+want) || res.Created {
		t.Errorf("create: %v (%+v)", err, res)
	}
	mustLoad(t, c, "u", wideRow(10, "1"), nil)
	_, err = load(t, c, "u", wideRow(1601, "1"), &Options{Alter: true})
	var re *RowError
	if !errors.As(err, &re) || re.Row != 1 || !strings.Contains(err.Error(), want) {
		t.Errorf("alter: %v", err)
	}
}

// An empty key cannot name a PostgreSQL column: an error naming the row
// (SQLite, like sqlite-utils, makes a column named ""). Flattened names
// are held to the 63-byte limit like any other.
func TestEmptyAndFlattenedLongKeys(t *testing.T) {
	c := pgtest.Conn(t)
	_, err := load(t, c, "e", "{\"a\":1}\n{\"a\":2,\"\":3}\n", &Options{InferRows: 1, Alter: true})
	var re *RowError
	if !errors.As(err, &re) || re.Row != 2 || !strings.Contains(err.Error(), "the empty name cannot be a PostgreSQL identifier") {
		t.Errorf("empty key: %v", err)
	}
	long := strings.Repeat("k", 31)
	in := `{"` + long + `":{"` + long + `":1}}` + "\n" + `{"` + long + `":{"` + long + `x":2}}` + "\n"
	res, err := load(t, c, "f", in, &Options{Flatten: true, Alter: true, InferRows: 1, BatchSize: 1})
	if !errors.As(err, &re) || re.Row != 2 || !strings.Contains(err.Error(), "63-byte limit") || res.Rows != 1 {
		t.Errorf("flattened long key: %v (%+v)", err, res)
	}
	if got := columnTypes(t, c, "f"); got != long+"_"+long+" bigint\n" {
		t.Errorf("columns %q", got)
	}
}
