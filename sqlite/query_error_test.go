package sqlite

import (
	"bytes"
	"context"
	stdjson "encoding/json"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"testing"
)

// failAfter is a query whose row k+1 fails in SQLite itself: abs() of the
// smallest int64 is "integer overflow".
const failAfter = `WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < ?)
	SELECT i, abs(CASE WHEN i = ? THEN -9223372036854775807 - 1 ELSE i END) AS a, 'row ' || i AS s FROM c`

// TestWriteQueryFailsMidway: a query whose row k+1 fails leaves in w
// exactly its first k rows, complete, and no output that passes for a
// complete result: an array is not closed, NDJSON simply stops, and
// without a row there is no output at all. The count returned is k. On
// the pipelined path (GOMAXPROCS > 1), whose batches are 1024 rows, and
// on the one-goroutine path.
func TestWriteQueryFailsMidway(t *testing.T) {
	db := openDB(t)
	for _, k := range []int{0, 1, 1000, 1024, 100_000} {
		want := make([]string, k)
		for i := range want {
			want[i] = fmt.Sprintf(`{"i":%d,"a":%d,"s":"row %d"}`, i+1, i+1, i+1)
		}
		for _, procs := range []int{1, 2} {
			for _, format := range []Format{Array, Lines} {
				t.Run(fmt.Sprintf("after %d/procs=%d/%v", k, procs, format), func(t *testing.T) {
					var out bytes.Buffer
					prev := runtime.GOMAXPROCS(procs)
					n, err := WriteQuery(context.Background(), db, &out, format, failAfter, k+5000, k+1)
					runtime.GOMAXPROCS(prev)
					if err == nil || !strings.Contains(err.Error(), "integer overflow") {
						t.Fatalf("error %v, want integer overflow", err)
					}
					if n != int64(k) {
						t.Errorf("n = %d, want %d", n, k)
					}
					got := out.String()
					var exp string
					if format == Lines {
						exp = strings.Join(want, "\n")
						if k > 0 {
							exp += "\n"
						}
					} else if k > 0 {
						exp = "[" + strings.Join(want, ",\n") + "\n"
						var v any
						if stdjson.Unmarshal(out.Bytes(), &v) == nil {
							t.Errorf("the output parses as complete JSON")
						}
					}
					if got != exp {
						t.Errorf("output (%d bytes) ends %q, want %d bytes ending %q", len(got), tail(got), len(exp), tail(exp))
					}
				})
			}
		}
	}
}

// TestWriteQueryWriterFailsMidway: when w fails, the count is the rows w
// took in full, and nothing closes the array.
func TestWriteQueryWriterFailsMidway(t *testing.T) {
	db := openDB(t)
	for _, procs := range []int{1, 2} {
		w := &recordWriter{failAt: 3}
		prev := runtime.GOMAXPROCS(procs)
		n, err := WriteQuery(context.Background(), db, w, Array, failAfter, 200_000, 0)
		runtime.GOMAXPROCS(prev)
		if !errors.Is(err, errBoom) {
			t.Fatalf("procs=%d: error %v", procs, err)
		}
		if got := int64(strings.Count(w.b.String(), `{"i":`)); n != got || n == 0 || strings.Contains(w.b.String(), "]") {
			t.Errorf("procs=%d: n = %d, the writer took %d rows", procs, n, got)
		}
	}
}

// recordWriter keeps what it is given, and fails the failAt'th write.
type recordWriter struct {
	b      bytes.Buffer
	writes int
	failAt int
}

func (w *recordWriter) Write(p []byte) (int, error) {
	if w.writes++; w.writes == w.failAt {
		return 0, errBoom
	}
	return w.b.Write(p)
}

func tail(s string) string {
	if len(s) > 60 {
		return s[len(s)-60:]
	}
	return s
}
