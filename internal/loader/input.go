package loader

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
)

// What a load's input looks like before it is decoded: every row source
// (JSON here, CSV in its own file) starts from Sniff, so that gzip and a
// byte order mark are dealt with once.

// Input is a load's input after Sniff: R is what the row source reads.
type Input struct {
	// R is the input, decompressed when it was gzip, without its UTF-8
	// byte order mark. It reads straight from the original reader once
	// the few bytes Sniff looked at are consumed.
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
// judged on the bytes the first read returned.
func Sniff(r io.Reader) (*Input, error) {
	in := &Input{}
	br := bufio.NewReaderSize(r, 64<<10)
	if head, _ := br.Peek(2); len(head) == 2 && head[0] == 0x1f && head[1] == 0x8b {
		gz, err := gzip.NewReader(br)
		if err != nil {
			return nil, fmt.Errorf("gzip input: %w", err)
		}
		in.Gzip = true
		br = bufio.NewReaderSize(gz, 64<<10)
	}
	head, err := br.Peek(3)
	if err != nil && err != io.EOF && len(head) < 3 {
		// The reader's error comes again on the first Read, counted
		// where it stopped; here it only ends the sniffing.
		in.R = br
		return in, nil
	}
	if bytes.Equal(head, bom) {
		in.BOM = true
		br.Discard(3)
	}
	first, _ := br.Peek(br.Buffered())
	in.Like = looksLike(first)
	in.R = br
	return in, nil
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
