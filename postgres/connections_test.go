package postgres

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jsonpipe/json/internal/pgtest"
)

// connect opens a connection to a fresh schema on which PostgreSQL looks
// for deadlocks after 50 ms rather than a second; the connections Insert
// opens from its config do the same.
func connect(t *testing.T) *pgx.Conn {
	t.Helper()
	return connectWith(t, func(cfg *pgx.ConnConfig) { cfg.RuntimeParams["deadlock_timeout"] = "50ms" })
}

// connectWith opens a connection to a fresh schema with a config that set
// has changed; it is closed when the test ends.
func connectWith(t *testing.T, set func(*pgx.ConnConfig)) *pgx.Conn {
	t.Helper()
	cfg, err := pgx.ParseConfig(pgtest.Schema(t))
	if err != nil {
		t.Fatal(err)
	}
	set(cfg)
	c, err := pgx.ConnectConfig(bg, cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close(bg) })
	return c
}

// loadOutcome loads in into a table made by create and returns the
// result, the error and the table's rows, as one string.
func loadOutcome(t *testing.T, create, in string, opts Options) string {
	t.Helper()
	c := connect(t)
	if _, err := c.Exec(bg, create); err != nil {
		t.Fatal(err)
	}
	res, err := Insert(bg, c, "t", strings.NewReader(in), &opts)
	return fmt.Sprintf("%+v %v\n", res, err) + dump(t, c, `SELECT * FROM t ORDER BY t::text COLLATE "C"`)
}

// TestConnectionsDeadlock makes the first batch insert a key that the
// second, already sent, holds uncommitted: the first waits for the second
// inside PostgreSQL, the second for the first to commit. PostgreSQL must
// see the cycle and break it, and the load must end as a load over one
// connection ends: the key refused in the second batch (Fail), kept from
// the first (Ignore), or merged in input order (Upsert).
func TestConnectionsDeadlock(t *testing.T) {
	// Batches of 4 rows; key 100 ends the first and starts the second.
	in := ndjson(`{"id":1,"v":"a"}`, `{"id":2,"v":"b"}`, `{"id":3,"v":"c"}`, `{"id":100,"v":"first"}`,
		`{"id":100,"v":"second","w":"x"}`, `{"id":5,"v":"e"}`, `{"id":6,"v":"f"}`, `{"id":7,"v":"g"}`,
		`{"id":8,"v":"h"}`, `{"id":9,"v":"i"}`)
	create := "CREATE TABLE t (id bigint PRIMARY KEY, v text, w text)"
	for _, mode := range []Conflict{Fail, Ignore, Upsert, Replace} {
		t.Run(mode.String(), func(t *testing.T) {
			opts := Options{BatchSize: 4, InferRows: 2, Conflict: mode}
			serial := loadOutcome(t, create, in, opts)

			// The first batch starts its steps only once the second has
			// done all of its own.
			second := make(chan struct{})
			var once sync.Once
			var resent atomic.Int32
			testHookSteps = func(seq int32, done bool) {
				switch {
				case seq == 0 && !done:
					<-second
				case seq == 1 && done:
					once.Do(func() { close(second) })
				}
			}
			testHookResend = func(int32) { resent.Add(1) }
			defer func() { testHookSteps, testHookResend = nil, nil }()
			opts.Connections = 2
			par := loadOutcome(t, create, in, opts)
			if par != serial {
				t.Errorf("one connection:\n%s\ntwo:\n%s", serial, par)
			}
			if resent.Load() == 0 {
				t.Errorf("no batch was sent again: the deadlock did not happen")
			}
			if mode == Fail && !strings.Contains(serial, "row 5 at byte") {
				t.Errorf("want the duplicate key refused in row 5:\n%s", serial)
			}
		})
	}
}

