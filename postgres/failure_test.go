package postgres

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"testing/iotest"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	json "github.com/jsonpipe/json"
	"github.com/jsonpipe/json/internal/loader"
	"github.com/jsonpipe/json/internal/pgtest"
)

func ndjson(rows ...string) string { return strings.Join(rows, "\n") + "\n" }

func rowsOf(n int, row func(i int) string) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		b.WriteString(row(i))
		b.WriteByte('\n')
	}
	return b.String()
}

var errBoom = errors.New("boom")

// failingReader returns data, then err; hook, when set, runs once when
// the reader has given at least at bytes.
type failingReader struct {
	data []byte
	err  error
	at   int
	hook func()
	pos  int
}

// terminate ends the backends pg_stat_activity's where selects (k's own
// is never one), and returns how many once they are gone: the signal
// pg_terminate_backend sends is acted on when the backend next looks,
// and a test that goes on before then races the backend's last commits.
func terminate(t *testing.T, k *pgx.Conn, where string, args ...any) int {
	t.Helper()
	var pids []int32
	if err := k.QueryRow(bg, `SELECT coalesce(array_agg(pid), '{}') FROM pg_stat_activity
		WHERE pid <> pg_backend_pid() AND `+where, args...).Scan(&pids); err != nil {
		t.Error(err)
		return 0
	}
	for _, pid := range pids {
		if _, err := k.Exec(bg, "SELECT pg_terminate_backend($1)", pid); err != nil {
			t.Error(err)
			return 0
		}
	}
	for {
		var left int
		if err := k.QueryRow(bg, "SELECT count(*) FROM pg_stat_activity WHERE pid = ANY($1)", pids).Scan(&left); err != nil {
			t.Error(err)
			return 0
		}
		if left == 0 {
			return len(pids)
		}
		time.Sleep(time.Millisecond)
	}
}

func (r *failingReader) Read(p []byte) (int, error) {
	if r.hook != nil && r.pos >= r.at {
		r.hook()
		r.hook = nil
	}
	if r.pos == len(r.data) {
		if r.err == nil {
			return 0, io.EOF
		}
		return 0, r.err
	}
	lim := len(r.data)
	if r.hook != nil && r.at > r.pos {
		lim = r.at
	}
	n := copy(p, r.data[r.pos:lim])
	r.pos += n
	return n, nil
}

func TestSyntaxErrorNamesRowAndOffset(t *testing.T) {
	in := ndjson(`{"a":1}`, `{"a":2}`, `{"a":3}`, `{"a":4,}`, `{"a":5}`)
	for _, infer := range []int{1, 1000} {
		c := pgtest.Conn(t)
		res, err := load(t, c, "t", in, &Options{BatchSize: 2, InferRows: infer})
		var re *RowError
		var se *json.SyntaxError
		if !errors.As(err, &re) || !errors.As(err, &se) {
			t.Fatalf("error %T %v, want *RowError wrapping *json.SyntaxError", err, err)
		}
		wantOff := int64(strings.Index(in, ",}") + 2)
		if re.Row != 4 || re.Offset != wantOff {
			t.Errorf("row %d offset %d, want row 4 offset %d", re.Row, re.Offset, wantOff)
		}
		if !strings.HasPrefix(err.Error(), "postgres: row 4 at byte ") {
			t.Errorf("message %q", err)
		}
		if res.Rows != 2 || count(t, c, "t") != 2 || !res.Created {
			t.Errorf("infer %d: %+v, table has %d, want 2", infer, res, count(t, c, "t"))
		}
	}
}

func TestTypeErrorNamesRow(t *testing.T) {
	c := pgtest.Conn(t)
	in := ndjson(`{"a":1}`, `{"a":2}`, `{"a":3}`, `{"a":"four"}`)
	// StrictTypes: without it the column would widen to text.
	res, err := load(t, c, "t", in, &Options{BatchSize: 3, InferRows: 2, StrictTypes: true})
	var re *RowError
	var te *TypeError
	if !errors.As(err, &re) || !errors.As(err, &te) || re.Row != 4 {
		t.Fatalf("error %v, want a TypeError in row 4", err)
	}
	if re.Offset != int64(strings.Index(in, `{"a":"four"}`)) {
		t.Errorf("offset %d", re.Offset)
	}
	if res.Rows != 3 || count(t, c, "t") != 3 {
		t.Errorf("%+v", res)
	}
	if !strings.Contains(te.Msg, `column "a" is bigint; the value is a string`) {
		t.Errorf("message %q", te.Msg)
	}
}

