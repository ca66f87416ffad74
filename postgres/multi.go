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
// a batch's COPY data goes into memory (a batch: its steps, in order) and,
// once the batch is complete, the batch goes to a goroutine of its own on
// a free connection, while the loader reads the next. Batches commit in
// input order: each waits, before its COMMIT, for the one before it to
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
)

// step is one statement of a batch.
type step struct {
	kind     stepKind
	sql      string
	row, off int64   // stepExec: the row and offset its error is reported at, when row > 0
	data     [][]byte // stepCopy: the COPY data, in chunks
	first    int64   // stepCopy, stepMove: the number of the first row
	offs     []int64 // each row's input offset
	count    bool    // stepCopy: its rows count as changes (no staging table)
}

// batch is one transaction of a load over several connections.
type batch struct {
	seq         int32 // its number in the load, for its advisory lock
	first, rows int64 // its rows: first to first+rows-1
	steps       []step
	added       []string // columns its ALTERs add
	alone       bool     // it changes the table: nothing else runs with it
	retried     bool     // sent again after a deadlock, alone

	prev    *batch        // the batch before, which commits first
	locked  chan struct{} // closed once it holds its advisory lock, or has ended
	done    chan struct{} // closed once it has ended
	err     error         // why it did not commit
	changes int64
}

