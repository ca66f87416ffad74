package postgres

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/jsonpipe/json/internal/loader"
	"github.com/jsonpipe/json/internal/pgtest"
)

// widenCases: the values of column n in row order (the first two are the
// rows types are inferred from), its final type, the widenings Result
// reports, and each value's text in the final column.
var widenCases = []struct {
	name    string
	vals    []string
	typ     string
	widened []string
	want    map[string]string
}{
	{"int to float", []string{"1", "2", "1.5", "3"}, "double precision",
		[]string{"n: bigint → double precision"}, map[string]string{"1": "1", "2": "2", "1.5": "1.5", "3": "3"}},
	{"int to numeric", []string{"1", "-2", "123456789012345678901234567890", "3"}, "numeric",
		[]string{"n: bigint → numeric"},
		map[string]string{"1": "1", "-2": "-2", "123456789012345678901234567890": "123456789012345678901234567890", "3": "3"}},
	{"int to text", []string{"1", "2", `"x"`, "3"}, "text",
		[]string{"n: bigint → text"}, map[string]string{"1": "1", "2": "2", `"x"`: "x", "3": "3"}},
	{"float to text", []string{"1.5", "2", `"x"`, "true"}, "text",
		[]string{"n: double precision → text"}, map[string]string{"1.5": "1.5", "2": "2", `"x"`: "x", "true": "true"}},
	{"int to jsonb", []string{"1", "2", `{"a":1}`, `[1,"x"]`, `"s"`}, "jsonb",
		[]string{"n: bigint → jsonb"}, map[string]string{"1": "1", "2": "2", `{"a":1}`: `{"a": 1}`, `[1,"x"]`: `[1, "x"]`, `"s"`: `"s"`}},
	{"bool to text", []string{"true", "false", `"maybe"`, "1"}, "text",
		[]string{"n: boolean → text"}, map[string]string{"true": "true", "false": "false", `"maybe"`: "maybe", "1": "1"}},
	{"bool to jsonb", []string{"true", "false", `[true]`}, "jsonb",
		[]string{"n: boolean → jsonb"}, map[string]string{"true": "true", "false": "false", `[true]`: "[true]"}},
	{"int to float to text", []string{"1", "2", "2.5", `"x"`, "4"}, "text",
		[]string{"n: bigint → double precision", "n: double precision → text"},
		map[string]string{"1": "1", "2": "2", "2.5": "2.5", `"x"`: "x", "4": "4"}},
}

// TestWiden loads, into a table it creates, values that stop fitting the
// inferred type after the sampled rows, between long runs of rows that
// fit, in batches of 5: every row must be stored, its value as it was,
// in a column of the wider type, over one connection or two, with or
// without decoding workers, from a JSON array or NDJSON.
func TestWiden(t *testing.T) {
	modes := []struct {
		name           string
		array          bool
		workers, conns int
	}{
		{"ndjson", false, 1, 1},
		{"array", true, 1, 1},
		{"ndjson/workers", false, 2, 1},
		{"ndjson/2 connections", false, 1, 2},
		{"ndjson/workers/2 connections", false, 2, 2},
		{"array/2 connections", true, 1, 2},
	}
	for _, tc := range widenCases {
		for _, m := range modes {
			t.Run(tc.name+"/"+m.name, func(t *testing.T) {
				// The sampled rows, 20 like the first, the later values,
				// 20 like the last.
				vals := slices.Clone(tc.vals[:2])
				for range 20 {
					vals = append(vals, tc.vals[0])
				}
				vals = append(vals, tc.vals[2:]...)
				for range 20 {
					vals = append(vals, tc.vals[len(tc.vals)-1])
				}
				rows := make([]string, len(vals))
				var want strings.Builder
				for i, v := range vals {
					rows[i] = fmt.Sprintf(`{"i":%d,"n":%s}`, i+1, v)
					fmt.Fprintf(&want, "%d|%s\n", i+1, tc.want[v])
				}
				in := ndjson(rows...)
				if m.array {
					in = "[" + strings.Join(rows, ",\n") + "]"
				}
				c := connect(t)
				opts := loader.Tune(&Options{InferRows: 2, BatchSize: 5, Workers: m.workers, Connections: m.conns},
					loader.Tuning{Serial: m.workers == 1, BlockSize: 64})
				res, err := Insert(bg, c, "t", strings.NewReader(in), opts)
				if err != nil {
					t.Fatalf("Insert: %v", err)
				}
				if res.Rows != int64(len(vals)) || res.Changes != int64(len(vals)) || !res.Created || !slices.Equal(res.Widened, tc.widened) {
					t.Errorf("result %+v, want %d rows, widened %q", res, len(vals), tc.widened)
				}
				if got := dump(t, c, "SELECT i, n::text FROM t ORDER BY i"); got != want.String() {
					t.Errorf("rows:\n%s\nwant:\n%s", got, want.String())
				}
				if got, want := columnTypes(t, c, "t"), "i bigint\nn "+tc.typ+"\n"; got != want {
					t.Errorf("columns:\n%s\nwant:\n%s", got, want)
				}
			})
		}
	}
}