func TestPostgresRefusalNamesRow(t *testing.T) {
	c := pgtest.Conn(t)
	if _, err := c.Exec(bg, "CREATE TABLE t (a text CHECK (a <> 'bad'))"); err != nil {
		t.Fatal(err)
	}
	in := rowsOf(10, func(i int) string {
		if i == 7 {
			return `{"a":"bad"}`
		}
		return `{"a":"ok"}`
	})
	res, err := load(t, c, "t", in, &Options{BatchSize: 3})
	var re *RowError
	if !errors.As(err, &re) || re.Row != 7 || re.Offset != int64(strings.Index(in, "bad")-6) {
		t.Fatalf("error %v, want row 7", err)
	}
	if res.Rows != 6 || count(t, c, "t") != 6 {
		t.Errorf("%+v", res)
	}
}

// TestReaderErrorOffsetWorkers: a reader failing mid-row is reported at
// the row after the last whole one and at the offset where reading
// stopped, the same with workers as without, whether the workers still
// decode when it fails or have handed the input over to the one-goroutine
// decoder (an object spread over two lines, row 150).
func TestReaderErrorOffsetWorkers(t *testing.T) {
	rows := rowsOf(200, func(i int) string { return `{"id":` + itoa(i) + `,"title":"t"}` })
	spread := strings.Replace(rows, `{"id":150,`, "{\"id\":150,\n", 1)
	for _, in := range []struct{ name, data string }{{"lines", rows}, {"handed over", spread}} {
		data := in.data + `{"id":201,"ti`
		for name, wrap := range map[string]func(io.Reader) io.Reader{
			"whole":  func(r io.Reader) io.Reader { return r },
			"1-byte": iotest.OneByteReader,
		} {
			for _, workers := range []int{1, 3} {
				t.Run(fmt.Sprintf("%s/%s/workers=%d", in.name, name, workers), func(t *testing.T) {
					c := pgtest.Conn(t)
					r := wrap(&failingReader{data: []byte(data), err: errBoom})
					res, err := Insert(bg, c, "t", r, loader.Tune(&Options{BatchSize: 50, InferRows: 3, Workers: workers}, loader.Tuning{BlockSize: 64}))
					var re *RowError
					if !errors.As(err, &re) || !errors.Is(err, errBoom) || re.Err != errBoom {
						t.Fatalf("error %v, want a RowError holding the reader's error as it is", err)
					}
					if re.Row != 201 || re.Offset != int64(len(data)) {
						t.Errorf("row %d at %d, want row 201 at %d (where reading stopped)", re.Row, re.Offset, len(data))
					}
					if res.Rows != 200 || count(t, c, "t") != 200 {
						t.Errorf("committed %d, table has %d, want 200", res.Rows, count(t, c, "t"))
					}
				})
			}
		}
	}
}

