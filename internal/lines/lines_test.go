package lines

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"testing/iotest"
	"time"

	"github.com/jsonpipe/json/internal/chunkio"
)

// readers returns the ways tests feed input: whole, a byte at a time, half
// of what is asked, and 1..4 bytes at a time.
func readers() []struct {
	name string
	wrap func(io.Reader) io.Reader
} {
	return []struct {
		name string
		wrap func(io.Reader) io.Reader
	}{
		{"whole", func(r io.Reader) io.Reader { return r }},
		{"onebyte", iotest.OneByteReader},
		{"half", iotest.HalfReader},
		{"small", func(r io.Reader) io.Reader { return &chunkio.Reader{R: r, Sizes: []int{1, 3, 2, 4}} }},
	}
}

var splitInputs = []struct {
	name string
	in   string
}{
	{"empty", ""},
	{"newline", "\n"},
	{"one", "abc\n"},
	{"no final newline", "abc\ndef"},
	{"blank lines", "\n\na\n\n\nb\n\n"},
	{"crlf", "a\r\nb\r\n"},
	{"long line", "x\n" + strings.Repeat("y", 100) + "\nz\n"},
	{"long last line", "x\n" + strings.Repeat("y", 100)},
	{"only a long line", strings.Repeat("y", 100)},
	{"many", strings.Repeat("0123456789\n", 50)},
}

// split reads all chunks of s, checking each one's invariants against in
// (the whole input), and returns their bytes and the error that ended them.
func split(t *testing.T, s *Splitter, in string) (string, error) {
	t.Helper()
	var got strings.Builder
	var buf []byte
	for {
		c, err := s.Next(buf)
		if err != nil {
			if c.Data != nil {
				t.Fatalf("chunk with an error: %q, %v", c.Data, err)
			}
			return got.String(), err
		}
		checkChunk(t, c, in, int64(got.Len()))
		got.Write(c.Data)
		buf = c.Data
	}
}

func checkChunk(t *testing.T, c Chunk, in string, at int64) {
	t.Helper()
	if len(c.Data) == 0 {
		t.Fatal("empty chunk")
	}
	if c.Offset != at {
		t.Fatalf("chunk Offset %d, want %d", c.Offset, at)
	}
	if want := 1 + int64(strings.Count(in[:at], "\n")); c.Line != want {
		t.Fatalf("chunk at %d: Line %d, want %d", at, c.Line, want)
	}
	if end := c.Offset + int64(len(c.Data)); c.Data[len(c.Data)-1] != '\n' && end != int64(len(in)) {
		t.Fatalf("chunk at %d ends inside a line: %q", at, c.Data)
	}
}

func TestLinesSplitter(t *testing.T) {
	for _, tc := range splitInputs {
		for _, rd := range readers() {
			for _, block := range []int{1, 2, 7, 64, 0} {
				t.Run(fmt.Sprintf("%s/%s/block=%d", tc.name, rd.name, block), func(t *testing.T) {
					s := NewSplitter(rd.wrap(strings.NewReader(tc.in)), block)
					got, err := split(t, s, tc.in)
					if err != io.EOF {
						t.Fatalf("err = %v, want io.EOF", err)
					}
					if got != tc.in {
						t.Fatalf("chunks hold %q, want %q", got, tc.in)
					}
					if _, err := s.Next(nil); err != io.EOF {
						t.Fatalf("after the end: %v, want io.EOF again", err)
					}
				})
			}
		}
	}
}

// errAfterReader returns its data, then err.
type errAfterReader struct {
	data string
	err  error
}

func (r *errAfterReader) Read(p []byte) (int, error) {
	if r.data == "" {
		return 0, r.err
	}
	n := copy(p, r.data)
	r.data = r.data[n:]
	return n, nil
}

var errBoom = errors.New("boom")

