package loader

import (
	"bytes"
	"io"
	"strings"
	"testing"

	"github.com/jsonpipe/json/internal/csvin"
)

func typeName(t csvin.Type) string { return t.String() }

func TestCSVSourceNDJSON(t *testing.T) {
	in := "id,x,s\n1,1.5,a\n2,,\"b\"\"<\"\n3,2,7\n"
	r, o, src, err := PrepareCSV(strings.NewReader(in), &Options{Delimiter: ',', InferRows: 2}, typeName)
	if err != nil {
		t.Fatal(err)
	}
	out, err := io.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"id":1,"x":1.5,"s":"a"}
{"id":2,"x":null,"s":"b\"<"}
{"id":3,"x":2,"s":"7"}
`
	if string(out) != want {
		t.Errorf("NDJSON:\n%s want\n%s", out, want)
	}
	// The backend infers the columns from the typed rows (so PostgreSQL
	// may widen them): no Columns.
	if ty := src.Types(); len(o.Columns) != 0 || len(ty) != 3 || ty[0] != csvin.Integer || ty[1] != csvin.Real || ty[2] != csvin.Text || o.Delimiter != 0 {
		t.Errorf("options %+v, types %v", o, ty)
	}
	if row, off, err := src.Place(3, 99, io.ErrUnexpectedEOF); row != 3 || off != 25 || err.Error() != "line 4: unexpected EOF" {
		t.Errorf("Place: %d %d %v", row, off, err)
	}
}

// Input with a header only gets the header's columns as Columns, so
// that its table is still created; Columns given are kept.
func TestCSVSourceHeaderOnly(t *testing.T) {
	_, o, _, err := PrepareCSV(strings.NewReader("a,b\n"), &Options{Delimiter: ','}, typeName)
	if err != nil {
		t.Fatal(err)
	}
	if len(o.Columns) != 2 || o.Columns[0] != (Column{Name: "a", Type: "text"}) || o.Columns[1] != (Column{Name: "b", Type: "text"}) {
		t.Errorf("columns %+v", o.Columns)
	}
	given := []Column{{Name: "a", Type: "x"}}
	_, o, _, err = PrepareCSV(strings.NewReader("a\n1\n"), &Options{Delimiter: ',', Columns: given}, typeName)
	if err != nil || len(o.Columns) != 1 || o.Columns[0] != given[0] {
		t.Errorf("given columns: %+v, %v", o.Columns, err)
	}
}

// Once its buffers have grown, the source writes rows without allocating.
func TestCSVSourceAllocs(t *testing.T) {
	rec := "12345,\"quoted, with \"\"q\"\"\",3.25,text,\n"
	in := "a,b,c,d,e\n" + strings.Repeat(rec, 20000)
	r, _, _, err := PrepareCSV(bytes.NewReader([]byte(in)), &Options{Delimiter: ',', InferRows: 10}, typeName)
	if err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 4096)
	r.Read(buf)
	allocs := testing.AllocsPerRun(200, func() {
		if _, err := r.Read(buf); err != nil {
			t.Fatal(err)
		}
	})
	if allocs != 0 {
		t.Errorf("%v allocations per Read, want 0", allocs)
	}
}

// TestCSVSourceFlat reads 200,000 rows through reads that seldom end at a
// row's end: the NDJSON held between reads stays about one read long.
// (Appended to without moving what a read left, it held the whole input:
// 188 MB of RSS for a million rows.)
func TestCSVSourceFlat(t *testing.T) {
	rec := "12345,\"quoted, with \"\"q\"\"\",3.25,text,\n"
	in := "a,b,c,d,e\n" + strings.Repeat(rec, 200000)
	r, _, src, err := PrepareCSV(bytes.NewReader([]byte(in)), &Options{Delimiter: ',', InferRows: 10}, typeName)
	if err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 4093)
	lines, most := 0, 0
	for {
		n, err := r.Read(buf)
		lines += bytes.Count(buf[:n], []byte{'\n'})
		most = max(most, cap(src.out))
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	if lines != 200000 {
		t.Fatalf("%d lines of NDJSON, want 200000", lines)
	}
	if most > 4*len(buf) {
		t.Errorf("the NDJSON held between reads grew to %d bytes, for reads of %d", most, len(buf))
	}
}
