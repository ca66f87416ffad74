package sqlite

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"fmt"
	"io"
	"runtime"

	"github.com/jsonpipe/json/internal/csvin"
	"github.com/jsonpipe/json/internal/loader"
	"github.com/jsonpipe/json/internal/rowsrc"
	sqlite3 "github.com/mattn/go-sqlite3"
)

// sqliteType is the declared type of a column of CSV or TSV input.
func sqliteType(t csvin.Type) string {
	switch t {
	case csvin.Integer:
		return "INTEGER"
	case csvin.Real:
		return "REAL"
	}
	return "TEXT"
}

// Insert reads JSON objects from r (one array of objects, NDJSON, or
// concatenated objects: see Format) and inserts each as a row of table in
// db, which must be opened with go-sqlite3 ("sqlite3" driver). The table is
// created when missing. opts may be nil for the defaults.
//
// Insert holds one connection of db for the whole load. For a ":memory:"
// database, open it with db.SetMaxOpenConns(1) so that the load and later
// queries share the one connection that holds the data.
//
// The Result is exact even on error: Rows counts every row of every
// committed transaction, and the failing batch is rolled back. Errors about
// a particular row are *RowError.
func Insert(ctx context.Context, db *sql.DB, table string, r io.Reader, opts *Options) (Result, error) {
	conn, err := db.Conn(ctx)
	if err != nil {
		return Result{}, err
	}
	defer conn.Close()
	var res Result
	err = conn.Raw(func(dc any) error {
		c, ok := dc.(*sqlite3.SQLiteConn)
		if !ok {
			return fmt.Errorf("sqlite: db's driver connection is %T, want *sqlite3.SQLiteConn", dc)
		}
		var err error
		res, err = insert(ctx, c, table, r, opts)
		return err
	})
	return res, err
}

// InsertPath is Insert into the SQLite database file at path, which is
// created if missing. Its connection is opened in SQLite's multi-thread
// mode (go-sqlite3's _mutex=no) unless path, a DSN, names a _mutex mode:
// Insert never uses a connection from two goroutines at once, so the
// per-call locks of the default serialized mode only cost time (about a
// tenth of the CPU of a load). A database that cannot be opened (its
// directory missing, say) or a file that is not an SQLite database is a
// [*DBError] naming path and what is wrong with it.
func InsertPath(ctx context.Context, path, table string, r io.Reader, opts *Options) (Result, error) {
	db, err := openPath(ctx, path)
	if err != nil {
		return Result{}, err
	}
	res, err := Insert(ctx, db, table, r, opts)
	if cerr := db.Close(); err == nil {
		err = cerr
	}
	return res, err
}

// column is a table column as the inserter knows it.
type column struct {
	name    string
	typ     string
	notNull bool
	dflt    string // SQL text of the default, "" for none
	seen    typeSet
}

type inserter struct {
	ctx           context.Context
	c             *sqlite3.SQLiteConn
	loader.Source                               // the input: the serial decoder (D) and where it is
	par           *loader.Parallel[decodedRows] // the parallel decoders, when they run
	worker        bool                          // a parallel decoder's own inserter: it reads rows, never changes columns
	opts          *Options
	table         string
	res           Result

	cols     []column
	keys     rowsrc.Keys
	unlisted []string    // keys of the row being read that keys does not list (rows.go)
	cur      []value     // the row being read, one value per column
	flat     rowsrc.Flat // the nested objects being flattened (Flatten)
	text     []byte      // arena for the text of the rows of the pending statement
	boxes    boxes       // texts that repeat, boxed once

	pk       []string
	sampling bool // reading the first rows to infer a missing table's columns

	// Prepared state, for len(cols) == ncols.
	ncols    int
	perStmt  int                 // rows per statement
	perChunk int                 // rows per chunk, a multiple of perStmt
	stmt     *sqlite3.SQLiteStmt // perStmt rows
	stmt1    *sqlite3.SQLiteStmt // one row, to find the failing row of a statement
	one      []driver.NamedValue // ncols, to run one row of a failed statement
	ch       *chunk              // rows bound, not yet executed

	// Pipelining (pipeline.go).
	pipelined bool
	work      chan *chunk // full chunks, to the statement goroutine
	done      chan *chunk // executed chunks, back
	inflight  int         // chunks sent and not yet back
	spare     []*chunk
	nchunks   int
	bad       *chunk // the first chunk whose statement failed
	badErr    error  // the row error located in it

	inTx     bool     // a transaction is open
	inBatch  int      // rows in the open transaction
	changes0 int64    // total_changes() when the load began
	created  bool     // the open transaction created the table
	truncate bool     // Truncate: the table's rows are still to be deleted
	emptied  bool     // the open transaction deleted them
	added    []string // columns the open transaction added
}

var bg = context.Background()

func insert(ctx context.Context, c *sqlite3.SQLiteConn, table string, r io.Reader, opts *Options) (res Result, err error) {
	if opts == nil {
		opts = &Options{}
	}
	if err := checkName(table); err != nil {
		return res, fmt.Errorf("sqlite: table name: %w", err)
	}
	in, err := loader.Open("sqlite", r, opts, sqliteType)
	if err != nil {
		return res, err
	}
	defer func() { in.Place(err) }()
	r, opts = in.R, in.Opts
	ins := &inserter{ctx: ctx, c: c, opts: opts, table: table}
	ins.Init("sqlite", r, opts, maxValueSize(opts))
	if opts.BulkPragmas {
		restore, err := bulkPragmas(c)
		if err != nil {
			return res, err
		}
		defer func() {
			if rerr := restore(); err == nil && rerr != nil {
				err = rerr
			}
		}()
	}
	if ins.changes0, err = queryInt(c, "SELECT total_changes()"); err != nil {
		return res, err
	}
	ins.pipelined = !loader.TuningOf(opts).Serial && runtime.GOMAXPROCS(0) > 1
	err = loader.Run(ctx, ins, opts)
	if err != nil && ins.inTx {
		// The rows read before the failure still pending run now: if one
		// of them fails, that is the first error in input order.
		if ferr := ins.flush(); ferr != nil {
			err = loader.FirstError(ferr, err)
		}
	}
	if serr := ins.stop(); serr != nil {
		err = loader.FirstError(serr, err)
	}
	ins.closeStmts()
	if err != nil && ins.inTx {
		// The load's error stays first, and errors.Is and errors.As find it.
		if rerr := ins.endTx("ROLLBACK"); rerr != nil {
			err = fmt.Errorf("%w (and ROLLBACK failed: %w)", err, rerr)
		}
	}
	return ins.res, err
}
