package postgres

import (
	"crypto/md5"
	stdjson "encoding/json"
	"errors"
	"fmt"
	"io"
	"runtime"
	"strings"
	"testing"
	"unicode/utf8"

	json "github.com/jsonpipe/json"
	"github.com/jsonpipe/json/internal/corpus"
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

// A string far longer than the decoder's window is streamed into chunks
// and sent from them: the load allocates about the string's size once (the
// window stays at a few megabytes), not the window's growth to the string
// plus an unescaped copy. Its value arrives whole and exact, into a text
// column from its chunks, and into jsonb and through COPY's text format
// from one copy; with one connection and with two.
func TestHugeStringStreamed(t *testing.T) {
	if testing.Short() {
		t.Skip("loads a 48 MB string")
	}
	body, want := corpus.LongString(48 << 20)
	sum := fmt.Sprintf("%x", md5.Sum([]byte(want)))
	jbody := strings.Repeat(corpus.LongStringUnit, (2<<20)/len(corpus.LongStringUnit))
	for _, tc := range []struct {
		name, create, at string
		conns            int
	}{
		{"binary", "CREATE TABLE t (id bigint, s text, j jsonb)", "", 1},
		// A timestamptz column makes the COPY text format.
		{"text format", "CREATE TABLE t (id bigint, s text, j jsonb, at timestamptz)", `,"at":"2024-01-01 00:00:00Z"`, 1},
		{"two connections", "CREATE TABLE t (id bigint, s text, j jsonb)", "", 2},
	} {
		in := ndjson(`{"id":1,"s":"short","j":"x"`+tc.at+`}`, `{"id":2,"s":"`+body+`","j":"`+jbody+`"`+tc.at+`}`, `{"id":3,"s":"after","j":"y"`+tc.at+`}`)
		t.Run(tc.name, func(t *testing.T) {
			c := pgtest.Conn(t)
			if _, err := c.Exec(bg, tc.create); err != nil {
				t.Fatal(err)
			}
			var ms runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&ms)
			before := ms.TotalAlloc
			res, err := Insert(bg, c, "t", strings.NewReader(in), &Options{BatchSize: 1, Connections: tc.conns})
			runtime.ReadMemStats(&ms)
			alloc := ms.TotalAlloc - before
			if err != nil || res.Rows != 3 {
				t.Fatalf("%+v %v", res, err)
			}
			var n int
			var got, jsum string
			if err := c.QueryRow(bg, "SELECT length(s), md5(s), md5(j #>> '{}') FROM t WHERE id = 2").Scan(&n, &got, &jsum); err != nil {
				t.Fatal(err)
			}
			if n != utf8.RuneCountInString(want) || got != sum {
				t.Errorf("stored %d characters, md5 %s; want %d, %s", n, got, utf8.RuneCountInString(want), sum)
			}
			var j string
			stdjson.Unmarshal([]byte(`"`+jbody+`"`), &j)
			if jwant := fmt.Sprintf("%x", md5.Sum([]byte(j))); jsum != jwant {
				t.Errorf("jsonb md5 %s, want %s", jsum, jwant)
			}
			t.Logf("allocated %d MB for a %d MB string", alloc>>20, len(want)>>20)
			// One copy of the value, in chunks, and a few megabytes (the
			// window, pgx's buffers, the jsonb value); in the text format,
			// and over two connections (a batch's COPY data is kept until
			// it commits), one copy more. Held whole, it cost 189 MB.
			limit := uint64(len(want))*5/4 + 16<<20
			if tc.at != "" || tc.conns > 1 {
				limit += uint64(len(want))
			}
			if alloc > limit {
				t.Errorf("allocated %d MB, want under %d MB", alloc>>20, limit>>20)
			}
		})
	}
}

// A streamed string still stops at MaxValueSize, as soon as it passes it,
// with its row and the offset where it starts; a streamed key is refused.
func TestHugeStringStreamedLimits(t *testing.T) {
	big := strings.Repeat("y", 5<<20)
	c := pgtest.Conn(t)
	in := ndjson(`{"s":"a"}`, `{"s":"`+big+`"}`)
	res, err := load(t, c, "t", in, &Options{MaxValueSize: 3 << 20, BatchSize: 1, InferRows: 1})
	var re *RowError
	if !errors.As(err, &re) || re.Row != 2 || re.Offset != int64(strings.Index(in, `"y`)) || !errors.Is(err, json.ErrTokenTooLong) || res.Rows != 1 {
		t.Errorf("err %v (offset %d), %+v", err, re.Offset, res)
	}
	c2 := pgtest.Conn(t)
	_, err = load(t, c2, "t", ndjson(`{"s":"a"}`, `{"`+big+`":1}`), &Options{Alter: true, InferRows: 1})
	if !errors.As(err, &re) || re.Row != 2 || !strings.Contains(err.Error(), "longer than PostgreSQL's 63-byte limit") {
		t.Errorf("long key: %v", err)
	}
}

// A long string inside a nested value is captured with the value, not
// streamed; a long string after it still is, into chunks of its own.
func TestHugeStringInNestedValue(t *testing.T) {
	inner := strings.Repeat("n", 3<<20)
	after := strings.Repeat("a", 3<<20)
	c := pgtest.Conn(t)
	in := ndjson(`{"j":{"x":"`+inner+`"},"s":"`+after+`"}`, `{"j":[1],"s":"`+after[:10]+`"}`)
	if res := mustLoad(t, c, "t", in, &Options{InferRows: 1}); res.Rows != 2 {
		t.Fatalf("%+v", res)
	}
	var x, s int
	if err := c.QueryRow(bg, `SELECT length(j->>'x'), length(s) FROM t WHERE j ? 'x'`).Scan(&x, &s); err != nil || x != len(inner) || s != len(after) {
		t.Errorf("lengths %d %d, %v", x, s, err)
	}
}