func TestLinesSplitterReadError(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   string
		err  error
		want string // what the chunks hold: the whole lines before the error
	}{
		{"no data", "", errBoom, ""},
		{"after a whole line", "a\nb\n", errBoom, "a\nb\n"},
		{"inside a line", "a\nb\nc", errBoom, "a\nb\n"},
		{"inside the first line", "abc", errBoom, ""},
		{"unexpected EOF", "a\n{\"b\":", io.ErrUnexpectedEOF, "a\n"},
	} {
		for _, rd := range readers() {
			for _, block := range []int{1, 3, 0} {
				t.Run(fmt.Sprintf("%s/%s/block=%d", tc.name, rd.name, block), func(t *testing.T) {
					s := NewSplitter(rd.wrap(&errAfterReader{tc.in, tc.err}), block)
					got, err := split(t, s, tc.in)
					if err != tc.err {
						t.Fatalf("err = %v, want %v as it is", err, tc.err)
					}
					if got != tc.want {
						t.Fatalf("chunks hold %q, want %q", got, tc.want)
					}
					if _, err := s.Next(nil); err != tc.err {
						t.Fatalf("error not sticky: %v", err)
					}
				})
			}
		}
	}
}

func TestLinesSplitterIotest(t *testing.T) {
	const in = "a\nbb\nccc"
	t.Run("DataErrReader", func(t *testing.T) {
		got, err := split(t, NewSplitter(iotest.DataErrReader(strings.NewReader(in)), 4), in)
		if err != io.EOF || got != in {
			t.Fatalf("got %q, %v; want %q, io.EOF", got, err, in)
		}
	})
	t.Run("TimeoutReader", func(t *testing.T) {
		got, err := split(t, NewSplitter(iotest.TimeoutReader(strings.NewReader(in)), 0), in)
		if err != iotest.ErrTimeout || got != "a\nbb\n" {
			t.Fatalf("got %q, %v; want %q, iotest.ErrTimeout", got, err, "a\nbb\n")
		}
	})
	t.Run("ErrReader", func(t *testing.T) {
		got, err := split(t, NewSplitter(iotest.ErrReader(errBoom), 0), "")
		if err != errBoom || got != "" {
			t.Fatalf("got %q, %v; want nothing, errBoom", got, err)
		}
	})
}

type zeroReader struct{}

func (zeroReader) Read([]byte) (int, error) { return 0, nil }

type badCountReader struct{}

func (badCountReader) Read(p []byte) (int, error) { return len(p) + 1, nil }

func TestLinesSplitterBadReaders(t *testing.T) {
	if _, err := NewSplitter(zeroReader{}, 0).Next(nil); err != io.ErrNoProgress {
		t.Errorf("reader returning 0, nil: %v, want io.ErrNoProgress", err)
	}
	if _, err := NewSplitter(badCountReader{}, 0).Next(nil); err != errInvalidRead {
		t.Errorf("reader returning too much: %v, want errInvalidRead", err)
	}
}

