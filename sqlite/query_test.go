package sqlite

import (
	"bytes"
	"context"
	stdjson "encoding/json"
	"errors"
	"io/fs"
	"os"
	"runtime"
	"strings"
	"testing"
	"testing/iotest"
)

func TestWriteQueryValues(t *testing.T) {
	db := openDB(t)
	_, err := db.Exec(`CREATE TABLE v ("weird ""name""" TEXT, i INTEGER, r REAL, b BLOB, d DATETIME, flag BOOLEAN);
		INSERT INTO v VALUES ('tab	"q" \ é ' || char(1) || char(10) || char(8232), -9223372036854775808, 1.0, x'00ff10', '2024-01-02 03:04:05', 1);
		INSERT INTO v VALUES (NULL, NULL, 9e999, x'', NULL, 0);
		INSERT INTO v VALUES ('', 0, -1.5e-7, NULL, NULL, NULL);
		INSERT INTO v VALUES (CAST(x'61ff62' AS TEXT), 1, 1e300, NULL, NULL, NULL);`)
	if err != nil {
		t.Fatal(err)
	}
	want := `[{"weird \"name\"":"tab\t\"q\" \\ é \u0001\n\u2028","i":-9223372036854775808,"r":1.0,"b":"AP8Q","d":"2024-01-02T03:04:05Z","flag":true},
{"weird \"name\"":null,"i":null,"r":null,"b":"","d":null,"flag":false},
{"weird \"name\"":"","i":0,"r":-1.5e-7,"b":null,"d":null,"flag":null},
{"weird \"name\"":"a\ufffdb","i":1,"r":1e+300,"b":null,"d":null,"flag":null}]
`
	var b bytes.Buffer
	n, err := WriteQuery(context.Background(), db, &b, Array, "SELECT * FROM v")
	if err != nil || n != 4 {
		t.Fatalf("n=%d err=%v", n, err)
	}
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
	if !stdjson.Valid(b.Bytes()) {
		t.Error("output is not valid JSON")
	}
	b.Reset()
	WriteQuery(context.Background(), db, &b, Lines, "SELECT i, r FROM v WHERE i IS NOT NULL ORDER BY i")
	if got := b.String(); got != ndjson(`{"i":-9223372036854775808,"r":1.0}`, `{"i":0,"r":-1.5e-7}`, `{"i":1,"r":1e+300}`) {
		t.Errorf("lines: %s", got)
	}
}

func TestWriteQueryShapes(t *testing.T) {
	db := openDB(t)
	db.Exec("CREATE TABLE t (a INTEGER)")
	for _, tc := range []struct {
		format Format
		q      string
		args   []any
		want   string
	}{
		{Array, "SELECT * FROM t", nil, "[]\n"},
		{Lines, "SELECT * FROM t", nil, ""},
		{Auto, "SELECT 1 AS x, 'a' AS y", nil, `[{"x":1,"y":"a"}]` + "\n"},
		{Array, "SELECT ? AS a, ? AS b, ? AS c", []any{42, "s", 1.5}, `[{"a":42,"b":"s","c":1.5}]` + "\n"},
		{Lines, "SELECT value AS v FROM json_each('[1,2,3]')", nil, ndjson(`{"v":1}`, `{"v":2}`, `{"v":3}`)},
	} {
		var b bytes.Buffer
		if _, err := WriteQuery(context.Background(), db, &b, tc.format, tc.q, tc.args...); err != nil {
			t.Fatalf("%s: %v", tc.q, err)
		}
		if b.String() != tc.want {
			t.Errorf("%s: %q, want %q", tc.q, b.String(), tc.want)
		}
	}
	if _, err := WriteQuery(context.Background(), db, &bytes.Buffer{}, Array, "SELECT nope FROM t"); err == nil {
		t.Error("bad query gave no error")
	}
	if _, err := WriteQuery(context.Background(), db, &bytes.Buffer{}, Array, "SELECT ?", struct{}{}); err == nil {
		t.Error("bad argument gave no error")
	}
}

func TestWriteQueryRoundTripLarge(t *testing.T) {
	// Enough rows to flush the buffer many times; the export loads back
	// into an identical table.
	db := openDB(t)
	in := tasksJSON(20000, false)
	load(t, db, "tasks", string(in), &Options{PrimaryKey: []string{"id"}})
	var b bytes.Buffer
	n, err := WriteQuery(context.Background(), db, &b, Array, "SELECT * FROM tasks ORDER BY id")
	if err != nil || n != 20000 {
		t.Fatalf("n=%d err=%v", n, err)
	}
	var rows []map[string]any
	if err := stdjson.Unmarshal(b.Bytes(), &rows); err != nil || len(rows) != 20000 {
		t.Fatalf("export does not parse: %v", err)
	}
	load(t, db, "copy", b.String(), &Options{PrimaryKey: []string{"id"}})
	if a, c := dump(t, db, "SELECT * FROM tasks"), dump(t, db, "SELECT * FROM copy"); a != c {
		t.Error("reloaded export differs")
	}
	// Through a 1-byte reader as well.
	res, err := Insert(context.Background(), db, "copy2", iotest.OneByteReader(bytes.NewReader(b.Bytes())), nil)
	if err != nil || res.Rows != 20000 {
		t.Errorf("1-byte reload: %+v %v", res, err)
	}
}

