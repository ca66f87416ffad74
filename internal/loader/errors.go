package loader

import (
	"context"
	"errors"
	"fmt"
	"io"
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

// LineOf returns the line and column (position.go) of off, the offset a
// row error names, when its cause err is about the JSON text: a syntax
// error (whose offset, as encoding/json's, is just after the byte at
// fault, so the column names that byte), an unexpected end of input, or
// text after the top-level array.
// lr is what the decoder d reads. Zeros mean not known, or not asked for.
func LineOf(lr *LineReader, d *json.Decoder, err error, off int64) (line, col int64) {
	if lr == nil || d == nil {
		return 0, 0
	}
	var se *json.SyntaxError
	switch {
	case errors.As(err, &se):
		if off > 0 {
			off--
		}
	case errors.Is(err, io.ErrUnexpectedEOF), errors.As(err, new(*rowsrc.AfterArrayError)):
	default:
		return 0, 0
	}
	window, _ := io.ReadAll(d.Buffered())
	p := lr.PosAt(off, window)
	return p.Line, p.Column()
}

// At formats where a row error is, for its message: "at byte 40", with
// "(line 3, column 12)" when the line is known. An offset below 0 is not
// known (a CSV row too far back to place): "at an unknown byte".
func At(off, line, col int64) string {
	switch {
	case off < 0:
		return "at an unknown byte"
	case line > 0 && col > 0:
		return fmt.Sprintf("at byte %d (line %d, column %d)", off, line, col)
	case line > 0:
		return fmt.Sprintf("at byte %d (line %d)", off, line)
	}
	return fmt.Sprintf("at byte %d", off)
}

// RowError is the error a load returns when row Row (1-based, counting
// the objects of the input) could not be read or stored: sqlite.RowError
// and postgres.RowError are this type. Offset is the input byte offset
// where the problem was found; Line and Column, for an error in the JSON
// text, where an editor shows the byte at fault (0 when not known). Err
// is the cause, unchanged. Each package's alias documents what its
// offsets and causes are.
type RowError struct {
	Row    int64
	Offset int64
	Line   int64
	Column int64
	Err    error

	db string // the message's prefix: the backend's package, "sqlite" or "postgres"
}

// NewRowError returns a row error of the backend db ("sqlite",
// "postgres"), which its message starts with.
func NewRowError(db string, row, off int64, err error) *RowError {
	return &RowError{Row: row, Offset: off, Err: err, db: db}
}

func (e *RowError) Error() string {
	prefix := ""
	if e.db != "" {
		prefix = e.db + ": "
	}
	return fmt.Sprintf("%srow %d %s: %v", prefix, e.Row, At(e.Offset, e.Line, e.Column), e.Err)
}

func (e *RowError) Unwrap() error { return e.Err }

// FirstError returns whichever of two errors names the earlier row; a row
// error wins over one that names none.
func FirstError(a, b error) error {
	if b == nil || a == b {
		return a
	}
	var ra, rb *RowError
	okA, okB := errors.As(a, &ra), errors.As(b, &rb)
	switch {
	case okA && okB:
		if ra.Row < rb.Row {
			return a
		}
		return b
	case okA:
		return a
	}
	return b
}
