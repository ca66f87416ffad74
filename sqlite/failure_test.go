package sqlite

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"testing/iotest"

	json "github.com/jsonpipe/json"
	"github.com/jsonpipe/json/internal/loader"
	sqlite3 "github.com/mattn/go-sqlite3"
)

func TestSyntaxErrorNamesRowAndOffset(t *testing.T) {
	rows := []string{`{"a":1}`, `{"a":2}`, `{"a":3,}`, `{"a":4}`}
	in := ndjson(rows...)
	db := openDB(t)
	res, err := Insert(context.Background(), db, "t", strings.NewReader(in), &Options{BatchSize: 2})
	var re *RowError
	var se *json.SyntaxError
	if !errors.As(err, &re) || !errors.As(err, &se) {
		t.Fatalf("error %T %v, want *RowError wrapping *json.SyntaxError", err, err)
	}
	// The '}' after the comma is the offending byte; SyntaxError.Offset
	// counts it, as encoding/json's does.
	wantOff := int64(strings.Index(in, ",}") + 2)
	if re.Row != 3 || re.Offset != wantOff || se.Offset != wantOff {
		t.Errorf("row %d offset %d (syntax %d), want row 3 offset %d", re.Row, re.Offset, se.Offset, wantOff)
	}
	if !strings.HasPrefix(err.Error(), "sqlite: row 3 at byte ") {
		t.Errorf("message %q", err)
	}
	if res.Rows != 2 || count(t, db, "t") != 2 {
		t.Errorf("committed %d, table has %d, want 2", res.Rows, count(t, db, "t"))
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
					db := openDB(t)
					r := wrap(&failingReader{data: []byte(data), err: errBoom})
					res, err := Insert(context.Background(), db, "t", r, loader.Tune(&Options{BatchSize: 50, InferRows: 3, Workers: workers}, loader.Tuning{BlockSize: 64}))
					var re *RowError
					if !errors.As(err, &re) || !errors.Is(err, errBoom) || re.Err != errBoom {
						t.Fatalf("error %v, want a RowError holding the reader's error as it is", err)
					}
					if re.Row != 201 || re.Offset != int64(len(data)) {
						t.Errorf("row %d at %d, want row 201 at %d (where reading stopped)", re.Row, re.Offset, len(data))
					}
					if res.Rows != 200 || count(t, db, "t") != 200 {
						t.Errorf("committed %d, table has %d, want 200", res.Rows, count(t, db, "t"))
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
	} {
		for _, per := range []int{1, 3, 128} {
			t.Run(name, func(t *testing.T) {
				db := openDB(t)
				r := wrap(&failingReader{data: []byte(data), err: errBoom})
				res, err := Insert(context.Background(), db, "t", r, &Options{BatchSize: 4, RowsPerStatement: per, InferRows: 3})
				if !errors.Is(err, errBoom) {
					t.Fatalf("error %v, want the reader's error", err)
				}
				var re *RowError
				if !errors.As(err, &re) || re.Row != 11 {
					t.Errorf("error %v, want it in row 11", err)
				}
				if res.Rows != 8 || count(t, db, "t") != 8 {
					t.Errorf("committed %d, table has %d, want 8", res.Rows, count(t, db, "t"))
				}
			})
		}
	}
	t.Run("while inferring", func(t *testing.T) {
		// The failure comes during the rows read to infer the table: the
		// complete batches before it are still committed.
		db := openDB(t)
		res, err := Insert(context.Background(), db, "t", &failingReader{data: []byte(data), err: errBoom}, &Options{BatchSize: 4})
		if !errors.Is(err, errBoom) || res.Rows != 8 || count(t, db, "t") != 8 {
			t.Errorf("err %v, committed %d, table has %d, want 8", err, res.Rows, count(t, db, "t"))
		}
	})
	t.Run("before any row", func(t *testing.T) {
		db := openDB(t)
		res, err := Insert(context.Background(), db, "t", &failingReader{err: errBoom}, nil)
		if !errors.Is(err, errBoom) || res.Rows != 0 || res.Created {
			t.Errorf("err %v, %+v", err, res)
		}
	})
}

// A ROLLBACK that fails is reported, after the load's own error, which
// errors.Is and errors.As still find.
func TestRollbackErrorReported(t *testing.T) {
	// Ten rows and half of an eleventh, then the reader fails. Batches of
	// four: rows 1-8 are committed, 9 and 10 are to be rolled back.
	data := rowsOf(10, func(i int) string { return `{"id":` + itoa(i) + `,"title":"t"}` }) + `{"id":11,"ti`
	for _, serial := range []bool{false, true} {
		db := openDB(t)
		db.SetMaxOpenConns(1)
		denyTx(t, db, "ROLLBACK")
		res, err := Insert(context.Background(), db, "t", &failingReader{data: []byte(data), err: errBoom}, loader.Tune(&Options{BatchSize: 4, InferRows: 3}, loader.Tuning{Serial: serial}))
		var re *RowError
		if !errors.Is(err, errBoom) || !errors.As(err, &re) || re.Row != 11 {
			t.Fatalf("serial=%v: error %v, want the reader's error in row 11", serial, err)
		}
		var se sqlite3.Error
		if !errors.As(err, &se) || se.Code != sqlite3.ErrAuth {
			t.Errorf("serial=%v: error %v, want the ROLLBACK's SQLITE_AUTH too", serial, err)
		}
		if msg := err.Error(); !strings.HasPrefix(msg, re.Error()) || !strings.Contains(msg, "ROLLBACK failed: not authorized") {
			t.Errorf("serial=%v: message %q, want the row error first, then the ROLLBACK's", serial, msg)
		}
		if res.Rows != 8 {
			t.Errorf("serial=%v: committed %d, want 8", serial, res.Rows)
		}
		// The transaction is still open: end it, and see what was committed.
		denyTx(t, db, "")
		if _, err := db.Exec("ROLLBACK"); err != nil {
			t.Fatalf("serial=%v: the load's transaction was not left open: %v", serial, err)
		}
		if n := count(t, db, "t"); n != 8 {
			t.Errorf("serial=%v: table has %d, want 8", serial, n)
		}
	}
	t.Run("COMMIT fails", func(t *testing.T) {
		// The failed COMMIT is the error, as it was; its batch is still
		// rolled back.
		db := openDB(t)
		db.SetMaxOpenConns(1)
		denyTx(t, db, "COMMIT")
		res, err := Insert(context.Background(), db, "t", strings.NewReader(data), &Options{BatchSize: 4, InferRows: 3})
		var se sqlite3.Error
		if !errors.As(err, &se) || se.Code != sqlite3.ErrAuth || strings.Contains(err.Error(), "ROLLBACK") {
			t.Errorf("error %v, want the COMMIT's SQLITE_AUTH alone", err)
		}
		if res.Rows != 0 || res.Created || count(t, db, "t") != 0 {
			t.Errorf("%+v, table has %d, want nothing committed", res, count(t, db, "t"))
		}
	})
}

// A full disk makes SQLite roll the transaction back itself: there is no
// ROLLBACK left to run, and no failed one to report.
func TestFullDiskNoRollbackError(t *testing.T) {
	db := openDB(t)
	db.SetMaxOpenConns(1)
	if _, err := db.Exec("CREATE TABLE t (a TEXT)"); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec("PRAGMA max_page_count=20"); err != nil {
		t.Fatal(err)
	}
	in := rowsOf(2000, func(i int) string { return `{"a":"` + strings.Repeat("x", 100) + itoa(i) + `"}` })
	_, err := Insert(context.Background(), db, "t", strings.NewReader(in), nil)
	var re *RowError
	var se sqlite3.Error
	if !errors.As(err, &re) || !errors.As(err, &se) || se.Code != sqlite3.ErrFull || strings.Contains(err.Error(), "ROLLBACK") {
		t.Errorf("error %v, want the full disk's alone, naming a row", err)
	}
}

func TestTruncatedInput(t *testing.T) {
	for _, in := range []string{`[{"a":1},{"a":2}`, `[{"a":1},{"a":2},`, `{"a":1}` + "\n" + `{"a":2}` + "\n" + `{"a"`} {
		db := openDB(t)
		res, err := Insert(context.Background(), db, "t", strings.NewReader(in), &Options{BatchSize: 1})
		var re *RowError
		var se *json.SyntaxError
		if !errors.As(err, &re) || re.Row != 3 || !(errors.Is(err, io.ErrUnexpectedEOF) || errors.As(err, &se)) {
			t.Errorf("%s: error %v, want unexpected EOF in row 3", in, err)
		}
		if res.Rows != 2 {
			t.Errorf("%s: committed %d, want 2", in, res.Rows)
		}
	}
}

func TestTypeErrors(t *testing.T) {
	tests := []struct {
		in   string
		row  int64
		msg  string
		rows int64
	}{
		{`[{"a":1},2]`, 2, "row is a number, want an object", 1},
		{`[{"a":1},"x"]`, 2, "row is a string, want an object", 1},
		{`[[{"a":1}]]`, 1, "row is an array, want an object", 0},
		{`{"a":1} null`, 2, "row is null, want an object", 1},
		{`{"a":1} true`, 2, "row is a boolean, want an object", 1},
		{`{"a":1} {"a":1e400}`, 2, "number 1e400 is out of float64 range", 1},
		{`{"a\u0000b":1}`, 1, "NUL", 0},
	}
	for _, tc := range tests {
		db := openDB(t)
		res, err := Insert(context.Background(), db, "t", strings.NewReader(tc.in), &Options{BatchSize: 1})
		var re *RowError
		if !errors.As(err, &re) || re.Row != tc.row || !strings.Contains(err.Error(), tc.msg) {
			t.Errorf("%s: error %v, want row %d: %s", tc.in, err, tc.row, tc.msg)
		}
		if res.Rows != tc.rows {
			t.Errorf("%s: committed %d, want %d", tc.in, res.Rows, tc.rows)
		}
	}
}

func TestConstraintErrorNamesRowInMultiRowStatement(t *testing.T) {
	rows := make([]string, 300)
	for i := range rows {
		rows[i] = `{"title":"t` + itoa(i+1) + `"}`
	}
	rows[149] = `{"title":null}` // row 150
	in := "[" + strings.Join(rows, ",") + "]"
	wantOff := int64(strings.Index(in, `{"title":null}`))
	for _, per := range []int{1, 7, 128} {
		db := openDB(t)
		res, err := Insert(context.Background(), db, "t", strings.NewReader(in), &Options{
			Columns: []Column{{Name: "title", Type: "TEXT", NotNull: true}}, BatchSize: 100, RowsPerStatement: per})
		var re *RowError
		if !errors.As(err, &re) || re.Row != 150 || re.Offset != wantOff || !strings.Contains(err.Error(), "NOT NULL") {
			t.Errorf("per=%d: error %v, want row 150 at byte %d", per, err, wantOff)
		}
		if res.Rows != 100 || count(t, db, "t") != 100 {
			t.Errorf("per=%d: committed %d, table has %d, want 100", per, res.Rows, count(t, db, "t"))
		}
	}
}

func TestCancelBetweenBatches(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	db := openDB(t)
	res, err := Insert(ctx, db, "t", strings.NewReader(string(tasksJSON(100, true))), &Options{
		BatchSize: 10,
		Progress: func(p Progress) {
			if p.Committed >= 30 {
				cancel()
			}
		},
	})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("error %v, want context.Canceled", err)
	}
	if res.Rows != 30 || count(t, db, "t") != 30 {
		t.Errorf("committed %d, table has %d, want 30", res.Rows, count(t, db, "t"))
	}
	// A context canceled before the start does nothing.
	res, err = Insert(ctx, db, "t", strings.NewReader(`{"title":"x"}`), nil)
	if !errors.Is(err, context.Canceled) || res.Rows != 0 {
		t.Errorf("err %v, %+v", err, res)
	}
}