func TestReaderErrorMidStream(t *testing.T) {
	// Ten rows and half of an eleventh, then the reader fails. Batches of
	// four: rows 1-8 are committed, 9 and 10 are rolled back.
	data := rowsOf(10, func(i int) string { return `{"id":` + itoa(i) + `,"title":"t"}` }) + `{"id":11,"ti`
	for name, wrap := range map[string]func(io.Reader) io.Reader{
		"whole":  func(r io.Reader) io.Reader { return r },
		"1-byte": iotest.OneByteReader,
		"half":   iotest.HalfReader,
	} {
		for _, infer := range []int{3, 1000} {
			t.Run(name, func(t *testing.T) {
				c := pgtest.Conn(t)
				r := wrap(&failingReader{data: []byte(data), err: errBoom})
				res, err := Insert(bg, c, "t", r, &Options{BatchSize: 4, InferRows: infer})
				if !errors.Is(err, errBoom) {
					t.Fatalf("error %v, want the reader's error", err)
				}
				var re *RowError
				if !errors.As(err, &re) || re.Row != 11 {
					t.Errorf("error %v, want it in row 11", err)
				}
				if res.Rows != 8 || count(t, c, "t") != 8 {
					t.Errorf("committed %d, table has %d, want 8", res.Rows, count(t, c, "t"))
				}
			})
		}
	}
	t.Run("before any row", func(t *testing.T) {
		c := pgtest.Conn(t)
		res, err := Insert(bg, c, "t", &failingReader{err: errBoom}, nil)
		if !errors.Is(err, errBoom) || res.Rows != 0 || res.Created {
			t.Errorf("err %v, %+v", err, res)
		}
	})
	t.Run("truncated", func(t *testing.T) {
		c := pgtest.Conn(t)
		res, err := load(t, c, "t", `[{"a":1},{"a":2},{"a"`, &Options{BatchSize: 1})
		if !errors.Is(err, io.ErrUnexpectedEOF) || res.Rows != 2 {
			t.Errorf("err %v, %+v", err, res)
		}
	})
}

func TestAllOrNothing(t *testing.T) {
	c := pgtest.Conn(t)
	in := rowsOf(10, func(i int) string { return `{"a":` + itoa(i) + `}` }) + `{"a":"x"}`
	// StrictTypes makes "x" an error (else the column widens to text).
	res, err := load(t, c, "t", in, &Options{BatchSize: 3, AllOrNothing: true, InferRows: 5, StrictTypes: true})
	var re *RowError
	if !errors.As(err, &re) || re.Row != 11 || res.Rows != 0 || res.Created {
		t.Fatalf("err %v, %+v", err, res)
	}
	var exists bool
	c.QueryRow(bg, "SELECT to_regclass('t') IS NOT NULL").Scan(&exists)
	if exists {
		t.Error("the table was created by a load that failed whole")
	}
	res = mustLoad(t, c, "t", rowsOf(10, func(i int) string { return `{"a":` + itoa(i) + `}` }), &Options{BatchSize: 3, AllOrNothing: true})
	if res.Rows != 10 || count(t, c, "t") != 10 {
		t.Errorf("%+v", res)
	}
}

// TestRefusalNotAboutRows: an error that arrives while a COPY runs
// carries its context ("COPY t, line 1") whatever its cause; only a
// refusal of the rows is given a row or a batch. A terminated backend
// once came back as "row 1 at byte 0" when the termination reached the
// COPY before the load's next write (TestConnectionDropped, workers 2).
func TestRefusalNotAboutRows(t *testing.T) {
	offs := []int64{100, 200, 300}
	for _, c := range []struct {
		pe   pgconn.PgError
		want string // "row N", "batch", or "" for the error as it is
	}{
		{pgconn.PgError{Severity: "FATAL", SeverityUnlocalized: "FATAL", Code: "57P01", Where: "COPY t, line 1"}, ""},
		{pgconn.PgError{Severity: "FATAL", Code: "57P01", Where: "COPY t, line 2"}, ""},
		{pgconn.PgError{Severity: "PANIC", SeverityUnlocalized: "PANIC", Code: "XX000", Where: "COPY t, line 2"}, ""},
		{pgconn.PgError{Severity: "ERROR", SeverityUnlocalized: "ERROR", Code: "57014", Where: "COPY t, line 3"}, ""},
		{pgconn.PgError{Severity: "ERROR", SeverityUnlocalized: "ERROR", Code: "08006", Where: "COPY t, line 3"}, ""},
		{pgconn.PgError{Severity: "ERREUR", SeverityUnlocalized: "ERROR", Code: "22P02", Where: "COPY t, line 2, column a: \"x\""}, "row 11"},
		{pgconn.PgError{Severity: "ERROR", Code: "22P02", Where: "COPY t, line 3, column a: \"x\""}, "row 12"},
		{pgconn.PgError{Severity: "ERROR", SeverityUnlocalized: "ERROR", Code: "23505"}, "batch"},
	} {
		pe := c.pe
		err := refusal(fmt.Errorf("copy: %w", &pe), 10, offs, 1, 12)
		var re *RowError
		var be *BatchError
		got := ""
		switch {
		case errors.As(err, &re):
			got = "row " + itoa(int(re.Row))
			if re.Offset != offs[re.Row-10] {
				t.Errorf("%s %s: offset %d", pe.Severity, pe.Code, re.Offset)
			}
		case errors.As(err, &be):
			got = "batch"
		}
		if got != c.want || !errors.Is(err, &pe) {
			t.Errorf("%s %s %q: got %q (%v), want %q", pe.Severity, pe.Code, pe.Where, got, err, c.want)
		}
	}
}