// TestConnectionsOrder loads many small batches over several connections
// with an error in a late one, each way an error can come: the batches
// before the failing one are committed, none after it, and Result counts
// exactly those.
func TestConnectionsOrder(t *testing.T) {
	rows := rowsOf(500, func(i int) string { return fmt.Sprintf(`{"id":%d,"v":"v%d"}`, i, i) })
	cases := []struct{ name, create, in string }{
		{"refused by PostgreSQL", "CREATE TABLE t (id bigint CHECK (id <> 377), v text)", rows},
		{"syntax error", "CREATE TABLE t (id bigint, v text)", rows[:strings.Index(rows, `{"id":377,`)] + `{"id":377,,}` + "\n" + rows[strings.Index(rows, `{"id":378,`):]},
		{"reader error", "CREATE TABLE t (id bigint, v text)", rows[:strings.Index(rows, `{"id":377,`)] + `{"id":377`},
		{"no error", "CREATE TABLE t (id bigint, v text)", rows},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var outs []string
			for _, conns := range []int{1, 4} {
				out := loadOutcome(t, tc.create, tc.in, Options{BatchSize: 10, Connections: conns})
				outs = append(outs, out)
			}
			if outs[0] != outs[1] {
				t.Errorf("one connection:\n%.300s\nfour:\n%.300s", outs[0], outs[1])
			}
			want := "{Rows:370 "
			if tc.name == "no error" {
				want = "{Rows:500 "
			}
			if !strings.HasPrefix(outs[1], want) {
				t.Errorf("want %s...:\n%.300s", want, outs[1])
			}
		})
	}
}

