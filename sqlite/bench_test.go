package sqlite

import (
	"bytes"
	"context"
	"database/sql"
	"database/sql/driver"
	stdjson "encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jsonpipe/json/internal/loader"
	"github.com/jsonpipe/json/internal/widerows"
	sqlite3 "github.com/mattn/go-sqlite3"
)

// The tasks benchmark: rows alternating {"title":"Clean Room","done":false}
// and {"title":"Check Twitter","done":true}, loaded into
// tasks (id INTEGER PRIMARY KEY, title TEXT NOT NULL, done INTEGER) in one
// transaction, into a database file with SQLite's default settings.
//
// Each implementation is a function from the input to a database holding
// the rows; the test checks they agree and the benchmark times them.

const tasksDDL = "CREATE TABLE tasks (id INTEGER PRIMARY KEY, title TEXT NOT NULL, done INTEGER)"

type tasksImpl struct {
	name string
	load func(db *sql.DB, in []byte, n int) error
}

var tasksImpls = []tasksImpl{
	{"jsonpipe", loadJSONPipe},
	{"jsonpipe_serial", loadJSONPipeSerial},
	{"encodingjson_sql", loadEncodingJSONSQL},
	{"go_floor", loadGoFloor},
}

// jsonpipe: this package, with its defaults (the table exists).
func loadJSONPipe(db *sql.DB, in []byte, n int) error {
	res, err := Insert(context.Background(), db, "tasks", bytes.NewReader(in), nil)
	if err == nil && res.Rows != int64(n) {
		err = fmt.Errorf("inserted %d rows, want %d", res.Rows, n)
	}
	return err
}

// jsonpipe_serial: the same, decoding and executing statements on one
// goroutine (what Insert does when GOMAXPROCS is 1).
func loadJSONPipeSerial(db *sql.DB, in []byte, n int) error {
	res, err := Insert(context.Background(), db, "tasks", bytes.NewReader(in), loader.Tune(&Options{}, loader.Tuning{Serial: true}))
	if err == nil && res.Rows != int64(n) {
		err = fmt.Errorf("inserted %d rows, want %d", res.Rows, n)
	}
	return err
}

// encodingjson_sql: what a Go user writes today: encoding/json's Decoder,
// one Decode per element, and a database/sql prepared statement in one
// transaction.
func loadEncodingJSONSQL(db *sql.DB, in []byte, n int) error {
	type task struct {
		Title string `json:"title"`
		Done  bool   `json:"done"`
	}
	tx, err := db.Begin()
	if err != nil {
		return err
	}
	defer tx.Rollback()
	st, err := tx.Prepare("INSERT INTO tasks (title, done) VALUES (?, ?)")
	if err != nil {
		return err
	}
	defer st.Close()
	dec := stdjson.NewDecoder(bytes.NewReader(in))
	if _, err := dec.Token(); err != nil {
		return err
	}
	for dec.More() {
		var t task
		if err := dec.Decode(&t); err != nil {
			return err
		}
		if _, err := st.Exec(t.Title, t.Done); err != nil {
			return err
		}
	}
	return tx.Commit()
}

// go_floor: no JSON at all. The same rows, built in memory beforehand as
// the driver values go-sqlite3 binds, inserted by the fastest loop found
// for go-sqlite3: a 128-row statement run through its single-crossing
// bind-and-step path on the raw connection, in one transaction.
func loadGoFloor(db *sql.DB, _ []byte, n int) error {
	const per = 128
	titles := [2]driver.Value{"Clean Room", "Check Twitter"}
	dones := [2]driver.Value{int64(0), int64(1)}
	args := make([]driver.NamedValue, 2*per)
	for i := range args {
		args[i].Ordinal = i + 1
		args[i].Value = titles[i/2&1]
		if i&1 == 1 {
			args[i].Value = dones[i/2&1]
		}
	}
	conn, err := db.Conn(context.Background())
	if err != nil {
		return err
	}
	defer conn.Close()
	return conn.Raw(func(dc any) error {
		c := dc.(*sqlite3.SQLiteConn)
		prep := func(k int) (*sqlite3.SQLiteStmt, error) {
			q := "INSERT INTO tasks (title, done) VALUES " + strings.Repeat("(?, ?), ", k-1) + "(?, ?)"
			st, err := c.Prepare(q)
			if err != nil {
				return nil, err
			}
			return st.(*sqlite3.SQLiteStmt), nil
		}
		st, err := prep(per)
		if err != nil {
			return err
		}
		defer st.Close()
		if _, err := c.Exec("BEGIN", nil); err != nil {
			return err
		}
		i := 0
		for ; i+per <= n; i += per {
			if err := execStmt(bg, st, args); err != nil {
				return err
			}
		}
		if rest := n - i; rest > 0 {
			st2, err := prep(rest)
			if err != nil {
				return err
			}
			err = execStmt(bg, st2, args[:2*rest])
			st2.Close()
			if err != nil {
				return err
			}
		}
		_, err = c.Exec("COMMIT", nil)
		return err
	})
}

