package json

import (
	"bytes"
	stdjson "encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"testing/iotest"
	"time"

	"github.com/jsonpipe/json/internal/chunkio"
	"github.com/jsonpipe/json/internal/corpus"
	"github.com/jsonpipe/json/internal/lines"
)

// lineRow is a typed target for the DecodeLines tests.
type lineRow struct {
	A int            `json:"a"`
	B string         `json:"b,omitempty"`
	C []float64      `json:"c,omitempty"`
	M map[string]any `json:"m,omitempty"`
	P *bool          `json:"p,omitempty"`
}

// serialLines is DecodeLines' reference: split on '\n', drop a '\r' before
// it, skip blank lines, Unmarshal the others one by one.
func serialLines[T any](in []byte) ([]T, error) {
	var vals []T
	off := int64(0)
	for i, l := range bytes.SplitAfter(in, []byte("\n")) {
		start := off
		off += int64(len(l))
		l = bytes.TrimSuffix(bytes.TrimSuffix(l, []byte("\n")), []byte("\r"))
		if len(bytes.Trim(l, " \t\r")) == 0 {
			continue
		}
		var v T
		if err := Unmarshal(l, &v); err != nil {
			return vals, &LineError{Line: int64(i + 1), Offset: start, Err: err}
		}
		vals = append(vals, v)
	}
	return vals, nil
}

// collectLines ranges over seq and returns its values and the error that
// ended it, failing t if anything follows an error.
func collectLines[T any](t testing.TB, seq func(func(T, error) bool)) ([]T, error) {
	t.Helper()
	var vals []T
	var err error
	for v, e := range seq {
		if err != nil {
			t.Fatalf("yielded %v, %v after the error %v", v, e, err)
		}
		if e != nil {
			if !reflect.ValueOf(&v).Elem().IsZero() {
				t.Errorf("value %v with the error %v; want the zero value", v, e)
			}
			err = e
			continue
		}
		vals = append(vals, v)
	}
	return vals, err
}

// lineReaders are the ways the DecodeLines tests feed their input.
var lineReaders = []struct {
	name string
	wrap func(io.Reader) io.Reader
}{
	{"whole", func(r io.Reader) io.Reader { return r }},
	{"OneByteReader", iotest.OneByteReader},
	{"HalfReader", iotest.HalfReader},
	{"DataErrReader", iotest.DataErrReader},
	{"chunks", func(r io.Reader) io.Reader { return &chunkio.Reader{R: r, Sizes: []int{1, 3, 2, 4}} }},
}

func manyLines(n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, `{"a":%d,"b":"row %d","c":[%d.5,2],"m":{"k":[%d]}}`+"\n", i, i, i, i)
		if i%7 == 0 {
			b.WriteString("  \r\n")
		}
	}
	return b.String()
}

var decodeLinesCases = []struct {
	name      string
	in        string
	n         int   // values before the error
	line, off int64 // the error's; 0: none
	typedOnly bool  // the expectations are lineRow's; into any, all decode
}{
	{"empty", "", 0, 0, 0, false},
	{"blank lines", "\n \n\t\n{\"a\":1}\n\n \r\n", 1, 0, 0, false},
	{"crlf", "{\"a\":1}\r\n{\"a\":2}\r\n", 2, 0, 0, false},
	{"no final newline", "{\"a\":1}\n{\"a\":2}", 2, 0, 0, false},
	{"whitespace, no final newline", "{\"a\":1}\n  ", 1, 0, 0, false},
	{"spaces around", "  {\"a\":1}  \n\t{\"a\":2}\t\r\n", 2, 0, 0, false},
	{"scalars", "1\n\"x\"\ntrue\nnull\n[1,2]\n", 5, 0, 0, false},
	{"many", manyLines(500), 500, 0, 0, false},
	{"huge line", "{\"a\":1}\n{\"a\":2,\"b\":\"" + strings.Repeat("é\\n", 20000) + "\"}\n{\"a\":3}\n", 3, 0, 0, false},
	{"error, first line", "{\"a\":}\n{\"a\":2}\n", 0, 1, 0, false},
	{"error, middle line", "{\"a\":1}\n\n{x}\n{\"a\":3}\n", 1, 3, 9, false},
	{"error, last line", "{\"a\":1}\n{\"a\":2}\n[1,", 2, 3, 16, false},
	{"error, last line, crlf", "{\"a\":1}\r\n{\"a\":", 1, 2, 9, false},
	{"error, after many", manyLines(300) + "{\"a\":1}}\n" + manyLines(10), 300, 344, int64(len(manyLines(300))), false},
	{"two values", "{\"a\":1}\n{\"a\":2} {\"a\":3}\n", 1, 2, 8, false},
	{"two numbers", "1 2\n", 0, 1, 0, false},
	{"value split over lines", "{\"a\":\n1}\n", 0, 1, 0, false},
	{"lone cr inside", "{\"a\":1}\r{\"a\":2}\n", 0, 1, 0, false},
	{"type error", "{\"a\":1}\n{\"a\":\"x\",\"b\":\"y\"}\n{\"a\":3}\n", 1, 2, 8, true},
	{"invalid UTF-8", "\"\xff\"\n{\"b\":\"\xc3\"}\n", 2, 0, 0, false},
	{"bom", "\xef\xbb\xbf{\"a\":1}\n", 0, 1, 0, false},
}

