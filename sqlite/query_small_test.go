//go:build !race

package sqlite

import (
	"bytes"
	"context"
	"fmt"
	"runtime"
	"strings"
	"testing"
)

// TestWriteQueryBatchEdges: results that end inside the first batch of
// 1,024 rows (written without the pipeline), at its end, and past it, all
// come out whole.
func TestWriteQueryBatchEdges(t *testing.T) {
	db := openDB(t)
	if _, err := db.Exec(`CREATE TABLE n (i INTEGER PRIMARY KEY, s TEXT);
		WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i+1 FROM c WHERE i < 3100)
		INSERT INTO n SELECT i, 'row ' || i FROM c`); err != nil {
		t.Fatal(err)
	}
	for _, rows := range []int{0, 1, 1023, 1024, 1025, 2048, 2049, 3073} {
		var b bytes.Buffer
		n, err := WriteQuery(context.Background(), db, &b, Lines, "SELECT * FROM n WHERE i <= ? ORDER BY i", rows)
		if err != nil || n != int64(rows) {
			t.Fatalf("%d rows: n=%d err=%v", rows, n, err)
		}
		lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
		if rows == 0 {
			lines = nil
		}
		if len(lines) != rows {
			t.Fatalf("%d rows: %d lines", rows, len(lines))
		}
		for i, l := range lines {
			if want := fmt.Sprintf(`{"i":%d,"s":"row %d"}`, i+1, i+1); l != want {
				t.Fatalf("%d rows: line %d is %s, want %s", rows, i+1, l, want)
			}
		}
	}
}

// TestWriteQuerySmallAllocates: a query of one row allocates a few
// hundred bytes, not the 200 KiB of buffers a big export needs (the
// writer's buffer and the batches are pooled; a result that ends in the
// first batch starts no pipeline). A server answers many such queries.
// (Not under the race detector, whose sync.Pool drops items on purpose.)
func TestWriteQuerySmallAllocates(t *testing.T) {
	db := openDB(t)
	if _, err := db.Exec(`CREATE TABLE t (id INTEGER PRIMARY KEY, title TEXT, done INTEGER);
		INSERT INTO t VALUES (1, 'Clean Room', 0)`); err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	run := func() {
		b.Reset()
		if n, err := WriteQuery(context.Background(), db, &b, Array, "SELECT * FROM t WHERE id = ?", 1); err != nil || n != 1 {
			t.Fatalf("n=%d err=%v", n, err)
		}
	}
	run()
	const runs = 200
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for range runs {
		run()
	}
	runtime.ReadMemStats(&after)
	if per := (after.TotalAlloc - before.TotalAlloc) / runs; per > 16<<10 {
		t.Errorf("a one-row query allocates %d bytes", per)
	}
}
