package postgres

import (
	"fmt"
	"io"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/jackc/pgx/v5"
	"github.com/jsonpipe/json/internal/loader"
	"github.com/jsonpipe/json/internal/pgtest"
	"github.com/jsonpipe/json/internal/rowsrc"
)

// TestWorkersAgree loads each input with one decoding goroutine and with
// several, in chunks of a few dozen bytes so that every input is many
// chunks, and checks that the two loads end alike: the same result, the
// same error (row, offset, text), the same rows in the table. The cases
// cover each way the workers hand the rest of the input to the serial
// path.
func TestWorkersAgree(t *testing.T) {
	many := func(n int, row func(i int) string) string { return rowsOf(n, row) }
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
		{name: "type error", in: many(150, plain) + `{"id":"x"}` + "\n" + many(50, plain)},
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
		{name: "existing column first seen late", in: many(80, func(i int) string { return fmt.Sprintf(`{"a":%d}`, i) }) +
			many(80, func(i int) string { return fmt.Sprintf(`{"a":%d,"b":"late"}`, i) }), create: "CREATE TABLE t (a bigint, b text DEFAULT 'dflt')"},
		{name: "text COPY", in: many(100, func(i int) string { return fmt.Sprintf(`{"a":%d,"at":"2024-01-%02dT00:00:00Z"}`, i, i%28+1) }),
			create: "CREATE TABLE t (a bigint, at timestamptz)"},
		{name: "reader error", in: many(200, plain) + `{"id":1`, reader: func(r io.Reader) io.Reader { return &failingReader{data: readAll(r), err: errBoom} }},
		{name: "1-byte reader", in: many(100, plain), reader: iotest.OneByteReader},
		{name: "upsert", in: many(100, func(i int) string { return fmt.Sprintf(`{"id":%d,"v":%d}`, i%37, i) }),
			opts: Options{PrimaryKey: []string{"id"}, Conflict: Upsert}},
		{name: "replace, batches", in: many(100, func(i int) string { return fmt.Sprintf(`{"id":%d,"v":%d}`, i%37, i) }),
			opts: Options{PrimaryKey: []string{"id"}, Conflict: Replace, BatchSize: 30}},
		{name: "constraint in row 170", in: many(200, plain), create: "CREATE TABLE t (id bigint CHECK (id <> 170), s text, f float8, b bool, j jsonb)"},
		{name: "value too long", in: many(100, func(i int) string { return `{"s":"short"}` }) + `{"s":"` + strings.Repeat("y", 80) + `"}` + "\n" + many(5, plain),
			opts: Options{MaxValueSize: 60}},
		{name: "a row's line over MaxValueSize, its values under it", in: many(100, plain) +
			`{"a":"` + strings.Repeat("a", 40) + `","b":"` + strings.Repeat("b", 40) + `","c":"` + strings.Repeat("c", 40) + `"}` + "\n" + many(20, plain),
			opts: Options{MaxValueSize: 60, Alter: true}},
		{name: "a line longer than the workers take", in: many(100, plain) +
			`{"id":7,"s":"` + strings.Repeat("é", rowsrc.MaxWorkerLine/2) + `"}` + "\n" + many(20, plain)},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			type outcome struct {
				res  Result
				err  string
				rows string
			}
			run := func(workers, conns, batch int) outcome {
				c := pgtest.Conn(t)
				if tc.create != "" {
					if _, err := c.Exec(bg, tc.create); err != nil {
						t.Fatal(err)
					}
				}
				opts := tc.opts
				opts.Workers, opts.Connections, opts.InferRows = workers, conns, 10
				loader.Tune(&opts, loader.Tuning{BlockSize: 40})
				if batch > 0 {
					opts.BatchSize = batch
				}
				var r io.Reader = strings.NewReader(tc.in)
				if tc.reader != nil {
					r = tc.reader(r)
				}
				res, err := Insert(bg, c, "t", r, &opts)
				o := outcome{res: res}
				if err != nil {
					o.err = err.Error()
				}
				var exists bool
				c.QueryRow(bg, "SELECT to_regclass('t') IS NOT NULL").Scan(&exists)
				if exists {
					o.rows = dump(t, c, `SELECT * FROM t ORDER BY t::text COLLATE "C"`)
				}
				return o
			}
			// Several workers on one connection, with the options' batch
			// size; then several workers and connections, with batches of
			// 13 rows.
			for _, v := range []struct{ conns, batch int }{{1, 0}, {3, 13}} {
				serial, par := run(1, 1, v.batch), run(3, v.conns, v.batch)
				if fmt.Sprint(serial.res) != fmt.Sprint(par.res) || serial.err != par.err {
					t.Errorf("connections %d: serial: %+v %s\nworkers: %+v %s", v.conns, serial.res, serial.err, par.res, par.err)
				}
				if serial.rows != par.rows {
					t.Errorf("connections %d: the tables differ:\nserial:\n%.600s\nworkers:\n%.600s", v.conns, serial.rows, par.rows)
				}
				if serial.res.Rows == 0 && serial.err == "" {
					t.Errorf("nothing loaded")
				}
			}
		})
	}
}