// TestConnectionDropped terminates the load's backend mid-load: the error
// is the connection's, and the count is that of the batches committed.
func TestConnectionDropped(t *testing.T) {
	for _, workers := range []int{1, 2} {
		u := pgtest.Schema(t)
		c, err := pgx.Connect(bg, u)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close(bg)
		data := rowsOf(100, func(i int) string { return `{"a":` + itoa(i) + `}` })
		pid := c.PgConn().PID()
		r := &failingReader{data: []byte(data), at: strings.Index(data, `{"a":55}`), hook: func() {
			k, err := pgx.Connect(bg, u)
			if err != nil {
				t.Error(err)
				return
			}
			defer k.Close(bg)
			if n := terminate(t, k, "pid = $1", pid); n != 1 {
				t.Errorf("terminated %d backends, want 1", n)
			}
		}}
		res, err := Insert(bg, c, "t", r, &Options{BatchSize: 10, InferRows: 1, Workers: workers})
		var re *RowError
		if err == nil || errors.As(err, &re) {
			t.Fatalf("workers %d: err %v, want the connection's error", workers, err)
		}
		if !c.IsClosed() {
			t.Errorf("workers %d: the connection is not closed", workers)
		}
		k, _ := pgx.Connect(bg, u)
		defer k.Close(bg)
		var n int64
		k.QueryRow(bg, "SELECT count(*) FROM t").Scan(&n)
		// With one worker the reader is read as the rows go; with more,
		// it is read ahead, and the backend is terminated earlier.
		if res.Rows != n || n > 50 || n%10 != 0 || (workers == 1 && n < 40) {
			t.Errorf("workers %d: committed %d, table has %d", workers, res.Rows, n)
		}
	}
}

func TestContextCancelled(t *testing.T) {
	for _, workers := range []int{1, 2} {
		c := pgtest.Conn(t)
		ctx, cancel := context.WithCancel(bg)
		data := rowsOf(20000, func(i int) string { return `{"a":` + itoa(i) + `}` })
		r := &failingReader{data: []byte(data), at: strings.Index(data, `{"a":12345}`), hook: cancel}
		res, err := Insert(ctx, c, "t", r, &Options{BatchSize: 1000, Workers: workers})
		cancel()
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("workers %d: err %v, want context.Canceled", workers, err)
		}
		// With one worker the reader is read as the rows go; with more,
		// chunks of it are read ahead, and the cancel comes earlier.
		if res.Rows%1000 != 0 || res.Rows > 12000 || (workers == 1 && res.Rows < 11000) {
			t.Errorf("workers %d: committed %d", workers, res.Rows)
		}
		var n int64
		if c2, err := pgx.Connect(bg, c.Config().ConnString()); err == nil {
			c2.QueryRow(bg, "SELECT count(*) FROM t").Scan(&n)
			c2.Close(bg)
		}
		if n != res.Rows {
			t.Errorf("workers %d: table has %d rows, committed %d", workers, n, res.Rows)
		}
	}
}

