//go:build !race

package serve

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"
)

// recorder is a ResponseWriter used again and again, so that what
// testing.AllocsPerRun counts is the handler's, not the recorder's.
type recorder struct {
	h      http.Header
	status int
	body   bytes.Buffer
}

func (r *recorder) Header() http.Header { return r.h }
func (r *recorder) WriteHeader(status int) {
	if r.status == 0 {
		r.status = status
	}
}
func (r *recorder) Write(p []byte) (int, error) {
	if r.status == 0 {
		r.status = http.StatusOK
	}
	return r.body.Write(p)
}

// SetWriteDeadline is http.ResponseController's, as net/http's own
// ResponseWriter has it (without it, each call makes an error).
func (r *recorder) SetWriteDeadline(time.Time) error { return nil }

func (r *recorder) reset() {
	clear(r.h)
	r.status = 0
	r.body.Reset()
}

// TestAllocs pins the allocations of the two single-row reads through the
// handler, on SQLite: GET /items?_limit=1 (with its Link to the next page)
// and GET /items/{id}. Each allocation is per request on the paths
// benchmarks/serve.sh times; the database driver's count too (go-sqlite3's
// values, database/sql's Conn and converted arguments). Before the cuts:
// 78 and 38. Not under the race detector, which allocates.
func TestAllocs(t *testing.T) {
	if testing.Short() {
		t.Skip("allocation counts")
	}
	s, _ := start(t, fixtureDB(t, sqliteDB(t)), Options{})
	for _, c := range []struct {
		path, body, link string
		max              float64
	}{
		{"/items?_limit=1", `[{"id":1,"title":"item 1","kind":"odd","tags":["t1"],"n":1.5}]` + "\n", `</items?_after=1&_limit=1>; rel="next"`, 28},
		{"/items/7", `{"id":7,"title":"item 7","kind":"odd","tags":["t7"],"n":7.5}` + "\n", "", 19},
	} {
		req := httptest.NewRequest("GET", c.path, nil)
		w := &recorder{h: http.Header{}}
		run := func() {
			w.reset()
			s.ServeHTTP(w, req)
		}
		run()
		if w.status != http.StatusOK || w.body.String() != c.body || w.h.Get("Link") != c.link {
			t.Fatalf("GET %s: %d %q, Link %q; want 200 %q, Link %q", c.path, w.status, w.body.String(), w.h.Get("Link"), c.body, c.link)
		}
		got := testing.AllocsPerRun(200, run)
		t.Logf("GET %s: %.1f allocations", c.path, got)
		if got > c.max {
			t.Errorf("GET %s: %.1f allocations a request, want at most %v", c.path, got, c.max)
		}
	}
}
