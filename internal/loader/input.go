package loader

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"slices"

	"github.com/jsonpipe/json/internal/csvin"
	"github.com/jsonpipe/json/internal/rowsrc"
)

// What a load's input looks like before it is decoded: every row source
// (JSON here, CSV in its own file) starts from Sniff, so that gzip and a
// byte order mark are dealt with once.

// Input is a load's input after Sniff: R is what the row source reads.
type Input struct {
	// R is the input, decompressed when it was gzip, without its UTF-8
	// byte order mark. It reads straight from the original reader once
	// the bytes Sniff looked at are consumed.
	R io.Reader
	// Gzip says the input started with gzip's magic bytes (1f 8b) and R
	// decompresses it: offsets in errors then count decompressed bytes.
	Gzip bool
	// BOM says a UTF-8 byte order mark (EF BB BF) began the input (after
	// decompression) and was skipped: offsets count from after it, and
	// line and column are an editor's, which does not show the mark.
	BOM bool
	// Like is "CSV" or "TSV" when the input's first line looks like one
	// (it does not start with '{' or '[' and has commas, or tabs), else
	// empty. Nothing is decided by it: a JSON loader names it in the
	// error of a first row that fails (see LooksLike).
	Like string
}

var bom = []byte{0xEF, 0xBB, 0xBF}

// Sniff looks at the start of r: it decompresses gzip, skips a UTF-8 byte
// order mark, and notes whether the first line looks like CSV or TSV. It
// waits for no more than three bytes (or the end of input) before it
// returns, so that a slow stream starts loading at once; the CSV look is
// judged on the bytes the first read returned. Once the bytes it looked
// at are consumed, Input.R reads straight from r (or the gzip reader),
// with no buffer copying in between.
func Sniff(r io.Reader) (*Input, error) {
	in := &Input{}
	r, head := peek(r, 2)
	if len(head) >= 2 && head[0] == 0x1f && head[1] == 0x8b {
		gz, err := gzip.NewReader(r)
		if err != nil {
			return nil, fmt.Errorf("gzip input: %w", err)
		}
		in.Gzip = true
		r, head = peek(gz, 3)
	} else if len(head) < 3 {
		r, head = peek(r, 3)
	}
	if bytes.HasPrefix(head, bom) {
		in.BOM = true
		r, head = skip(r, head, len(bom))
	}
	in.Like = looksLike(head)
	in.R = r
	return in, nil
}

// peek reads from r until it has n bytes, or r ends or fails, and returns
// a reader of the whole of r, those bytes first, and the bytes. A read
// error is not returned: the returned reader gives it after the bytes, as
// r would have.
func peek(r io.Reader, n int) (io.Reader, []byte) {
	if p, ok := r.(*peeked); ok && (len(p.head) >= n || p.err != nil) {
		return p, p.head // enough, or all there is
	}
	var buf []byte
	if p, ok := r.(*peeked); ok {
		buf, r = append([]byte(nil), p.head...), p.r
	}
	buf = slices.Grow(buf, 4096)
	var err error
	for empty := 0; len(buf) < n && err == nil; {
		var m int
		m, err = r.Read(buf[len(buf):cap(buf)])
		switch {
		case m < 0 || m > cap(buf)-len(buf):
			m, err = 0, errors.New("loader: the input reader returned an invalid count")
		case m == 0 && err == nil:
			if empty++; empty == 100 {
				err = io.ErrNoProgress // as bufio and the decoder say it
			}
		}
		buf = buf[:len(buf)+m]
	}
	return &peeked{head: buf, r: r, err: err}, buf
}

// skip returns the reader and bytes of peek without their first n bytes.
func skip(r io.Reader, head []byte, n int) (io.Reader, []byte) {
	p := r.(*peeked)
	p.head = p.head[n:]
	return p, p.head
}

// peeked reads head, then err if it is not nil, else the rest of r.
type peeked struct {
	head []byte
	r    io.Reader
	err  error
}

