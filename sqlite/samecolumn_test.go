package sqlite

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/jsonpipe/json/internal/loader"
)

// SQLite takes column names that differ only in ASCII letter case for one
// column. Two such keys in one row would put two values in one column, the
// later silently replacing the earlier: that row is an error naming both
// keys, wherever the keys are first seen. A key in another case than its
// column's, alone in its row, still goes to that column, and one key given
// twice (however escaped) still keeps its last value, as encoding/json does.
func TestKeysNamingOneColumn(t *testing.T) {
	cases := []struct {
		name   string
		create string // the table before the load, if any
		in     string
		opts   Options
		row    int64
		offset int64 // just after the second key, as for other key errors
		keys   string
		rows   int64 // committed before the error
	}{
		{name: "first row, new table",
			in:  `[{"Group":"a","group":"b","id":1}]`,
			row: 1, offset: int64(len(`[{"Group":"a","group"`)), keys: `keys "Group" and "group" both name column "Group"`},
		{name: "later row of the sample",
			in:   ndjson(`{"id":1,"Group":"a"}`, `{"id":2,"Group":"b","GROUP":"c"}`),
			opts: Options{BatchSize: 1},
			row:  2, offset: int64(len(`{"id":1,"Group":"a"}` + "\n" + `{"id":2,"Group":"b","GROUP"`)),
			keys: `keys "Group" and "GROUP" both name column "Group"`, rows: 1},
		{name: "later row, after the sample, without Alter",
			in:   ndjson(`{"id":1,"Group":"a"}`, `{"id":2,"group":"b"}`, `{"id":3,"group":"c","Group":"d"}`),
			opts: Options{BatchSize: 1, InferRows: 1},
			row:  3, offset: int64(len(ndjson(`{"id":1,"Group":"a"}`, `{"id":2,"group":"b"}`) + `{"id":3,"group":"c","Group"`)),
			keys: `keys "group" and "Group" both name column "Group"`, rows: 2},
		{name: "later row with Alter, both keys new",
			in:   ndjson(`{"id":1}`, `{"id":2,"Group":"a","group":"b"}`),
			opts: Options{BatchSize: 1, InferRows: 1, Alter: true},
			row:  2, offset: int64(len(`{"id":1}` + "\n" + `{"id":2,"Group":"a","group"`)),
			keys: `keys "Group" and "group" both name column "Group"`, rows: 1},
		{name: "later row with Alter, a column added by an earlier row",
			in:   ndjson(`{"id":1}`, `{"id":2,"Group":"a"}`, `{"id":3,"GROUP":"b"}`, `{"id":4,"group":"c","Group":"d"}`),
			opts: Options{BatchSize: 1, InferRows: 1, Alter: true},
			row:  4, offset: int64(len(ndjson(`{"id":1}`, `{"id":2,"Group":"a"}`, `{"id":3,"GROUP":"b"}`) + `{"id":4,"group":"c","Group"`)),
			keys: `keys "group" and "Group" both name column "Group"`, rows: 3},
		{name: "existing table",
			create: `CREATE TABLE t (id INTEGER, "group" TEXT)`,
			in:     ndjson(`{"id":1,"GROUP":"a"}`, `{"id":2,"Group":"b","GROUP":"c"}`),
			opts:   Options{BatchSize: 1},
			row:    2, offset: int64(len(`{"id":1,"GROUP":"a"}` + "\n" + `{"id":2,"Group":"b","GROUP"`)),
			keys: `keys "Group" and "GROUP" both name column "group"`, rows: 1},
		{name: "existing table, a key escaped",
			create: `CREATE TABLE t (id INTEGER, "group" TEXT)`,
			in:     `{"id":1,"group":"b","\u0047roup":"c"}`,
			row:    1, offset: int64(len(`{"id":1,"group":"b","\u0047roup"`)),
			keys: `keys "group" and "Group" both name column "group"`},
		{name: "given columns",
			in:   `{"id":1,"name":"x","NAME":"y"}`,
			opts: Options{Columns: []Column{{Name: "id", Type: TypeInteger}, {Name: "Name", Type: TypeText}}},
			row:  1, offset: int64(len(`{"id":1,"name":"x","NAME"`)),
			keys: `keys "name" and "NAME" both name column "Name"`},
		{name: "the same key twice first, then another case",
			in:  `{"a":1,"a":2,"A":3}`,
			row: 1, offset: int64(len(`{"a":1,"a":2,"A"`)), keys: `keys "a" and "A" both name column "a"`},
	}
	for _, tc := range cases {
		for _, workers := range []int{1, 3} {
			t.Run(tc.name+"/workers="+itoa(workers), func(t *testing.T) {
				db := openDB(t)
				if tc.create != "" {
					if _, err := db.Exec(tc.create); err != nil {
						t.Fatal(err)
					}
				}
				opts := tc.opts
				opts.Workers = workers
				loader.Tune(&opts, loader.Tuning{BlockSize: 16})
				res, err := Insert(context.Background(), db, "t", strings.NewReader(tc.in), &opts)
				var re *RowError
				var se *sameColumnError
				if !errors.As(err, &re) || !errors.As(err, &se) {
					t.Fatalf("error %v, want a *RowError for two keys of one column", err)
				}
				if re.Row != tc.row || re.Offset != tc.offset {
					t.Errorf("row %d at byte %d, want row %d at byte %d", re.Row, re.Offset, tc.row, tc.offset)
				}
				if !strings.Contains(err.Error(), tc.keys) {
					t.Errorf("message %q lacks %q", err, tc.keys)
				}
				if res.Rows != tc.rows || count(t, db, "t") != tc.rows {
					t.Errorf("committed %d, table has %d, want %d", res.Rows, count(t, db, "t"), tc.rows)
				}
			})
		}
	}
}

// What SQLite's case folding allowed before stays allowed: a key in any
// case alone in its row, one key given twice, escaped or not, and
// non-ASCII letters, which SQLite does not fold.
func TestKeysNamingOneColumnAccepted(t *testing.T) {
	db := openDB(t)
	in := ndjson(`{"id":1,"Group":"a"}`, `{"id":2,"group":"b"}`, `{"id":3,"GROUP":"c","GROUP":"d"}`,
		`{"id":4,"group":"e","\u0067roup":"f"}`, `{"id":5,"É":"g","é":"h"}`)
	res := load(t, db, "t", in, &Options{Alter: true, InferRows: 1})
	if res.Rows != 5 {
		t.Fatalf("%+v", res)
	}
	want := ndjson(`{"id":1,"Group":"a","É":null,"é":null}`, `{"id":2,"Group":"b","É":null,"é":null}`, `{"id":3,"Group":"d","É":null,"é":null}`,
		`{"id":4,"Group":"f","É":null,"é":null}`, `{"id":5,"Group":null,"É":"g","é":"h"}`)
	if got := dump(t, db, "SELECT * FROM t ORDER BY id"); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}