// TestConnectionsSessionSettings: the connections Insert opens find the
// table where the caller's connection finds it, and read text values as
// it reads them, whatever was SET on it after it connected.
func TestConnectionsSessionSettings(t *testing.T) {
	c := connect(t)
	for _, sql := range []string{
		"CREATE SCHEMA other", "SET search_path = other", "SET TIME ZONE 'Asia/Tokyo'",
		"CREATE TABLE t (id bigint, at timestamptz)",
	} {
		if _, err := c.Exec(bg, sql); err != nil {
			t.Fatal(err)
		}
	}
	in := rowsOf(100, func(i int) string { return fmt.Sprintf(`{"id":%d,"at":"2024-01-01 09:00:00"}`, i) })
	res, err := Insert(bg, c, "t", strings.NewReader(in), &Options{BatchSize: 7, Connections: 3})
	if err != nil || res.Rows != 100 {
		t.Fatalf("%+v %v", res, err)
	}
	got := dump(t, c, "SELECT count(*), min(at), max(at) FROM other.t")
	if want := "100|2024-01-01 00:00:00+00|2024-01-01 00:00:00+00\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// TestConnectionsDropped terminates the connections Insert opened, not
// the caller's, while the load runs: the load fails with the connection's
// error (not a row's), and exactly the batches before the failing one are
// committed and counted.
func TestConnectionsDropped(t *testing.T) {
	c := connectWith(t, func(cfg *pgx.ConnConfig) { cfg.RuntimeParams["application_name"] = "jsonpipe-dropped" })
	cfg := c.Config()
	if _, err := c.Exec(bg, "CREATE TABLE t (a bigint)"); err != nil {
		t.Fatal(err)
	}
	data := rowsOf(3000, func(i int) string { return `{"a":` + itoa(i) + `}` })
	pid := c.PgConn().PID()
	r := &failingReader{data: []byte(data), at: strings.Index(data, `{"a":1500}`), hook: func() {
		k, err := pgx.Connect(bg, cfg.ConnString())
		if err != nil {
			t.Error(err)
			return
		}
		defer k.Close(bg)
		if n := terminate(t, k, "application_name = 'jsonpipe-dropped' AND pid <> $1", pid); n == 0 {
			t.Error("terminated no backend")
		}
	}}
	res, err := Insert(bg, c, "t", r, &Options{BatchSize: 100, Connections: 3})
	var re *RowError
	if err == nil || errors.As(err, &re) {
		t.Fatalf("err %v, want the connection's error", err)
	}
	var n int64
	c.QueryRow(bg, "SELECT count(*) FROM t").Scan(&n)
	if res.Rows != n || n%100 != 0 || n > 1500 {
		t.Errorf("committed %d, table has %d", res.Rows, n)
	}
	// The caller's connection is still usable.
	if _, err := c.Exec(bg, "SELECT 1"); err != nil {
		t.Errorf("caller's connection: %v", err)
	}
}

// TestConnectionsOpenFails: a connection Insert cannot open ends the load
// with an error saying so, after the batches before it.
func TestConnectionsOpenFails(t *testing.T) {
	var opened atomic.Int32
	c := connectWith(t, func(cfg *pgx.ConnConfig) {
		cfg.AfterConnect = func(context.Context, *pgconn.PgConn) error {
			if opened.Add(1) > 1 {
				return errors.New("no second connection")
			}
			return nil
		}
	})
	if _, err := c.Exec(bg, "CREATE TABLE t (a bigint)"); err != nil {
		t.Fatal(err)
	}
	// The first batch goes over the caller's connection; the second finds
	// it busy and needs another.
	testHookSteps = func(seq int32, done bool) {
		if seq == 0 && done {
			for opened.Load() < 2 {
				runtime.Gosched()
			}
		}
	}
	defer func() { testHookSteps = nil }()
	res, err := Insert(bg, c, "t", strings.NewReader(rowsOf(50, func(i int) string { return `{"a":1}` })), &Options{BatchSize: 10, Connections: 2})
	if err == nil || !strings.Contains(err.Error(), "opening connection 2 of 2") || !strings.Contains(err.Error(), "no second connection") {
		t.Fatalf("err %v", err)
	}
	if n := count(t, c, "t"); res.Rows != 10 || n != 10 {
		t.Errorf("committed %d, table has %d, want 10", res.Rows, n)
	}
}

// TestConnectionsProgress: progress reports come from one goroutine, in
// order, and end with every row committed.
func TestConnectionsProgress(t *testing.T) {
	c := connect(t)
	var got []Progress
	in := rowsOf(150_000, func(i int) string { return `{"a":1}` })
	res, err := Insert(bg, c, "p", strings.NewReader(in), &Options{BatchSize: 10_000, Connections: 3,
		Progress: func(p Progress) { got = append(got, p) }})
	if err != nil || res.Rows != 150_000 {
		t.Fatalf("%+v %v", res, err)
	}
	for i := 1; i < len(got); i++ {
		if got[i].Committed < got[i-1].Committed || got[i].Rows < got[i-1].Rows || got[i].Committed > got[i].Rows {
			t.Fatalf("progress out of order: %+v then %+v", got[i-1], got[i])
		}
	}
	if len(got) < 15 || got[len(got)-1].Committed != 150_000 {
		t.Errorf("%d reports, last %+v", len(got), got[len(got)-1])
	}
}

// TestConnectionsAlterNoDeadlock adds a column (Alter) in a batch while
// earlier ones are in flight, with PostgreSQL's default deadlock_timeout:
// the batch waits for them to commit before its ALTER, so no deadlock
// has to be broken and nothing is sent again.
func TestConnectionsAlterNoDeadlock(t *testing.T) {
	resent := false
	testHookResend = func(int32) { resent = true }
	defer func() { testHookResend = nil }()
	for range 4 {
		c := pgtest.Conn(t)
		var rows []string
		for i := 1; i <= 150; i++ {
			if i >= 70 {
				rows = append(rows, fmt.Sprintf(`{"i":%d,"x":%d}`, i, i))
			} else {
				rows = append(rows, fmt.Sprintf(`{"i":%d}`, i))
			}
		}
		res, err := Insert(bg, c, "t", strings.NewReader(strings.Join(rows, "\n")), &Options{InferRows: 2, BatchSize: 3, Connections: 4, Alter: true})
		if err != nil || res.Rows != 150 || count(t, c, "t") != 150 {
			t.Fatalf("%+v %v", res, err)
		}
		if got := dump(t, c, "SELECT count(*), sum(x), min(x) FROM t"); got != "150|8910|70\n" {
			t.Errorf("rows %q", got)
		}
	}
	if resent {
		t.Error("the batches were sent again after a deadlock")
	}
}
