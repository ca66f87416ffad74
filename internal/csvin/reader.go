// Package csvin reads delimited text (RFC 4180 CSV, and TSV quoted the
// same way) record by record, without allocating per record, and
// classifies its fields as sqlite-utils' type detection does. The loaders
// read CSV and TSV through it (internal/loader's CSVSource).
//
// # Records
//
// Fields are separated by the Reader's delimiter (',' or '\t'); a record
// ends at LF, CRLF or a lone CR (as Python's csv module, which
// sqlite-utils uses, reads them), or at the end of the input, with or
// without a final line end. A field that starts with '"' is quoted: it
// ends at the next lone '"', holds delimiters and line ends as they are,
// and "" inside it is one '"'. Lines with nothing on them are skipped
// (Python's csv.DictReader skips them too). A UTF-8 byte-order mark at the
// start of the input is skipped.
//
// What is refused, each as a *SyntaxError with its line and byte offset:
// a '"' inside an unquoted field, text after a quoted field's closing
// quote, a quoted field still open at the end of the input, and a record
// that is not valid UTF-8.
package csvin

import (
	"bytes"
	"fmt"
	"io"
	"sync/atomic"
	"unicode/utf8"
)

// SyntaxError reports input that is not well-formed delimited text.
type SyntaxError struct {
	Record int64  // the record it is in: 0 for the header, else the data row's number (1-based)
	Line   int64  // the line it is on (1-based)
	Offset int64  // the input byte offset it is at
	Msg    string // what is wrong
	TSV    bool   // the input is TSV
}

func (e *SyntaxError) Error() string {
	kind := "csv"
	if e.TSV {
		kind = "tsv"
	}
	return fmt.Sprintf("%s: line %d: %s", kind, e.Line, e.Msg)
}

// Reader reads records from delimited text. The fields of the last record
// read are in one buffer (Field), valid until the next call to Next.
type Reader struct {
	r        io.Reader
	buf      []byte
	pos, end int
	base     int64 // input offset of buf[0]
	read     atomic.Int64
	eof      bool
	rerr     error
	sep      byte
	special  [256]bool // bytes that end an unquoted run: sep, '"', '\n', '\r'
	line     int64     // line of buf[pos]
	started  bool

	rec    []byte  // the fields of the record, unquoted, back to back
	ends   []int   // the end of each field in rec
	starts []int64 // the input offset of each field

	records int64 // records read, the header included
	recLine int64 // the line the record starts on
	recOff  int64 // the input offset it starts at
}

// NewReader returns a Reader of r with fields separated by sep.
func NewReader(r io.Reader, sep byte) *Reader {
	rd := &Reader{r: r, buf: make([]byte, 64<<10), sep: sep, line: 1}
	for _, c := range []byte{sep, '"', '\n', '\r'} {
		rd.special[c] = true
	}
	return rd
}

// Fields is the number of fields of the last record read.
func (r *Reader) Fields() int { return len(r.ends) }

// Field returns field i of the last record read, unquoted. It is a
// subslice of the Reader's buffer, valid until the next call to Next.
func (r *Reader) Field(i int) []byte {
	start := 0
	if i > 0 {
		start = r.ends[i-1]
	}
	return r.rec[start:r.ends[i]]
}

// Record returns the fields of the last record read, back to back, and
// the end of each in it; both valid until the next call to Next.
func (r *Reader) Record() ([]byte, []int) { return r.rec, r.ends }

// Where returns the number of the last record read (1 for the first,
// which is the header when there is one), the line it starts on and the
// input offset it starts at.
func (r *Reader) Where() (record, line, off int64) { return r.records, r.recLine, r.recOff }

// FieldOffset is the input offset of field i of the last record read.
func (r *Reader) FieldOffset(i int) int64 { return r.starts[i] }

// InputOffset is the number of input bytes read from the underlying
// reader so far; it may be read from any goroutine.
func (r *Reader) InputOffset() int64 { return r.read.Load() }

func (r *Reader) off() int64 { return r.base + int64(r.pos) }

// more reads more input into the buffer once what it holds is consumed
// (every field is copied into rec as it is read, so nothing in the window
// needs keeping). It reports false at the end of the input or on a read
// error (r.rerr).
func (r *Reader) more() bool {
	if r.pos < r.end {
		return true
	}
	for !r.eof && r.rerr == nil {
		r.base += int64(r.end)
		r.pos, r.end = 0, 0
		n, err := r.r.Read(r.buf)
		if n > 0 {
			r.end = n
			r.read.Add(int64(n))
		}
		if err == io.EOF {
			r.eof = true
		} else if err != nil {
			r.rerr = err
		}
		if n > 0 {
			return true
		}
	}
	return false
}

func (r *Reader) errorf(line, off int64, format string, args ...any) error {
	return &SyntaxError{Record: r.records - 1, Line: line, Offset: off, Msg: fmt.Sprintf(format, args...), TSV: r.sep == '\t'}
}