func TestLinesSplitterMaxLineSize(t *testing.T) {
	for _, tc := range []struct {
		name      string
		in        string
		max       int
		want      string // the lines before the long one
		line, off int64  // the long line's; 0: no error
	}{
		{"all short", "abc\nde\nf", 3, "abc\nde\nf", 0, 0},
		{"first", "abcd\nde\n", 3, "", 1, 0},
		{"middle", "ab\n\nabcd\nde\n", 3, "ab\n\n", 3, 4},
		{"last, no newline", "ab\nabcd", 3, "ab\n", 2, 3},
		{"cr counts", "abc\r\n", 3, "", 1, 0},
		{"exactly max", "abc\r\nxyz", 4, "abc\r\nxyz", 0, 0},
		{"longer than the block", "a\nb\n" + strings.Repeat("c", 50) + "\nd\n", 20, "a\nb\n", 3, 4},
		{"long, then short", "a\n" + strings.Repeat("c", 30) + "\nd\n", 40, "a\n" + strings.Repeat("c", 30) + "\nd\n", 0, 0},
	} {
		for _, rd := range readers() {
			for _, block := range []int{1, 4, 16, 0} {
				t.Run(fmt.Sprintf("%s/%s/block=%d", tc.name, rd.name, block), func(t *testing.T) {
					s := NewSplitter(rd.wrap(strings.NewReader(tc.in)), block)
					s.SetMaxLineSize(tc.max)
					got, err := split(t, s, tc.in)
					if got != tc.want {
						t.Errorf("chunks hold %q, want %q", got, tc.want)
					}
					if tc.line == 0 {
						if err != io.EOF {
							t.Fatalf("err = %v, want io.EOF", err)
						}
						return
					}
					var te *TooLongError
					if !errors.As(err, &te) || te.Line != tc.line || te.Offset != tc.off || te.Max != tc.max {
						t.Fatalf("err = %v, want line %d at byte %d too long", err, tc.line, tc.off)
					}
					// Data goes on from the line's start, where the chunks
					// stop: more than Max bytes of the input, as it is.
					if int64(len(got)) != tc.off || len(te.Data) <= tc.max || !strings.HasPrefix(tc.in, got+string(te.Data)) {
						t.Fatalf("chunks %d bytes, then Data %q: not the input from the line on", len(got), te.Data)
					}
					if want := fmt.Sprintf("lines: line %d at byte %d is longer than %d bytes", tc.line, tc.off, tc.max); err.Error() != want {
						t.Errorf("text %q, want %q", err, want)
					}
				})
			}
		}
	}
}

// countReader counts the bytes read through it.
type countReader struct {
	r io.Reader
	n atomic.Int64
}

func (c *countReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n.Add(int64(n))
	return n, err
}

// endless is an input that never ends: "line\n" a few times, then one
// line that never does.
type endless struct{ head string }

func (e *endless) Read(p []byte) (int, error) {
	n := copy(p, e.head)
	e.head = e.head[n:]
	for i := range p[n:] {
		p[n+i] = 'x'
	}
	return len(p), nil
}

// TestSplitterMaxLineStopsEarly checks that a line longer than the limit
// fails once the limit is passed, not after it has been read whole.
func TestLinesSplitterMaxLineStopsEarly(t *testing.T) {
	for _, block := range []int{16, 1000, 0} {
		cr := &countReader{r: &endless{head: "a\nb\n"}}
		s := NewSplitter(cr, block)
		s.SetMaxLineSize(100_000)
		got, err := split(t, s, "a\nb\n")
		var te *TooLongError
		if got != "a\nb\n" || !errors.As(err, &te) || te.Line != 3 || te.Offset != 4 {
			t.Fatalf("block=%d: got %q, %v", block, got, err)
		}
		if limit := int64(max(block, 100_001) + 4); block == 0 && cr.n.Load() > DefaultBlockSize || block > 0 && cr.n.Load() > limit {
			t.Errorf("block=%d: read %d bytes for a limit of 100000", block, cr.n.Load())
		}
	}
}

// TestSplitterShortRead checks that whole lines are handed on when the
// reader has nothing more at hand, without waiting for a full block.
func TestLinesSplitterShortRead(t *testing.T) {
	pr, pw := io.Pipe()
	s := NewSplitter(pr, 0)
	go func() {
		pw.Write([]byte("a\nb"))
		pw.Write([]byte("c\nd"))
		// No more until the test has read both chunks.
	}()
	for _, want := range []string{"a\n", "bc\n"} {
		c, err := s.Next(nil)
		if err != nil || string(c.Data) != want {
			t.Fatalf("got %q, %v; want %q", c.Data, err, want)
		}
	}
	pw.Close()
	if c, err := s.Next(nil); err != nil || string(c.Data) != "d" {
		t.Fatalf("got %q, %v; want %q", c.Data, err, "d")
	}
}

