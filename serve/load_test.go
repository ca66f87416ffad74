package serve

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jsonpipe/json/sqlite"
)

// bigTable makes table big of n rows of about 80 bytes of JSON each.
func bigTable(t testing.TB, path string, n int) {
	t.Helper()
	db, err := sqlite.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	_, err = db.Exec(`CREATE TABLE big (id INTEGER PRIMARY KEY, title TEXT, n REAL);
		WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < ?)
		INSERT INTO big SELECT x, 'row number ' || x || ' with some padding', x * 0.5 FROM c`, n)
	if err != nil {
		t.Fatal(err)
	}
}

// pgBigTable is bigTable in PostgreSQL.
func pgBigTable(t testing.TB, url string, n int) {
	t.Helper()
	ctx := context.Background()
	c, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close(ctx)
	_, err = c.Exec(ctx, `CREATE TABLE big (id bigint PRIMARY KEY, title text, n double precision);
		INSERT INTO big SELECT x, 'row number ' || x || ' with some padding', x * 0.5 FROM generate_series(1, `+fmt.Sprint(n)+`) x`)
	if err != nil {
		t.Fatal(err)
	}
}

// waitStreams waits up to d for the server's streams to end.
func waitStreams(s *Server, d time.Duration) bool {
	for end := time.Now().Add(d); time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
		if s.streaming.Load() == 0 {
			return true
		}
	}
	return false
}

func TestConcurrentClients(t *testing.T) {
	forEachDB(t, func(t *testing.T, d db) {
		_, hs := start(t, fixtureDB(t, d), Options{})
		client := &http.Client{Transport: &http.Transport{MaxConnsPerHost: 200, MaxIdleConnsPerHost: 200}}
		defer client.CloseIdleConnections()
		const clients = 1000
		var wg sync.WaitGroup
		var bad atomic.Int64
		errs := make(chan string, clients)
		for i := range clients {
			wg.Add(1)
			go func() {
				defer wg.Done()
				id := i%25 + 1
				var path, want string
				switch i % 3 {
				case 0:
					path, want = fmt.Sprintf("/items/%d?_fields=id", id), fmt.Sprintf(`{"id":%d}`+"\n", id)
				case 1:
					path, want = fmt.Sprintf("/items?title=item+%d&_fields=id,title", id), fmt.Sprintf(`[{"id":%d,"title":"item %d"}]`+"\n", id, id)
				default:
					path = fmt.Sprintf("/items?_after=%d&_limit=2&_fields=id&_nl=1", id)
					want = map[bool]string{true: fmt.Sprintf("{\"id\":%d}\n{\"id\":%d}\n", id+1, id+2), false: fmt.Sprintf("{\"id\":%d}\n", id+1)}[id < 24]
					if id == 25 {
						want = ""
					}
				}
				res, err := client.Get(hs.URL + path)
				if err != nil {
					bad.Add(1)
					errs <- err.Error()
					return
				}
				body, err := io.ReadAll(res.Body)
				res.Body.Close()
				if err != nil || res.StatusCode != 200 || string(body) != want {
					bad.Add(1)
					errs <- fmt.Sprintf("%s: %d %q (%v), want %q", path, res.StatusCode, body, err, want)
				}
			}()
		}
		wg.Wait()
		close(errs)
		if n := bad.Load(); n > 0 {
			t.Errorf("%d of %d answers wrong; first: %s", n, clients, <-errs)
		}
	})
}