func newTasksDB(tb testing.TB, dir string) *sql.DB {
	return newTasksDBParams(tb, dir, "")
}

// newTasksDBParams is newTasksDB with go-sqlite3 DSN parameters ("" for
// none, else "?name=value...").
func newTasksDBParams(tb testing.TB, dir, params string) *sql.DB {
	db, err := sql.Open("sqlite3", filepath.Join(dir, "tasks.db")+params)
	if err != nil {
		tb.Fatal(err)
	}
	if _, err := db.Exec(tasksDDL); err != nil {
		tb.Fatal(err)
	}
	return db
}

func TestTasksImplsAgree(t *testing.T) {
	const n = 1001
	in := tasksJSON(n, false)
	var want string
	for _, impl := range tasksImpls {
		db := newTasksDB(t, t.TempDir())
		if err := impl.load(db, in, n); err != nil {
			t.Fatalf("%s: %v", impl.name, err)
		}
		got := dump(t, db, "SELECT * FROM tasks ORDER BY id")
		db.Close()
		if want == "" {
			want = got
			if !strings.HasPrefix(got, `{"id":1,"title":"Clean Room","done":0}`+"\n"+`{"id":2,"title":"Check Twitter","done":1}`) ||
				strings.Count(got, "\n") != n {
				t.Fatalf("%s: unexpected rows %.100s", impl.name, got)
			}
		} else if got != want {
			t.Errorf("%s differs from %s", impl.name, tasksImpls[0].name)
		}
	}
}

// BenchmarkInsert/tasks/<impl>: rows/s is the figure of merit; MB/s is of
// the JSON input (go_floor reads none, and is given the same size so the
// columns line up).
//
//	go test ./sqlite -run='^$' -bench='Insert/tasks' -benchmem -count=10
func BenchmarkInsert(b *testing.B) {
	const n = 100_000
	in := tasksJSON(n, false)
	for _, impl := range tasksImpls {
		b.Run("tasks/"+impl.name, func(b *testing.B) {
			b.SetBytes(int64(len(in)))
			b.ReportAllocs()
			benchLoad(b, impl.load, in, n, "")
		})
	}
}

// benchLoad times load of the n rows of in, each iteration into a fresh
// tasks database opened with DSN parameters params, and reports rows/s.
func benchLoad(b *testing.B, load func(*sql.DB, []byte, int) error, in []byte, n int, params string) {
	dir := b.TempDir()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		d := filepath.Join(dir, fmt.Sprint(i))
		if err := mkdir(d); err != nil {
			b.Fatal(err)
		}
		db := newTasksDBParams(b, d, params)
		b.StartTimer()
		if err := load(db, in, n); err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		db.Close()
		b.StartTimer()
	}
	b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
}

// BenchmarkInsertNDJSON/tasks/workers=N: the same rows as NDJSON, decoded
// on one goroutine and on two (SQLite's one writer either way).
//
//	go test ./sqlite -run='^$' -bench='InsertNDJSON' -benchmem -count=10
func BenchmarkInsertNDJSON(b *testing.B) {
	const n = 100_000
	in := tasksJSON(n, true)
	for _, workers := range []int{1, 2} {
		b.Run(fmt.Sprintf("tasks/workers=%d", workers), func(b *testing.B) {
			b.SetBytes(int64(len(in)))
			b.ReportAllocs()
			benchLoad(b, func(db *sql.DB, in []byte, n int) error {
				res, err := Insert(context.Background(), db, "tasks", bytes.NewReader(in), &Options{Workers: workers})
				if err == nil && res.Rows != int64(n) {
					err = fmt.Errorf("inserted %d rows, want %d", res.Rows, n)
				}
				return err
			}, in, n, "")
		})
	}
}

