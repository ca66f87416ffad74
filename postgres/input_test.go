package postgres

import (
	"bytes"
	"compress/gzip"
	"errors"
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
	if !errors.As(err, &ll) || ll.Like != "CSV" || !strings.Contains(err.Error(), "row 1 at byte 0") {
		t.Fatalf("err %v", err)
	}
}
