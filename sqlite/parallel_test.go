package sqlite

import (
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"io"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/jsonpipe/json/internal/loader"
	"github.com/jsonpipe/json/internal/rowsrc"
)

// TestWorkersAgree loads each input with one decoding goroutine and with
// several, in chunks of a few dozen bytes so that every input is many
// chunks, and checks that the two loads end alike: the same result, the
// same error (row, offset, text), the same rows. The cases cover each way
// the workers hand the rest of the input to the serial path.
func TestWorkersAgree(t *testing.T) {
	many := rowsOf
	plain := func(i int) string {
		return fmt.Sprintf(`{"id":%d,"s":"x\ty%d","f":%d.5,"b":%v,"j":[%d]}`, i, i, i, i%2 == 0, i)
	}
	cases := []struct {
		name   string
		in     string
		opts   Options
		create string
		reader func(io.Reader) io.Reader
	}{
		{name: "plain", in: many(300, plain)},
		{name: "blank lines and CRLF", in: strings.ReplaceAll(many(100, plain), "\n", "\r\n\n  \n")},
		{name: "several objects a line", in: strings.ReplaceAll(many(120, plain), "}\n{", "} {")},
		{name: "objects over several lines", in: many(20, plain) + strings.ReplaceAll(many(60, plain), ",", ",\n")},
		{name: "new key with Alter", in: many(100, plain) + `{"id":1000,"new":"n"}` + "\n" + many(50, plain), opts: Options{Alter: true}},
		{name: "new key without Alter", in: many(100, plain) + `{"id":1000,"new":"n"}` + "\n" + many(50, plain)},
		{name: "other case of a key", in: many(100, plain) + `{"ID":1000,"S":"n"}` + "\n" + many(50, plain)},
		{name: "two keys for one column", in: many(100, plain) + `{"id":1000,"S":"n","s":"m"}` + "\n" + many(50, plain)},
		{name: "other case of a key twice", in: many(100, plain) + `{"id":1000,"S":"n","\u0053":"m"}` + "\n" + many(50, plain)},
		{name: "syntax error", in: many(120, plain) + `{"id":1,,}` + "\n" + many(50, plain)},
		{name: "a number for a row", in: many(50, plain) + "12\n" + many(10, plain)},
		{name: "an array later", in: many(50, plain) + `[{"id":7},{"id":8}]` + "\n" + many(10, plain)},
		{name: "an array over many chunks", in: many(50, plain) + "[" + strings.ReplaceAll(strings.TrimSpace(many(80, plain)), "\n", ",\n") + "]\n" + many(10, plain)},
		{name: "an array left open", in: many(50, plain) + "[" + strings.ReplaceAll(strings.TrimSpace(many(20, plain)), "\n", ",\n") + "\n"},
		// A worker that decoded an empty array itself took the text
		// after it for a row ("row is a number"), where the serial
		// decoder says it is text after the array.
		{name: "an empty array, then text", in: many(50, plain) + "[]\n" + many(10, plain) + "12\n" + many(5, plain)},
		{name: "an array before the workers, then text", in: "[]\n" + many(50, plain) + "12\n"},
		{name: "number out of range", in: many(50, plain) + `{"f":1e999}` + "\n" + many(10, plain)},
		{name: "reader error", in: many(200, plain) + `{"id":1`, reader: func(r io.Reader) io.Reader { b, _ := io.ReadAll(r); return &failingReader{data: b, err: errBoom} }},
		{name: "1-byte reader", in: many(100, plain), reader: iotest.OneByteReader},
		{name: "upsert", in: many(100, func(i int) string { return fmt.Sprintf(`{"id":%d,"v":%d}`, i%37, i) }),
			opts: Options{PrimaryKey: []string{"id"}, Conflict: Upsert}},
		{name: "value too long", in: many(100, func(i int) string { return `{"s":"short"}` }) + `{"s":"` + strings.Repeat("y", 80) + `"}` + "\n" + many(5, plain),
			opts: Options{MaxValueSize: 60}},
		{name: "a row's line over MaxValueSize, its values under it", in: many(100, plain) +
			`{"a":"` + strings.Repeat("a", 40) + `","b":"` + strings.Repeat("b", 40) + `","c":"` + strings.Repeat("c", 40) + `"}` + "\n" + many(20, plain),
			opts: Options{MaxValueSize: 60, Alter: true}},
		{name: "a line longer than the workers take", in: many(100, plain) +
			`{"id":7,"s":"` + strings.Repeat("é", rowsrc.MaxWorkerLine/2) + `"}` + "\n" + many(20, plain)},
		{name: "unique in row 170, batches", in: many(200, func(i int) string { return fmt.Sprintf(`{"id":%d}`, i%170) }),
			create: "CREATE TABLE t (id INTEGER PRIMARY KEY)", opts: Options{BatchSize: 30}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			type outcome struct {
				res  Result
				err  string
				rows string
			}
			run := func(workers int) outcome {
				db := openDB(t)
				if tc.create != "" {
					if _, err := db.Exec(tc.create); err != nil {
						t.Fatal(err)
					}
				}
				opts := tc.opts
				opts.Workers, opts.InferRows = workers, 10
				loader.Tune(&opts, loader.Tuning{BlockSize: 40})
				var r io.Reader = strings.NewReader(tc.in)
				if tc.reader != nil {
					r = tc.reader(r)
				}
				res, err := Insert(context.Background(), db, "t", r, &opts)
				o := outcome{res: res}
				if err != nil {
					o.err = err.Error()
				}
				var n int
				db.QueryRow("SELECT count(*) FROM sqlite_master WHERE name = 't'").Scan(&n)
				if n > 0 {
					o.rows = dump(t, db, "SELECT * FROM t ORDER BY 1")
				}
				return o
			}
			serial, par := run(1), run(3)
			if fmt.Sprint(serial.res) != fmt.Sprint(par.res) || serial.err != par.err {
				t.Errorf("serial: %+v %s\nworkers: %+v %s", serial.res, serial.err, par.res, par.err)
			}
			if serial.rows != par.rows {
				t.Errorf("the tables differ:\nserial:\n%.600s\nworkers:\n%.600s", serial.rows, par.rows)
			}
			if serial.res.Rows == 0 && serial.err == "" {
				t.Errorf("nothing loaded")
			}
		})
	}
}

