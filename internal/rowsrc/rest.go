package rowsrc

import (
	"errors"
	"io"

	"github.com/jsonpipe/json/internal/lines"
)

// What the loaders' decoding workers (internal/lines) share: the error of
// a chunk, and the reader the serial path takes the input over with.

// ChunkError is the loader's error for err, which the workers' splitter
// returned after the rows of every chunk before it (not a line too long:
// that one goes to the serial decoder, see Rest), with its input offset:
// the reader's error (a *ReadError from Counter) is itself, at the offset
// where reading stopped; any other error is itself, at off.
func ChunkError(err error, off int64) (int64, error) {
	if at, rerr, ok := ReadErrorAt(err); ok {
		return at, rerr
	}
	return off, err
}

// A ReadError is an error of the loader's input reader, other than io.EOF,
// and the input offset where reading stopped (the bytes read before it).
// Counter makes them, so that a loader reports a reader's failure at the
// same offset whichever goroutine decoded the row: the workers' splitter
// has dropped the start of the line the failure cut short, and the
// one-goroutine decoder would name the start of its unfinished token.
type ReadError struct {
	Offset int64
	Err    error
}

func (e *ReadError) Error() string { return e.Err.Error() }

func (e *ReadError) Unwrap() error { return e.Err }

// ReadErrorAt reports whether err holds a *ReadError, and if so the
// reader's own error and where reading stopped.
func ReadErrorAt(err error) (int64, error, bool) {
	var re *ReadError
	if errors.As(err, &re) {
		return re.Offset, re.Err, true
	}
	return 0, nil, false
}

// Counter is the loaders' input reader: R, counted, its errors other than
// io.EOF returned as *ReadError.
type Counter struct {
	R io.Reader
	n int64
}

func (c *Counter) Read(p []byte) (int, error) {
	n, err := c.R.Read(p)
	if n > 0 && n <= len(p) {
		c.n += int64(n)
	}
	if err != nil && err != io.EOF {
		err = &ReadError{Offset: c.n, Err: err}
	}
	return n, err
}

// MaxWorkerLine caps the lines the loaders' decoding workers take (or
// MaxValueSize, when lower): a longer line, and the input after it, goes
// to the one-goroutine decoder, which streams each value within
// MaxValueSize instead of holding the line whole, so that a huge value
// costs no more memory with workers than without, and a long row of
// values each under the cap is taken either way.
const MaxWorkerLine = 4 << 20

// Rest reads the rest of the chunk the workers stopped in (Data), then
// the bytes of every later chunk that Next returns (whose rows the workers
// decoded for nothing): the input from the row the serial path takes over
// at. After a line too long for the splitter (a *lines.TooLongError) it
// reads that line's bytes, then Tail, the reader the splitter read from:
// the splitter stops reading at such a line.
type Rest struct {
	Data []byte
	Next func() ([]byte, error, bool)
	Tail io.Reader
	tail bool // Next is done: Data, then Tail
	done bool
}

func (r *Rest) Read(b []byte) (int, error) {
	for len(r.Data) == 0 {
		if r.tail {
			return r.Tail.Read(b)
		}
		if r.done {
			return 0, io.EOF
		}
		data, err, ok := r.Next()
		if !ok {
			r.done = true
			return 0, io.EOF
		}
		if err != nil {
			var tl *lines.TooLongError
			if errors.As(err, &tl) {
				r.Data, r.tail = tl.Data, true
				continue
			}
			return 0, err // the reader's, with where reading stopped
		}
		r.Data = data
	}
	n := copy(b, r.Data)
	r.Data = r.Data[n:]
	return n, nil
}
