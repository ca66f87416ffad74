package postgres

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"sync"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// Loads over several connections (Options.Connections).
//
// The loading goroutine reads the rows as it does for one connection, but
// each batch (its statements: COPYs, and the staging table's and ALTER's)
// goes to a goroutine of its own on a free connection, which runs the
// statements as the loader adds them, COPY data included, while the
// loader reads on and then starts the next batch on another connection.
// The COPY data is also kept in memory until the batch has committed, so
// the loader never waits for a server, and a batch can be sent again.
// Batches commit in input order: each waits, before its COMMIT, for the one before it to
// have committed, and rolls back if it did not. An error thus leaves
// exactly the batches before the failing one committed, as with one
// connection, and Result counts them.
//
// Waiting for the batch before can hang: with a unique index, batch k may
// insert a key that batch k+1, already sent, holds uncommitted; k then
// waits inside PostgreSQL for k+1 to end, while k+1 waits for k to commit.
// So that PostgreSQL sees the second wait too, each batch takes an
// advisory lock of its own (pg_advisory_xact_lock: the load's key, its
// number) right after its BEGIN, and waits for the batch before by taking
// that batch's lock, shared, before its COMMIT. The cycle is then
// PostgreSQL's, which breaks it after deadlock_timeout by failing one of
// the two with a deadlock error (40P01). Every batch not yet committed is
// then rolled back and sent again, one at a time, so that the key is
// refused, ignored or merged in the row a single connection would have
// found it in.

type stepKind uint8

const (
	stepExec stepKind = iota // sql, with no arguments (row, off: the row an error names)
	stepCopy                 // COPY sql FROM STDIN of data
	stepMove                 // the staging table's rows into the table, with sql (moveRows)
	stepWait                 // wait for the batch before to commit (waitPrev), as before COMMIT
)

// step is one statement of a batch. A COPY's data, offs and closed grow
// while the batch runs, under the batch's mu.
type step struct {
	kind     stepKind
	sql      string
	row, off int64    // stepExec: the row and offset its error is reported at, when row > 0
	data     [][]byte // stepCopy: the COPY data, in chunks
	closed   bool     // stepCopy: data is complete
	first    int64    // stepCopy, stepMove: the number of the first row
	offs     []int64  // each row's input offset
	count    bool     // stepCopy: its rows count as changes (no staging table)
}

// batch is one transaction of a load over several connections.
type batch struct {
	seq     int32 // its number in the load, for its advisory lock
	first   int64 // its first row
	rows    int64 // how many, once it is complete
	added   []string
	widened []string
	alone   bool // it adds or widens a column: the next batch starts after it commits
	waits   bool // it has a stepWait: the batches before it have ended by its later steps
	retried bool // sent again after a deadlock, alone

	mu     sync.Mutex
	cond   sync.Cond // signalled when steps, data, sealed, abort or failed change
	steps  []*step
	sealed bool  // all its steps are added
	abort  error // the loader's error that ended it before it was complete
	failed error // its goroutine's error, as soon as it has one

	prev    *batch        // the batch before, which commits first
	locked  chan struct{} // closed once it holds its advisory lock, or has ended
	done    chan struct{} // closed once it has ended
	err     error         // why it did not commit
	changes int64
	updated int64 // of changes, rows updated
}

// multi is the loader's state for a load over several connections.
type multi struct {
	conns    chan *pgx.Conn // the free connections
	n        int
	opened   []*pgx.Conn     // those Insert opened, closed when it returns
	key      int32           // the load's advisory lock key
	cfg      *pgx.ConnConfig // the caller's connection's, for the others
	set      string          // the statement that copies its settings to them
	settings []any
	seq      int32
	cur      *batch    // the batch being read
	flight   []*batch  // batches started and not yet counted, in input order
	last     *batch    // the last batch started
	queued   int64     // the rows of the complete batches of flight
	free     chunks    // COPY data chunks to reuse
	freeOffs [][]int64 // row offset slices to reuse
}

const chunkSize = 256 << 10

// chunks is a free list of COPY data chunks, as long as the most a load
// has held at once.
type chunks struct {
	mu   sync.Mutex
	list [][]byte
}

func (c *chunks) get() []byte {
	c.mu.Lock()
	defer c.mu.Unlock()
	if n := len(c.list); n > 0 {
		b := c.list[n-1]
		c.list = c.list[:n-1]
		return b[:0]
	}
	return make([]byte, 0, chunkSize)
}

func (c *chunks) put(data [][]byte) {
	c.mu.Lock()
	c.list = append(c.list, data...)
	c.mu.Unlock()
}

