package sqlite

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/jsonpipe/json/internal/loader"
)

// Truncate empties an existing table in the first batch's transaction:
// a failure there keeps the old rows; a table the load creates, or an
// input with no rows, is fine.
func TestTruncate(t *testing.T) {
	for _, workers := range []int{1, 2} {
		db := openDB(t)
		opts := func() *Options {
			return loader.Tune(&Options{Truncate: true, Workers: workers, BatchSize: 2, InferRows: 1, Conflict: Ignore, PrimaryKey: []string{"id"}},
				loader.Tuning{Serial: workers == 1, BlockSize: 64})
		}
		res := load(t, db, "t", ndjson(`{"id":1}`, `{"id":2}`), opts())
		if res.Truncated || !res.Created || res.Changes != 2 {
			t.Fatalf("new table: %+v", res)
		}
		res = load(t, db, "t", ndjson(`{"id":2}`, `{"id":3}`, `{"id":4}`), opts())
		if !res.Truncated || res.Rows != 3 || res.Changes != 3 {
			t.Fatalf("again: %+v", res)
		}
		if got := dump(t, db, "SELECT id FROM t ORDER BY id"); got != "{\"id\":2}\n{\"id\":3}\n{\"id\":4}\n" {
			t.Fatalf("rows %q", got)
		}
		// A failure in the first batch: the rows stay.
		_, err := Insert(context.Background(), db, "t", strings.NewReader(ndjson(`{"id":5}`, `{"id":`)), opts())
		var re *RowError
		if !errors.As(err, &re) || re.Row != 2 || count(t, db, "t") != 3 {
			t.Fatalf("failed load: %v, %d rows", err, count(t, db, "t"))
		}
		// No rows: the table is emptied all the same.
		res = load(t, db, "t", "", opts())
		if !res.Truncated || count(t, db, "t") != 0 {
			t.Fatalf("empty input: %+v, %d rows", res, count(t, db, "t"))
		}
	}
}

// Flatten makes columns of nested objects' members as sqlite-utils does:
// a_b, a_c_d; arrays stay JSON, an empty object makes no column.
func TestFlatten(t *testing.T) {
	in := ndjson(`{"id":1,"a":{"b":1,"c":{"d":"x","e":[1,{"f":2}]},"g":{}},"h":[{"i":1}]}`,
		`{"id":2,"a":{"b":2,"c":{"d\u0020":"esc"}},"a_b0":true}`,
		`{"id":3,"a":{"b":3}}`)
	for _, workers := range []int{1, 2} {
		db := openDB(t)
		opts := loader.Tune(&Options{Flatten: true, Alter: true, Workers: workers, InferRows: 1}, loader.Tuning{Serial: workers == 1, BlockSize: 64})
		load(t, db, "t", in, opts)
		if got, want := strings.Join(columnTypes(t, db, "t"), ", "), "id INTEGER, a_b INTEGER, a_c_d TEXT, a_c_e JSON TEXT, h JSON TEXT, a_c_d  TEXT, a_b0 INTEGER"; got != want {
			t.Errorf("%d workers: columns %s, want %s", workers, got, want)
		}
		want := `{"id":1,"a_b":1,"a_c_d":"x","a_c_e":[1,{"f":2}],"h":[{"i":1}],"a_c_d ":null,"a_b0":null}` + "\n" +
			`{"id":2,"a_b":2,"a_c_d":null,"a_c_e":null,"h":null,"a_c_d ":"esc","a_b0":1}` + "\n" +
			`{"id":3,"a_b":3,"a_c_d":null,"a_c_e":null,"h":null,"a_c_d ":null,"a_b0":null}` + "\n"
		if got := dump(t, db, "SELECT * FROM t ORDER BY id"); got != want {
			t.Errorf("%d workers: rows\n%s\nwant\n%s", workers, got, want)
		}
	}
}
