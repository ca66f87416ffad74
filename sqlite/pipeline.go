package sqlite

import (
	"database/sql/driver"
	"errors"

	sqlite3 "github.com/mattn/go-sqlite3"
)

// Decoding and inserting overlap: while one goroutine reads and binds the
// rows of the next statement, another executes the previous one in
// SQLite. They hand chunks (one statement's rows each) back and forth over
// two channels; three chunks circulate, so memory stays flat. Everything
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
	err  error // set by the statement goroutine when the statement failed

	stmt  *sqlite3.SQLiteStmt // set when sent
	ncols int
}

func newChunk(per, ncols int) *chunk {
	ch := &chunk{
		args: make([]driver.NamedValue, per*ncols),
		row:  make([]int64, per),
		off:  make([]int64, per),
	}
	for i := range ch.args {
		ch.args[i].Ordinal = i + 1
	}
	return ch
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
		go statements(ins.work, ins.done)
	}
	ch := ins.ch
	ch.text, ch.stmt, ch.ncols = ins.text, ins.stmt, ins.ncols
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
		return newChunk(ins.perStmt, ins.ncols), nil
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
func statements(work <-chan *chunk, done chan<- *chunk) {
	failed := false
	for ch := range work {
		if failed {
			ch.err = errSkipped
		} else if err := execStmt(ch.stmt, ch.args[:ch.n*ch.ncols]); err != nil {
			ch.err = err
			failed = true
		}
		done <- ch
	}
}