func TestDecodeLines(t *testing.T) {
	for _, tc := range decodeLinesCases {
		t.Run(tc.name, func(t *testing.T) {
			t.Run("any", func(t *testing.T) { testDecodeLinesCase[any](t, tc.in, tc.n, tc.line, tc.off, !tc.typedOnly) })
			t.Run("typed", func(t *testing.T) { testDecodeLinesCase[lineRow](t, tc.in, tc.n, tc.line, tc.off, tc.line != 0) })
		})
	}
}

// testDecodeLinesCase checks DecodeLines against serialLines on in, and
// serialLines against the case's expectations when strict (a typed target
// fails on inputs made for any) and against encoding/json.
func testDecodeLinesCase[T any](t *testing.T, in string, n int, line, off int64, strict bool) {
	want, wantErr := serialLines[T]([]byte(in))
	if strict && (len(want) != n || (wantErr == nil) != (line == 0)) {
		t.Fatalf("reference: %d values, %v; the case says %d values, error at line %d", len(want), wantErr, n, line)
	}
	if strict && line != 0 {
		var le *LineError
		if !errors.As(wantErr, &le) || le.Line != line || le.Offset != off {
			t.Fatalf("reference error %v; the case says line %d at byte %d", wantErr, line, off)
		}
	}
	checkStdLines[T](t, in, want, wantErr)
	for _, workers := range []int{1, 2, 8} {
		for _, rd := range lineReaders {
			for _, block := range []int{7, 64, 0} {
				name := fmt.Sprintf("workers=%d/%s/block=%d", workers, rd.name, block)
				got, err := collectLines(t, decodeLines[T](rd.wrap(strings.NewReader(in)), lines.Options{Workers: workers, BlockSize: block}))
				if !reflect.DeepEqual(got, want) {
					t.Fatalf("%s: %d values, want %d:\n got %v\nwant %v", name, len(got), len(want), got, want)
				}
				if !reflect.DeepEqual(err, wantErr) {
					t.Fatalf("%s: error %#v, want %#v", name, err, wantErr)
				}
			}
		}
	}
}

// checkStdLines checks the reference against encoding/json, line by line:
// the same values, and the same error for the same line.
func checkStdLines[T any](t *testing.T, in string, want []T, wantErr error) {
	t.Helper()
	var vals []T
	for _, l := range strings.Split(in, "\n") {
		l = strings.TrimSuffix(l, "\r")
		if strings.Trim(l, " \t\r") == "" {
			continue
		}
		var v T
		if err := stdjson.Unmarshal([]byte(l), &v); err != nil {
			var le *LineError
			// All of the error against the classic encoding/json, its
			// class against the v2-backed one (stdjson_contract_test.go).
			if !errors.As(wantErr, &le) || diffErr(le.Err) != diffErr(err) {
				t.Fatalf("encoding/json fails with %s; the reference with %v", diffErr(err), wantErr)
			}
			break
		}
		vals = append(vals, v)
	}
	if !reflect.DeepEqual(vals, want) {
		t.Fatalf("encoding/json gives %v, the reference %v", vals, want)
	}
}