func readAll(r io.Reader) []byte {
	b, _ := io.ReadAll(r)
	return b
}

// TestWorkersAgreeRandom is TestWorkersAgree over generated inputs: rows
// of a few keys and every kind of value, with blank lines, several rows a
// line, rows over several lines, arrays, new keys, values that do not fit
// and syntax errors here and there, each loaded with one goroutine and
// with three in chunks of 1 to 64 bytes. (FuzzWorkersAgree in package
// sqlite does this with a fuzzer; against a server it would be too slow.)
func TestWorkersAgreeRandom(t *testing.T) {
	n := 150
	if testing.Short() {
		n = 20
	}
	rng := rand.New(rand.NewPCG(1, 2))
	keys := []string{"a", "b", "c", `d\"q`, "e"}
	vals := []func() string{
		func() string { return strconv.Itoa(rng.IntN(1000) - 500) },
		func() string { return fmt.Sprintf("%d.%d", rng.IntN(100), rng.IntN(100)) },
		func() string { return `"s` + strconv.Itoa(rng.IntN(50)) + `\n"` },
		func() string { return "true" },
		func() string { return "null" },
		func() string { return `[1,{"x":"y"}]` },
	}
	for i := range n {
		var b strings.Builder
		rows := 5 + rng.IntN(60)
		inArray := false
		for r := range rows {
			b.WriteString("{")
			nk := rng.IntN(len(keys))
			for k := range nk {
				if k > 0 {
					b.WriteString(",")
				}
				key := keys[k]
				if r > 10 && rng.IntN(40) == 0 {
					key = "new" // a key first seen late
				}
				fmt.Fprintf(&b, `"%s":%s`, key, vals[k%len(vals)]())
				if rng.IntN(100) == 0 {
					b.WriteString(`"oops"`) // a syntax error
				}
			}
			if rng.IntN(30) == 0 {
				b.WriteString(`,"a":"not a number"`) // does not fit a's type, most often
			}
			b.WriteString("}")
			switch rng.IntN(12) {
			case 0:
				b.WriteString("\n\n  \r\n")
			case 1:
				b.WriteString(" ")
			case 2:
				if !inArray && r > 12 {
					b.WriteString("\n[")
					inArray = true
					continue
				}
				b.WriteString("\n")
			case 3:
				if inArray {
					b.WriteString("]\n")
					inArray = false
					continue
				}
				b.WriteString("\n")
			default:
				if inArray {
					b.WriteString(",\n")
				} else {
					b.WriteString("\n")
				}
			}
		}
		in := strings.TrimSuffix(strings.TrimSuffix(b.String(), ",\n"), "\n")
		if inArray && rng.IntN(2) == 0 {
			in += "]"
		}
		block, alter := 1+rng.IntN(64), rng.IntN(2) == 0
		load := func(workers int) string {
			c, err := pgx.Connect(bg, pgtest.Schema(t))
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close(bg)
			res, err := Insert(bg, c, "t", strings.NewReader(in), loader.Tune(&Options{Workers: workers, InferRows: 3, BatchSize: 7,
				Alter: alter}, loader.Tuning{BlockSize: block}))
			out := fmt.Sprintf("%+v %v\n", res, err)
			var exists bool
			c.QueryRow(bg, "SELECT to_regclass('t') IS NOT NULL").Scan(&exists)
			if exists {
				// Rows in table order: batches on several connections
				// may store them in another order than the input's.
				out += dump(t, c, `SELECT * FROM t ORDER BY t::text COLLATE "C"`)
			}
			return out
		}
		if serial, par := load(1), load(3); !loader.SamePlaces(serial, par) {
			t.Fatalf("input %d (block %d, alter %v):\n%s\nserial:\n%s\nworkers:\n%s", i, block, alter, in, serial, par)
		}
	}
}
