package postgres

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/jackc/pgx/v5"
	json "github.com/jsonpipe/json"
	"github.com/jsonpipe/json/internal/csvin"
	"github.com/jsonpipe/json/internal/loader"
)

// postgresType is the type of a column of CSV or TSV input.
func postgresType(t csvin.Type) string {
	switch t {
	case csvin.Integer:
		return "bigint"
	case csvin.Real:
		return "double precision"
	}
	return "text"
}

// Insert reads JSON objects from r (one array of objects, NDJSON, or
// concatenated objects: see Format) and copies each as a row into table
// over conn, with binary COPY ... FROM STDIN written straight from the
// tokens. The table, one name quoted as an identifier (found on conn's
// search_path), is created when missing. opts may be nil for the defaults.
//
// The Result is exact even on error: Rows counts every row of every
// committed transaction, and the failing batch is rolled back. Errors
// about a particular row are *RowError; a batch PostgreSQL refuses without
// naming a row is a *BatchError. A reader error, a dropped connection, a
// server error that ends the session or the statement (severity FATAL,
// SQLSTATE class 57 or 08: a terminated backend, a cancelled statement)
// and a cancelled context are returned as they are (wrapped in a RowError
// naming the row being read when the reader fails).
//
// conn must not be used by anything else during the load, and must not be
// inside a transaction.
func Insert(ctx context.Context, conn *pgx.Conn, table string, r io.Reader, opts *Options) (_ Result, ret error) {
	if opts == nil {
		opts = &Options{}
	}
	if err := checkName(table); err != nil {
		return Result{}, fmt.Errorf("postgres: table name: %w", err)
	}
	in, err := loader.Open("postgres", r, opts, postgresType)
	if err != nil {
		return Result{}, err
	}
	defer func() { in.Place(ret) }()
	r, opts = in.R, in.Opts
	for _, c := range opts.Columns {
		if err := checkName(c.Name); err != nil {
			return Result{}, fmt.Errorf("postgres: column: %w", err)
		}
		if err := validType(c.Type); err != nil {
			return Result{}, err
		}
		if c.Default != nil {
			if _, _, err := literal(c.Default); err != nil {
				return Result{}, fmt.Errorf("postgres: column %s: %w", loader.ShortName(c.Name), err)
			}
		}
	}
	l := &copyLoader{ctx: ctx, conn: conn, table: table}
	l.rowReader = rowReader{opts: opts, maxValue: maxValueSize(opts), bigs: &l.Bigs, newKey: l.newKey}
	l.Init("postgres", r, opts, l.maxValue)
	if n := loader.Connections(opts); n > 1 {
		m, err := openMulti(ctx, conn, n)
		if err != nil {
			return Result{}, err
		}
		defer m.close()
		l.multi = m
	}
	err = loader.Run(ctx, l, opts)
	if err != nil && l.copying {
		l.abortCopy(err)
	}
	if err != nil && l.inTx {
		l.rollback(&err)
	}
	if l.multi != nil {
		if l.building {
			l.abortBatch(err)
		}
		// The batches still in flight come before whatever ended the
		// load: they commit, or their error is the first.
		if ferr := l.settleAll(); ferr != nil {
			err = ferr
		}
	}
	if err != nil && ctx.Err() != nil && !errors.Is(err, ctx.Err()) {
		// Cancelled while pgx was reading or writing: its error can be the
		// closed connection's rather than the context's. Say both.
		err = fmt.Errorf("%w: %w", ctx.Err(), err)
	}
	return l.res, err
}

// InsertURL is Insert over a new connection to the PostgreSQL server at
// url ("postgres://..." or "postgresql://...", or a key=value connection
// string), closed when the load ends.
func InsertURL(ctx context.Context, url, table string, r io.Reader, opts *Options) (Result, error) {
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		return Result{}, err
	}
	defer conn.Close(context.Background())
	return Insert(ctx, conn, table, r, opts)
}

type copyLoader struct {
	ctx           context.Context
	conn          *pgx.Conn
	loader.Source                             // the input: the serial decoder (D) and where it is
	par           *loader.Parallel[chunkRows] // the parallel decoders, when they run
	// multi, for a load over several connections, sends the batches;
	// building says the open batch is being built in memory for it.
	multi    *multi
	building bool
	// tuple, when not nil, is the row to send, already in COPY's format
	// (fields only) by a parallel decoder.
	tuple     []byte
	table     string
	res       Result
	rowReader // the columns, the row being read or sent, and its arena

	pk     []string
	exists bool // the table exists (or will, once CREATE commits)

	// The rows read while sampling, sent first.
	samples    []value
	sampleRows []sampleRow
	sent       int   // sample rows sent
	deferred   error // the error that ended sampling, due after its rows

	row    int64 // the row being sent (1-based)
	rowOff int64 // its input offset
	// canWiden: a value that does not fit an inferred column widens it
	// (a table the load creates, without StrictTypes: widen.go).
	canWiden bool

	inTx         bool
	batchFirst   int64 // first row of the open transaction
	inBatch      int64 // rows sent in the open transaction
	created      bool  // the open transaction creates the table
	truncate     bool  // Truncate: the table's rows are still to be deleted
	emptied      bool  // the open transaction deleted them
	added        []string
	widened      []string // the open transaction's widenings, as Result.Widened has them
	batchChanges int64    // rows the open transaction inserted or updated
	batchUpdated int64    // of which updated
	segRows      int64    // rows sent in the running COPY
	segLimit     int64    // rows it may take
	create       string   // CREATE TABLE to run in the first transaction
	cp           *copier
	copying      bool // a COPY is running: cp takes the rows (copy.go)
}