// TestDecodeLinesError checks a LineError's fields and text: Offset is the
// line's, Err is Unmarshal's, its Offset counted from the line's start.
func TestDecodeLinesError(t *testing.T) {
	in := "{\"a\":1}\n\n{\"a\":2,}\n"
	_, err := collectLines(t, DecodeLines[lineRow](strings.NewReader(in), nil))
	var le *LineError
	var se *SyntaxError
	if !errors.As(err, &le) || !errors.As(err, &se) {
		t.Fatalf("error %#v, want a *LineError wrapping a *SyntaxError", err)
	}
	if le.Line != 3 || le.Offset != 9 || se.Offset != 8 || in[le.Offset+se.Offset-1] != '}' {
		t.Errorf("line %d at byte %d, SyntaxError at %d", le.Line, le.Offset, se.Offset)
	}
	if want := `json: line 3 at byte 9: invalid character '}' looking for beginning of object key string`; err.Error() != want {
		t.Errorf("text %q\nwant %q", err, want)
	}

	_, err = collectLines(t, DecodeLines[lineRow](strings.NewReader("{\"a\":1}\r\n{\"a\":\"x\"}"), nil))
	var te *UnmarshalTypeError
	if !errors.As(err, &te) || te.Offset != 8 || te.Field != "a" {
		t.Fatalf("error %#v, want a *LineError wrapping an *UnmarshalTypeError", err)
	}
	if want := `json: line 2 at byte 9: cannot unmarshal string into Go struct field lineRow.a of type int`; err.Error() != want {
		t.Errorf("text %q\nwant %q", err, want)
	}
}

func TestDecodeLinesMaxLineSize(t *testing.T) {
	for _, tc := range []struct {
		name      string
		in        string
		max       int
		n         int
		line, off int64
	}{
		{"all fit", "[1,2]\r\n[12345]\n[123]", 7, 3, 0, 0},
		{"cr counts", "[1,2]\r\n[123456]\r\n[1]\n", 8, 1, 2, 7},
		{"last line", "[1]\n[1234567]", 8, 1, 2, 4},
		{"first line", "[1234567]\n[1]\n", 8, 0, 1, 0},
	} {
		for _, workers := range []int{1, 3} {
			t.Run(fmt.Sprintf("%s/workers=%d", tc.name, workers), func(t *testing.T) {
				vals, err := collectLines(t, DecodeLines[[]int](strings.NewReader(tc.in), &LinesOptions{Workers: workers, MaxLineSize: tc.max}))
				if len(vals) != tc.n {
					t.Errorf("%d values, want %d", len(vals), tc.n)
				}
				if tc.line == 0 {
					if err != nil {
						t.Fatal(err)
					}
					return
				}
				var le *LineError
				if !errors.As(err, &le) || !errors.Is(err, ErrLineTooLong) || le.Line != tc.line || le.Offset != tc.off {
					t.Fatalf("error %v, want line %d at byte %d too long", err, tc.line, tc.off)
				}
			})
		}
	}
}

// errAfter returns its data, then err.
type errAfter struct {
	data string
	err  error
}

func (r *errAfter) Read(p []byte) (int, error) {
	if r.data == "" {
		return 0, r.err
	}
	n := copy(p, r.data)
	r.data = r.data[n:]
	return n, nil
}

var errLinesBoom = errors.New("boom")

// TestDecodeLinesReadError checks that a reader's error comes out as it is,
// after the values of every line read whole before it.
func TestDecodeLinesReadError(t *testing.T) {
	many := manyLines(400)
	cut := strings.LastIndexByte(many[:len(many)/2], '\n') + 1
	before, err := serialLines[any]([]byte(many[:cut]))
	nCut := len(before)
	if err != nil || nCut < 100 {
		t.Fatal(nCut, err)
	}
	for _, tc := range []struct {
		name string
		r    func() io.Reader
		n    int // values before the error
		err  error
	}{
		{"at once", func() io.Reader { return iotest.ErrReader(errLinesBoom) }, 0, errLinesBoom},
		{"after a line", func() io.Reader { return &errAfter{"1\n2\n", errLinesBoom} }, 2, errLinesBoom},
		{"inside a line", func() io.Reader { return &errAfter{"1\n2\n[3,", io.ErrUnexpectedEOF} }, 2, io.ErrUnexpectedEOF},
		{"inside a number", func() io.Reader { return &errAfter{"1\n2\n33", errLinesBoom} }, 2, errLinesBoom},
		{"after many", func() io.Reader { return &errAfter{many[:cut+5], errLinesBoom} }, nCut, errLinesBoom},
		{"timeout", func() io.Reader { return iotest.TimeoutReader(strings.NewReader("1\n2\n3")) }, 2, iotest.ErrTimeout},
		{"DataErrReader", func() io.Reader { return iotest.DataErrReader(strings.NewReader("1\n2\n3")) }, 3, nil},
	} {
		for _, workers := range []int{1, 2, 8} {
			for _, block := range []int{7, 0} {
				t.Run(fmt.Sprintf("%s/workers=%d/block=%d", tc.name, workers, block), func(t *testing.T) {
					vals, err := collectLines(t, decodeLines[any](tc.r(), lines.Options{Workers: workers, BlockSize: block}))
					if len(vals) != tc.n || err != tc.err {
						t.Fatalf("%d values, %v; want %d values, %v as it is", len(vals), err, tc.n, tc.err)
					}
				})
			}
		}
	}
}

