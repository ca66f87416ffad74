package sqlite

import (
	"context"
	stdjson "encoding/json"
	"io"
	"runtime"
	"runtime/metrics"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jsonpipe/json/internal/corpus"
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

// Memory stays flat whatever the input size: the Go heap live while
// loading 300,000 rows stays under a few megabytes (SQLite's page cache is
// C memory and not counted; it is bounded by SQLite's cache_size), plus,
// with workers, the 2×Workers+2 chunks of 256 KiB in flight and their rows
// as values.
//
// What is live is what a forced collection marked (/gc/heap/live:bytes),
// read at each batch's Progress: the heap in use read after it also
// counted what the running workers allocated between the collection and
// the reading, which on a loaded machine (CI: 13 MB here, once 24.7 MB)
// made the figure a measure of scheduling, not of what the load holds.
func TestFlatMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("loads 300,000 rows")
	}
	live := func() uint64 {
		runtime.GC()
		s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
		metrics.Read(s)
		return s[0].Value.Uint64()
	}
	for _, workers := range []int{1, 2, 4} {
		db := openDB(t)
		var peak uint64
		base := live()
		res, err := Insert(context.Background(), db, "t", &tasksReader{n: 300000}, &Options{
			BatchSize: 25000, Alter: true, Workers: workers,
			Progress: func(Progress) {
				peak = max(peak, live())
			},
		})
		if err != nil || res.Rows != 300000 {
			t.Fatalf("%+v %v", res, err)
		}
		grew := int64(peak) - int64(base)
		limit := int64(4<<20) + int64(2*workers+2)*(2<<20)
		t.Logf("workers %d: live heap grew by %d KB at most (limit %d KB)", workers, grew>>10, limit>>10)
		if grew > limit {
			t.Errorf("workers %d: live heap grew by %d KB while loading, want under %d KB", workers, grew>>10, limit>>10)
		}
		db.Close()
	}
}

// A string far longer than the decoder's window is streamed onto the
// inserter's text rather than held by the decoder and copied: it arrives
// exact, and the load allocates less than before (the window's growth to
// the string is gone; go-sqlite3 and SQLite still copy it to store it).
func TestHugeStringStreamed(t *testing.T) {
	if testing.Short() {
		t.Skip("loads a 24 MB string")
	}
	body, want := corpus.LongString(24 << 20)
	in := `{"id":1,"s":"a"}` + "\n" + `{"id":2,"s":"` + body + `"}` + "\n" + `{"id":3,"s":"b"}` + "\n"
	// With two workers the long line goes to the serial decoder, which
	// streams too.
	db2 := openDB(t)
	load(t, db2, "t", strings.Repeat(`{"id":0,"s":"w"}`+"\n", 500)+in, &Options{InferRows: 1, Workers: 2})
	var got string
	if err := db2.QueryRow("SELECT s FROM t WHERE id = 2").Scan(&got); err != nil || got != want {
		t.Fatalf("workers: stored %d bytes (%v), want %d", len(got), err, len(want))
	}
	// A streamed key is a key like any other (SQLite takes any name): with
	// Alter it becomes a column, as it did when the decoder held it whole.
	key := body[:2<<20]
	key = key[:strings.LastIndex(key, corpus.LongStringUnit)]
	var name string
	if err := stdjson.Unmarshal([]byte(`"`+key+`"`), &name); err != nil {
		t.Fatal(err)
	}
	db3 := openDB(t)
	load(t, db3, "t", `{"a":1}`+"\n"+`{"`+key+`":7}`+"\n", &Options{Alter: true, InferRows: 1})
	var v int
	if err := db3.QueryRow(`SELECT ` + quoteIdent(name) + ` FROM t WHERE a IS NULL`).Scan(&v); err != nil || v != 7 {
		t.Errorf("long key: %d, %v", v, err)
	}

	db := openDB(t)
	peak := peakHeap(func() {
		if res := load(t, db, "t", in, &Options{InferRows: 1}); res.Rows != 3 {
			t.Fatalf("%+v", res)
		}
	})
	if err := db.QueryRow("SELECT s FROM t WHERE id = 2").Scan(&got); err != nil || got != want {
		t.Fatalf("stored %d bytes (%v), want %d", len(got), err, len(want))
	}
	t.Logf("Go heap peaked %d MB above its start for a %d MB string", peak>>20, len(want)>>20)
	// The text, which grows by append (old and new while it copies
	// itself over, about 2.25 times the string at the last step); go-sqlite3
	// copies it into C memory and SQLite into its record, outside the Go
	// heap. Held by the decoder's window first, it was over 3 times.
	if limit := uint64(len(want)) * 5 / 2; peak > limit {
		t.Errorf("Go heap peaked %d MB above its start, want under %d MB", peak>>20, limit>>20)
	}
}

// peakHeap runs f and returns how far the Go heap's live objects rose
// above where they started, sampled every millisecond.
func peakHeap(f func()) uint64 {
	runtime.GC()
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(sample)
	base := sample[0].Value.Uint64()
	var peak atomic.Uint64
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
		for {
			metrics.Read(s)
			if v := s[0].Value.Uint64(); v > base && v-base > peak.Load() {
				peak.Store(v - base)
			}
			select {
			case <-stop:
				return
			case <-time.After(time.Millisecond):
			}
		}
	}()
	f()
	close(stop)
	<-done
	return peak.Load()
}
