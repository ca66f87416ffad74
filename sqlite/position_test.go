package sqlite

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"testing"
	"testing/iotest"

	json "github.com/jsonpipe/json"
	"github.com/jsonpipe/json/internal/loader"
)

// wantPos is the line and column (1-based, column in bytes) of the byte at
// x in in.
func wantPos(in []byte, x int) (line, col int64) {
	before := in[:x]
	return int64(bytes.Count(before, []byte{'\n'})) + 1, int64(x - (bytes.LastIndexByte(before, '\n') + 1) + 1)
}

// Syntax errors name their line and column beside the byte offset.
func TestSyntaxErrorLineColumn(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"line 1", `{"a":1,"b":tru}`, "row 1 at byte 15 (line 1, column 15): invalid character '}'"},
		{"later line", "[{\"a\":1},\n {\"a\":2,,}]", "row 2 at byte 19 (line 2, column 9): invalid character ','"},
		{"after CRLF", "{\"a\":1}\r\n{\"a\":2}\r\n{\"a\":x}\r\n", "row 3 at byte 24 (line 3, column 6): invalid character 'x'"},
		{"after multi-byte", "{\"a\":1}\n{\"é\":\"x\", \"b\": [}\n", "row 2 at byte 26 (line 2, column 18): invalid character '}'"},
		{"unexpected end", "{\"a\":1}\n{\"a\":", "row 2 at byte 13 (line 2, column 6): unexpected EOF"},
		{"after the array", "[{\"a\":1}]\ntrue", "row 2 at byte 10 (line 2, column 1): text after the array (a boolean)"},
		{"after the array, same line", "[{\"a\":1}] \"x\"", "row 2 at byte 10 (line 1, column 11): text after the array (a string)"},
		{"after BOM", "\xEF\xBB\xBF{\"a\":1}\n{\"a\" 1}\n", "row 2 at byte 14 (line 2, column 6): invalid character '1'"},
	} {
		_, err := Insert(context.Background(), openDB(t), "t", strings.NewReader(tc.in), nil)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v\nwant %s", tc.name, err, tc.want)
		}
	}
}

// The line and column are right wherever the error is: one decoder or
// workers handing over to it, reads whole or a byte at a time, a line
// cut by the decoder's window, LF or CRLF, with multi-byte characters.
func TestSyntaxErrorLineColumnEverywhere(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	readers := map[string]func(io.Reader) io.Reader{
		"whole": func(r io.Reader) io.Reader { return r },
		"byte":  iotest.OneByteReader,
		"half":  iotest.HalfReader,
	}
	for round := range 40 {
		nl := "\n"
		if round%2 == 1 {
			nl = "\r\n"
		}
		var b bytes.Buffer
		rows := 50 + rng.IntN(200)
		long := round%5 == 0 // some lines longer than the 64 KiB window
		for i := range rows {
			pad := strings.Repeat("é", rng.IntN(20))
			if long && i%40 == 39 {
				pad = strings.Repeat("x", 70<<10)
			}
			fmt.Fprintf(&b, `{"id":%d,"s":"%s","n":[1, 2.5, true]}%s`, i, pad, nl)
		}
		in := b.Bytes()
		// Break one structural byte at a random place after the first row.
		var x int
		for {
			x = 10 + rng.IntN(len(in)-10)
			if c := in[x]; c == '{' || c == ':' || c == ',' || c == '[' {
				break
			}
		}
		in[x] = '@'
		for name, wrap := range readers {
			for _, workers := range []int{1, 2} {
				opts := loader.Tune(&Options{Workers: workers, InferRows: 3, BatchSize: 1000}, loader.Tuning{BlockSize: 512, Serial: workers == 1})
				_, err := Insert(context.Background(), openDB(t), "t", wrap(bytes.NewReader(in)), opts)
				var re *RowError
				var se *json.SyntaxError
				if !errors.As(err, &re) || !errors.As(err, &se) {
					t.Fatalf("round %d, %s, %d workers: %v", round, name, workers, err)
				}
				line, col := wantPos(in, int(re.Offset-1))
				if re.Line != line || re.Column != col {
					t.Errorf("round %d, %s, %d workers: error at %d (%v): line %d, column %d, want line %d, column %d",
						round, name, workers, x, err, re.Line, re.Column, line, col)
				}
			}
		}
	}
}
