package postgres

import (
	"errors"
	"testing"

	"github.com/jsonpipe/json/internal/loader"
	"github.com/jsonpipe/json/internal/pgtest"
)

// Truncate empties an existing table in the first batch's transaction,
// over one connection or several: a failure there keeps the old rows; a
// table the load creates, or an input with no rows, is fine.
func TestTruncate(t *testing.T) {
	c := pgtest.Conn(t)
	for _, conns := range []int{1, 2} {
		if _, err := c.Exec(bg, "DROP TABLE IF EXISTS t"); err != nil {
			t.Fatal(err)
		}
		opts := func() *Options {
			return loader.Tune(&Options{Truncate: true, Connections: conns, Workers: conns, BatchSize: 2, InferRows: 1, Conflict: Ignore, PrimaryKey: []string{"id"}},
				loader.Tuning{Serial: conns == 1, BlockSize: 64})
		}
		res := mustLoad(t, c, "t", "{\"id\":1}\n{\"id\":2}\n", opts())
		if res.Truncated || !res.Created || res.Changes != 2 {
			t.Fatalf("new table: %+v", res)
		}
		res = mustLoad(t, c, "t", "{\"id\":2}\n{\"id\":3}\n{\"id\":4}\n{\"id\":5}\n{\"id\":6}\n", opts())
		if !res.Truncated || res.Rows != 5 || res.Changes != 5 {
			t.Fatalf("again: %+v", res)
		}
		if got := dump(t, c, "SELECT id FROM t ORDER BY id"); got != "2\n3\n4\n5\n6\n" {
			t.Fatalf("rows %q", got)
		}
		// A failure in the first batch: the rows stay.
		_, err := load(t, c, "t", "{\"id\":7}\n{\"id\":\n", opts())
		var re *RowError
		if !errors.As(err, &re) || re.Row != 2 || count(t, c, "t") != 5 {
			t.Fatalf("failed load: %v, %d rows", err, count(t, c, "t"))
		}
		// No rows: the table is emptied all the same.
		res = mustLoad(t, c, "t", "", opts())
		if !res.Truncated || count(t, c, "t") != 0 {
			t.Fatalf("empty input: %+v, %d rows", res, count(t, c, "t"))
		}
	}
}

// Flatten makes columns of nested objects' members as sqlite-utils does:
// a_b, a_c_d; arrays stay JSON, an empty object makes no column.
func TestFlatten(t *testing.T) {
	c := pgtest.Conn(t)
	in := "{\"id\":1,\"a\":{\"b\":1,\"c\":{\"d\":\"x\",\"e\":[1,{\"f\":2}]},\"g\":{}},\"h\":[{\"i\":1}]}\n" +
		"{\"id\":2,\"a\":{\"b\":2,\"c\":{\"d\\u0020\":\"esc\"}},\"a_b0\":true}\n" +
		"{\"id\":3,\"a\":{\"b\":3}}\n"
	for _, workers := range []int{1, 2} {
		if _, err := c.Exec(bg, "DROP TABLE IF EXISTS t"); err != nil {
			t.Fatal(err)
		}
		opts := loader.Tune(&Options{Flatten: true, Alter: true, Workers: workers, InferRows: 1}, loader.Tuning{Serial: workers == 1, BlockSize: 64})
		mustLoad(t, c, "t", in, opts)
		if got, want := columnTypes(t, c, "t"), "id bigint\na_b bigint\na_c_d text\na_c_e jsonb\nh jsonb\na_c_d  text\na_b0 boolean\n"; got != want {
			t.Errorf("%d workers: columns\n%s\nwant\n%s", workers, got, want)
		}
		want := "1|1|x|[1, {\"f\": 2}]|[{\"i\": 1}]|NULL|NULL\n2|2|NULL|NULL|NULL|esc|t\n3|3|NULL|NULL|NULL|NULL|NULL\n"
		if got := dump(t, c, "SELECT * FROM t ORDER BY id"); got != want {
			t.Errorf("%d workers: rows\n%s\nwant\n%s", workers, got, want)
		}
	}
}

// With Replace and Upsert, PostgreSQL says which rows updated a stored
// one (Result.Updated); rows of one key in one batch are one change.
func TestUpdatedCounted(t *testing.T) {
	c := pgtest.Conn(t)
	for _, mode := range []Conflict{Replace, Upsert} {
		for _, conns := range []int{1, 2} {
			if _, err := c.Exec(bg, "DROP TABLE IF EXISTS t"); err != nil {
				t.Fatal(err)
			}
			mustLoad(t, c, "t", "{\"id\":1,\"v\":1}\n{\"id\":2,\"v\":2}\n", &Options{PrimaryKey: []string{"id"}})
			opts := loader.Tune(&Options{Conflict: mode, Connections: conns, Workers: conns, BatchSize: 3}, loader.Tuning{Serial: conns == 1, BlockSize: 64})
			res := mustLoad(t, c, "t", "{\"id\":2,\"v\":20}\n{\"id\":3,\"v\":3}\n{\"id\":3,\"v\":30}\n{\"id\":1,\"v\":10}\n{\"id\":4,\"v\":4}\n", opts)
			// Batch 1: 2 updated, 3 inserted (its two rows one change);
			// batch 2: 1 updated, 4 inserted.
			if res.Rows != 5 || res.Changes != 4 || res.Updated != 2 {
				t.Errorf("%v, %d connections: %+v", mode, conns, res)
			}
			if got := dump(t, c, "SELECT id, v FROM t ORDER BY id"); got != "1|10\n2|20\n3|30\n4|4\n" {
				t.Errorf("%v, %d connections: rows %q", mode, conns, got)
			}
		}
	}
}