// skipBOM skips a UTF-8 byte-order mark at the start of the input,
// reading until it has three bytes or the input ends.
func (r *Reader) skipBOM() {
	for r.end < 3 && !r.eof && r.rerr == nil {
		n, err := r.r.Read(r.buf[r.end:])
		r.end += n
		r.read.Add(int64(n))
		if err == io.EOF {
			r.eof = true
		} else if err != nil {
			r.rerr = err
		}
	}
	if bytes.HasPrefix(r.buf[:r.end], []byte("\xef\xbb\xbf")) {
		r.pos = 3
	}
}

// Next reads the next record. It reports false at the end of the input,
// with a nil error, or on an error: a *SyntaxError, or the underlying
// reader's error as it is.
func (r *Reader) Next() (bool, error) {
	r.rec, r.ends, r.starts = r.rec[:0], r.ends[:0], r.starts[:0]
	if !r.started {
		r.started = true
		r.skipBOM()
	}
	// Blank lines are skipped.
	for {
		if !r.more() {
			return false, r.rerr
		}
		c := r.buf[r.pos]
		if c != '\n' && c != '\r' {
			break
		}
		r.endLine(c)
	}
	r.records++
	r.recLine, r.recOff = r.line, r.off()
	for {
		r.starts = append(r.starts, r.off())
		last, err := r.field()
		r.ends = append(r.ends, len(r.rec))
		if err != nil {
			return false, err
		}
		if last {
			break
		}
	}
	if !utf8.Valid(r.rec) {
		return false, r.invalidUTF8()
	}
	return true, nil
}

// endLine consumes the line end starting with c ('\n' or '\r') at r.pos:
// LF, CRLF or a lone CR.
func (r *Reader) endLine(c byte) {
	r.pos++
	r.line++
	if c == '\r' && r.more() && r.buf[r.pos] == '\n' {
		r.pos++
	}
}

// field reads one field at r.pos into rec, and reports whether it was
// the record's last.
func (r *Reader) field() (last bool, err error) {
	if !r.more() {
		return true, r.rerr // an empty last field: "a,b," at the end
	}
	if r.buf[r.pos] == '"' {
		return r.quoted()
	}
	for {
		// The fast part: a run of ordinary bytes, copied at once.
		i := r.pos
		buf := r.buf[:r.end]
		for i < len(buf) && !r.special[buf[i]] {
			i++
		}
		r.rec = append(r.rec, buf[r.pos:i]...)
		r.pos = i
		if i == len(buf) {
			if !r.more() {
				return true, r.rerr
			}
			continue
		}
		switch c := buf[i]; c {
		case r.sep:
			r.pos++
			return false, nil
		case '\n', '\r':
			r.endLine(c)
			return true, nil
		default: // '"'
			return false, r.errorf(r.line, r.off(), "bare \" in an unquoted field (quote the whole field, and double the \" inside it)")
		}
	}
}

// quoted reads a quoted field whose opening quote is at r.pos.
func (r *Reader) quoted() (last bool, err error) {
	line, off := r.line, r.off()
	r.pos++
	for {
		if !r.more() {
			if r.rerr != nil {
				return true, r.rerr
			}
			return true, r.errorf(line, off, "quoted field still open at the end of the input (a \" is missing)")
		}
		body := r.buf[r.pos:r.end]
		j := bytes.IndexByte(body, '"')
		if j < 0 {
			r.line += int64(bytes.Count(body, []byte{'\n'}))
			r.rec = append(r.rec, body...)
			r.pos = r.end
			continue
		}
		r.line += int64(bytes.Count(body[:j], []byte{'\n'}))
		r.rec = append(r.rec, body[:j]...)
		r.pos += j + 1
		if !r.more() {
			return true, r.rerr
		}
		switch c := r.buf[r.pos]; c {
		case '"':
			r.rec = append(r.rec, '"')
			r.pos++
		case r.sep:
			r.pos++
			return false, nil
		case '\n', '\r':
			r.endLine(c)
			return true, nil
		default:
			return false, r.errorf(r.line, r.off(), "text after the closing \" of a quoted field (double the \" inside a quoted field)")
		}
	}
}

// invalidUTF8 names the first field of the record that is not valid UTF-8.
func (r *Reader) invalidUTF8() error {
	for i := range r.ends {
		f := r.Field(i)
		if utf8.Valid(f) {
			continue
		}
		bad := 0
		for bad < len(f) {
			ru, n := utf8.DecodeRune(f[bad:])
			if ru == utf8.RuneError && n == 1 {
				break
			}
			bad += n
		}
		return r.errorf(r.recLine, r.starts[i], "field %d (at byte %d) is not valid UTF-8: byte %d of the field is %#x", i+1, r.starts[i], bad+1, f[bad])
	}
	return nil // not reached
}
