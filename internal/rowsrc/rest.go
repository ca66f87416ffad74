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
// any other error (the reader's) is itself, at off.
func ChunkError(err error, base, off int64) (int64, error) {
	var tl *lines.TooLongError
	if errors.As(err, &tl) {
		return base + tl.Offset, &TypeError{Msg: "line longer than the limit of " + strconv.Itoa(tl.Max) +
			" bytes (MaxValueSize; with Workers a row's line is held to it)"}
	}
	return off, err
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
			// The serial decoder would stop at the same line; the
			// workers' splitter has already refused it.
			_, err = ChunkError(err, 0, 0)
			return 0, err
		}
		r.Data = data
	}
	n := copy(b, r.Data)
	r.Data = r.Data[n:]
	return n, nil
}