// FuzzWorkersAgree loads arbitrary bytes with one decoding goroutine and
// with three, in chunks of a few bytes, and requires the same result, the
// same error and the same rows.
//
//	go test ./sqlite -run='^$' -fuzz=FuzzWorkersAgree -fuzztime=1m
func FuzzWorkersAgree(f *testing.F) {
	for _, s := range []string{
		"{\"a\":1}\n{\"a\":2,\"b\":\"x\"}\n{\"a\":3}\n{\"a\":4}\n",
		"{\"a\":1}\n{\"a\":\n2}\n{\"a\":3}\n",
		"{\"a\":1}\n{\"a\":2}\n[{\"a\":3}]\n{\"A\":4}\n",
		"{\"a\":1}\r\n\r\n{\"a\":2} {\"a\":3}\n{\"a\":1e999}\n",
		"{\"a\":1}\n{\"a\":2}\n{\"a\":\"\\ud800\"}\n{\"a\",}\n",
	} {
		f.Add([]byte(s), uint8(3), false)
	}
	f.Fuzz(func(t *testing.T, in []byte, block uint8, alter bool) {
		run := func(workers int) string {
			db, err := sql.Open("sqlite3", ":memory:")
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			db.SetMaxOpenConns(1)
			opts := loader.Tune(&Options{Alter: alter, BatchSize: 3, RowsPerStatement: 2, InferRows: 1,
				Workers: workers}, loader.Tuning{BlockSize: int(block%32) + 1})
			res, err := Insert(context.Background(), db, "t", bytes.NewReader(in), opts)
			out := fmt.Sprintf("%+v %v\n", res, err)
			var n int
			db.QueryRow("SELECT count(*) FROM sqlite_master WHERE name = 't'").Scan(&n)
			if n > 0 {
				out += dump(t, db, "SELECT * FROM t")
			}
			return out
		}
		if serial, par := run(1), run(3); !loader.SamePlaces(serial, par) {
			t.Fatalf("serial:\n%s\nworkers:\n%s", serial, par)
		}
	})
}
