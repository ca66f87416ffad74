package sqlite

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	sqlite3 "github.com/mattn/go-sqlite3"
)

// openDB opens a fresh database file in a test directory.
func openDB(t testing.TB) *sql.DB {
	t.Helper()
	// Tests need no durability: skip the fsyncs.
	db, err := sql.Open("sqlite3", filepath.Join(t.TempDir(), "test.db")+"?_sync=OFF")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

func mkdir(d string) error { return os.MkdirAll(d, 0o755) }

// load inserts in into table and fails the test on error.
func load(t testing.TB, db *sql.DB, table, in string, opts *Options) Result {
	t.Helper()
	res, err := Insert(context.Background(), db, table, strings.NewReader(in), opts)
	if err != nil {
		t.Fatalf("Insert: %v", err)
	}
	return res
}

// dump returns the rows of q as NDJSON.
func dump(t testing.TB, db *sql.DB, q string, args ...any) string {
	t.Helper()
	var b bytes.Buffer
	if _, err := WriteQuery(context.Background(), db, &b, Lines, q, args...); err != nil {
		t.Fatalf("WriteQuery(%s): %v", q, err)
	}
	return b.String()
}

func count(t testing.TB, db *sql.DB, table string) int64 {
	t.Helper()
	var n int64
	err := db.QueryRow("SELECT count(*) FROM " + quoteIdent(table)).Scan(&n)
	if err != nil && !strings.Contains(err.Error(), "no such table") {
		t.Fatal(err)
	}
	return n
}

// schema returns the table's CREATE statement.
func schema(t testing.TB, db *sql.DB, table string) string {
	t.Helper()
	var s string
	if err := db.QueryRow("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?", table).Scan(&s); err != nil {
		t.Fatalf("schema of %s: %v", table, err)
	}
	return s
}

// columnTypes returns "name TYPE" for each column of table.
func columnTypes(t testing.TB, db *sql.DB, table string) []string {
	t.Helper()
	rows, err := db.Query("SELECT name, type FROM pragma_table_info(?)", table)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var n, ty string
		rows.Scan(&n, &ty)
		out = append(out, n+" "+ty)
	}
	return out
}

// failingReader returns data, then err.
type failingReader struct {
	data []byte
	err  error
}

func (f *failingReader) Read(p []byte) (int, error) {
	if len(f.data) == 0 {
		return 0, f.err
	}
	n := copy(p, f.data)
	f.data = f.data[n:]
	return n, nil
}

var errBoom = errors.New("boom: disk on fire")

// denyTx makes SQLite refuse to run q ("COMMIT" or "ROLLBACK") on db's
// connection, with SQLITE_AUTH, or allows everything again when q is "".
// db must hold one connection (SetMaxOpenConns(1)), so that Insert gets it.
func denyTx(t testing.TB, db *sql.DB, q string) {
	t.Helper()
	conn, err := db.Conn(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	err = conn.Raw(func(dc any) error {
		c := dc.(*sqlite3.SQLiteConn)
		if q == "" {
			c.RegisterAuthorizer(nil)
			return nil
		}
		c.RegisterAuthorizer(func(op int, arg1, _, _ string) int {
			if op == sqlite3.SQLITE_TRANSACTION && arg1 == q {
				return sqlite3.SQLITE_DENY
			}
			return sqlite3.SQLITE_OK
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// writeTasks writes n rows of the tasks benchmark data: rows alternating
// {"title":"Clean Room","done":false} and {"title":"Check Twitter","done":true},
// as a JSON array with one row per line, or as NDJSON.
func writeTasks(w io.Writer, n int, lines bool) {
	rows := [2]string{`{"title":"Clean Room","done":false}`, `{"title":"Check Twitter","done":true}`}
	var b bytes.Buffer
	if !lines {
		b.WriteString("[\n")
	}
	for i := 0; i < n; i++ {
		b.WriteString(rows[i&1])
		if !lines && i < n-1 {
			b.WriteByte(',')
		}
		b.WriteByte('\n')
		if b.Len() > 1<<16 {
			w.Write(b.Bytes())
			b.Reset()
		}
	}
	if !lines {
		b.WriteString("]\n")
	}
	w.Write(b.Bytes())
}

func tasksJSON(n int, lines bool) []byte {
	var b bytes.Buffer
	writeTasks(&b, n, lines)
	return b.Bytes()
}

// ndjson joins rows with newlines.
func ndjson(rows ...string) string { return strings.Join(rows, "\n") + "\n" }

func rowsOf(n int, f func(i int) string) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		fmt.Fprintln(&b, f(i))
	}
	return b.String()
}