// checkNoLeakedGoroutines fails t if goroutines started during the test are
// still running at its end.
func checkNoLeakedGoroutines(t *testing.T) {
	t.Helper()
	before := runtime.NumGoroutine()
	t.Cleanup(func() {
		t.Helper()
		for deadline := time.Now().Add(5 * time.Second); runtime.NumGoroutine() > before; time.Sleep(time.Millisecond) {
			if time.Now().After(deadline) {
				buf := make([]byte, 1<<20)
				t.Errorf("%d goroutines before, %d after:\n%s", before, runtime.NumGoroutine(), buf[:runtime.Stack(buf, true)])
				return
			}
		}
	})
}

// TestDecodeLinesBreak checks that breaking out of the loop, from the
// middle of a chunk or at an error, stops every goroutine.
func TestDecodeLinesBreak(t *testing.T) {
	in := manyLines(5000)
	for _, workers := range []int{1, 2, 8} {
		for _, after := range []int{1, 100, 4000} {
			t.Run(fmt.Sprintf("workers=%d/after=%d", workers, after), func(t *testing.T) {
				checkNoLeakedGoroutines(t)
				n := 0
				for v, err := range decodeLines[lineRow](strings.NewReader(in), lines.Options{Workers: workers, BlockSize: 4096}) {
					if err != nil || v.A != n {
						t.Fatalf("value %d: %v, %v", n, v, err)
					}
					if n++; n == after {
						break
					}
				}
			})
		}
		t.Run(fmt.Sprintf("workers=%d/error", workers), func(t *testing.T) {
			checkNoLeakedGoroutines(t)
			_, err := collectLines(t, decodeLines[lineRow](strings.NewReader(in[:len(in)/2]+"x\n"+in), lines.Options{Workers: workers, BlockSize: 4096}))
			if err == nil {
				t.Fatal("no error")
			}
		})
	}
}

// TestDecodeLinesValuesApart checks that values yielded earlier are not
// touched by the decoding of later ones (the workers reuse their slices).
func TestDecodeLinesValuesApart(t *testing.T) {
	in := manyLines(3000)
	want, _ := serialLines[lineRow]([]byte(in))
	var got []lineRow
	for v, err := range decodeLines[lineRow](strings.NewReader(in), lines.Options{Workers: 3, BlockSize: 512}) {
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, v)
		if len(got) > 1 && !reflect.DeepEqual(got[len(got)-2], want[len(got)-2]) {
			t.Fatalf("value %d changed after it was yielded", len(got)-2)
		}
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatal("values differ from the reference")
	}
}

// ndjsonRows returns the rows of a wide-corpus file as NDJSON, each
// re-encoded on one line by encoding/json, and the row count, or ok false
// for a file that is not rows.
func ndjsonRows(f corpus.File) (ndjson []byte, n int, ok bool) {
	var rows []stdjson.RawMessage
	switch f.Name {
	case "flights", "movies", "airports":
		if stdjson.Unmarshal(f.Data, &rows) != nil {
			return nil, 0, false
		}
	case "earthquakes":
		var doc struct{ Features []stdjson.RawMessage }
		if stdjson.Unmarshal(f.Data, &doc) != nil {
			return nil, 0, false
		}
		rows = doc.Features
	default:
		return nil, 0, false
	}
	var b bytes.Buffer
	for _, r := range rows {
		if stdjson.Compact(&b, r) != nil {
			return nil, 0, false
		}
		b.WriteByte('\n')
	}
	return b.Bytes(), len(rows), true
}

