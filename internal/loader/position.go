package loader

import (
	"bytes"
	"io"
)

// Line and column of an error, for a person to open an editor at.
//
// Nothing is counted per row or per token: a LineReader, between the
// input and the one decoder that reads it, counts the newlines of each
// chunk it passes on (bytes.Count, a vector loop, and LastIndexByte only
// when the chunk has one), and remembers the chunk it passed last. When an
// error needs its line, PosAt works it out from those counts and the bytes
// still in the decoder's window. The decoding workers count the newlines
// of their chunks, on their own goroutines, so that the serial decoder a
// worker hands the input over to starts from the right line (Parallel.At).
//
// Columns count bytes, as Go's compiler, gcc and clang do and as vim's
// cursor() takes them, not characters: "é" is two columns. A byte order
// mark skipped at the start (Sniff) is not counted.

// Pos is a place in the input: the byte offset Off, the Line it is on
// (1-based) and the offset LineStart that line starts at. Line 0 or
// LineStart -1 means not known.
type Pos struct {
	Off, Line, LineStart int64
}

// Start is the position of an input's first byte.
var Start = Pos{Off: 0, Line: 1, LineStart: 0}

// Column is p's column (1-based, in bytes), or 0 when not known.
func (p Pos) Column() int64 {
	if p.Line <= 0 || p.LineStart < 0 || p.Off < p.LineStart {
		return 0
	}
	return p.Off - p.LineStart + 1
}

// advance moves p over b, the bytes at p.Off; lines is the count of
// newlines in b, or -1 to count them here.
func (p *Pos) advance(b []byte, lines int) {
	if lines < 0 {
		lines = bytes.Count(b, newline)
	}
	if lines > 0 {
		p.Line += int64(lines)
		p.LineStart = p.Off + int64(bytes.LastIndexByte(b, '\n')) + 1
	}
	p.Off += int64(len(b))
}

var newline = []byte{'\n'}

// LineReader passes R's bytes on to one json.Decoder, counting lines.
//
// It keeps the slice the last Read filled, which is the decoder's own
// buffer: the decoder writes to its buffer only just before it calls Read
// again (to slide or grow the window), so until then those bytes are the
// input as read. This is why a LineReader must be read by one decoder and
// nothing else; it is never written through.
type LineReader struct {
	r      io.Reader
	at     Pos    // after the bytes read
	last   []byte // the bytes the last Read returned
	lastAt Pos    // the position of last[0]
	ring   [16]Pos
	nring  int // positions recorded in ring, at the start of each Read
}

// NewLineReader returns a LineReader of r, whose first byte is at at.
func NewLineReader(r io.Reader, at Pos) *LineReader {
	return &LineReader{r: r, at: at, lastAt: at}
}

func (lr *LineReader) Read(p []byte) (int, error) {
	n, err := lr.r.Read(p)
	lr.ring[lr.nring%len(lr.ring)] = lr.at
	lr.nring++
	lr.lastAt, lr.last = lr.at, nil
	if n > 0 && n <= len(p) {
		lr.last = p[:n]
		lr.at.advance(lr.last, -1)
	}
	return n, err
}

// PosAt returns the position of offset x, which the decoder reading lr
// has not yet consumed, or whose bytes lr passed on last. window is the
// decoder's unconsumed bytes (Decoder.Buffered), which end where lr has
// read to. The line is known whenever x is in the last chunk read or in
// the window; the column too, unless its line started in an earlier chunk
// than the last few and is still going at x (a line longer than the
// decoder's window, cut by several reads).
func (lr *LineReader) PosAt(x int64, window []byte) Pos {
	if x >= lr.lastAt.Off && x <= lr.at.Off && x-lr.lastAt.Off <= int64(len(lr.last)) {
		p := lr.lastAt
		p.advance(lr.last[:x-lr.lastAt.Off], -1)
		return p
	}
	from := lr.at.Off - int64(len(window))
	if x < from || x > lr.at.Off {
		return lr.fromRing(x)
	}
	i := int(x - from)
	p := Pos{Off: x, Line: lr.at.Line - int64(bytes.Count(window[i:], newline)), LineStart: -1}
	if j := bytes.LastIndexByte(window[:i], '\n'); j >= 0 {
		p.LineStart = from + int64(j) + 1
		return p
	}
	// The line started before the window: at a chunk boundary that had
	// read exactly as many lines, that line's start was known.
	// (Either side of x: the same count means no newline in between.)
	if lr.at.Line == p.Line {
		p.LineStart = lr.at.LineStart
		return p
	}
	for k := range min(lr.nring, len(lr.ring)) {
		if q := lr.ring[k]; q.Line == p.Line {
			p.LineStart = q.LineStart
			break
		}
	}
	return p
}

// fromRing is PosAt for an x that is neither in the last chunk read nor
// in the window (the decoder read again after consuming it): the place
// where a recorded Read began is known exactly, and so is any place in a
// chunk whose start and end are on one line (the same line count at both:
// no newline between).
func (lr *LineReader) fromRing(x int64) Pos {
	var before, after *Pos // the recorded places nearest x, at or below it and above it
	n := min(lr.nring, len(lr.ring))
	for k := range n + 1 {
		q := &lr.at
		if k < n {
			q = &lr.ring[k]
		}
		if q.Off <= x && (before == nil || q.Off > before.Off) {
			before = q
		}
		if q.Off > x && (after == nil || q.Off < after.Off) {
			after = q
		}
	}
	switch {
	case before != nil && before.Off == x:
		return *before
	case before != nil && after != nil && before.Line > 0 && before.Line == after.Line:
		return Pos{Off: x, Line: before.Line, LineStart: before.LineStart}
	}
	return Pos{Off: x, LineStart: -1}
}

// At is the position after the bytes read so far.
func (lr *LineReader) At() Pos { return lr.at }
