package postgres

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/jsonpipe/json/internal/loader"
	"github.com/jsonpipe/json/internal/pgtest"
)

func gzipped(t testing.TB, s string) string {
	t.Helper()
	var b bytes.Buffer
	w := gzip.NewWriter(&b)
	w.Write([]byte(s))
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// A byte order mark is skipped and gzip is decompressed, for an array and
// for NDJSON, serially and with workers.
func TestInputBOMAndGzip(t *testing.T) {
	const bom = "\xEF\xBB\xBF"
	array := `[{"a":1,"b":"x"},{"a":2,"b":"é"}]`
	lines := "{\"a\":1,\"b\":\"x\"}\n{\"a\":2,\"b\":\"é\"}\n"
	c := pgtest.Conn(t)
	for i, in := range []string{bom + array, bom + lines, gzipped(t, array), gzipped(t, bom+lines)} {
		for _, workers := range []int{1, 2} {
			if _, err := c.Exec(bg, "DROP TABLE IF EXISTS t"); err != nil {
				t.Fatal(err)
			}
			res := mustLoad(t, c, "t", in, &Options{Workers: workers, InferRows: 1})
			if res.Rows != 2 {
				t.Errorf("input %d, %d workers: %+v", i, workers, res)
			}
			if got, want := dump(t, c, "SELECT * FROM t ORDER BY a"), "1|x\n2|é\n"; got != want {
				t.Errorf("input %d, %d workers: %q, want %q", i, workers, got, want)
			}
		}
	}
}

// Input that looks like CSV says so in its first row's error.
func TestInputLooksLikeCSV(t *testing.T) {
	c := pgtest.Conn(t)
	_, err := load(t, c, "t", "name,age\nann,3\n", nil)
	var ll *loader.LooksLikeError
	if !errors.As(err, &ll) || ll.Like != "CSV" || !strings.Contains(err.Error(), "row 1 at byte 2 (line 1, column 2): invalid character") {
		t.Fatalf("err %v", err)
	}
}

// Syntax errors name their line and column beside the byte offset, with
// the workers too (whose rows hand over to the one decoder at the error).
func TestSyntaxErrorLineColumn(t *testing.T) {
	c := pgtest.Conn(t)
	var b strings.Builder
	for i := range 300 {
		fmt.Fprintf(&b, "{\"id\":%d,\"s\":\"é\"}\r\n", i)
	}
	b.WriteString("{\"id\":300,\"s\":\"é\" \"t\":1}\r\n")
	for _, workers := range []int{1, 2} {
		if _, err := c.Exec(bg, "DROP TABLE IF EXISTS t"); err != nil {
			t.Fatal(err)
		}
		opts := loader.Tune(&Options{Workers: workers, InferRows: 2}, loader.Tuning{BlockSize: 256, Serial: workers == 1})
		_, err := load(t, c, "t", b.String(), opts)
		var re *RowError
		if !errors.As(err, &re) || re.Row != 301 || re.Line != 301 || re.Column != 20 ||
			!strings.Contains(err.Error(), "(line 301, column 20): invalid character '\"' after object key:value pair") {
			t.Errorf("%d workers: %v", workers, err)
		}
	}
}
