package sqlite

import (
	"bytes"
	"io"

	"github.com/jsonpipe/json/internal/loader"
	"github.com/jsonpipe/json/internal/rowsrc"
)

// Decoding on several goroutines (Options.Workers) is the loader core's
// (internal/loader, parallel.go): each worker decodes a chunk's rows into
// values with an inserter of its own that holds a copy of the columns and
// may not change them, and the loading goroutine binds the rows in input
// order. SQLite keeps its one writer.

// decodedRows is a worker's rows of one chunk, as values.
type decodedRows struct {
	vals    []value // ncols values a row
	text    []byte  // the rows' text, which vals point into
	textEnd []int   // where each row's text ends

	wi *inserter // the worker's inserter, made on first use and kept with the slot
}

// startParallel starts the workers on the input after what ins.d has
// read, with a copy of the columns as they are.
func (ins *inserter) startParallel() {
	cols := append([]column(nil), ins.cols...)
	keys := append([]rowsrc.Key(nil), ins.keys.List...)
	max := maxValueSize(ins.opts)
	window, _ := io.ReadAll(ins.d.Buffered())
	at := ins.lines.PosAt(ins.inputOffset(), window)
	rest := io.MultiReader(bytes.NewReader(window), ins.r)
	ins.par = loader.StartParallel(ins.opts, rest, at, max, func(c *loader.Chunk[decodedRows]) {
		if c.Rows.wi == nil {
			wi := &inserter{opts: ins.opts, table: ins.table, worker: true,
				cols: append([]column(nil), cols...), cur: make([]value, len(cols))}
			wi.keys.List = append([]rowsrc.Key(nil), keys...)
			wi.d = loader.WorkerDecoder(max)
			c.Rows.wi = wi
		}
		c.Rows.decode(c)
	})
}

// decode reads the rows of c into values, up to the first the serial
// path must take.
func (res *decodedRows) decode(c *loader.Chunk[decodedRows]) {
	wi := res.wi
	res.vals, res.textEnd = res.vals[:0], res.textEnd[:0]
	wi.text = res.text[:0]
	loader.DecodeChunk(c, wi.d, wi.opts.Format, func() error {
		from := len(wi.text)
		if err := wi.readRow(); err != nil {
			wi.text = wi.text[:from]
			return err
		}
		res.vals = append(res.vals, wi.cur...)
		res.textEnd = append(res.textEnd, len(wi.text))
		return nil
	})
	res.text = wi.text
}

// nextParallel makes ins.cur (its text appended to ins.text) the next row
// the workers decoded, and numbers it; ins.par.Off is its offset. It
// reports false at the end of the input, or when the rest of the input has
// gone to the serial decoder (ins.par.Serial).
func (ins *inserter) nextParallel() (bool, error) {
	c, i, off, err := ins.par.Next()
	if err != nil {
		// A read error: the row after the last one read.
		return false, rowErr(ins.row+1, off, err)
	}
	if c == nil {
		if ins.par.Serial {
			ins.serialFrom(ins.par.From, ins.par.At, ins.par.Rest)
		}
		return false, nil
	}
	res := &c.Rows
	n := len(res.wi.cur)
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
	return true, nil
}

// serialFrom makes r, the input from offset off on (at position at), the
// serial decoder's.
func (ins *inserter) serialFrom(off int64, at loader.Pos, r io.Reader) {
	ins.base = off
	ins.lines = loader.NewLineReader(r, at)
	ins.d = loader.NewDecoder(ins.lines, maxValueSize(ins.opts), &ins.bigs)
	ins.rows = rowsrc.Rows{D: ins.d, Format: ins.opts.Format}
}

// inputOffset is the decoder's offset in the whole input.
func (ins *inserter) inputOffset() int64 { return ins.base + ins.d.InputOffset() }

// bytesRead is how far the input has been read, for progress reports.
func (ins *inserter) bytesRead() int64 {
	if ins.par.Running() {
		return ins.par.Sent()
	}
	return ins.inputOffset()
}
