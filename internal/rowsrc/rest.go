package rowsrc

import (
	"errors"
	"io"
	"strconv"

	"github.com/jsonpipe/json/internal/lines"
)

// What the loaders' decoding workers (internal/lines) share: the error of
// a chunk, and the reader the serial path takes the input over with.

// ChunkError is the loader's error for err, which the workers' splitter
// returned after the rows of every chunk before it, with its input
// offset: a line longer than the cap (counted from base, where the
// workers' part of the input starts) is a *TypeError at the line's start;
// the reader's error (a *ReadError from Counter) is itself, at the offset
// where reading stopped; any other error is itself, at off.
func ChunkError(err error, base, off int64) (int64, error) {
	var tl *lines.TooLongError
	if errors.As(err, &tl) {
		return base + tl.Offset, &TypeError{Msg: "line longer than the limit of " + strconv.Itoa(tl.Max) +
			" bytes (MaxValueSize; with Workers a row's line is held to it)"}
	}
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

// Rest reads the rest of the chunk the workers stopped in (Data), then
// the bytes of every later chunk that Next returns (whose rows the workers
// decoded for nothing): the input from the row the serial path takes over
// at.
type Rest struct {
	Data []byte
	Next func() ([]byte, error, bool)
	done bool
}

func (r *Rest) Read(b []byte) (int, error) {
	for len(r.Data) == 0 {
		if r.done {
			return 0, io.EOF
		}
		data, err, ok := r.Next()
		if !ok {
			r.done = true
			return 0, io.EOF
		}
		if err != nil {
			if _, _, ok := ReadErrorAt(err); !ok {
				// A line over the cap: the serial decoder would stop at
				// the same line; the workers' splitter has already
				// refused it. (The reader's error goes on as it is, with
				// where reading stopped.)
				_, err = ChunkError(err, 0, 0)
			}
			return 0, err
		}
		r.Data = data
	}
	n := copy(b, r.Data)
	r.Data = r.Data[n:]
	return n, nil
}
