package sqlite

import (
	"bytes"
	"errors"
	"io"
	"iter"

	json "github.com/jsonpipe/json"
	"github.com/jsonpipe/json/internal/lines"
	"github.com/jsonpipe/json/internal/loader"
	"github.com/jsonpipe/json/internal/rowsrc"
)

// Decoding on several goroutines (Options.Workers), as in package
// postgres: after the first rows, the rest of the input is cut into
// chunks of whole lines (internal/lines), each worker decodes a chunk's
// rows into values with an inserter of its own that holds a copy of the
// columns and may not change them, and the loading goroutine binds the
// rows in input order. SQLite keeps its one writer.
//
// A worker stops at the first row it cannot take as it is (a key new to
// the table, a syntax error, an object spread over lines): its chunk's
// rows before that row are bound, and from that row on the rest of the
// input goes to a decoder on the loading goroutine, exactly as without
// workers.

// errSerial is what a worker's inserter returns for a row that needs the
// serial path.
var errSerial = errors.New("sqlite: row for the serial path")

// decodedChunk is a worker's result: the rows of one chunk as values.
type decodedChunk struct {
	data    []byte  // the chunk's bytes
	start   int64   // the input offset of data[0]
	vals    []value // ncols values a row
	text    []byte  // the rows' text, which vals point into
	textEnd []int   // where each row's text ends
	offs    []int64 // each row's input offset
	stop    int     // the offset in data of the row the worker stopped at, or -1

	wi *inserter // the worker's inserter, made on first use and kept with the slot
}

type parallel struct {
	next   func() (*decodedChunk, error, bool)
	stop   func()
	res    *decodedChunk
	i      int // next row of res
	ncols  int
	serial bool
	sent   int64     // input offset reached
	base   int64     // the input offset the workers' part starts at
	in     io.Reader // what the workers' splitter reads: the input from base
	off    int64     // the input offset of the row last handed out
}

// startParallel starts the workers on the input after what ins.d has
// read, with a copy of the columns as they are.
func (ins *inserter) startParallel() {
	cols := append([]column(nil), ins.cols...)
	keys := append([]rowsrc.Key(nil), ins.keys.List...)
	max := maxValueSize(ins.opts)
	block := loader.BlockSize(ins.opts)
	base := ins.inputOffset()
	rest := io.MultiReader(ins.d.Buffered(), ins.r)
	opts := lines.Options{Workers: loader.Workers(ins.opts), BlockSize: block, MaxLineSize: min(max, rowsrc.MaxWorkerLine)}
	fn := func(c lines.Chunk, res *decodedChunk) error {
		if res.wi == nil {
			wi := &inserter{opts: ins.opts, table: ins.table, worker: true,
				cols: append([]column(nil), cols...), cur: make([]value, len(cols))}
			wi.keys.List = append([]rowsrc.Key(nil), keys...)
			wi.d = json.NewDecoderBuffer(bytes.NewReader(nil), make([]byte, 64<<10))
			wi.d.SetMaxTokenSize(max)
			res.wi = wi
		}
		res.decode(c.Data, base+c.Offset)
		return nil
	}
	next, stop := iter.Pull2(lines.Process(rest, opts, fn))
	ins.par = &parallel{next: next, stop: stop, sent: base, base: base, in: rest, ncols: len(cols)}
}

// decode reads the rows of data into values, up to the first the serial
// path must take.
func (res *decodedChunk) decode(data []byte, start int64) {
	wi := res.wi
	res.data, res.start, res.stop = data, start, -1
	res.vals, res.textEnd, res.offs = res.vals[:0], res.textEnd[:0], res.offs[:0]
	wi.text = res.text[:0]
	wi.d.Reset(bytes.NewReader(data))
	wi.rows = rowsrc.Rows{D: wi.d, Format: wi.opts.Format}
	for {
		at := wi.d.InputOffset()
		more, err := wi.nextRow()
		if err == nil && more && wi.rows.InArray() {
			// An array: from its '[' on, the serial path, which keeps
			// track of being inside it.
			err = errSerial
		}
		if err == nil && more {
			off := wi.d.InputOffset() - 1
			from := len(wi.text)
			if err = wi.readRow(); err == nil {
				res.vals = append(res.vals, wi.cur...)
				res.textEnd = append(res.textEnd, len(wi.text))
				res.offs = append(res.offs, start+off)
				continue
			}
			wi.text = wi.text[:from]
		}
		if err != nil {
			res.stop = int(at)
		}
		break
	}
	res.text = wi.text
}

// nextParallel makes ins.cur (its text appended to ins.text) the next row
// the workers decoded, and numbers it. It reports false at the end of the
// input, or when the rest of the input has gone to the serial decoder
// (ins.par.serial).
func (ins *inserter) nextParallel() (bool, error) {
	p := ins.par
	for p.res == nil || p.i == len(p.res.offs) {
		if p.res != nil && p.res.stop >= 0 {
			ins.toSerial(p.res)
			return false, nil
		}
		res, err, ok := p.next()
		if !ok {
			return false, nil
		}
		if err != nil {
			var tl *lines.TooLongError
			if errors.As(err, &tl) {
				// A line longer than the workers take: it and the rest
				// of the input go to the serial decoder.
				ins.serialFrom(p.base+tl.Offset, io.MultiReader(bytes.NewReader(tl.Data), p.in))
				return false, nil
			}
			// A read error: the row after the last one read, at the
			// offset where reading stopped.
			off, err := rowsrc.ChunkError(err, p.sent)
			return false, &RowError{Row: ins.row + 1, Offset: off, Err: err}
		}
		p.res, p.i = res, 0
		p.sent = res.start + int64(len(res.data))
	}
	res, i, n := p.res, p.i, p.ncols
	from := 0
	if i > 0 {
		from = res.textEnd[i-1]
	}
	delta := int64(len(ins.text) - from)
	ins.text = append(ins.text, res.text[from:res.textEnd[i]]...)
	copy(ins.cur, res.vals[i*n:(i+1)*n])
	for c := range n {
		if ins.cur[c].kind >= kindText {
			ins.cur[c].i += delta
		}
	}
	ins.row++
	p.off = res.offs[i]
	p.i++
	return true, nil
}

// toSerial hands the input from the row res stopped at to a decoder on
// the loading goroutine.
func (ins *inserter) toSerial(res *decodedChunk) {
	p := ins.par
	ins.serialFrom(res.start+int64(res.stop), &rowsrc.Rest{Data: res.data[res.stop:], Tail: p.in, Next: func() ([]byte, error, bool) {
		res, err, ok := p.next()
		if res == nil {
			return nil, err, ok
		}
		return res.data, err, ok
	}})
}

// serialFrom makes r, the input from offset off on, the serial decoder's.
func (ins *inserter) serialFrom(off int64, r io.Reader) {
	ins.par.serial = true
	ins.base = off
	ins.d = json.NewDecoderBuffer(r, make([]byte, 64<<10))
	ins.d.SetMaxTokenSize(maxValueSize(ins.opts))
	ins.d.StreamLongStrings(rowsrc.StreamMin, ins.bigs.Add)
	ins.rows = rowsrc.Rows{D: ins.d, Format: ins.opts.Format}
}

// inputOffset is the decoder's offset in the whole input.
func (ins *inserter) inputOffset() int64 { return ins.base + ins.d.InputOffset() }

// bytesRead is how far the input has been read, for progress reports.
func (ins *inserter) bytesRead() int64 {
	if ins.par != nil && !ins.par.serial {
		return ins.par.sent
	}
	return ins.inputOffset()
}