// TestSplitterReuse checks that Next reads into the buffer it is given and
// allocates nothing once it has one, and that a buffer grown for a long
// line is not kept.
func TestLinesSplitterReuse(t *testing.T) {
	in := strings.Repeat("0123456789abcde\n", 1000)
	r := strings.NewReader(in)
	s := NewSplitter(r, 256)
	c, err := s.Next(nil)
	if err != nil {
		t.Fatal(err)
	}
	buf := c.Data
	allocs := testing.AllocsPerRun(100, func() {
		if r.Len() == 0 {
			r.Reset(in)
		}
		c, err := s.Next(buf)
		if err != nil {
			t.Fatal(err)
		}
		if &c.Data[0] != &buf[:1][0] {
			t.Fatal("Next did not read into the buffer it was given")
		}
		buf = c.Data
	})
	if allocs != 0 {
		t.Errorf("Next allocates %v times per call; want 0", allocs)
	}

	s = NewSplitter(io.MultiReader(strings.NewReader(strings.Repeat("y", 10000)+"\n"), strings.NewReader("z\n")), 256)
	c, _ = s.Next(nil)
	if len(c.Data) != 10001 {
		t.Fatalf("long line chunk: %d bytes", len(c.Data))
	}
	c, _ = s.Next(c.Data)
	if string(c.Data) != "z\n" || cap(c.Data) > 4*256 {
		t.Fatalf("after a long line: %q in a buffer of %d", c.Data, cap(c.Data))
	}
}

// checkNoLeak fails t if goroutines started during the test are still
// running at its end: goleak's check, with the standard library only.
func checkNoLeak(t *testing.T) {
	t.Helper()
	before := runtime.NumGoroutine()
	t.Cleanup(func() {
		t.Helper()
		deadline := time.Now().Add(5 * time.Second)
		for runtime.NumGoroutine() > before {
			if time.Now().After(deadline) {
				buf := make([]byte, 1<<20)
				t.Errorf("%d goroutines before, %d after:\n%s", before, runtime.NumGoroutine(), buf[:runtime.Stack(buf, true)])
				return
			}
			time.Sleep(time.Millisecond)
		}
	})
}

// chunkResult is what the tests' fn makes of a chunk.
type chunkResult struct {
	text        []byte
	line, off   int64
	first, last string // the chunk's first and last line
}

// copyChunk is a fn for Process: it keeps a copy of the chunk, reusing the
// result's memory, and gives other goroutines a chance to overtake it.
func copyChunk(c Chunk, res *chunkResult) error {
	if c.Line%3 == 0 {
		runtime.Gosched()
	}
	res.text = append(res.text[:0], c.Data...)
	res.line, res.off = c.Line, c.Offset
	return nil
}

func TestLinesProcessOrder(t *testing.T) {
	var b strings.Builder
	for i := range 3000 {
		fmt.Fprintf(&b, "line %d %s\n", i, strings.Repeat("x", i%37))
	}
	in := b.String()
	for _, workers := range []int{1, 2, 8, 0} {
		for _, rd := range readers() {
			for _, block := range []int{1, 50, 4096, 0} {
				if rd.name == "onebyte" && block > 50 {
					continue
				}
				t.Run(fmt.Sprintf("workers=%d/%s/block=%d", workers, rd.name, block), func(t *testing.T) {
					checkNoLeak(t)
					var got bytes.Buffer
					for res, err := range Process(rd.wrap(strings.NewReader(in)), Options{Workers: workers, BlockSize: block}, copyChunk) {
						if err != nil {
							t.Fatal(err)
						}
						checkChunk(t, Chunk{Data: res.text, Line: res.line, Offset: res.off}, in, int64(got.Len()))
						got.Write(res.text)
					}
					if got.String() != in {
						t.Fatalf("results hold %d bytes, want the %d of the input in order", got.Len(), len(in))
					}
				})
			}
		}
	}
}

// lineInput is n lines of 8 bytes: "0000001\n", "0000002\n"...: blocks of
// 64 bytes hold 8 whole lines.
func lineInput(n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "%07d\n", i+1)
	}
	return b.String()
}

// lineStream is an endless lineInput.
type lineStream struct {
	i   int
	buf []byte
}