// multi is the loader's state for a load over several connections.
type multi struct {
	conns  chan *pgx.Conn // the free connections
	n      int
	opened []*pgx.Conn // those Insert opened, closed when it returns
	key    int32       // the load's advisory lock key
	seq    int32
	cur    *batch   // the batch being built
	flight []*batch // batches sent and not yet counted, in input order
	last   *batch   // the last batch sent
	queued int64    // the rows of flight
	free   chunks   // COPY data chunks to reuse
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

// chunkReader reads the chunks of a COPY's data one after the other.
type chunkReader struct {
	data [][]byte
	i, k int
}

func (r *chunkReader) Read(p []byte) (int, error) {
	for r.i < len(r.data) && r.k == len(r.data[r.i]) {
		r.i, r.k = r.i+1, 0
	}
	if r.i == len(r.data) {
		return 0, io.EOF
	}
	n := copy(p, r.data[r.i][r.k:])
	r.k += n
	return n, nil
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

// sessionSettings are copied from the caller's connection to the ones
// Insert opens, as they change how a table name or a value in COPY's text
// format is read.
var sessionSettings = []string{"search_path", "TimeZone", "DateStyle", "IntervalStyle"}

// openMulti opens n-1 more connections like conn.
func openMulti(ctx context.Context, conn *pgx.Conn, n int) (*multi, error) {
	m := &multi{conns: make(chan *pgx.Conn, n), n: n, key: rand.Int32()}
	vals := make([]any, len(sessionSettings))
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
	for i := range ptrs {
		vals[i] = *ptrs[i].(*string)
	}
	m.conns <- conn
	for range n - 1 {
		c, err := pgx.ConnectConfig(ctx, conn.Config())
		if err == nil {
			_, err = c.Exec(ctx, set, vals...)
			if err != nil {
				c.Close(context.Background())
			}
		}
		if err != nil {
			m.close()
			return nil, fmt.Errorf("postgres: opening connection %d of %d: %w", len(m.opened)+2, n, err)
		}
		m.opened = append(m.opened, c)
		m.conns <- c
	}
	return m, nil
}

func (m *multi) close() {
	for _, c := range m.opened {
		c.Close(context.Background())
	}
}

// buildCopy reads the rows of one COPY into memory, as a step of the batch
// being built (and, with a staging table, the step that moves them).
func (l *loader) buildCopy(cp *copier, sql string, staging bool, rowCol string, names []string) error {
	data, err := cp.readAll(&l.multi.free)
	cp.close()
	if err != nil {
		return err // the load's own: a syntax, type or reader error
	}
	b := l.multi.cur
	offs := append([]int64(nil), cp.offs...)
	b.steps = append(b.steps, step{kind: stepCopy, sql: sql, data: data, first: cp.first, offs: offs, count: !staging})
	if staging && len(offs) > 0 {
		b.steps = append(b.steps, step{kind: stepMove, sql: l.moveSQL(rowCol, names), first: cp.first, offs: offs})
	}
	return nil
}

// dispatch sends the batch just built to a free connection. A batch that
// changes the table runs alone: after the batches before it have ended,
// and before the next is sent.
func (l *loader) dispatch() error {
	m := l.multi
	b := m.cur
	m.cur = nil
	b.rows = l.inBatch
	b.added = append([]string(nil), l.added...)
	l.added = l.added[:0]
	if len(b.steps) == 0 {
		return nil
	}
	if b.alone {
		if err := l.settleAll(); err != nil {
			return err
		}
	}
	for len(m.flight) >= m.n {
		if err := l.settle(); err != nil {
			return err
		}
	}
	b.seq, m.seq = m.seq, m.seq+1
	b.prev, m.last = m.last, b
	m.flight = append(m.flight, b)
	m.queued += b.rows
	b.locked, b.done = make(chan struct{}), make(chan struct{})
	go m.run(l.ctx, <-m.conns, b)
	if b.alone {
		return l.settleAll()
	}
	return nil
}

// settleAll waits for every batch in flight.
func (l *loader) settleAll() error {
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
func (l *loader) settle() error {
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
		r.retried, r.prev, r.err, r.changes = true, nil, nil, 0
		r.locked, r.done = make(chan struct{}), make(chan struct{})
		m.run(l.ctx, <-m.conns, r)
		if r.err != nil {
			return r.err
		}
		l.counted(r)
	}
	return nil
}

// release returns a batch's COPY data to the free chunks.
func (m *multi) release(b *batch) {
	for i := range b.steps {
		m.free.put(b.steps[i].data)
		b.steps[i].data = nil
	}
}

// counted adds a committed batch to the result.
func (l *loader) counted(b *batch) {
	l.multi.release(b)
	l.res.Rows += b.rows
	l.res.Changes += b.changes
	l.res.Added = append(l.res.Added, b.added...)
	l.progress()
}

// run runs batch b on conn, then returns conn to the free ones.
func (m *multi) run(ctx context.Context, conn *pgx.Conn, b *batch) {
	locked := false
	b.err = m.exec(ctx, conn, b, func() { close(b.locked); locked = true })
	if !locked {
		close(b.locked)
	}
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
	for i := range b.steps {
		if err := b.step(ctx, conn, &b.steps[i]); err != nil {
			return err
		}
	}
	if testHookSteps != nil {
		testHookSteps(b.seq, true)
	}
	if p := b.prev; p != nil {
		// The wait for the batch before, in PostgreSQL: it holds its lock
		// until it ends.
		<-p.locked
		if _, err := conn.Exec(ctx, "SELECT pg_advisory_xact_lock_shared($1::int4, $2::int4)", m.key, p.seq); err != nil {
			return err
		}
		<-p.done // it has ended: its goroutine is about to say how
		if p.err != nil {
			return errAbandoned
		}
	}
	committing = true
	_, err = conn.Exec(ctx, "COMMIT")
	return err
}

func (b *batch) step(ctx context.Context, conn *pgx.Conn, s *step) error {
	switch s.kind {
	case stepExec:
		if _, err := conn.Exec(ctx, s.sql); err != nil {
			if s.row > 0 {
				return &RowError{Row: s.row, Offset: s.off, Err: err}
			}
			return err
		}
	case stepCopy:
		tag, err := conn.PgConn().CopyFrom(ctx, &chunkReader{data: s.data}, s.sql)
		if err != nil {
			return refusal(err, s.first, s.offs, b.first, s.first+int64(len(s.offs))-1)
		}
		if s.count {
			b.changes += tag.RowsAffected()
		}
	case stepMove:
		n, err := moveRows(ctx, conn, s.sql, s.first, s.offs)
		if err != nil {
			return err
		}
		b.changes += n
	}
	return nil
}

// isDeadlock reports whether PostgreSQL ended a transaction to break a
// deadlock.
func isDeadlock(err error) bool {
	var pe *pgconn.PgError
	return errors.As(err, &pe) && pe.Code == "40P01"
}
