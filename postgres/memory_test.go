package postgres

import (
	"io"
	"runtime"
	"testing"

	"github.com/jsonpipe/json/internal/pgtest"
)

// tasksReader produces n rows of NDJSON on the fly, so the input itself
// takes no memory.
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
// loading 300,000 rows grows by under a few megabytes (the row offsets of
// one batch, 8 bytes a row, are most of it), plus, with workers, the
// 2×Workers+2 chunks of 256 KiB in flight and their rows in COPY's format,
// and, over several connections, the COPY data of up to Connections+1
// batches (25,000 rows of about 70 bytes: under 2 MiB each).
func TestFlatMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("loads 300,000 rows")
	}
	for _, tc := range []struct{ workers, conns int }{{1, 1}, {2, 1}, {4, 1}, {1, 2}, {2, 4}} {
		c := pgtest.Conn(t)
		var peak uint64
		var ms runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&ms)
		base := ms.HeapInuse
		res, err := Insert(bg, c, "t", &tasksReader{n: 300000}, &Options{
			BatchSize: 25000, Conflict: Ignore, Workers: tc.workers, Connections: tc.conns,
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
		limit := int64(4<<20) + int64(2*tc.workers+2)*(1<<20)
		if tc.conns > 1 {
			limit += int64(tc.conns+1) * (2 << 20)
		}
		t.Logf("workers %d, connections %d: heap in use grew by %d KB at most (limit %d KB)", tc.workers, tc.conns, grew>>10, limit>>10)
		if grew > limit {
			t.Errorf("workers %d, connections %d: heap in use grew by %d KB while loading, want under %d KB", tc.workers, tc.conns, grew>>10, limit>>10)
		}
	}
}