type sampleRow struct {
	from, width int
	row, off    int64
}

// LoadTable reads the table's columns and primary key, if it exists
// (loader.Backend).
func (l *copyLoader) LoadTable() (bool, error) {
	cols, pk, exists, err := loadTable(l.ctx, l.conn, l.table)
	if err != nil {
		return false, err
	}
	l.cols, l.exists = cols, exists
	l.canWiden = !exists && !l.opts.StrictTypes
	l.cur = make([]value, len(cols))
	for i := range cols {
		l.keys.Add(string(json.AppendQuote(nil, cols[i].name)), i)
	}
	if len(l.opts.PrimaryKey) > 0 {
		pk = l.opts.PrimaryKey
	}
	l.pk = pk
	return exists, nil
}

// Truncate says the table's rows are to be deleted, in the first
// batch's transaction (loader.Backend).
func (l *copyLoader) Truncate() { l.truncate = true }

// Begin is the start of a load in one transaction (loader.Backend). The
// transaction is the first batch's, which Sample opens, so that the
// table's creation and emptying are in it; its COPYs end every BatchSize
// rows, but it commits only at Finish (send).
func (l *copyLoader) Begin() error { return nil }

// CreateTable takes Options.Columns as the columns of the table to create
// (loader.Backend); Sample then adds the keys the first rows hold, and
// the table is created in the first transaction.
func (l *copyLoader) CreateTable() error {
	for _, c := range l.opts.Columns {
		typ := c.Type
		if typ == "" {
			typ = TypeText
		}
		col := column{name: c.Name, typ: typ, notNull: c.NotNull}
		if c.Default != nil {
			col.dflt, _, _ = literal(c.Default) // checked in Insert
		}
		l.cols = append(l.cols, col)
		l.keys.Add(string(json.AppendQuote(nil, c.Name)), len(l.cols)-1)
		l.cur = append(l.cur, value{})
	}
	return nil
}

// Sample reads the first rows, to learn the columns the rows hold (the
// COPY names them) and, for a table to create, their types; it settles
// the table and the conflict mode's needs, opens the first batch, adds
// the columns the table lacks (Alter), then sends the rows
// (loader.Backend). An error in them is returned after the rows before it
// have been sent.
func (l *copyLoader) Sample() error {
	if err := l.sample(); err != nil {
		return err
	}
	if err := l.checkConflict(); err != nil {
		return err
	}
	if err := l.begin(); err != nil {
		return err
	}
	// An error here is placed at the last row read.
	if err := l.prepareColumns(); err != nil {
		return err
	}
	for l.sent < len(l.sampleRows) {
		sr := l.sampleRows[l.sent]
		l.sent++
		copy(l.cur, l.samples[sr.from:sr.from+sr.width])
		clear(l.cur[sr.width:])
		if err := l.send(sr.row, sr.off, nil); err != nil {
			return err
		}
	}
	err := l.deferred
	l.deferred = nil
	return err
}

// sample reads the first InferRows rows, to learn the keys (and, for a
// table to create, their types) before the first COPY. An error in them is
// returned after the rows before it have been sent.
func (l *copyLoader) sample() error {
	l.sampling = true
	defer func() { l.sampling = false }()
	n := loader.InferRows(l.opts)
	for len(l.sampleRows) < n {
		more, err := l.readNext()
		if err != nil {
			l.deferred = err
			break
		}
		if !more {
			break
		}
		l.sampleRows = append(l.sampleRows, sampleRow{from: len(l.samples), width: len(l.cur), row: l.Row, off: l.rowOff})
		l.samples = append(l.samples, l.cur...)
	}
	l.newCols = false
	if !l.exists {
		if err := l.defineTable(); err != nil {
			return err
		}
	}
	for i := range l.cols {
		c := &l.cols[i]
		// The columns to copy: those the rows hold (an existing table's
		// others keep their defaults).
		c.copied = c.keyed
	}
	return nil
}

// readNext reads the next row into l.cur, numbering it.
func (l *copyLoader) readNext() (bool, error) {
	more, start, err := l.Next()
	if err != nil || !more {
		return false, err
	}
	l.row, l.rowOff = l.Row, start
	if err := l.readRow(l.D); err != nil {
		return false, l.RowError(err, l.Row, -1)
	}
	return true, nil
}