func (p *peeked) Read(b []byte) (int, error) {
	if len(p.head) > 0 {
		n := copy(b, p.head)
		p.head = p.head[n:]
		return n, nil
	}
	if p.err != nil {
		return 0, p.err
	}
	return p.r.Read(b)
}

// looksLike is "CSV" or "TSV" when first, the start of the input, has a
// first line that does not start like JSON rows and holds commas (or
// tabs), else "".
func looksLike(first []byte) string {
	first = bytes.TrimLeft(first, " \t\r\n")
	if len(first) == 0 || first[0] == '{' || first[0] == '[' {
		return ""
	}
	if i := bytes.IndexByte(first, '\n'); i >= 0 {
		first = first[:i]
	}
	switch {
	case bytes.IndexByte(first, '\t') >= 0:
		return "TSV"
	case bytes.IndexByte(first, ',') >= 0:
		return "CSV"
	}
	return ""
}

// LooksLikeError is the cause of a first row's error when the input
// looks like CSV or TSV (Input.Like), not JSON: Err is the error the
// row met.
type LooksLikeError struct {
	Like string // "CSV" or "TSV"
	Err  error
}

func (e *LooksLikeError) Error() string {
	return fmt.Sprintf("%v (the input looks like %s, not JSON)", e.Err, e.Like)
}

func (e *LooksLikeError) Unwrap() error { return e.Err }

// LooksLike returns err, the cause of the first row's error, wrapped in
// a *LooksLikeError when the input looks like CSV or TSV.
func (in *Input) LooksLike(err error) error {
	if in == nil || in.Like == "" || Unwrapped(err) {
		return err
	}
	return &LooksLikeError{Like: in.Like, Err: err}
}

// Opened is a load's input as both backends start from it (Open): R is
// what the load decodes, JSON (NDJSON for CSV or TSV input), with a
// reader's error kept with where reading stopped (rowsrc.Counter); Opts
// the options to load it with (for CSV, a copy for its NDJSON: see
// PrepareCSV).
type Opened struct {
	R    io.Reader
	Opts *Options
	in   *Input
	csv  *CSVSource
}

// Open starts a load of r into backend db ("sqlite", "postgres", the
// prefix of its errors): it checks o's conflict mode, sniffs r (Sniff)
// and, for CSV or TSV (o.Delimiter), reads its header and first rows
// (PrepareCSV; typeName names a detected type in the database's terms).
// Its errors are about the input's start or the options.
func Open(db string, r io.Reader, o *Options, typeName func(csvin.Type) string) (*Opened, error) {
	if o.Conflict < rowsrc.Fail || o.Conflict > rowsrc.Upsert {
		return nil, fmt.Errorf("%s: unknown conflict mode %v", db, o.Conflict)
	}
	in, err := Sniff(r) // gzip, a byte order mark
	if err != nil {
		return nil, fmt.Errorf("%s: %w", db, err)
	}
	p := &Opened{R: in.R, Opts: o, in: in}
	if o.Delimiter != 0 {
		// CSV or TSV: loaded as the NDJSON a CSVSource writes, its row
		// errors placed back in the CSV (Place).
		if p.R, p.Opts, p.csv, err = PrepareCSV(p.R, o, typeName); err != nil {
			return nil, fmt.Errorf("%s: %w", db, err)
		}
	}
	p.R = &rowsrc.Counter{R: p.R} // a reader's error with where reading stopped, for every path
	return p, nil
}

// Place finishes the load's error err for its caller, when it is a row
// error: the first row's says the input looks like CSV or TSV (LooksLike),
// and a row of CSV or TSV input is placed back in it (CSVSource.Place).
func (p *Opened) Place(err error) {
	var re *RowError
	if !errors.As(err, &re) {
		return
	}
	if re.Row == 1 {
		re.Err = p.in.LooksLike(re.Err)
	}
	if p.csv != nil {
		re.Row, re.Offset, re.Err = p.csv.Place(re.Row, re.Offset, re.Err)
	}
}