func TestMaxValueSize(t *testing.T) {
	c := pgtest.Conn(t)
	big := strings.Repeat("x", 5000)
	in := ndjson(`{"a":"s"}`, `{"a":"s"}`, `{"a":"`+big+`"}`)
	res, err := load(t, c, "t", in, &Options{MaxValueSize: 1000, BatchSize: 1})
	var re *RowError
	if !errors.As(err, &re) || re.Row != 3 || res.Rows != 2 {
		t.Fatalf("err %v, %+v", err, res)
	}
	// Below the cap, a long value goes through whole (from the arena).
	c2 := pgtest.Conn(t)
	huge := strings.Repeat("é", 300_000)
	mustLoad(t, c2, "t", ndjson(`{"a":"s","j":[1]}`, `{"a":"`+huge+`","j":[`+strings.Repeat(`"`+huge[:1000]+`",`, 200)+`1]}`), nil)
	var n, m int
	if err := c2.QueryRow(bg, "SELECT max(length(a)), max(jsonb_array_length(j)) FROM t").Scan(&n, &m); err != nil || n != 300_000 || m != 201 {
		t.Errorf("lengths %d %d, %v", n, m, err)
	}
}

func TestHostileKeys(t *testing.T) {
	c := pgtest.Conn(t)
	keys := []string{`a"; DROP TABLE t; --`, `Robert'); DROP TABLE students;--`, `ÄÖÜ`, `a\"b`, `$1`, `x y`, `UPPER`, `upper`}
	var row strings.Builder
	row.WriteString("{")
	for i, k := range keys {
		if i > 0 {
			row.WriteString(",")
		}
		row.Write(json.AppendQuote(nil, k))
		row.WriteString(`:"` + itoa(i) + `"`)
	}
	row.WriteString("}")
	mustLoad(t, c, `t"; DROP TABLE x; --`, row.String(), nil)
	got := dump(t, c, `SELECT * FROM "t""; DROP TABLE x; --"`)
	if got != "0|1|2|3|4|5|6|7\n" {
		t.Errorf("rows %q", got)
	}
	for _, bad := range []string{`{"":1}`, `{"a\u0000b":1}`, `{"` + strings.Repeat("k", 64) + `":1}`} {
		_, err := load(t, c, "bad", bad, nil)
		var te *TypeError
		if !errors.As(err, &te) {
			t.Errorf("%.30s: err %v, want a TypeError", bad, err)
		}
	}
	mustLoad(t, c, "ok", `{"`+strings.Repeat("k", 63)+`":1}`, nil)
}

func TestFormats(t *testing.T) {
	c := pgtest.Conn(t)
	array := `[{"a":1},{"a":2}] [{"a":3}]`
	lines := "{\"a\":1}\n{\"a\":2}{\"a\":3}\n"
	for _, in := range []string{array, lines} {
		for _, r := range []io.Reader{strings.NewReader(in), iotest.OneByteReader(strings.NewReader(in))} {
			res, err := Insert(bg, c, "f", r, nil)
			if err != nil || res.Rows != 3 {
				t.Errorf("%q: %v %+v", in, err, res)
			}
		}
	}
	if _, err := load(t, c, "f", lines, &Options{Format: Array}); err == nil {
		t.Error("Array took lines")
	}
	if _, err := load(t, c, "f", array, &Options{Format: Lines}); err == nil {
		t.Error("Lines took an array")
	}
	for _, in := range []string{`[1]`, `"x"`, `{"a":1} 2`} {
		if _, err := load(t, c, "f", in, nil); err == nil {
			t.Errorf("%s: no error", in)
		}
	}
	res := mustLoad(t, c, "empty", "", nil)
	if res.Created || res.Rows != 0 {
		t.Errorf("empty input: %+v", res)
	}
}

func TestProgress(t *testing.T) {
	c := pgtest.Conn(t)
	var got []Progress
	mustLoad(t, c, "p", rowsOf(150_000, func(i int) string { return `{"a":1}` }), &Options{BatchSize: 100_000, Progress: func(p Progress) { got = append(got, p) }})
	if len(got) < 3 || got[len(got)-1].Committed != 150_000 || got[len(got)-1].Rows != 150_000 {
		t.Errorf("progress %+v", got)
	}
}
