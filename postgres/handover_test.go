package postgres

import (
	"errors"
	"strings"
	"testing"

	"github.com/jsonpipe/json/internal/pgtest"
)

// TestRefusalAfterHandOvers: PostgreSQL refuses a row after many of the
// COPY's 64 KiB hand-overs have been read; the load ends at that row, over
// one connection and over two, with and without workers, rather than
// waiting on a COPY that has ended.
func TestRefusalAfterHandOvers(t *testing.T) {
	for _, tc := range []struct{ workers, conns int }{{1, 1}, {2, 1}, {1, 2}, {2, 2}} {
		c := pgtest.Conn(t)
		if _, err := c.Exec(bg, "CREATE TABLE t (a text CHECK (a <> 'bad'), b bigint)"); err != nil {
			t.Fatal(err)
		}
		const bad = 60000
		in := rowsOf(100000, func(i int) string {
			if i == bad {
				return `{"a":"bad","b":1}`
			}
			return `{"a":"a value long enough to fill the buffers","b":` + itoa(i) + `}`
		})
		res, err := load(t, c, "t", in, &Options{BatchSize: 40000, Workers: tc.workers, Connections: tc.conns})
		var re *RowError
		if !errors.As(err, &re) || re.Row != bad || re.Offset != int64(strings.Index(in, `{"a":"bad"`)) {
			t.Fatalf("workers %d, connections %d: error %v, want row %d", tc.workers, tc.conns, err, bad)
		}
		if res.Rows != 40000 || count(t, c, "t") != 40000 {
			t.Errorf("workers %d, connections %d: %+v, table has %d rows", tc.workers, tc.conns, res, count(t, c, "t"))
		}
	}
}
