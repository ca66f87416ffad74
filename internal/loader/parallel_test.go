package loader

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"testing"

	json "github.com/jsonpipe/json"
	"github.com/jsonpipe/json/internal/rowsrc"
)

// testRows is a worker's rows in a test: the value of each row's one key.
type testRows struct {
	vals []int
	d    *json.Decoder
}

// runParallel loads in (rows {"i":N}; a value that is not a number stops
// a worker) through the workers, and returns the rows they handed out as
// "N@offset" and, when they handed over, where the serial decoder starts
// and what it would read.
func runParallel(t *testing.T, in string, block, maxLine int) (rows []string, serialAt int64, rest string) {
	t.Helper()
	o := Tune(&Options{Workers: 3}, Tuning{BlockSize: block})
	p := StartParallel(o, strings.NewReader(in), Start, maxLine, func(c *Chunk[testRows]) {
		if c.Rows.d == nil {
			c.Rows.d = WorkerDecoder(maxLine)
		}
		r := &c.Rows
		r.vals = r.vals[:0]
		DecodeChunk(c, r.d, rowsrc.Auto, func() error {
			if _, err := r.d.NextToken(); err != nil { // the key
				return err
			}
			tok, err := r.d.NextToken()
			if err != nil {
				return err
			}
			n, err := strconv.Atoi(string(tok))
			if err != nil {
				return ErrSerial
			}
			if _, err := r.d.NextToken(); err != nil { // '}'
				return err
			}
			r.vals = append(r.vals, n)
			return nil
		})
	})
	defer p.Stop()
	for {
		if !p.Running() {
			t.Fatal("not running before the end")
		}
		c, i, _, err := p.Next()
		if err != nil {
			t.Fatal(err)
		}
		if c == nil {
			break
		}
		rows = append(rows, fmt.Sprintf("%d@%d", c.Rows.vals[i], p.Off))
	}
	if !p.Serial {
		return rows, -1, ""
	}
	b, err := io.ReadAll(p.Rest)
	if err != nil {
		t.Fatal(err)
	}
	return rows, p.From, string(b)
}

func TestParallel(t *testing.T) {
	var in strings.Builder
	var want []string
	for i := range 200 {
		want = append(want, fmt.Sprintf("%d@%d", i, in.Len()))
		fmt.Fprintf(&in, `{"i":%d}`+"\n", i)
	}
	rows, at, _ := runParallel(t, in.String(), 64, 1<<20)
	if at != -1 || fmt.Sprint(rows) != fmt.Sprint(want) {
		t.Errorf("rows %v (serial at %d)\nwant %v", rows, at, want)
	}

	// A row the workers cannot take hands it and the rest over, from
	// the end of the row before it.
	stop := strings.Index(in.String(), `{"i":150}`)
	bad := in.String()[:stop] + `{"i":"x"}` + "\n" + in.String()[stop+len(`{"i":150}`)+1:]
	rows, at, rest := runParallel(t, bad, 64, 1<<20)
	if fmt.Sprint(rows) != fmt.Sprint(want[:150]) || at != int64(stop-1) || rest != bad[stop-1:] {
		t.Errorf("bad row: %d rows, serial at %d (want %d), rest %.20q", len(rows), at, stop, rest)
	}

	// So does a line over the workers' limit, from its start.
	long := in.String()[:stop] + `{"i":` + strings.Repeat("1", 100) + "}\n" + in.String()[stop:]
	rows, at, rest = runParallel(t, long, 64, 50)
	if fmt.Sprint(rows) != fmt.Sprint(want[:150]) || at != int64(stop) || rest != long[stop:] {
		t.Errorf("long line: %d rows, serial at %d (want %d), rest %.20q", len(rows), at, stop, rest)
	}
}

func TestLocate(t *testing.T) {
	se := &json.SyntaxError{Offset: 5}
	if off, err := Locate(se, 1, 100, 200); off != 105 || err != se || se.Offset != 105 {
		t.Errorf("syntax error: %d %v", off, err)
	}
	re := &rowsrc.ReadError{Offset: 42, Err: io.ErrUnexpectedEOF}
	if off, err := Locate(fmt.Errorf("x: %w", re), 1, 100, 200); off != 42 || err != io.ErrUnexpectedEOF {
		t.Errorf("read error: %d %v", off, err)
	}
	if off, _ := Locate(io.EOF, 7, 100, 200); off != 7 {
		t.Errorf("other error at off: %d", off)
	}
	if off, _ := Locate(io.EOF, -1, 100, 200); off != 200 {
		t.Errorf("other error at the decoder: %d", off)
	}
	if got := ShortName(strings.Repeat("a", 50)); got != `"`+strings.Repeat("a", 40)+`"... (50 bytes)` {
		t.Errorf("ShortName: %s", got)
	}
}