// lineCorpus runs run for each row file of the wide corpus with its NDJSON
// and its row type.
func lineCorpus(tb testing.TB, run func(name string, ndjson []byte, rows int, decode func(ndjson []byte, workers int) (int, error), serial func(ndjson []byte) (int, error))) {
	for _, f := range corpus.Wide(tb) {
		ndjson, n, ok := ndjsonRows(f)
		if !ok {
			continue
		}
		switch f.Name {
		case "flights":
			run(f.Name, ndjson, n, decodeCount[corpus.Flight], serialCount[corpus.Flight])
		case "movies":
			run(f.Name, ndjson, n, decodeCount[corpus.Movie], serialCount[corpus.Movie])
		case "airports":
			run(f.Name, ndjson, n, decodeCount[corpus.Airport], serialCount[corpus.Airport])
		case "earthquakes":
			run(f.Name, ndjson, n, decodeCount[corpus.QuakeFeature], serialCount[corpus.QuakeFeature])
		}
	}
}

// lineSink keeps the last value decoded reachable, as a consumer would.
var lineSink any

// decodeCount decodes ndjson with DecodeLines and counts the values.
func decodeCount[T any](ndjson []byte, workers int) (int, error) {
	n := 0
	for v, err := range DecodeLines[T](bytes.NewReader(ndjson), &LinesOptions{Workers: workers}) {
		if err != nil {
			return n, err
		}
		if n++; n&1023 == 0 {
			lineSink = v
		}
	}
	return n, nil
}

// serialCount is decodeCount's baseline: a plain loop over the lines, with
// Unmarshal.
func serialCount[T any](ndjson []byte) (int, error) {
	n := 0
	for len(ndjson) > 0 {
		i := bytes.IndexByte(ndjson, '\n')
		if i < 0 {
			i = len(ndjson)
		}
		var v T
		if err := Unmarshal(ndjson[:i], &v); err != nil {
			return n, err
		}
		if n++; n&1023 == 0 {
			lineSink = v
		}
		ndjson = ndjson[min(i+1, len(ndjson)):]
	}
	return n, nil
}

// TestDecodeLinesCorpus checks, on the rows of the wide corpus, that
// DecodeLines gives the values of Unmarshal and of encoding/json line by
// line, and that the benchmark's bodies count every row.
func TestDecodeLinesCorpus(t *testing.T) {
	lineCorpus(t, func(name string, ndjson []byte, rows int, decode func([]byte, int) (int, error), serial func([]byte) (int, error)) {
		t.Run(name, func(t *testing.T) {
			for _, workers := range []int{1, 2} {
				if n, err := decode(ndjson, workers); n != rows || err != nil {
					t.Fatalf("workers=%d: %d rows, %v; want %d", workers, n, err, rows)
				}
			}
			if n, err := serial(ndjson); n != rows || err != nil {
				t.Fatalf("serial: %d rows, %v; want %d", n, err, rows)
			}
			var want []any
			switch name {
			case "flights":
				want = corpusLines[corpus.Flight](t, ndjson)
			case "movies":
				want = corpusLines[corpus.Movie](t, ndjson)
			case "airports":
				want = corpusLines[corpus.Airport](t, ndjson)
			case "earthquakes":
				want = corpusLines[corpus.QuakeFeature](t, ndjson)
			}
			if len(want) != rows {
				t.Fatalf("%d rows decoded, want %d", len(want), rows)
			}
		})
	})
}

// corpusLines decodes ndjson with DecodeLines on 3 goroutines in blocks of
// 4 KiB, and checks the values against Unmarshal's and encoding/json's.
func corpusLines[T any](t *testing.T, ndjson []byte) []any {
	got, err := collectLines(t, decodeLines[T](bytes.NewReader(ndjson), lines.Options{Workers: 3, BlockSize: 4096}))
	if err != nil {
		t.Fatal(err)
	}
	want, err := serialLines[T](ndjson)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatal("DecodeLines and Unmarshal differ")
	}
	out := make([]any, len(got))
	for i, l := range bytes.Split(bytes.TrimSuffix(ndjson, []byte("\n")), []byte("\n")) {
		var v T
		if err := stdjson.Unmarshal(l, &v); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got[i], v) {
			t.Fatalf("line %d: DecodeLines gives %+v, encoding/json %+v", i+1, got[i], v)
		}
		out[i] = got[i]
	}
	return out
}