// TestSlowClient: a client that reads a byte a second holds a stream
// only until a write has waited for the write timeout; others are
// answered meanwhile.
func TestSlowClient(t *testing.T) {
	d := sqliteDB(t)
	bigTable(t, d.url, 300_000) // ~25 MB of JSON, more than the sockets buffer
	d.load(t, "items", "{\"id\":1}\n", "id")
	s, hs := start(t, d, Options{})
	s.writeTimeout = time.Second

	conn, err := net.Dial("tcp", hs.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	conn.(*net.TCPConn).SetReadBuffer(4096)
	fmt.Fprintf(conn, "GET /big HTTP/1.1\r\nHost: x\r\n\r\n")
	stop := make(chan struct{})
	defer close(stop)
	go func() {
		one := make([]byte, 1)
		for {
			select {
			case <-stop:
				return
			case <-time.After(time.Second):
			}
			if _, err := conn.Read(one); err != nil {
				return
			}
		}
	}()
	for end := time.Now().Add(5 * time.Second); s.streaming.Load() == 0; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(end) {
			t.Fatal("the slow client's stream never started")
		}
	}
	for i := range 20 {
		start := time.Now()
		r := do(t, nil, "GET", hs.URL+"/items/1", "")
		if r.body != `{"id":1}`+"\n" {
			t.Fatalf("while a client is slow: %v", r)
		}
		if el := time.Since(start); el > 2*time.Second {
			t.Fatalf("request %d took %v while a client is slow", i, el)
		}
	}
	if !waitStreams(s, 20*time.Second) {
		t.Fatal("the slow client's stream did not end at its write deadline")
	}
}

// TestClientGoesAway: a client that closes its connection mid-stream ends
// the stream (its query stopped by the request's context, or its next
// write failing), long before any write deadline.
func TestClientGoesAway(t *testing.T) {
	forEachDB(t, func(t *testing.T, d db) {
		if d.pg() {
			pgBigTable(t, d.url, 300_000)
		} else {
			bigTable(t, d.url, 300_000)
		}
		s, hs := start(t, d, Options{})
		s.writeTimeout = time.Minute
		ctx, cancel := context.WithCancel(context.Background())
		req, _ := http.NewRequestWithContext(ctx, "GET", hs.URL+"/big", nil)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		br := bufio.NewReader(res.Body)
		line, err := br.ReadString('\n')
		if err != nil || !strings.HasPrefix(line, `[{"id":1,`) {
			t.Fatalf("first line %q, %v", line, err)
		}
		time.Sleep(300 * time.Millisecond)
		if s.streaming.Load() == 0 {
			t.Fatal("the stream ended before the client went away: the table is too small to show anything")
		}
		cancel()
		res.Body.Close()
		if !waitStreams(s, 10*time.Second) {
			t.Fatal("the stream went on after the client went away")
		}
	})
}

// TestMemoryFlat streams a large table and samples the heap meanwhile: it
// must stay within a bound that does not depend on the table's size.
func TestMemoryFlat(t *testing.T) {
	if testing.Short() {
		t.Skip("streams a table of millions of rows")
	}
	const rows = 10_000_000
	d := sqliteDB(t)
	start0 := time.Now()
	bigTable(t, d.url, rows)
	t.Logf("%d rows made in %v", rows, time.Since(start0))
	_, hs := start(t, d, Options{})

	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	base := ms.HeapAlloc
	var peak atomic.Uint64
	done := make(chan struct{})
	go func() {
		var ms runtime.MemStats
		for {
			select {
			case <-done:
				return
			case <-time.After(50 * time.Millisecond):
			}
			runtime.ReadMemStats(&ms)
			if ms.HeapAlloc > peak.Load() {
				peak.Store(ms.HeapAlloc)
			}
		}
	}()
	start1 := time.Now()
	for _, q := range []string{"", "?_nl=1"} {
		res, err := http.Get(hs.URL + "/big" + q)
		if err != nil {
			t.Fatal(err)
		}
		var n, lines int64
		buf := make([]byte, 64<<10)
		var last []byte
		for {
			k, err := res.Body.Read(buf)
			n += int64(k)
			lines += int64(bytes.Count(buf[:k], []byte{'\n'}))
			if k > 0 {
				last = append(last[:0], buf[max(0, k-60):k]...)
			}
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
		}
		res.Body.Close()
		if lines != rows {
			t.Fatalf("%s: %d lines, want %d", q, lines, rows)
		}
		if !bytes.Contains(last, []byte(fmt.Sprintf(`number %d with`, rows))) {
			t.Fatalf("%s: ends %q", q, last)
		}
		t.Logf("%s: %d MB streamed", q, n>>20)
	}
	close(done)
	growth := int64(peak.Load()) - int64(base)
	t.Logf("streamed twice in %v; heap %d MB before, peak %d MB (+%d MB)", time.Since(start1), base>>20, peak.Load()>>20, growth>>20)
	if growth > 32<<20 {
		t.Fatalf("the heap grew by %d MB while streaming", growth>>20)
	}
}