// cancellingReader cancels its context once n bytes have been read.
type cancellingReader struct {
	r      io.Reader
	n      int
	cancel context.CancelFunc
}

func (c *cancellingReader) Read(p []byte) (int, error) {
	k, err := c.r.Read(p)
	if c.n -= k; c.n <= 0 {
		c.cancel()
	}
	return k, err
}

// TestCancelWithinBatch: a context cancelled in the middle of a batch
// stops the load there (the statements run with it), rather than at the
// batch's end; the batch is rolled back. Serial, pipelined and with
// decoding workers.
func TestCancelWithinBatch(t *testing.T) {
	in := tasksJSON(20000, true)
	for _, tc := range []struct {
		name string
		opts *Options
	}{
		{"serial", loader.Tune(&Options{}, loader.Tuning{Serial: true})},
		{"pipelined", &Options{Workers: 1}},
		{"workers", loader.Tune(&Options{Workers: 2}, loader.Tuning{BlockSize: 4096})},
	} {
		t.Run(tc.name, func(t *testing.T) {
			db := openDB(t)
			db.SetMaxOpenConns(1)
			if _, err := db.Exec(`CREATE TABLE t (title TEXT, done INTEGER)`); err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			r := &cancellingReader{r: bytes.NewReader(in), n: len(in) / 5, cancel: cancel}
			res, err := Insert(ctx, db, "t", r, tc.opts)
			if !errors.Is(err, context.Canceled) {
				t.Fatalf("error %v, want context.Canceled", err)
			}
			if res.Rows != 0 || count(t, db, "t") != 0 {
				t.Errorf("committed %d, table has %d, want 0", res.Rows, count(t, db, "t"))
			}
		})
	}
}