// BenchmarkInsertMutex: the Go floor and sqlite.Insert on databases opened
// in SQLite's serialized mode (go-sqlite3's default, _mutex=full) and in
// multi-thread mode (_mutex=no, what InsertPath uses): what the
// per-call locks cost each.
//
//	go test ./sqlite -run='^$' -bench='InsertMutex' -count=8
func BenchmarkInsertMutex(b *testing.B) {
	const n = 100_000
	in := tasksJSON(n, false)
	for _, mode := range []string{"full", "no"} {
		for _, impl := range tasksImpls {
			if impl.name != "go_floor" && impl.name != "jsonpipe" {
				continue
			}
			b.Run(fmt.Sprintf("impl=%s/mutex=%s", impl.name, mode), func(b *testing.B) {
				benchLoad(b, impl.load, in, n, "?_mutex="+mode)
			})
		}
	}
}

// BenchmarkQuery/tasks: WriteQuery exporting the tasks table as a JSON
// array (compare with the sqlite3 shell's -json mode, see compare/sqlite).
func BenchmarkQuery(b *testing.B) {
	const n = 100_000
	dir := b.TempDir()
	db := newTasksDB(b, dir)
	defer db.Close()
	if err := loadJSONPipe(db, tasksJSON(n, false), n); err != nil {
		b.Fatal(err)
	}
	// jsonpipe: WriteQuery on the caller's db (SQLite's serialized mode);
	// jsonpipe_path: WriteQueryPath, as the command runs it (multi-thread
	// mode, and the open and close of the database inside the timing).
	for _, impl := range []struct {
		name  string
		write func(io.Writer) (int64, error)
	}{
		{"jsonpipe", func(w io.Writer) (int64, error) {
			return WriteQuery(context.Background(), db, w, Array, "SELECT * FROM tasks")
		}},
		{"jsonpipe_path", func(w io.Writer) (int64, error) {
			return WriteQueryPath(context.Background(), filepath.Join(dir, "tasks.db"), w, Array, "SELECT * FROM tasks")
		}},
	} {
		b.Run("tasks/"+impl.name, func(b *testing.B) {
			b.ReportAllocs()
			var size int64
			for i := 0; i < b.N; i++ {
				cw := &countWriter{}
				if _, err := impl.write(cw); err != nil {
					b.Fatal(err)
				}
				size = cw.n
			}
			b.SetBytes(size)
			b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
		})
	}
}

type countWriter struct{ n int64 }

func (w *countWriter) Write(p []byte) (int, error) { w.n += int64(len(p)); return len(p), nil }

var _ io.Writer = (*countWriter)(nil)

// BenchmarkInsertWide: 20,000 rows of 40 members (internal/widerows) into
// a table the load creates, as a JSON array and as NDJSON on one and two
// decoding goroutines: the per-value path, where tasks times the per-row
// one.
//
//	go test ./sqlite -run='^$' -bench='InsertWide' -benchmem -count=10
func BenchmarkInsertWide(b *testing.B) {
	const n = 20_000
	for _, tc := range []struct {
		name    string
		lines   bool
		workers int
	}{{"array", false, 0}, {"ndjson/workers=1", true, 1}, {"ndjson/workers=2", true, 2}} {
		in := widerows.JSON(n, tc.lines)
		b.Run(tc.name, func(b *testing.B) {
			b.SetBytes(int64(len(in)))
			b.ReportAllocs()
			dir := b.TempDir()
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				db, err := sql.Open("sqlite3", filepath.Join(dir, fmt.Sprint(i, ".db")))
				if err != nil {
					b.Fatal(err)
				}
				b.StartTimer()
				res, err := Insert(context.Background(), db, "wide", bytes.NewReader(in), &Options{Workers: tc.workers})
				if err == nil && res.Rows != n {
					err = fmt.Errorf("inserted %d rows, want %d", res.Rows, n)
				}
				if err != nil {
					b.Fatal(err)
				}
				b.StopTimer()
				db.Close()
				b.StartTimer()
			}
			b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
		})
	}
}