// TestWidenTwoColumns widens two columns in one row (beside a null in a
// column that fits), and a column added by Alter after the table was
// created, in the first batch, which creates the table, over one
// connection or two.
func TestWidenTwoColumns(t *testing.T) {
	for _, conns := range []int{1, 2} {
		c := connect(t)
		in := ndjson(`{"a":1,"b":true}`, `{"a":2,"b":false}`, `{"a":3,"b":true,"c":7}`,
			`{"a":"x","b":null,"c":8}`, `{"a":4,"b":[1],"c":null,"d":null}`, `{"a":5,"b":true,"c":9.5}`)
		res := mustLoad(t, c, "t", in, &Options{InferRows: 2, Alter: true, Connections: conns})
		want := []string{"a: bigint → text", "b: boolean → jsonb", "c: bigint → double precision"}
		if res.Rows != 6 || !slices.Equal(res.Widened, want) || !slices.Equal(res.Added, []string{"c", "d"}) {
			t.Errorf("connections %d: %+v, want widened %q", conns, res, want)
		}
		got := dump(t, c, `SELECT a, b::text, c, d FROM t ORDER BY a COLLATE "C"`)
		if want := "1|true|NULL|NULL\n2|false|NULL|NULL\n3|true|7|NULL\n4|[1]|NULL|NULL\n5|true|9.5|NULL\nx|NULL|8|NULL\n"; got != want {
			t.Errorf("connections %d: rows:\n%s\nwant:\n%s", conns, got, want)
		}
	}
}

// TestWidenStrict: with StrictTypes the first value that does not fit
// stops the load, as it did before columns widened, leaving the batches
// before it committed.
func TestWidenStrict(t *testing.T) {
	for _, tc := range widenCases {
		t.Run(tc.name, func(t *testing.T) {
			c := pgtest.Conn(t)
			var rows []string
			for i, v := range tc.vals {
				rows = append(rows, fmt.Sprintf(`{"i":%d,"n":%s}`, i+1, v))
			}
			res, err := load(t, c, "t", ndjson(rows...), &Options{InferRows: 2, BatchSize: 2, StrictTypes: true})
			var re *RowError
			var te *TypeError
			if !errors.As(err, &re) || !errors.As(err, &te) || re.Row != 3 {
				t.Fatalf("error %v, want a TypeError in row 3", err)
			}
			if res.Rows != 2 || count(t, c, "t") != 2 || len(res.Widened) != 0 {
				t.Errorf("%+v", res)
			}
		})
	}
}

// TestWidenNotOwnTable: a column of a table the load did not create is
// never altered: a value that does not fit it is an error, as before.
func TestWidenNotOwnTable(t *testing.T) {
	c := pgtest.Conn(t)
	if _, err := c.Exec(bg, "CREATE TABLE t (n bigint)"); err != nil {
		t.Fatal(err)
	}
	res, err := load(t, c, "t", ndjson(`{"n":1}`, `{"n":2}`, `{"n":"x"}`), &Options{InferRows: 2, BatchSize: 2})
	var re *RowError
	var te *TypeError
	if !errors.As(err, &re) || !errors.As(err, &te) || re.Row != 3 || !strings.Contains(te.Msg, `column "n" is bigint; the value is a string`) {
		t.Fatalf("error %v, want a TypeError in row 3", err)
	}
	if res.Rows != 2 || len(res.Widened) != 0 || columnTypes(t, c, "t") != "n bigint\n" {
		t.Errorf("%+v, columns %q", res, columnTypes(t, c, "t"))
	}
}

