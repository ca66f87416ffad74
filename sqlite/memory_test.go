package sqlite

import (
	"context"
	"io"
	"runtime"
	"testing"
)

// tasksReader produces n rows of NDJSON tasks on the fly, so the input
// itself takes no memory.
type tasksReader struct {
	n, i int
	pend []byte
}

func (r *tasksReader) Read(p []byte) (int, error) {
	rows := [2]string{`{"title":"Clean Room","done":false,"tags":["a","b"]}` + "\n", `{"title":"Check \"Twitter\"","done":true,"n":1.5}` + "\n"}
	n := 0
	for n < len(p) {
		if len(r.pend) == 0 {
			if r.i == r.n {
				break
			}
			r.pend = []byte(rows[r.i&1])
			r.i++
		}
		c := copy(p[n:], r.pend)
		r.pend = r.pend[c:]
		n += c
	}
	if n == 0 {
		return 0, io.EOF
	}
	return n, nil
}

// Memory stays flat whatever the input size: the Go heap in use while
// loading 300,000 rows stays under a few megabytes (SQLite's page cache is
// C memory and not counted; it is bounded by SQLite's cache_size), plus,
// with workers, the 2×Workers+2 chunks of 256 KiB in flight and their rows
// as values.
func TestFlatMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("loads 300,000 rows")
	}
	for _, workers := range []int{1, 2, 4} {
		db := openDB(t)
		var peak uint64
		var ms runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&ms)
		base := ms.HeapInuse
		res, err := Insert(context.Background(), db, "t", &tasksReader{n: 300000}, &Options{
			BatchSize: 25000, Alter: true, Workers: workers,
			Progress: func(Progress) {
				runtime.GC()
				runtime.ReadMemStats(&ms)
				peak = max(peak, ms.HeapInuse)
			},
		})
		if err != nil || res.Rows != 300000 {
			t.Fatalf("%+v %v", res, err)
		}
		grew := int64(peak) - int64(base)
		limit := int64(4<<20) + int64(2*workers+2)*(2<<20)
		t.Logf("workers %d: heap in use grew by %d KB at most (limit %d KB)", workers, grew>>10, limit>>10)
		if grew > limit {
			t.Errorf("workers %d: heap in use grew by %d KB while loading, want under %d KB", workers, grew>>10, limit>>10)
		}
		db.Close()
	}
}
