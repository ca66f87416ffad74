package sqlite

import (
	"bytes"
	"context"
	"testing"
)

// perRowAllocs measures the allocations of loading rows of in, by
// difference between loading n and 2n rows, so the fixed cost of a load
// (connection, statements, buffers) cancels out.
func perRowAllocs(t *testing.T, row string, n int) float64 {
	t.Helper()
	mk := func(k int) []byte { return bytes.Repeat([]byte(row+"\n"), k) }
	small, big := mk(n), mk(2*n)
	db := openDB(t)
	db.SetMaxOpenConns(1)
	load(t, db, "t", row, nil) // create the table
	run := func(in []byte) float64 {
		return testing.AllocsPerRun(5, func() {
			if _, err := Insert(context.Background(), db, "t", bytes.NewReader(in), nil); err != nil {
				t.Fatal(err)
			}
		})
	}
	return (run(big) - run(small)) / float64(n)
}

// The hot path allocates nothing per row but the driver.Value boxing that
// go-sqlite3's API requires: 16 bytes per text value, 8 per float and per
// integer above 255 (Go keeps small integers boxed in a static table), plus
// go-sqlite3's per-statement result, shared by the rows of a 128-row
// statement.
func TestAllocsPerRow(t *testing.T) {
	if testing.Short() {
		t.Skip("loads 30,000 rows a few times")
	}
	tests := []struct {
		name string
		row  string
		max  float64
	}{
		{"small ints and booleans", `{"a":1,"b":true,"c":null,"d":255}`, 0.05},
		{"tasks row: one text", `{"title":"Check Twitter","done":true}`, 1.05},
		{"escaped text", `{"title":"Check \"Twitter\"\n","done":true}`, 1.05},
		{"nested value: one text", `{"tags":["a",{"b":[1,2]}],"n":3}`, 1.05},
		{"text, float, big int", `{"s":"x","f":1.5,"i":1000}`, 3.05},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := perRowAllocs(t, tc.row, 10000)
			t.Logf("%.3f allocations per row", got)
			if got > tc.max {
				t.Errorf("%.3f allocations per row, want at most %.2f", got, tc.max)
			}
		})
	}
}
