package loader

import (
	"context"
	"errors"
	"fmt"
	"strconv"

	json "github.com/jsonpipe/json"
	"github.com/jsonpipe/json/internal/rowsrc"
)

// Unwrapped reports whether a load returns err as it is rather than
// placed at a row: a cancelled or timed-out load's context.
func Unwrapped(err error) bool {
	return errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)
}

// Locate places err, met in a row, in the input: the offset a row error
// names, and its cause. A syntax error is at its own offset, made to count
// from the start of the input by adding base (the offset the decoder
// started at, when the workers handed over mid-input); a reader's error
// (rowsrc.ReadError) is at the offset where reading stopped, with workers
// or without; any other is at off, or at now (the decoder's offset in the
// whole input) when off is negative.
func Locate(err error, off, base, now int64) (int64, error) {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		se.Offset += base
		return se.Offset, err
	}
	if at, rerr, ok := rowsrc.ReadErrorAt(err); ok {
		return at, rerr
	}
	if off < 0 {
		off = now
	}
	return off, err
}

// ShortName quotes a table or column name for a message, cut to 40 bytes
// with its length when longer.
func ShortName(name string) string {
	const max = 40
	if len(name) > max {
		return strconv.Quote(name[:max]) + fmt.Sprintf("... (%d bytes)", len(name))
	}
	return strconv.Quote(name)
}
