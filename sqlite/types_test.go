package sqlite

import (
	"strings"
	"testing"

	"github.com/jsonpipe/json/internal/loader"
)

// TestValuesStoredAsTheyAre: SQLite's columns take a value of any type, so
// a value after the inferred rows that does not match its column's
// declared type (a string or a fraction in an INTEGER column, an object in
// a REAL one) is stored as it is, with its own type, except where the
// column's affinity converts it without loss (true, bound as 1, becomes
// 1.0 in a REAL column): nothing is widened and the load goes on, with
// StrictTypes or without, serially or with workers.
func TestValuesStoredAsTheyAre(t *testing.T) {
	in := ndjson(`{"i":1,"n":1,"f":1.5}`, `{"i":2,"n":2,"f":2.5}`, `{"i":3,"n":"x","f":{"a":1}}`,
		`{"i":4,"n":4.5,"f":"y"}`, `{"i":5,"n":12345678901234567890,"f":true}`, `{"i":6,"n":6,"f":6}`)
	want := ndjson(`{"i":1,"n":1,"tn":"integer","f":1.5,"tf":"real"}`,
		`{"i":2,"n":2,"tn":"integer","f":2.5,"tf":"real"}`,
		`{"i":3,"n":"x","tn":"text","f":"{\"a\":1}","tf":"text"}`,
		`{"i":4,"n":4.5,"tn":"real","f":"y","tf":"text"}`,
		`{"i":5,"n":12345678901234567000.0,"tn":"real","f":1.0,"tf":"real"}`,
		`{"i":6,"n":6,"tn":"integer","f":6.0,"tf":"real"}`)
	for _, strict := range []bool{false, true} {
		for _, workers := range []int{1, 2} {
			db := openDB(t)
			opts := loader.Tune(&Options{InferRows: 2, BatchSize: 2, StrictTypes: strict, Workers: workers},
				loader.Tuning{Serial: workers == 1, BlockSize: 64})
			res := load(t, db, "t", in, opts)
			if res.Rows != 6 || len(res.Widened) != 0 {
				t.Errorf("strict %v, workers %d: %+v", strict, workers, res)
			}
			got := dump(t, db, "SELECT i, n, typeof(n) AS tn, f, typeof(f) AS tf FROM t ORDER BY i")
			if got != want {
				t.Errorf("strict %v, workers %d:\n%s\nwant:\n%s", strict, workers, got, want)
			}
			if schema := flatSchema(t, db, "t"); !strings.Contains(schema, `"n" INTEGER`) || !strings.Contains(schema, `"f" REAL`) {
				t.Errorf("schema %s", schema)
			}
		}
	}
}
