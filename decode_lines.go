package json

import (
	"bytes"
	"errors"
	"io"
	"iter"
	"strconv"
	"strings"

	"github.com/jsonpipe/json/internal/lines"
)

// NDJSON (JSON Lines) decoded on several goroutines: internal/lines cuts
// the stream into chunks of whole lines, each worker decodes the lines of a
// chunk with Unmarshal into a slice it keeps from chunk to chunk, and the
// values come back in input order.

// LinesOptions configure [DecodeLines]. The zero value gives the defaults.
type LinesOptions struct {
	// Workers is the number of goroutines that decode; 0 or less means
	// runtime.GOMAXPROCS(0). With 1, reading and decoding run on the
	// goroutine ranging over the values.
	Workers int
	// MaxLineSize is the longest line accepted, in bytes, its "\n"
	// excluded; 0 or less means 512 MiB, the Decoder's token limit. A longer
	// line gives a *LineError wrapping ErrLineTooLong as soon as more than
	// MaxLineSize bytes of it have been read, without reading the rest.
	MaxLineSize int
}

// ErrLineTooLong is the Err of the *LineError that DecodeLines yields for a
// line longer than LinesOptions.MaxLineSize.
var ErrLineTooLong = errors.New("json: line too long")

// A LineError is the error DecodeLines yields for a line it cannot decode.
type LineError struct {
	// Line is the line's number, counting from 1, blank lines included.
	Line int64
	// Offset is the offset in the stream of the line's first byte.
	Offset int64
	// Err is what Unmarshal returns for the line alone, its "\n" or "\r\n"
	// excluded: a *SyntaxError or an *UnmarshalTypeError keeps its Offset
	// counted from the start of the line, so the error is at byte
	// Offset+Err.Offset of the stream. Or Err is ErrLineTooLong.
	Err error
}

func (e *LineError) Error() string {
	return "json: line " + strconv.FormatInt(e.Line, 10) + " at byte " + strconv.FormatInt(e.Offset, 10) +
		": " + strings.TrimPrefix(e.Err.Error(), "json: ")
}

func (e *LineError) Unwrap() error { return e.Err }

// DecodeLines returns an iterator over the values of the NDJSON stream r,
// each line decoded into a T as [Unmarshal] would decode it, on
// opts.Workers goroutines (nil opts: the defaults of [LinesOptions]),
// yielded in input order on the goroutine ranging over them.
//
// Each line holds one JSON value and ends with "\n" or "\r\n" (the last
// line may end without); blank lines, of JSON whitespace only, are skipped
// but counted. A line that is not one JSON value (two values, part of
// one) is an error, as is any error of Unmarshal: DecodeLines yields a
// [*LineError] that names the line, after the values of all the lines
// before it, and stops.
// An error from r is yielded as it is, after the values of every line read
// whole before it; a line it cut short is dropped. With an error the value
// is the zero T.
//
// DecodeLines reads r ahead in blocks of about 1 MiB, at most 2×Workers+2 of
// them (more only while a line is longer), but hands on the lines it has
// whenever a Read returns less than asked, so that the values of a slow
// stream are not held back. Breaking out of the loop stops the goroutines,
// and DecodeLines reads r no further once the loop is over. The sequence
// is single-use.
//
// With more than one worker, the UnmarshalJSON and UnmarshalText methods
// of T and of what it holds run on the workers, several at a time.
func DecodeLines[T any](r io.Reader, opts *LinesOptions) iter.Seq2[T, error] {
	o := lines.Options{MaxLineSize: defaultMaxTokenSize}
	if opts != nil {
		o.Workers = opts.Workers
		if opts.MaxLineSize > 0 {
			o.MaxLineSize = opts.MaxLineSize
		}
	}
	return decodeLines[T](r, o)
}

// decodeLines is DecodeLines with all of lines.Options (tests set
// BlockSize).
func decodeLines[T any](r io.Reader, o lines.Options) iter.Seq2[T, error] {
	return func(yield func(T, error) bool) {
		var zero T
		for vals, err := range lines.Process(r, o, decodeChunk[T]) {
			if vals != nil {
				for i := range *vals {
					v := (*vals)[i]
					(*vals)[i] = zero // the slice is reused: keep nothing alive
					if !yield(v, nil) {
						return
					}
				}
			}
			if err != nil {
				if e, ok := err.(*lines.TooLongError); ok {
					err = &LineError{Line: e.Line, Offset: e.Offset, Err: ErrLineTooLong}
				}
				yield(zero, err)
				return
			}
		}
	}
}

// decodeChunk decodes the lines of c into *vals, which holds zero values
// (the consumer zeroes what it yields). On an error *vals holds the values
// of the lines before it.
func decodeChunk[T any](c lines.Chunk, vals *[]T) error {
	var zero T
	vs := (*vals)[:0]
	if n := bytes.Count(c.Data, lineEnd) + 1; cap(vs) < n {
		vs = make([]T, 0, n) // one allocation, not a doubling per chunk
	}
	data := c.Data
	line, off := c.Line, c.Offset
	for len(data) > 0 {
		l, rest := data, []byte(nil)
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			l, rest = data[:i], data[i+1:]
		}
		if !blank(l) {
			if l[len(l)-1] == '\r' {
				l = l[:len(l)-1]
			}
			vs = append(vs, zero)
			if err := Unmarshal(l, &vs[len(vs)-1]); err != nil {
				vs[len(vs)-1] = zero
				*vals = vs[:len(vs)-1]
				return &LineError{Line: line, Offset: off, Err: err}
			}
		}
		line++
		off += int64(len(data) - len(rest))
		data = rest
	}
	*vals = vs
	return nil
}

var lineEnd = []byte{'\n'}

// blank reports whether l holds JSON whitespace only.
func blank(l []byte) bool {
	for _, c := range l {
		if c != ' ' && c != '\t' && c != '\r' {
			return false
		}
	}
	return true
}
