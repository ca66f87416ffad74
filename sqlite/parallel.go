package sqlite

import (
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

// StartWorkers starts the workers on the input after what ins.D has
// read, with a copy of the columns as they are (loader.Backend).
func (ins *inserter) StartWorkers() *loader.Parallel[decodedRows] {
	cols := append([]column(nil), ins.cols...)
	keys := append([]rowsrc.Key(nil), ins.keys.List...)
	max := maxValueSize(ins.opts)
	rest, at := ins.Rest()
	ins.par = loader.StartParallel(ins.opts, rest, at, max, func(c *loader.Chunk[decodedRows]) {
		if c.Rows.wi == nil {
			wi := &inserter{opts: ins.opts, table: ins.table, worker: true,
				cols: append([]column(nil), cols...), cur: make([]value, len(cols))}
			wi.keys.List = append([]rowsrc.Key(nil), keys...)
			wi.D = loader.WorkerDecoder(max)
			c.Rows.wi = wi
		}
		c.Rows.decode(c)
	})
	return ins.par
}

// decode reads the rows of c into values, up to the first the serial
// path must take.
func (res *decodedRows) decode(c *loader.Chunk[decodedRows]) {
	wi := res.wi
	res.vals, res.textEnd = res.vals[:0], res.textEnd[:0]
	wi.text = res.text[:0]
	loader.DecodeChunk(c, wi.D, wi.opts.Format, func() error {
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

// AddWorkerRow binds row i of c, the next row the workers decoded
// (loader.Backend): its values are copied into ins.cur, its text appended
// to ins.text.
func (ins *inserter) AddWorkerRow(c *loader.Chunk[decodedRows], i int, off int64) error {
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
	return ins.addRow(ins.cur, ins.text, ins.Row, off)
}