// TestWidenNotDeclared: a column whose type Options.Columns gave is not
// altered either.
func TestWidenNotDeclared(t *testing.T) {
	c := pgtest.Conn(t)
	_, err := load(t, c, "t", ndjson(`{"n":1}`, `{"n":"x"}`), &Options{Columns: []Column{{Name: "n", Type: "bigint"}}})
	var te *TypeError
	if !errors.As(err, &te) {
		t.Fatalf("error %v, want a TypeError", err)
	}
}

// TestWidenConnections widens twice in a load over four connections, in
// batches of 3 (many in flight when the ALTER comes), with and without a
// conflict mode's staging table: every row once, in its place, and the
// keys the Ignore rows repeat kept from their first row; and no deadlock
// to break on the way.
func TestWidenConnections(t *testing.T) {
	for _, mode := range []Conflict{Fail, Ignore} {
		for _, workers := range []int{1, 3} {
			t.Run(fmt.Sprintf("%v/workers %d", mode, workers), func(t *testing.T) {
				var rows []string
				var want strings.Builder
				for i := 1; i <= 150; i++ {
					v := fmt.Sprint(i)
					switch {
					case i == 70:
						v = "70.5"
					case i >= 110:
						v = `"s` + v + `"`
					}
					rows = append(rows, fmt.Sprintf(`{"i":%d,"n":%s}`, i, v))
					fmt.Fprintf(&want, "%d|%s\n", i, strings.Trim(v, `"`))
				}
				in := ndjson(rows...)
				if mode == Ignore {
					in += ndjson(`{"i":5,"n":"again"}`, `{"i":120,"n":0.25}`)
				}
				// The default deadlock_timeout (a second): the batch that
				// widens waits for the earlier ones to commit before its
				// ALTER, so it never deadlocks with them.
				c := pgtest.Conn(t)
				resent := false
				testHookResend = func(int32) { resent = true }
				defer func() { testHookResend = nil }()
				opts := &Options{InferRows: 2, BatchSize: 3, Connections: 4, Workers: workers, Conflict: mode, PrimaryKey: []string{"i"}}
				loader.Tune(opts, loader.Tuning{Serial: workers == 1, BlockSize: 64})
				res, err := Insert(bg, c, "t", strings.NewReader(in), opts)
				if err != nil {
					t.Fatalf("Insert: %v", err)
				}
				wantWidened := []string{"n: bigint → double precision", "n: double precision → text"}
				if res.Changes != 150 || !slices.Equal(res.Widened, wantWidened) {
					t.Errorf("%+v", res)
				}
				if got := dump(t, c, "SELECT i, n FROM t ORDER BY i"); got != want.String() {
					t.Errorf("rows:\n%s\nwant:\n%s", got, want.String())
				}
				if got := columnTypes(t, c, "t"); got != "i bigint\nn text\n" {
					t.Errorf("columns %q", got)
				}
				if resent {
					t.Error("the batches were sent again after a deadlock")
				}
			})
		}
	}
}

// TestWidenLongStrings: the value that widens is a string long enough to
// be sent from the arena (40 KiB) or from the chunks it was streamed
// into (2 MiB), which must still be there when the row is sent again.
func TestWidenLongStrings(t *testing.T) {
	for _, n := range []int{40 << 10, 2 << 20} {
		c := connect(t)
		long := strings.Repeat("x", n)
		in := ndjson(`{"n":1}`, `{"n":2}`, `{"n":3}`, `{"n":"`+long+`"}`, `{"n":4}`)
		res := mustLoad(t, c, "t", in, &Options{InferRows: 2})
		if res.Rows != 5 || len(res.Widened) != 1 {
			t.Errorf("%d: %+v", n, res)
		}
		got := dump(t, c, "SELECT length(n), left(n, 3) FROM t ORDER BY length(n), n")
		if want := fmt.Sprintf("1|1\n1|2\n1|3\n1|4\n%d|xxx\n", n); got != want {
			t.Errorf("%d: rows %q", n, got)
		}
	}
}
