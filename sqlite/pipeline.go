package sqlite

import (
	"context"
	"database/sql/driver"
	"errors"

	sqlite3 "github.com/mattn/go-sqlite3"
)

// Decoding and inserting overlap: while one goroutine reads and binds the
// rows of the next statement, another executes the previous one in
// SQLite. They hand chunks (one statement's rows each) back and forth over
// two channels; three chunks of about a thousand rows circulate, so memory
// stays flat. Everything
// else that touches the connection (BEGIN, COMMIT, ALTER, preparing, and
// running a failed statement's rows one by one) happens on the decoding
// goroutine after sync, when no chunk is out.

// chunk is one statement's worth of rows: the parameters, the text they
// point into, and each row's number and offset for error messages.
type chunk struct {
	args []driver.NamedValue
	text []byte
	row  []int64
	off  []int64
	n    int   // rows bound
	err  error // set when a statement failed
	// The failed statement's rows: [failFrom, failTo).
	failFrom, failTo int

	stmt       *sqlite3.SQLiteStmt // set when sent
	per, ncols int
}

// newChunk makes a chunk of rows rows for statements of per rows of ncols
// columns; rows is a multiple of per. Each statement's parameters are
// numbered from 1.
func newChunk(rows, per, ncols int) *chunk {
	ch := &chunk{
		args: make([]driver.NamedValue, rows*ncols),
		row:  make([]int64, rows),
		off:  make([]int64, rows),
	}
	for i := range ch.args {
		ch.args[i].Ordinal = i%(per*ncols) + 1
	}
	return ch
}

// chunkRows is how many rows a chunk holds: several statements' worth, so
// that the goroutines hand over a chunk only every thousand rows or so,
// but at most about 32,768 parameters, so that wide tables stay small.
func chunkRows(per, ncols int) int {
	m := max(1, min(1024/per, maxParams/(per*ncols)))
	return m * per
}

// run executes the first rows rows of ch (a multiple of per) with st, a
// statement of per rows. On failure it records which statement failed.
func (ch *chunk) run(ctx context.Context, st *sqlite3.SQLiteStmt, rows, per, ncols int) error {
	for from := 0; from < rows; from += per {
		if err := execStmt(ctx, st, ch.args[from*ncols:(from+per)*ncols]); err != nil {
			ch.err, ch.failFrom, ch.failTo = err, from, from+per
			return err
		}
	}
	return nil
}

// errSkipped marks chunks not run because an earlier one failed.
var errSkipped = errors.New("sqlite: statement skipped after an earlier failure")

const maxChunks = 3

// send hands the full current chunk to the statement goroutine and makes
// a free chunk current.
func (ins *inserter) send() error {
	if ins.work == nil {
		ins.work = make(chan *chunk, maxChunks)
		ins.done = make(chan *chunk, maxChunks)
		go statements(ins.ctx, ins.work, ins.done)
	}
	ch := ins.ch
	ch.text, ch.stmt, ch.per, ch.ncols = ins.text, ins.stmt, ins.perStmt, ins.ncols
	ins.work <- ch
	ins.inflight++
	next, err := ins.freeChunk()
	if err != nil {
		return err
	}
	next.n, next.err = 0, nil
	ins.ch, ins.text = next, next.text[:0]
	return nil
}

func (ins *inserter) freeChunk() (*chunk, error) {
	if n := len(ins.spare); n > 0 {
		ch := ins.spare[n-1]
		ins.spare = ins.spare[:n-1]
		return ch, nil
	}
	if ins.nchunks < maxChunks {
		ins.nchunks++
		return newChunk(ins.perChunk, ins.perStmt, ins.ncols), nil
	}
	ch := <-ins.done
	ins.inflight--
	if ch.err != nil {
		ins.bad = ch
		return nil, ins.sync()
	}
	return ch, nil
}

// sync waits until every chunk sent is back, and returns the row error of
// the first failed statement, if any (the same error on later calls).
func (ins *inserter) sync() error {
	for ins.inflight > 0 {
		ch := <-ins.done
		ins.inflight--
		switch {
		case ch.err == nil || ch.err == errSkipped:
			ins.spare = append(ins.spare, ch)
		case ins.bad == nil:
			ins.bad = ch
		}
	}
	if ins.bad != nil && ins.badErr == nil {
		ins.badErr = ins.locate(ins.bad)
	}
	return ins.badErr
}

// stop syncs and ends the statement goroutine.
func (ins *inserter) stop() error {
	err := ins.sync()
	if ins.work != nil {
		close(ins.work)
		ins.work = nil
	}
	return err
}

// statements is the statement goroutine: it executes each chunk it is
// sent, and after a failure only passes chunks back (their rows belong to
// the batch that will be rolled back).
func statements(ctx context.Context, work <-chan *chunk, done chan<- *chunk) {
	failed := false
	for ch := range work {
		if failed {
			ch.err = errSkipped
		} else if ch.run(ctx, ch.stmt, ch.n, ch.per, ch.ncols) != nil {
			failed = true
		}
		done <- ch
	}
}