// With decoding and statements on two goroutines, the decoder runs ahead
// of the statements: a constraint failure in an earlier row must still be
// the error reported, and the counts must be exact, whichever comes first.
func TestPipelinedErrorOrder(t *testing.T) {
	rows := make([]string, 1000)
	for i := range rows {
		rows[i] = `{"title":"t` + itoa(i+1) + `"}`
	}
	rows[149] = `{"title":null}` // row 150: NOT NULL
	for _, syntaxRow := range []int{151, 155, 170, 400, 0} {
		in := append([]string(nil), rows...)
		if syntaxRow > 0 {
			in[syntaxRow-1] = `{"title":"x",}`
		}
		for _, serial := range []bool{false, true} {
			db := openDB(t)
			res, err := Insert(context.Background(), db, "t", strings.NewReader(ndjson(in...)), loader.Tune(&Options{
				Columns: []Column{{Name: "title", Type: "TEXT", NotNull: true}}, BatchSize: 100, RowsPerStatement: 10}, loader.Tuning{Serial: serial}))
			var re *RowError
			if !errors.As(err, &re) || re.Row != 150 || !strings.Contains(err.Error(), "NOT NULL") {
				t.Errorf("syntax error in row %d, serial=%v: error %v, want the NOT NULL in row 150", syntaxRow, serial, err)
			}
			if res.Rows != 100 || count(t, db, "t") != 100 {
				t.Errorf("syntax error in row %d, serial=%v: committed %d, table has %d, want 100", syntaxRow, serial, res.Rows, count(t, db, "t"))
			}
		}
	}
}

