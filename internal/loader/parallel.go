package loader

import (
	"bytes"
	"errors"
	"io"
	"iter"

	json "github.com/jsonpipe/json"
	"github.com/jsonpipe/json/internal/lines"
	"github.com/jsonpipe/json/internal/rowsrc"
)

// Decoding on several goroutines (Options.Workers). After the first rows,
// read on the loading goroutine to settle the columns, the rest of the
// input is cut into chunks of whole lines (internal/lines), and each
// worker decodes a chunk's rows into the backend's form (SQLite: values to
// bind; PostgreSQL: COPY's format), with a row reader of its own that
// holds a copy of the columns and may not change them. The chunks come
// back in input order; the loading goroutine numbers their rows and
// stores them as it would its own.
//
// A worker stops at the first row it cannot take as it is: a key new to
// the table (or the COPY), a value that does not fit, a syntax error (or
// an object spread over lines, which a chunk cuts). Its chunk's rows
// before that row are stored, and from that row on the rest of the input
// (the chunk's bytes, then every later chunk's) goes to a decoder on the
// loading goroutine: the serial path, which adds the column, names the
// error, or reads the object whole, exactly as without workers.

// ErrSerial is what a worker's row reader returns for a row that needs
// the serial path.
var ErrSerial = errors.New("loader: row for the serial path")

// WantWorkers reports whether a load starts decoding workers after the
// rows read so far: o asks for more than one, and the input is not a JSON
// array, nor after one (decoded by one goroutine, which keeps track of
// being inside it, and of what may follow it).
func WantWorkers(o *Options, rows *rowsrc.Rows) bool {
	return Workers(o) > 1 && !rows.InArray() && !rows.AfterArray() && o.Format != rowsrc.Array
}

// NewDecoder returns the decoder of a load's input r: values capped at
// maxValue bytes, and, when bigs is not nil, strings over
// rowsrc.StreamMin streamed into it rather than held whole.
func NewDecoder(r io.Reader, maxValue int, bigs *rowsrc.Chunks) *json.Decoder {
	d := json.NewDecoderBuffer(r, make([]byte, 64<<10))
	d.SetMaxTokenSize(maxValue)
	if bigs != nil {
		d.StreamLongStrings(rowsrc.StreamMin, bigs.Add)
	}
	return d
}

// Chunk is one chunk of lines as a worker decoded it: its rows in the
// backend's form R, their input offsets, and where the worker stopped.
// A Chunk is reused for later chunks: R keeps its memory (and the
// worker's row reader, made on first use and kept with the slot).
type Chunk[R any] struct {
	Data  []byte  // the chunk's bytes
	Start int64   // the input offset of Data[0]
	Offs  []int64 // each row's input offset
	Stop  int     // the offset in Data of the row the worker stopped at, or -1
	Lines int     // the newlines in Data, counted by the worker
	Rows  R       // the rows, as the backend's decode left them
}

// Parallel runs the workers and hands their rows out in input order.
type Parallel[R any] struct {
	next func() (*Chunk[R], error, bool)
	stop func()
	cur  *Chunk[R]
	i    int       // next row of cur
	sent int64     // input offset reached
	base int64     // the input offset the workers' part starts at
	in   io.Reader // what the workers' splitter reads: the input from base
	at   Pos       // the position of cur's first byte (or of base)

	// Serial is set once the rest of the input has gone to the serial
	// decoder: the input from offset From on, read from Rest, whose
	// first byte is at At (its line, for errors: see position.go).
	Serial bool
	From   int64
	Rest   io.Reader
	At     Pos
	// Off is the input offset of the row last handed out.
	Off int64
}

// StartParallel starts the workers on rest, the input from offset base
// on, which is at position at. decode runs on a worker goroutine for each chunk, with Data and
// Start set, Offs empty and Stop -1: it decodes the rows (see
// DecodeChunk) into c.Rows.
func StartParallel[R any](o *Options, rest io.Reader, at Pos, maxValue int, decode func(c *Chunk[R])) *Parallel[R] {
	base := at.Off
	opts := lines.Options{Workers: Workers(o), BlockSize: BlockSize(o), MaxLineSize: min(maxValue, rowsrc.MaxWorkerLine)}
	fn := func(lc lines.Chunk, c *Chunk[R]) error {
		c.Data, c.Start, c.Offs, c.Stop = lc.Data, base+lc.Offset, c.Offs[:0], -1
		c.Lines = bytes.Count(c.Data, newline)
		decode(c)
		return nil
	}
	next, stop := iter.Pull2(lines.Process(rest, opts, fn))
	return &Parallel[R]{next: next, stop: stop, sent: base, base: base, in: rest, at: at}
}

