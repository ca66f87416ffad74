package postgres

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

// Decoding on several goroutines (Options.Workers). After the first rows,
// read on the loading goroutine to settle the columns, the rest of the
// input is cut into chunks of whole lines (internal/lines), and each
// worker decodes a chunk's rows straight into COPY's format, with a loader
// of its own that holds a copy of the columns and may not change them.
// The chunks come back in input order; the loading goroutine numbers their
// rows and sends them into the COPY as it would its own.
//
// A worker stops at the first row it cannot take as it is: a key the COPY
// does not name, a value that does not fit, a syntax error (or an object
// spread over lines, which a chunk cuts). Its chunk's rows before that row
// are sent, and from that row on the rest of the input (the chunk's
// bytes, then every later chunk's) goes to a decoder on the loading
// goroutine: the serial path, which adds the column, names the error, or
// reads the object whole, exactly as without workers.

// errSerial is what a worker's loader returns for a row that needs the
// serial path.
var errSerial = errors.New("postgres: row for the serial path")

// chunkRows is a worker's result: the rows of one chunk in COPY's format.
type chunkRows struct {
	data  []byte  // the chunk's bytes
	start int64   // the input offset of data[0]
	out   []byte  // the rows' fields, one after the other
	ends  []int   // where each row ends in out
	offs  []int64 // each row's input offset
	stop  int     // the offset in data of the row the worker stopped at, or -1

	wl *copyLoader // the worker's loader, made on first use and kept with the slot
	cp *copier
}

type parallel struct {
	next   func() (*chunkRows, error, bool)
	stop   func()
	res    *chunkRows
	i      int // next row of res
	serial bool
	sent   int64     // input offset reached
	base   int64     // the input offset the workers' part starts at
	in     io.Reader // what the workers' splitter reads: the input from base
}

// startParallel starts the workers on the input after what l.d has read,
// with a copy of the columns as they are.
func (l *copyLoader) startParallel() {
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
	base := l.inputOffset()
	rest := io.MultiReader(l.d.Buffered(), l.r)
	block := loader.BlockSize(l.opts)
	opts := lines.Options{Workers: loader.Workers(l.opts), BlockSize: block, MaxLineSize: min(l.maxValue, rowsrc.MaxWorkerLine)}
	fn := func(c lines.Chunk, res *chunkRows) error {
		if res.wl == nil {
			wl := &copyLoader{opts: l.opts, table: l.table, worker: true, maxValue: l.maxValue,
				cols: append([]column(nil), cols...), cur: make([]value, len(cols))}
			wl.keys.List = append([]rowsrc.Key(nil), keys...)
			wl.d = json.NewDecoderBuffer(bytes.NewReader(nil), make([]byte, 64<<10))
			wl.d.SetMaxTokenSize(l.maxValue)
			res.wl = wl
			res.cp = &copier{l: wl, binary: binary, cols: copied, inline: true}
		}
		res.decode(c.Data, base+c.Offset)
		return nil
	}
	next, stop := iter.Pull2(lines.Process(rest, opts, fn))
	l.par = &parallel{next: next, stop: stop, sent: base, base: base, in: rest}
}

// decode reads the rows of data into COPY's format, up to the first the
// serial path must take.
func (res *chunkRows) decode(data []byte, start int64) {
	wl, cp := res.wl, res.cp
	res.data, res.start, res.stop = data, start, -1
	res.ends, res.offs = res.ends[:0], res.offs[:0]
	cp.out = res.out[:0]
	wl.d.Reset(bytes.NewReader(data))
	wl.rows = rowsrc.Rows{D: wl.d, Format: wl.opts.Format}
	for {
		at := wl.d.InputOffset()
		wl.arena = wl.arena[:0]
		more, err := wl.nextRow()
		if err == nil && more && wl.rows.InArray() {
			// An array: from its '[' on, the serial path, which keeps
			// track of being inside it.
			err = errSerial
		}
		if err == nil && more {
			off := wl.d.InputOffset() - 1
			err = wl.readRow()
			if err == nil && wl.newCols {
				err = errSerial
			}
			n := len(cp.out)
			if err == nil {
				if err = cp.appendFields(); err != nil {
					cp.out = cp.out[:n]
				}
			}
			if err == nil {
				res.ends = append(res.ends, len(cp.out))
				res.offs = append(res.offs, start+off)
				continue
			}
		}
		if err != nil {
			res.stop = int(at)
			wl.newCols = false
		}
		break
	}
	res.out = cp.out
}

// nextParallel makes l.tuple the next row the workers decoded. It reports
// false at the end of the input, or when the rest of the input has gone
// to the serial decoder (l.par.serial).
func (l *copyLoader) nextParallel() (bool, error) {
	p := l.par
	for p.res == nil || p.i == len(p.res.ends) {
		if p.res != nil && p.res.stop >= 0 {
			l.toSerial(p.res)
			return false, nil
		}
		res, err, ok := p.next()
		if !ok {
			l.eof = true
			return false, nil
		}
		if err != nil {
			var tl *lines.TooLongError
			if errors.As(err, &tl) {
				// A line longer than the workers take: it and the rest
				// of the input go to the serial decoder.
				l.serialFrom(p.base+tl.Offset, io.MultiReader(bytes.NewReader(tl.Data), p.in))
				return false, nil
			}
			// A read error: the row after the last one read, at the
			// offset where reading stopped.
			off, err := rowsrc.ChunkError(err, p.sent)
			return false, &RowError{Row: l.read + 1, Offset: off, Err: err}
		}
		p.res, p.i = res, 0
		p.sent = res.start + int64(len(res.data))
	}
	res := p.res
	from := 0
	if p.i > 0 {
		from = res.ends[p.i-1]
	}
	l.tuple = res.out[from:res.ends[p.i]]
	l.read++
	l.row, l.rowOff = l.read, res.offs[p.i]
	p.i++
	return true, nil
}

// toSerial hands the input from the row res stopped at to a decoder on
// the loading goroutine.
func (l *copyLoader) toSerial(res *chunkRows) {
	p := l.par
	l.serialFrom(res.start+int64(res.stop), &rowsrc.Rest{Data: res.data[res.stop:], Tail: p.in, Next: func() ([]byte, error, bool) {
		res, err, ok := p.next()
		if res == nil {
			return nil, err, ok
		}
		return res.data, err, ok
	}})
}

// serialFrom makes r, the input from offset off on, the serial decoder's.
func (l *copyLoader) serialFrom(off int64, r io.Reader) {
	l.par.serial = true
	l.base = off
	l.d = json.NewDecoderBuffer(r, make([]byte, 64<<10))
	l.d.SetMaxTokenSize(l.maxValue)
	l.d.StreamLongStrings(rowsrc.StreamMin, l.bigs.Add)
	l.rows = rowsrc.Rows{D: l.d, Format: l.opts.Format}
}

// bytesRead is how far the input has been read, for progress reports.
func (l *copyLoader) bytesRead() int64 {
	if l.par != nil && !l.par.serial {
		return l.par.sent
	}
	return l.inputOffset()
}
