package postgres

import (
	json "github.com/jsonpipe/json"
	"github.com/jsonpipe/json/internal/loader"
	"github.com/jsonpipe/json/internal/rowsrc"
)

// Decoding on several goroutines (Options.Workers) is the loader core's
// (internal/loader, parallel.go): each worker decodes a chunk's rows
// straight into COPY's format, with a row reader of its own
// (workerReader) that holds a copy of the columns and may not change them, and the loading goroutine
// sends them into the COPY in input order as it would its own.

// chunkRows is a worker's rows of one chunk, in COPY's format.
type chunkRows struct {
	out  []byte // the rows' fields, one after the other
	ends []int  // where each row ends in out

	w *workerReader // the worker's row reader, made on first use and kept with the slot
}

// workerReader is a parallel decoder's row reader: its own copy of the
// columns, which it never changes (a key they lack sends the row to the
// serial path), its decoder, and the copier that writes its rows' fields.
type workerReader struct {
	rowReader
	d  *json.Decoder
	cp *copier
}

// serialKey is a worker's newKey: a key its columns lack is the serial
// path's to add, or to name as an error.
func serialKey([]byte) (int, error) { return -1, loader.ErrSerial }

// The copyLoader is the load loop's backend (loader.Run).
var _ loader.Backend[chunkRows] = (*copyLoader)(nil)

// Input is the load's input (loader.Reader).
func (l *copyLoader) Input() *loader.Source { return &l.Source }

// ReadRow reads the row whose '{' has been consumed into l.cur
// (loader.Reader); newKeys says it holds a key the COPY does not name.
func (l *copyLoader) ReadRow() (newKeys bool, err error) {
	err = l.readRow(l.D)
	return l.newCols, err
}

// StartWorkers starts the workers on the input after what l.D has read,
// with a copy of the columns as they are (loader.Reader).
func (l *copyLoader) StartWorkers() *loader.Parallel[chunkRows] {
	cols := append([]column(nil), l.cols...)
	keys := append([]rowsrc.Key(nil), l.keys.List...)
	binary := true
	var copied []int
	for i := range cols {
		if cols[i].copied {
			copied = append(copied, i)
			if cols[i].ct == tOther {
				binary = false
			}
		}
	}
	rest, at := l.Rest()
	l.par = loader.StartParallel(l.opts, rest, at, l.maxValue, func(c *loader.Chunk[chunkRows]) {
		if c.Rows.w == nil {
			w := &workerReader{d: loader.WorkerDecoder(l.maxValue)}
			w.rowReader = rowReader{opts: l.opts, maxValue: l.maxValue, bigs: new(rowsrc.Chunks), newKey: serialKey,
				cols: append([]column(nil), cols...), cur: make([]value, len(cols))}
			w.keys.List = append([]rowsrc.Key(nil), keys...)
			w.cp = &copier{r: &w.rowReader, binary: binary, cols: copied, inline: true}
			c.Rows.w = w
		}
		c.Rows.decode(c)
	})
	return l.par
}

// decode reads the rows of c into COPY's format, up to the first the
// serial path must take.
func (res *chunkRows) decode(c *loader.Chunk[chunkRows]) {
	w, cp := res.w, res.w.cp
	res.ends = res.ends[:0]
	cp.out = res.out[:0]
	loader.DecodeChunk(c, w.d, w.opts.Format, func() error {
		w.arena = w.arena[:0]
		err := w.readRow(w.d)
		if err == nil && w.newCols {
			err = loader.ErrSerial
		}
		if err == nil {
			n := len(cp.out)
			if err = cp.appendFields(); err != nil {
				cp.out = cp.out[:n]
			}
		}
		if err != nil {
			w.newCols = false
			return err
		}
		res.ends = append(res.ends, len(cp.out))
		return nil
	})
	res.out = cp.out
}
