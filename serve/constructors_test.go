package serve

import (
	"context"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/jsonpipe/json/sqlite"
)

// TestNew serves a *sql.DB the caller opened, which Close leaves open,
// and switches the file to WAL mode.
func TestNew(t *testing.T) {
	d := fixtureDB(t, sqliteDB(t))
	db, err := sqlite.Open(d.url)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	s, err := New(db, Options{Write: true})
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(s)
	defer hs.Close()
	if r := do(t, nil, "POST", hs.URL+"/items", `[{"id":90}]`); r.status != 201 {
		t.Fatalf("POST: %v", r)
	}
	if r := do(t, nil, "GET", hs.URL+"/items/90?_fields=id", ""); r.body != `{"id":90}`+"\n" {
		t.Fatalf("GET: %v", r)
	}
	var mode string
	if err := db.QueryRow("PRAGMA journal_mode").Scan(&mode); err != nil || mode != "wal" {
		t.Fatalf("journal mode %q, %v", mode, err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if err := db.Ping(); err != nil {
		t.Fatalf("Close closed the caller's db: %v", err)
	}
}

// TestOpenSQLite: WAL, and readers that cannot write.
func TestOpenSQLite(t *testing.T) {
	d := fixtureDB(t, sqliteDB(t))
	s, err := Open(t.Context(), d.url, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	b := s.db.(*sqliteBackend)
	var mode string
	if err := b.read.QueryRow("PRAGMA journal_mode").Scan(&mode); err != nil || mode != "wal" {
		t.Fatalf("journal mode %q, %v", mode, err)
	}
	if _, err := b.read.Exec("DELETE FROM items"); err == nil {
		t.Fatal("a reader connection could write")
	}
	if st := b.write.Stats(); st.MaxOpenConnections != 1 {
		t.Fatalf("writer pool of %d", st.MaxOpenConnections)
	}
	if _, err := Open(t.Context(), d.url+".missing", Options{}); err == nil {
		t.Fatal("Open made a database")
	}
}

func TestNewPostgres(t *testing.T) {
	d := fixtureDB(t, postgresDB(t))
	pool, err := pgxpool.New(context.Background(), d.url)
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	s, err := NewPostgres(pool, Options{Tables: []string{"items"}})
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(s)
	defer hs.Close()
	if r := do(t, nil, "GET", hs.URL+"/", ""); r.body != `[{"table":"items","rows":25}]`+"\n" {
		t.Fatalf("GET /: %v", r)
	}
	s.Close()
	if err := pool.Ping(context.Background()); err != nil {
		t.Fatalf("Close closed the caller's pool: %v", err)
	}
}

// TestShapes: one statement per shape, whatever the values; HEAD as GET
// without the body.
func TestShapes(t *testing.T) {
	s, hs := start(t, fixtureDB(t, sqliteDB(t)), Options{})
	for i := range 20 {
		do(t, nil, "GET", hs.URL+"/items?kind=odd&title=item+"+strings.Repeat("1", i%3+1)+"&_limit=3", "")
		do(t, nil, "GET", hs.URL+"/items?title=x&kind=odd&_limit=9", "") // the same shape, parameters reordered
	}
	if n := len(s.stmts.m); n != 1 {
		t.Fatalf("%d statements cached for one shape", n)
	}
	r := do(t, nil, "HEAD", hs.URL+"/items", "")
	if r.status != 200 || r.body != "" || r.header.Get("Content-Type") != "application/json" {
		t.Fatalf("HEAD: %v", r)
	}
}