func (l *lineStream) Read(p []byte) (int, error) {
	n := 0
	for n < len(p) {
		if len(l.buf) == 0 {
			l.i++
			l.buf = fmt.Appendf(l.buf[:0], "%07d\n", l.i)
		}
		m := copy(p[n:], l.buf)
		l.buf = l.buf[m:]
		n += m
	}
	return n, nil
}

func TestLinesProcessError(t *testing.T) {
	in := lineInput(2000) // 8 bytes a line
	const failAt = 1001   // in the 126th chunk of 64 bytes
	for _, workers := range []int{1, 2, 8} {
		t.Run(fmt.Sprintf("workers=%d", workers), func(t *testing.T) {
			checkNoLeak(t)
			var calls atomic.Int64
			fn := func(c Chunk, res *chunkResult) error {
				calls.Add(1)
				copyChunk(c, res)
				if end := c.Line + int64(bytes.Count(c.Data, newline)); c.Line <= failAt && failAt < end {
					res.text = res.text[:(failAt-c.Line)*8] // the lines before it
					return fmt.Errorf("line %d: %w", failAt, errBoom)
				}
				return nil
			}
			var got bytes.Buffer
			var errs []error
			for res, err := range Process(strings.NewReader(in), Options{Workers: workers, BlockSize: 64}, fn) {
				if res == nil {
					t.Fatal("nil result with a processing error")
				}
				got.Write(res.text)
				if err != nil {
					errs = append(errs, err)
				}
			}
			if len(errs) != 1 || !errors.Is(errs[0], errBoom) {
				t.Fatalf("errors %v, want one errBoom", errs)
			}
			if want := in[:(failAt-1)*8]; got.String() != want {
				t.Fatalf("results hold %d bytes, want %d", got.Len(), len(want))
			}
			// 125 chunks before, the failing one, and at most the chunks
			// in flight after it.
			if n := calls.Load(); n > 126+int64(2*workers+2) {
				t.Errorf("fn called %d times; want at most %d", n, 126+2*workers+2)
			}
		})
	}
}

func TestLinesProcessReadError(t *testing.T) {
	in := lineInput(500)
	for _, workers := range []int{1, 2, 8} {
		for _, tc := range []struct {
			name string
			r    io.Reader
			err  error
			want string
		}{
			{"custom, inside a line", &errAfterReader{in[:1000+3], errBoom}, errBoom, in[:1000]},
			{"unexpected EOF", &errAfterReader{in[:2000], io.ErrUnexpectedEOF}, io.ErrUnexpectedEOF, in[:2000]},
			{"timeout", iotest.TimeoutReader(strings.NewReader(in)), iotest.ErrTimeout, in[:64]},
			{"DataErrReader", iotest.DataErrReader(strings.NewReader(in)), nil, in},
		} {
			t.Run(fmt.Sprintf("workers=%d/%s", workers, tc.name), func(t *testing.T) {
				checkNoLeak(t)
				var got bytes.Buffer
				var errs []error
				for res, err := range Process(tc.r, Options{Workers: workers, BlockSize: 64}, copyChunk) {
					if err != nil {
						if res != nil {
							t.Error("a result with a read error")
						}
						errs = append(errs, err)
						continue
					}
					got.Write(res.text)
				}
				if tc.err == nil && len(errs) != 0 || tc.err != nil && (len(errs) != 1 || errs[0] != tc.err) {
					t.Fatalf("errors %v, want %v as it is", errs, tc.err)
				}
				if got.String() != tc.want {
					t.Fatalf("results hold %d bytes, want %d", got.Len(), len(tc.want))
				}
			})
		}
	}
}

