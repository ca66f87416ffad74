package postgres

import (
	"github.com/jsonpipe/json/internal/loader"
	"github.com/jsonpipe/json/internal/rowsrc"
)

// Decoding on several goroutines (Options.Workers) is the loader core's
// (internal/loader, parallel.go): each worker decodes a chunk's rows
// straight into COPY's format, with a copyLoader of its own that holds a
// copy of the columns and may not change them, and the loading goroutine
// sends them into the COPY in input order as it would its own.

// chunkRows is a worker's rows of one chunk, in COPY's format.
type chunkRows struct {
	out  []byte // the rows' fields, one after the other
	ends []int  // where each row ends in out

	wl *copyLoader // the worker's loader, made on first use and kept with the slot
	cp *copier
}

// The copyLoader reads its rows through loader.Steps; its loop, driven
// by the COPY pulling its data, is its own (batch.go).
var _ loader.Reader[chunkRows] = (*copyLoader)(nil)

// Input is the load's input (loader.Reader).
func (l *copyLoader) Input() *loader.Source { return &l.Source }

// ReadRow reads the row whose '{' has been consumed into l.cur
// (loader.Reader); newKeys says it holds a key the COPY does not name.
func (l *copyLoader) ReadRow() (newKeys bool, err error) {
	err = l.readRow()
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
		if c.Rows.wl == nil {
			wl := &copyLoader{opts: l.opts, table: l.table, worker: true, maxValue: l.maxValue,
				cols: append([]column(nil), cols...), cur: make([]value, len(cols))}
			wl.keys.List = append([]rowsrc.Key(nil), keys...)
			wl.D = loader.WorkerDecoder(l.maxValue)
			c.Rows.wl = wl
			c.Rows.cp = &copier{l: wl, binary: binary, cols: copied, inline: true}
		}
		c.Rows.decode(c)
	})
	return l.par
}

// decode reads the rows of c into COPY's format, up to the first the
// serial path must take.
func (res *chunkRows) decode(c *loader.Chunk[chunkRows]) {
	wl, cp := res.wl, res.cp
	res.ends = res.ends[:0]
	cp.out = res.out[:0]
	loader.DecodeChunk(c, wl.D, wl.opts.Format, func() error {
		wl.arena = wl.arena[:0]
		err := wl.readRow()
		if err == nil && wl.newCols {
			err = loader.ErrSerial
		}
		if err == nil {
			n := len(cp.out)
			if err = cp.appendFields(); err != nil {
				cp.out = cp.out[:n]
			}
		}
		if err != nil {
			wl.newCols = false
			return err
		}
		res.ends = append(res.ends, len(cp.out))
		return nil
	})
	res.out = cp.out
}
