package serve

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jsonpipe/json/internal/loader"
	"github.com/jsonpipe/json/internal/pgtest"
	"github.com/jsonpipe/json/postgres"
	"github.com/jsonpipe/json/sqlite"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

// fixture is the rows of the table "items", keyed by id, and of "notes",
// which has no primary key.
func fixture() (items, notes string) {
	var b strings.Builder
	for i := 1; i <= 25; i++ {
		fmt.Fprintf(&b, `{"id":%d,"title":"item %d","kind":"%s","tags":["t%d"],"n":%d.5}`+"\n", i, i, []string{"even", "odd"}[i%2], i, i)
	}
	return b.String(), `{"body":"first"}` + "\n" + `{"body":"second"}` + "\n"
}

// db is a test database: where it is, and how to load it.
type db struct {
	name string // "sqlite" or "postgres"
	url  string // the file path or the URL
}

func (d db) pg() bool { return d.name == "postgres" }

func (d db) load(t testing.TB, table, rows string, pk ...string) {
	t.Helper()
	opts := &loader.Options{PrimaryKey: pk}
	var err error
	if d.pg() {
		_, err = postgres.InsertURL(context.Background(), d.url, table, strings.NewReader(rows), opts)
	} else {
		_, err = sqlite.InsertPath(context.Background(), d.url, table, strings.NewReader(rows), opts)
	}
	if err != nil {
		t.Fatalf("loading %s: %v", table, err)
	}
}

func sqliteDB(t testing.TB) db {
	return db{name: "sqlite", url: filepath.Join(t.TempDir(), "test.db")}
}

func postgresDB(t testing.TB) db {
	return db{name: "postgres", url: pgtest.Schema(t)}
}

// fixtureDB is d loaded with the fixture.
func fixtureDB(t testing.TB, d db) db {
	items, notes := fixture()
	d.load(t, "items", items, "id")
	d.load(t, "notes", notes)
	return d
}

// start serves d with opts on a real server.
func start(t testing.TB, d db, opts Options) (*Server, *httptest.Server) {
	t.Helper()
	s, err := Open(context.Background(), d.url, opts)
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(s)
	t.Cleanup(func() {
		hs.Close()
		s.Close()
	})
	return s, hs
}

// response is an answer read in full.
type response struct {
	status int
	header http.Header
	body   string
}

func (r response) String() string { return fmt.Sprintf("%d %s", r.status, r.body) }

// do sends a request; header holds "Name: value" strings.
func do(t testing.TB, c *http.Client, method, url, body string, header ...string) response {
	t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, url, rd)
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range header {
		k, v, _ := strings.Cut(h, ": ")
		req.Header.Set(k, v)
	}
	if c == nil {
		c = http.DefaultClient
	}
	res, err := c.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, url, err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatalf("%s %s: reading the body: %v", method, url, err)
	}
	return response{res.StatusCode, res.Header, string(b)}
}

// rows decodes a JSON array of objects, or NDJSON.
func rows(t testing.TB, body string) []map[string]any {
	t.Helper()
	dec := json.NewDecoder(strings.NewReader(body))
	dec.UseNumber()
	var out []map[string]any
	if strings.HasPrefix(body, "[") {
		if err := dec.Decode(&out); err != nil {
			t.Fatalf("not a JSON array of objects: %v\n%s", err, body)
		}
		return out
	}
	for dec.More() {
		var m map[string]any
		if err := dec.Decode(&m); err != nil {
			t.Fatalf("not NDJSON: %v\n%s", err, body)
		}
		out = append(out, m)
	}
	return out
}

// wantError checks an error answer: status, JSON content type, and a
// message containing each of the words.
func wantError(t testing.TB, r response, status int, words ...string) {
	t.Helper()
	if r.status != status {
		t.Fatalf("got %v, want status %d", r, status)
	}
	if ct := r.header.Get("Content-Type"); ct != "application/json" {
		t.Errorf("error with Content-Type %q", ct)
	}
	var e struct {
		Error string `json:"error"`
	}
	if err := json.Unmarshal([]byte(r.body), &e); err != nil || e.Error == "" {
		t.Fatalf("error body is not {\"error\": ...}: %q", r.body)
	}
	for _, w := range words {
		if !strings.Contains(e.Error, w) {
			t.Errorf("error %q does not say %q", e.Error, w)
		}
	}
}

func ids(t testing.TB, rs []map[string]any) string {
	var b bytes.Buffer
	for i, r := range rs {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprint(&b, r["id"])
	}
	return b.String()
}
