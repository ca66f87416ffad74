package tabular

import (
	"bytes"
	"encoding/csv"
	"errors"
	"strings"
	"testing"
)

// field is one cell of a test row: num says Number, null Null, else Text.
type field struct {
	s         string
	num, null bool
}

func write(t *testing.T, layout Layout, cols []string, rows [][]field) string {
	t.Helper()
	var out bytes.Buffer
	w := NewWriter(&out, layout, cols)
	for _, r := range rows {
		for _, f := range r {
			switch {
			case f.null:
				w.Null()
			case f.num:
				w.Number([]byte(f.s))
			default:
				w.Text([]byte(f.s))
			}
		}
		if err := w.EndRow(); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if w.Written() != int64(len(rows)) {
		t.Errorf("Written() = %d, want %d", w.Written(), len(rows))
	}
	return out.String()
}

var (
	hostileCols = []string{"id", "a,b", `say "hi"`, ""}
	hostileRows = [][]field{
		{{s: "1", num: true}, {s: "plain"}, {s: `x "y" z`}, {s: "line\nbreak\r\nend"}},
		{{s: "-2.5", num: true}, {s: ""}, {null: true}, {s: "tab\there, comma"}},
		{{null: true}, {s: " lead"}, {s: `\.`}, {s: "é\x1b[31m"}},
	}
)

func TestCSV(t *testing.T) {
	got := write(t, CSV, hostileCols, hostileRows)
	want := "id,\"a,b\",\"say \"\"hi\"\"\",\"\"\n" +
		"1,plain,\"x \"\"y\"\" z\",\"line\nbreak\r\nend\"\n" +
		"-2.5,\"\",,\"tab\there, comma\"\n" +
		",\" lead\",\"\\.\",é\x1b[31m\n"
	if got != want {
		t.Errorf("got\n%q\nwant\n%q", got, want)
	}
	// encoding/csv reads back every field as it was (NULL as "").
	recs, err := csv.NewReader(strings.NewReader(got)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if recs[0][2] != `say "hi"` || recs[1][3] != "line\nbreak\nend" || recs[3][1] != " lead" {
		t.Errorf("read back %q", recs) // encoding/csv turns \r\n inside a field into \n
	}
}

func TestTSV(t *testing.T) {
	got := write(t, TSV, hostileCols, hostileRows)
	want := "id\ta,b\t\"say \"\"hi\"\"\"\t\"\"\n" +
		"1\tplain\t\"x \"\"y\"\" z\"\t\"line\nbreak\r\nend\"\n" +
		"-2.5\t\"\"\t\t\"tab\there, comma\"\n" +
		"\t\" lead\"\t\"\\.\"\té\x1b[31m\n"
	if got != want {
		t.Errorf("got\n%q\nwant\n%q", got, want)
	}
	r := csv.NewReader(strings.NewReader(got))
	r.Comma = '\t'
	if recs, err := r.ReadAll(); err != nil || len(recs) != 4 || recs[2][3] != "tab\there, comma" {
		t.Errorf("read back %q, %v", recs, err)
	}
}

func TestTable(t *testing.T) {
	got := write(t, Table, hostileCols, hostileRows)
	want := "  id  a,b    say \"hi\"\n" +
		"----  -----  --------  ------------------\n" +
		"   1  plain  x \"y\" z   line\\nbreak\\r\\nend\n" +
		"-2.5                   tab\\there, comma\n" +
		"       lead  \\.        é\\x1b[31m\n"
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	if got := write(t, Table, []string{"n", "s"}, nil); got != "n  s\n-  -\n" {
		t.Errorf("no rows: %q", got)
	}
	if got := write(t, Table, nil, [][]field{{}}); got != "" {
		t.Errorf("no columns: %q", got)
	}
}

func TestNoRows(t *testing.T) {
	if got := write(t, CSV, []string{"a", "b"}, nil); got != "a,b\n" {
		t.Errorf("CSV: %q", got)
	}
	if got := write(t, TSV, []string{"a", "b"}, nil); got != "a\tb\n" {
		t.Errorf("TSV: %q", got)
	}
}

type failWriter struct{ after int }

var errWrite = errors.New("disk full")

func (f *failWriter) Write(p []byte) (int, error) {
	if f.after == 0 {
		return 0, errWrite
	}
	f.after--
	return len(p), nil
}

func TestAbortAndStreaming(t *testing.T) {
	errQuery := errors.New("division by zero")
	for _, layout := range []Layout{CSV, TSV, Table} {
		// No rows: nothing at all, not even the header.
		var out bytes.Buffer
		w := NewWriter(&out, layout, []string{"a"})
		if n, err := w.Abort(errQuery); n != 0 || err != errQuery || out.Len() != 0 {
			t.Errorf("%v: abort before a row: %d, %v, %q", layout, n, err, out.String())
		}
		// Two rows then the error: both written.
		out.Reset()
		w = NewWriter(&out, layout, []string{"a"})
		for _, s := range []string{"x", "y"} {
			w.Text([]byte(s))
			w.EndRow()
		}
		if n, err := w.Abort(errQuery); n != 2 || err != errQuery || !strings.Contains(out.String(), "y\n") {
			t.Errorf("%v: abort after 2 rows: %d, %v, %q", layout, n, err, out.String())
		}
	}
	// CSV is written in pieces as it goes, and a failing writer's error
	// comes back with the rows it took.
	out := &failWriter{after: 1}
	w := NewWriter(out, CSV, []string{"s"})
	long := bytes.Repeat([]byte("x"), 1000)
	var err error
	for i := 0; i < 200 && err == nil; i++ {
		w.Text(long)
		err = w.EndRow()
	}
	if err != errWrite || w.Written() == 0 || w.Written() >= 200 {
		t.Errorf("err %v, %d rows written", err, w.Written())
	}
}

func TestAllocs(t *testing.T) {
	var out bytes.Buffer
	w := NewWriter(&out, CSV, []string{"a", "b", "c"})
	num, text := []byte("12345"), []byte(`a "quoted", text`)
	allocs := testing.AllocsPerRun(1000, func() {
		w.Number(num)
		w.Text(text)
		w.Null()
		w.EndRow()
	})
	if allocs != 0 {
		t.Errorf("%v allocations a row, want 0", allocs)
	}
}