// WorkerDecoder returns a decoder for a worker's row reader (DecodeChunk
// resets it onto each chunk).
func WorkerDecoder(maxValue int) *json.Decoder {
	return NewDecoder(bytes.NewReader(nil), maxValue, nil)
}

// DecodeChunk is a worker's loop over c.Data with the decoder d: it steps
// from row to row, and after each row's '{' calls take, which reads the
// row's members and keeps the row, or returns an error (then it must keep
// nothing of the row): the row and the input after it go to the serial
// decoder. An array stops it too, at its '[', even an empty one: the
// serial path keeps track of being inside it, and of what may follow it.
func DecodeChunk[R any](c *Chunk[R], d *json.Decoder, format rowsrc.Format, take func() error) {
	d.Reset(bytes.NewReader(c.Data))
	rows := rowsrc.Rows{D: d, Format: format}
	for {
		at := d.InputOffset()
		if d.PeekKind() == '[' {
			c.Stop = int(at)
			return
		}
		more, _, err := rows.Next()
		if err == nil && more {
			off := d.InputOffset() - 1
			if err = take(); err == nil {
				c.Offs = append(c.Offs, c.Start+off)
				continue
			}
		}
		if err != nil {
			c.Stop = int(at)
		}
		return
	}
}

// Next returns the next row the workers decoded: row i of c, whose input
// offset is then p.Off. At the end of the input it returns a nil c; also
// when the rest of the input goes to the serial decoder, and then p.Serial
// is set, with p.From and p.Rest. A read error is returned with the
// offset where reading stopped.
func (p *Parallel[R]) Next() (c *Chunk[R], i int, off int64, err error) {
	for p.cur == nil || p.i == len(p.cur.Offs) {
		if p.cur != nil && p.cur.Stop >= 0 {
			p.toSerial(p.cur)
			return nil, 0, 0, nil
		}
		if p.cur != nil {
			// Past cur, before next reuses its slot.
			p.at, p.cur = p.after(nil), nil
		}
		c, err, ok := p.next()
		if !ok {
			return nil, 0, 0, nil
		}
		if err != nil {
			var tl *lines.TooLongError
			if errors.As(err, &tl) {
				// A line longer than the workers take: it and the rest
				// of the input go to the serial decoder.
				p.serialFrom(p.base+tl.Offset, p.at, io.MultiReader(bytes.NewReader(tl.Data), p.in))
				return nil, 0, 0, nil
			}
			// A read error: at the offset where reading stopped.
			off, err := rowsrc.ChunkError(err, p.sent)
			return nil, 0, off, err
		}
		p.cur, p.i = c, 0
		p.sent = c.Start + int64(len(c.Data))
	}
	c, i = p.cur, p.i
	p.Off = c.Offs[i]
	p.i++
	return c, i, 0, nil
}

// toSerial hands the input from the row c stopped at to the serial
// decoder.
func (p *Parallel[R]) toSerial(c *Chunk[R]) {
	p.serialFrom(c.Start+int64(c.Stop), p.after(c.Data[:c.Stop]), &rowsrc.Rest{Data: c.Data[c.Stop:], Tail: p.in, Next: func() ([]byte, error, bool) {
		c, err, ok := p.next()
		if c == nil {
			return nil, err, ok
		}
		return c.Data, err, ok
	}})
}

func (p *Parallel[R]) serialFrom(off int64, at Pos, r io.Reader) {
	p.Serial, p.From, p.Rest, p.At = true, off, r, at
}

// after is the position after part, the start of cur's bytes, or after
// all of them when part is nil.
func (p *Parallel[R]) after(part []byte) Pos {
	at := p.at
	switch {
	case p.cur == nil:
	case part == nil:
		at.advance(p.cur.Data, p.cur.Lines)
	default:
		at.advance(part, -1)
	}
	return at
}

// Running reports whether the workers are decoding: p is not nil and has
// not handed the input over to the serial decoder.
func (p *Parallel[R]) Running() bool { return p != nil && !p.Serial }

// Sent is how far the workers have read the input, for progress reports.
func (p *Parallel[R]) Sent() int64 { return p.sent }

// Stop stops the workers; it returns once they have.
func (p *Parallel[R]) Stop() {
	if p != nil {
		p.stop()
	}
}