// Tests set these: testHookSteps runs before a batch's steps and after
// them (done), testHookResend when batches are sent again after a
// deadlock.
var (
	testHookSteps  func(seq int32, done bool)
	testHookResend func(seq int32)
)

// errAbandoned is why a batch rolls back when the batch before it did not
// commit; it is never reported, the earlier batch's error is.
var errAbandoned = errors.New("postgres: an earlier batch failed")

// errStopped is why the loader stops reading when the batch it reads for
// has failed; the batch's error is reported instead.
var errStopped = errors.New("postgres: the batch failed")

// sessionSettings are copied from the caller's connection to the ones
// Insert opens, as they change how a table name or a value in COPY's text
// format is read.
var sessionSettings = []string{"search_path", "TimeZone", "DateStyle", "IntervalStyle"}

// openMulti prepares a load over n connections: conn, and n-1 more
// opened like it as they are needed (a load of one batch opens none, and
// connecting costs a server process).
func openMulti(ctx context.Context, conn *pgx.Conn, n int) (*multi, error) {
	m := &multi{conns: make(chan *pgx.Conn, n), n: n, key: rand.Int32(), cfg: conn.Config()}
	ptrs := make([]any, len(sessionSettings))
	sel, set := "SELECT ", "SELECT "
	for i, name := range sessionSettings {
		ptrs[i] = new(string)
		if i > 0 {
			sel, set = sel+", ", set+", "
		}
		sel += fmt.Sprintf("current_setting('%s')", name)
		set += fmt.Sprintf("set_config('%s', $%d, false)", name, i+1)
	}
	if err := conn.QueryRow(ctx, sel).Scan(ptrs...); err != nil {
		return nil, err
	}
	m.set = set
	for _, p := range ptrs {
		m.settings = append(m.settings, *p.(*string))
	}
	m.conns <- conn
	return m, nil
}

// conn returns a free connection, opening one when none is free and
// fewer than n are open.
func (m *multi) conn(ctx context.Context) (*pgx.Conn, error) {
	select {
	case c := <-m.conns:
		return c, nil
	default:
	}
	if 1+len(m.opened) == m.n {
		return <-m.conns, nil
	}
	c, err := pgx.ConnectConfig(ctx, m.cfg)
	if err == nil {
		if _, err = c.Exec(ctx, m.set, m.settings...); err != nil {
			c.Close(context.Background())
		}
	}
	if err != nil {
		return nil, fmt.Errorf("postgres: opening connection %d of %d: %w", len(m.opened)+2, m.n, err)
	}
	m.opened = append(m.opened, c)
	return c, nil
}

func (m *multi) close() {
	for _, c := range m.opened {
		c.Close(context.Background())
	}
}

// startBatch starts the next batch on a free connection, once fewer than
// n batches are in flight.
func (l *copyLoader) startBatch() error {
	m := l.multi
	for len(m.flight) >= m.n {
		if err := l.settle(); err != nil {
			return err
		}
	}
	conn, err := m.conn(l.ctx)
	if err != nil {
		return err
	}
	l.building = true
	l.batchFirst, l.inBatch = l.res.Rows+m.queued+1, 0
	b := &batch{first: l.batchFirst, seq: m.seq, prev: m.last}
	b.cond.L = &b.mu
	m.seq++
	m.cur, m.last = b, b
	m.flight = append(m.flight, b)
	b.locked, b.done = make(chan struct{}), make(chan struct{})
	go m.run(l.ctx, conn, b)
	return nil
}

// endBatch completes the batch being read. After a batch that adds a
// column, the next starts once it has committed.
func (l *copyLoader) endBatch() error {
	m := l.multi
	b := m.cur
	l.building, m.cur = false, nil
	b.rows = l.inBatch
	b.added = append([]string(nil), l.added...)
	l.added = l.added[:0]
	b.widened = append([]string(nil), l.widened...)
	l.widened = l.widened[:0]
	m.queued += b.rows
	b.mu.Lock()
	b.sealed = true
	b.cond.Broadcast()
	b.mu.Unlock()
	if b.alone {
		return l.settleAll()
	}
	return nil
}

// abortBatch ends the batch being read with the loader's error: it rolls
// back, and err is its error.
func (l *copyLoader) abortBatch(err error) {
	m := l.multi
	b := m.cur
	l.building, m.cur = false, nil
	b.mu.Lock()
	b.abort = err
	b.cond.Broadcast()
	b.mu.Unlock()
}

// add appends a statement to the batch.
func (b *batch) add(s *step) {
	b.mu.Lock()
	b.steps = append(b.steps, s)
	b.cond.Broadcast()
	b.mu.Unlock()
}