// BenchmarkDecodeLines decodes the rows of the wide corpus's row files as
// NDJSON into their typed row structs: workers=serial is a plain loop over
// the lines with Unmarshal, workers=N is DecodeLines on N goroutines.
//
//	go test -run='^$' -bench=DecodeLines -benchmem -count=10 | tee new.txt
//	benchstat -col /workers new.txt
//
// Each file's rows are repeated to make a stream of at least 32 MB, as a
// log or an export would be: a file of one or two megabytes is only a few
// of DecodeLines' blocks, too few to share among the workers.
func BenchmarkDecodeLines(b *testing.B) {
	lineCorpus(b, func(name string, ndjson []byte, rows int, decode func([]byte, int) (int, error), serial func([]byte) (int, error)) {
		k := (32<<20 + len(ndjson) - 1) / len(ndjson)
		ndjson, rows = bytes.Repeat(ndjson, k), rows*k
		b.Run("workers=serial/"+name, func(b *testing.B) {
			b.SetBytes(int64(len(ndjson)))
			b.ReportAllocs()
			for b.Loop() {
				if n, err := serial(ndjson); n != rows || err != nil {
					b.Fatal(n, err)
				}
			}
		})
		for _, workers := range []int{1, 2} {
			b.Run(fmt.Sprintf("workers=%d/%s", workers, name), func(b *testing.B) {
				b.SetBytes(int64(len(ndjson)))
				b.ReportAllocs()
				for b.Loop() {
					if n, err := decode(ndjson, workers); n != rows || err != nil {
						b.Fatal(n, err)
					}
				}
			})
		}
	})
}

// FuzzDecodeLines checks DecodeLines against serialLines, on 1 and 3
// goroutines, with blocks of a few bytes so that chunks are cut often.
func FuzzDecodeLines(f *testing.F) {
	for _, tc := range decodeLinesCases {
		if len(tc.in) < 2000 {
			f.Add([]byte(tc.in), uint8(5))
		}
	}
	f.Add([]byte("{\"a\":1,\"c\":[1.5]}\n\n{\"a\":2,\"m\":{\"x\":null}}\r\n[]\n"), uint8(1))
	f.Fuzz(func(t *testing.T, in []byte, block uint8) {
		fuzzDecodeLines[any](t, in, int(block%16)+1)
		fuzzDecodeLines[lineRow](t, in, int(block%16)+1)
	})
}

func fuzzDecodeLines[T any](t *testing.T, in []byte, block int) {
	want, wantErr := serialLines[T](in)
	for _, workers := range []int{1, 3} {
		got, err := collectLines(t, decodeLines[T](bytes.NewReader(in), lines.Options{Workers: workers, BlockSize: block}))
		if !reflect.DeepEqual(got, want) || !reflect.DeepEqual(err, wantErr) {
			t.Fatalf("workers=%d, block=%d:\n got %v, %v\nwant %v, %v", workers, block, got, err, want, wantErr)
		}
	}
}

// TestDecodeLinesAllocs checks that decoding allocates per chunk, not per
// line, beyond what the values themselves need (here nothing).
func TestDecodeLinesAllocs(t *testing.T) {
	if raceBuild {
		t.Skip("allocation counts are not meaningful under the race detector")
	}
	type intRow struct{ A, B int }
	in := []byte(strings.Repeat("{\"a\":1,\"b\":22}\r\n", 20000)) // 320 KB
	for _, workers := range []int{1, 2} {
		allocs := testing.AllocsPerRun(5, func() {
			n := 0
			for v, err := range DecodeLines[intRow](bytes.NewReader(in), &LinesOptions{Workers: workers}) {
				if err != nil || v.B != 22 {
					t.Fatal(v, err)
				}
				n++
			}
			if n != 20000 {
				t.Fatal(n)
			}
		})
		t.Logf("workers=%d: %v allocations", workers, allocs)
		if allocs > 100 {
			t.Errorf("workers=%d: %v allocations for 20000 lines", workers, allocs)
		}
	}
}