func TestLinesProcessTooLong(t *testing.T) {
	in := "a\nbb\n" + strings.Repeat("c", 100) + "\nd\n"
	for _, workers := range []int{1, 3} {
		var got bytes.Buffer
		var errs []error
		for res, err := range Process(strings.NewReader(in), Options{Workers: workers, BlockSize: 2, MaxLineSize: 50}, copyChunk) {
			if err != nil {
				errs = append(errs, err)
				continue
			}
			got.Write(res.text)
		}
		var te *TooLongError
		if len(errs) != 1 || !errors.As(errs[0], &te) || te.Line != 3 || te.Offset != 5 || got.String() != "a\nbb\n" {
			t.Errorf("workers=%d: %q, %v", workers, got.String(), errs)
		}
	}
}

// TestProcessBreak checks that stopping the loop stops every goroutine,
// that the reader is read at most a few blocks further, and that nothing
// reads it once the loop is over.
func TestLinesProcessBreak(t *testing.T) {
	const block = 64
	for _, workers := range []int{1, 2, 8} {
		for _, after := range []int{1, 5} {
			t.Run(fmt.Sprintf("workers=%d/after=%d", workers, after), func(t *testing.T) {
				checkNoLeak(t)
				cr := &countReader{r: &lineStream{}}
				n := 0
				var end int64
				for res, err := range Process(cr, Options{Workers: workers, BlockSize: block}, copyChunk) {
					if err != nil {
						t.Fatal(err)
					}
					end = res.off + int64(len(res.text))
					if n++; n == after {
						break
					}
				}
				read := cr.n.Load()
				if limit := end + int64(2*workers+2)*block; read > limit {
					t.Errorf("read %d bytes, %d past the last chunk yielded; want at most %d", read, read-end, limit-end)
				}
				time.Sleep(10 * time.Millisecond)
				if cr.n.Load() != read {
					t.Error("the reader was read after the loop ended")
				}
			})
		}
	}
}

// TestProcessInFlight checks that the reader stays at most 2×Workers+2
// chunks ahead of the consumer, however slow the consumer is.
func TestLinesProcessInFlight(t *testing.T) {
	const block = 64
	in := lineInput(5000) // chunks of exactly 64 bytes
	for _, workers := range []int{2, 4} {
		checkNoLeak(t)
		cr := &countReader{r: strings.NewReader(in)}
		for res, err := range Process(cr, Options{Workers: workers, BlockSize: block}, copyChunk) {
			if err != nil {
				t.Fatal(err)
			}
			if len(res.text) != block {
				t.Fatalf("chunk of %d bytes", len(res.text))
			}
			if res.off%(block*50) == 0 {
				runtime.Gosched() // let the reader run ahead
			}
			if ahead := cr.n.Load() - res.off; ahead > int64(2*workers+2)*block {
				t.Fatalf("workers=%d: read %d bytes past the chunk being yielded", workers, ahead)
			}
		}
	}
}

// TestProcessPanicInLoop checks that a panic in the loop body stops the
// goroutines too.
func TestLinesProcessPanicInLoop(t *testing.T) {
	checkNoLeak(t)
	defer func() {
		if recover() == nil {
			t.Error("no panic")
		}
	}()
	for range Process(strings.NewReader(lineInput(1000)), Options{Workers: 3, BlockSize: 64}, copyChunk) {
		panic("in the loop")
	}
}

// TestProcessReuse checks that fn gets back the results it filled for
// earlier chunks, so that it can reuse their memory.
func TestLinesProcessReuse(t *testing.T) {
	for _, workers := range []int{1, 2} {
		var fresh, reused atomic.Int64
		fn := func(c Chunk, res *[]byte) error {
			if *res == nil {
				fresh.Add(1)
			} else {
				reused.Add(1)
			}
			*res = append((*res)[:0], c.Data...)
			return nil
		}
		for _, err := range Process(strings.NewReader(lineInput(5000)), Options{Workers: workers, BlockSize: 64}, fn) {
			if err != nil {
				t.Fatal(err)
			}
		}
		if n := fresh.Load(); n > int64(2*workers+2) || reused.Load() == 0 {
			t.Errorf("workers=%d: %d fresh results, %d reused", workers, n, reused.Load())
		}
	}
}