// startStep adds the COPY sql to the batch being built: its data, as the
// loader hands it over (stepFlush), goes into the batch's memory, where
// its connection's goroutine sends it from as it comes.
func (l *copyLoader) startStep(cp *copier, sql string, staging bool) {
	m := l.multi
	s := &step{kind: stepCopy, sql: sql, count: !staging}
	m.cur.add(s)
	cp.step, cp.buf = s, nil
	// The copier's row offsets become the step's, in a slice of their
	// own (the copier reuses its slice from one COPY to the next).
	cp.offs = nil
	if k := len(m.freeOffs); k > 0 {
		cp.offs, m.freeOffs = m.freeOffs[k-1], m.freeOffs[:k-1]
	}
}

// stepFlush copies the COPY data written so far into the step's chunks;
// end closes its data. The loader stops early, with errStopped, when the
// batch has failed for a reason other than a deadlock (a deadlocked batch
// is sent again whole, so it reads on).
func (l *copyLoader) stepFlush(cp *copier, end bool) error {
	m := l.multi
	b, s := m.cur, cp.step
	for _, pc := range cp.pieces {
		src := cp.out
		if pc.arena {
			src = cp.r.arena
		} else if pc.data != nil {
			src = pc.data
		}
		src = src[pc.from:pc.to]
		for len(src) > 0 {
			if cp.buf == nil || len(cp.buf) == chunkSize {
				buf := m.free.get()
				b.mu.Lock()
				if cp.buf != nil {
					s.data[len(s.data)-1] = cp.buf
				}
				s.data = append(s.data, buf)
				b.mu.Unlock()
				cp.buf = buf
			}
			k := copy(cp.buf[len(cp.buf):chunkSize], src)
			cp.buf = cp.buf[:len(cp.buf)+k]
			src = src[k:]
		}
	}
	cp.out, cp.pieces = cp.out[:0], cp.pieces[:0]
	b.mu.Lock()
	if cp.buf != nil {
		s.data[len(s.data)-1] = cp.buf
	}
	s.first = cp.first
	s.offs = cp.offs
	s.closed = end
	failed := b.failed
	b.cond.Broadcast()
	b.mu.Unlock()
	if failed != nil && !isDeadlock(failed) {
		l.copying = false
		return errStopped
	}
	return nil
}

// settleAll waits for every batch in flight.
func (l *copyLoader) settleAll() error {
	for len(l.multi.flight) > 0 {
		if err := l.settle(); err != nil {
			return err
		}
	}
	return nil
}

// settle waits for the oldest batch in flight to end, and counts it. When
// it failed, the ones after it roll back; after a deadlock they are all
// sent again, one at a time.
func (l *copyLoader) settle() error {
	m := l.multi
	b := m.flight[0]
	<-b.done
	m.flight = m.flight[1:]
	m.queued -= b.rows
	if b.err == nil {
		l.counted(b)
		return nil
	}
	rest := m.flight
	for _, r := range rest {
		<-r.done
		m.queued -= r.rows
	}
	m.flight = nil
	if !isDeadlock(b.err) || b.retried {
		return b.err
	}
	if testHookResend != nil {
		testHookResend(b.seq)
	}
	for _, r := range append([]*batch{b}, rest...) {
		if r.abort != nil {
			// The batch the loader was reading when it stopped: its error
			// (the loader's, or the batch's own that stopped the loader).
			return r.err
		}
		r.retried, r.prev, r.err, r.failed, r.changes, r.updated = true, nil, nil, nil, 0, 0
		r.locked, r.done = make(chan struct{}), make(chan struct{})
		conn, err := m.conn(l.ctx)
		if err != nil {
			return err
		}
		m.run(l.ctx, conn, r)
		if r.err != nil {
			return r.err
		}
		l.counted(r)
	}
	return nil
}

// release returns a batch's COPY data to the free chunks.
func (m *multi) release(b *batch) {
	for _, s := range b.steps {
		m.free.put(s.data)
		if s.kind == stepCopy && s.offs != nil {
			m.freeOffs = append(m.freeOffs, s.offs[:0])
		}
		s.data, s.offs = nil, nil
	}
}

// counted adds a committed batch to the result.
func (l *copyLoader) counted(b *batch) {
	l.multi.release(b)
	l.res.Rows += b.rows
	l.res.Changes += b.changes
	l.res.Updated += b.updated
	l.res.Added = append(l.res.Added, b.added...)
	l.res.Widened = append(l.res.Widened, b.widened...)
	l.progress()
}

