package sqlite

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/jsonpipe/json/internal/loader"
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
	lines := ndjson(`{"a":1,"b":"x"}`, `{"a":2,"b":"é"}`)
	for _, tc := range []struct{ name, in string }{
		{"array+BOM", bom + array},
		{"ndjson+BOM", bom + lines},
		{"gzip array", gzipped(t, array)},
		{"gzip ndjson+BOM", gzipped(t, bom+lines)},
	} {
		for _, workers := range []int{1, 2} {
			db := openDB(t)
			res := load(t, db, "t", tc.in, &Options{Workers: workers, InferRows: 1})
			if res.Rows != 2 {
				t.Errorf("%s, %d workers: %+v", tc.name, workers, res)
			}
			if got, want := dump(t, db, "SELECT * FROM t"), "{\"a\":1,\"b\":\"x\"}\n{\"a\":2,\"b\":\"é\"}\n"; got != want {
				t.Errorf("%s, %d workers: %q, want %q", tc.name, workers, got, want)
			}
		}
	}
}

// A BOM anywhere but the start is no whitespace: an error, as before.
func TestInputBOMNotAtStart(t *testing.T) {
	_, err := Insert(context.Background(), openDB(t), "t", strings.NewReader("{\"a\":1}\n\xEF\xBB\xBF{\"a\":2}\n"), nil)
	var re *RowError
	if !errors.As(err, &re) || re.Row != 2 {
		t.Fatalf("err %v", err)
	}
}

// Input that looks like CSV or TSV says so in its first row's error.
func TestInputLooksLikeCSV(t *testing.T) {
	for _, tc := range []struct{ in, like string }{
		{"name,age\nann,3\n", "CSV"},
		{"name\tage\nann\t3\n", "TSV"},
		{"\"name\",\"age\"\n", "CSV"},
		{"name\n", ""},
		{"{\"a\":1}\n{\"a\":,}\n", ""},
	} {
		_, err := Insert(context.Background(), openDB(t), "t", strings.NewReader(tc.in), nil)
		var ll *loader.LooksLikeError
		if got := errors.As(err, &ll); got != (tc.like != "") || got && ll.Like != tc.like {
			t.Errorf("%q: %v", tc.in, err)
		}
		if tc.like != "" && !strings.Contains(err.Error(), "row 1 at byte ") {
			t.Errorf("%q: %v", tc.in, err)
		}
	}
}