type failWriter struct{ n int }

func (w *failWriter) Write(p []byte) (int, error) {
	if w.n += len(p); w.n > 100<<10 {
		return 0, errBoom
	}
	return len(p), nil
}

func TestWriteQueryErrors(t *testing.T) {
	db := openDB(t)
	load(t, db, "tasks", string(tasksJSON(20000, true)), nil)
	if _, err := WriteQuery(context.Background(), db, &failWriter{}, Array, "SELECT * FROM tasks"); !errors.Is(err, errBoom) {
		t.Errorf("writer error: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := WriteQuery(ctx, db, &bytes.Buffer{}, Array, "SELECT * FROM tasks"); !errors.Is(err, context.Canceled) {
		t.Errorf("canceled: %v", err)
	}
}

func TestAppendFloat(t *testing.T) {
	for f, want := range map[float64]string{0: "0.0", 1: "1.0", -2: "-2.0", 0.1: "0.1", 1e20: "100000000000000000000.0",
		1e21: "1e+21", 1e-6: "0.000001", 1e-7: "1e-7", 123.456: "123.456", 5e-324: "5e-324"} {
		if got := string(appendFloat(nil, f)); got != want {
			t.Errorf("appendFloat(%v) = %s, want %s", f, got, want)
		}
	}
}

func TestAppendStringMatchesEncodingJSON(t *testing.T) {
	for _, s := range []string{"", "plain", "\x00\x1f\x7f", "\"\\/", "é😀", "\xff\xfe", "\u2028\u2029", strings.Repeat("a\n", 100)} {
		var back string
		if err := stdjson.Unmarshal(appendString(nil, s), &back); err != nil {
			t.Fatalf("%q: %v", s, err)
		}
		want := strings.ToValidUTF8(s, "\uFFFD")
		if s == "\xff\xfe" {
			want = "\uFFFD\uFFFD"
		}
		if back != want {
			t.Errorf("%q came back as %q", s, back)
		}
	}
}

// With one P, WriteQuery formats on the reading goroutine; the output is
// the same.
func TestWriteQueryOneProc(t *testing.T) {
	db := openDB(t)
	load(t, db, "tasks", string(tasksJSON(3000, true)), &Options{PrimaryKey: []string{"id"}})
	var want, got bytes.Buffer
	for _, format := range []Format{Array, Lines} {
		want.Reset()
		got.Reset()
		if _, err := WriteQuery(context.Background(), db, &want, format, "SELECT * FROM tasks"); err != nil {
			t.Fatal(err)
		}
		prev := runtime.GOMAXPROCS(1)
		n, err := WriteQuery(context.Background(), db, &got, format, "SELECT * FROM tasks")
		runtime.GOMAXPROCS(prev)
		if err != nil || n != 3000 {
			t.Fatalf("n=%d err=%v", n, err)
		}
		if got.String() != want.String() {
			t.Errorf("format %v: one-P output differs", format)
		}
	}
	prev := runtime.GOMAXPROCS(1)
	defer runtime.GOMAXPROCS(prev)
	if _, err := WriteQuery(context.Background(), db, &failWriter{}, Array, "SELECT * FROM tasks, tasks AS b LIMIT 100000"); !errors.Is(err, errBoom) {
		t.Errorf("writer error: %v", err)
	}
}

func TestWriteQueryPath(t *testing.T) {
	path := t.TempDir() + "/q.db"
	in := `{"a":1,"s":"x"}` + "\n" + `{"a":2,"s":"y"}` + "\n"
	if _, err := InsertPath(context.Background(), path, "t", strings.NewReader(in), nil); err != nil {
		t.Fatal(err)
	}
	for _, dsn := range []string{path, "file:" + path + "?mode=ro", path + "?_mutex=full"} {
		var out strings.Builder
		n, err := WriteQueryPath(context.Background(), dsn, &out, Lines, "SELECT a, s FROM t WHERE a >= ? ORDER BY a", 1)
		if err != nil || n != 2 || out.String() != in {
			t.Errorf("%s: %d rows, %v:\n%s", dsn, n, err, out.String())
		}
	}
}

// TestWriteQueryPathMissing: a query on a path that names no file fails
// with os.Stat's error and creates nothing.
func TestWriteQueryPathMissing(t *testing.T) {
	dir := t.TempDir()
	for _, path := range []string{dir + "/none.db", dir + "/none.db?_mutex=full"} {
		var out strings.Builder
		_, err := WriteQueryPath(context.Background(), path, &out, Lines, "SELECT 1")
		if !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("%s: error %v, want one of fs.ErrNotExist", path, err)
		}
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("files created: %v", entries)
	}
}