// run runs batch b on conn, then returns conn to the free ones.
func (m *multi) run(ctx context.Context, conn *pgx.Conn, b *batch) {
	locked := false
	err := m.exec(ctx, conn, b, func() { close(b.locked); locked = true })
	if !locked {
		close(b.locked)
	}
	b.mu.Lock()
	if b.abort != nil {
		err = b.abort
	}
	b.failed = err
	b.mu.Unlock()
	b.err = err
	m.conns <- conn
	close(b.done)
}

func (m *multi) exec(ctx context.Context, conn *pgx.Conn, b *batch, locked func()) (err error) {
	if _, err := conn.Exec(ctx, "BEGIN"); err != nil {
		return err
	}
	committing := false
	defer func() {
		if err == nil || committing || conn.IsClosed() {
			return // a failed COMMIT ends the transaction too
		}
		if _, rerr := conn.Exec(context.Background(), "ROLLBACK"); rerr != nil {
			err = fmt.Errorf("%w (and ROLLBACK failed: %w)", err, rerr)
		}
	}()
	if _, err := conn.Exec(ctx, "SELECT pg_advisory_xact_lock($1::int4, $2::int4)", m.key, b.seq); err != nil {
		return err
	}
	locked()
	if testHookSteps != nil {
		testHookSteps(b.seq, false)
	}
	for i := 0; ; i++ {
		s, err := b.next(i)
		if err != nil {
			return err
		}
		if s == nil {
			break
		}
		if err := m.step(ctx, conn, b, s); err != nil {
			return err
		}
	}
	if testHookSteps != nil {
		testHookSteps(b.seq, true)
	}
	if err := m.waitPrev(ctx, conn, b); err != nil {
		return err
	}
	committing = true
	_, err = conn.Exec(ctx, "COMMIT")
	return err
}

// waitPrev waits for the batch before b, if any, to end, and returns
// errAbandoned if it did not commit. The wait is one PostgreSQL sees: the
// batch before holds its advisory lock until it ends.
func (m *multi) waitPrev(ctx context.Context, conn *pgx.Conn, b *batch) error {
	p := b.prev
	if p == nil {
		return nil
	}
	<-p.locked
	if _, err := conn.Exec(ctx, "SELECT pg_advisory_xact_lock_shared($1::int4, $2::int4)", m.key, p.seq); err != nil {
		return err
	}
	<-p.done // it has ended: its goroutine is about to say how
	if p.err != nil {
		return errAbandoned
	}
	return nil
}

// next waits for the batch's step i; it returns nil after the last.
func (b *batch) next(i int) (*step, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for {
		switch {
		case b.abort != nil:
			return nil, b.abort
		case i < len(b.steps):
			return b.steps[i], nil
		case b.sealed:
			return nil, nil
		}
		b.cond.Wait()
	}
}

func (m *multi) step(ctx context.Context, conn *pgx.Conn, b *batch, s *step) error {
	switch s.kind {
	case stepWait:
		return m.waitPrev(ctx, conn, b)
	case stepExec:
		if _, err := conn.Exec(ctx, s.sql); err != nil {
			if s.row > 0 {
				return rowErr(s.row, s.off, err)
			}
			return err
		}
	case stepCopy:
		tag, err := conn.PgConn().CopyFrom(ctx, &stepReader{b: b, s: s}, s.sql)
		if err != nil {
			b.mu.Lock()
			first, offs := s.first, s.offs
			b.mu.Unlock()
			return refusal(err, first, offs, b.first, first+int64(len(offs))-1)
		}
		if s.count {
			b.changes += tag.RowsAffected()
		}
	case stepMove:
		n, upd, err := moveRows(ctx, conn, s.sql, s.first, s.offs)
		if err != nil {
			return err
		}
		b.changes += n
		b.updated += upd
	}
	return nil
}

// stepReader reads a COPY's data as the loader adds it.
type stepReader struct {
	b    *batch
	s    *step
	i, k int // the next byte: chunk i, byte k
}

func (r *stepReader) Read(p []byte) (int, error) {
	b, s := r.b, r.s
	b.mu.Lock()
	defer b.mu.Unlock()
	for {
		if b.abort != nil {
			return 0, b.abort
		}
		for r.i < len(s.data) && r.k == len(s.data[r.i]) && r.k == chunkSize {
			r.i, r.k = r.i+1, 0
		}
		if r.i < len(s.data) && r.k < len(s.data[r.i]) {
			n := copy(p, s.data[r.i][r.k:])
			r.k += n
			return n, nil
		}
		if s.closed {
			return 0, io.EOF
		}
		b.cond.Wait()
	}
}

// isDeadlock reports whether PostgreSQL ended a transaction to break a
// deadlock.
func isDeadlock(err error) bool {
	var pe *pgconn.PgError
	return errors.As(err, &pe) && pe.Code == "40P01"
}