func TestSerialAndPipelinedAgree(t *testing.T) {
	in := ndjson(`{"a":1,"s":"x"}`, `{"a":2,"s":"y","n":[1]}`, `{"s":"z"}`)
	in = strings.Repeat(in, 500)
	var want string
	for _, serial := range []bool{false, true} {
		for _, per := range []int{1, 5, 128} {
			db := openDB(t)
			if _, err := Insert(context.Background(), db, "t", strings.NewReader(in), loader.Tune(&Options{RowsPerStatement: per, BatchSize: 77, Alter: true, InferRows: 1}, loader.Tuning{Serial: serial})); err != nil {
				t.Fatal(err)
			}
			got := dump(t, db, "SELECT * FROM t")
			if want == "" {
				want = got
			} else if got != want {
				t.Errorf("serial=%v per=%d differs", serial, per)
			}
		}
	}
}

// A STRICT table makes SQLite check types: a value it cannot store is an
// error naming the row, in every statement shape.
func TestStrictTableTypeError(t *testing.T) {
	for _, per := range []int{1, 4, 128} {
		db := openDB(t)
		if _, err := db.Exec(`CREATE TABLE t (a INTEGER, b TEXT) STRICT`); err != nil {
			t.Skipf("this SQLite has no STRICT tables: %v", err)
		}
		in := rowsOf(9, func(i int) string {
			if i == 7 {
				return `{"a":"seven","b":"x"}`
			}
			return `{"a":` + itoa(i) + `,"b":"x"}`
		})
		res, err := Insert(context.Background(), db, "t", strings.NewReader(in), &Options{BatchSize: 3, RowsPerStatement: per})
		var re *RowError
		if !errors.As(err, &re) || re.Row != 7 || re.Offset != int64(strings.Index(in, `{"a":"seven"`)) || !strings.Contains(err.Error(), "cannot store TEXT value in INTEGER column") {
			t.Errorf("per=%d: error %v, want row 7's type error", per, err)
		}
		if res.Rows != 6 || count(t, db, "t") != 6 {
			t.Errorf("per=%d: committed %d, table has %d, want 6", per, res.Rows, count(t, db, "t"))
		}
	}
}

func TestStraySyntax(t *testing.T) {
	for _, in := range []string{`]`, `}`, `{"a":1}]`, `[{"a":1}]]`, `{"a":1},{"a":2}`, `:`, `[{"a":1} {"a":2}]`} {
		db := openDB(t)
		_, err := Insert(context.Background(), db, "t", strings.NewReader(in), nil)
		var re *RowError
		var se *json.SyntaxError
		if !errors.As(err, &re) || !errors.As(err, &se) {
			t.Errorf("%s: error %v, want a syntax error naming a row", in, err)
		}
	}
}
