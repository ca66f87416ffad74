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
	if len(o.Columns) != 3 || o.Columns[0].Type != "integer" || o.Columns[1].Type != "real" || o.Columns[2].Type != "text" || o.Delimiter != 0 {
		t.Errorf("options %+v", o)
	}
	if row, off, err := src.Place(3, 99, io.ErrUnexpectedEOF); row != 3 || off != 25 || err.Error() != "line 4: unexpected EOF" {
		t.Errorf("Place: %d %d %v", row, off, err)
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
