package sqlite

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"io"
	"net/url"
	"runtime"
	"strings"

	json "github.com/jsonpipe/json"
	sqlite3 "github.com/mattn/go-sqlite3"
)

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

// Open opens the SQLite database file at path with go-sqlite3 (creating it
// when missing, as SQLite does); path may also be a go-sqlite3 DSN such as
// "file:x.db?_journal_mode=WAL".
func Open(path string) (*sql.DB, error) {
	return sql.Open("sqlite3", path)
}

// InsertPath is Insert into the SQLite database file at path, which is
// created if missing. Its connection is opened in SQLite's multi-thread
// mode (go-sqlite3's _mutex=no) unless path, a DSN, names a _mutex mode:
// Insert never uses a connection from two goroutines at once, so the
// per-call locks of the default serialized mode only cost time (about a
// tenth of the CPU of a load).
func InsertPath(ctx context.Context, path, table string, r io.Reader, opts *Options) (Result, error) {
	db, err := Open(withoutMutex(path))
	if err != nil {
		return Result{}, err
	}
	res, err := Insert(ctx, db, table, r, opts)
	if cerr := db.Close(); err == nil {
		err = cerr
	}
	return res, err
}

// withoutMutex adds _mutex=no to a go-sqlite3 DSN that names no _mutex
// mode. go-sqlite3 reads parameters after the first '?' of a DSN, unless
// that is its first byte; "" (a temporary database) is left alone.
func withoutMutex(dsn string) string {
	q := strings.IndexByte(dsn, '?')
	if q < 0 && dsn != "" {
		return dsn + "?_mutex=no"
	}
	if q <= 0 {
		return dsn
	}
	if params, err := url.ParseQuery(dsn[q+1:]); err != nil || params.Has("_mutex") {
		return dsn // go-sqlite3 reports the malformed query, or uses the mode given
	}
	return dsn + "&_mutex=no"
}

// column is a table column as the inserter knows it.
type column struct {
	name    string
	typ     string
	notNull bool
	dflt    string // SQL text of the default, "" for none
	seen    typeSet
}

// key is one spelling of a column's name as it appears in the input: the
// raw token, quotes and escapes included, compared as bytes.
type key struct {
	raw string
	col int
}

// maxAliases bounds the extra spellings of known names (escaped forms,
// other letter case) remembered for the byte comparison.
const maxAliases = 256

type inserter struct {
	ctx   context.Context
	c     *sqlite3.SQLiteConn
	d     *json.Decoder
	opts  *Options
	table string
	res   Result

	cols  []column
	keys  []key
	hint  int     // index in keys where the next key is looked for first
	cur   []value // the row being read, one value per column
	text  []byte  // arena for the text of the rows of the pending statement
	boxes boxes   // texts that repeat, boxed once

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

	inArray  bool     // inside a top-level array
	row      int64    // number of the last row read (1-based)
	inTx     bool     // a transaction is open
	inBatch  int      // rows in the open transaction
	changes0 int64    // total_changes() when the load began
	created  bool     // the open transaction created the table
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
	if opts.Conflict < Fail || opts.Conflict > Upsert {
		return res, fmt.Errorf("sqlite: unknown conflict mode %v", opts.Conflict)
	}
	ins := &inserter{ctx: ctx, c: c, opts: opts, table: table}
	ins.d = json.NewDecoderBuffer(r, make([]byte, 64<<10))
	if opts.MaxValueSize > 0 {
		ins.d.SetMaxTokenSize(opts.MaxValueSize)
	}
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
	ins.pipelined = !opts.serial && runtime.GOMAXPROCS(0) > 1
	err = ins.run()
	if err != nil && ins.inTx {
		// The rows read before the failure still pending run now: if one
		// of them fails, that is the first error in input order.
		if ferr := ins.flush(); ferr != nil {
			err = firstError(ferr, err)
		}
	}
	if serr := ins.stop(); serr != nil {
		err = firstError(serr, err)
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

func (ins *inserter) run() error {
	if err := ins.ctx.Err(); err != nil {
		return err
	}
	exists, err := ins.loadTable()
	if err != nil {
		return err
	}
	if opts := ins.opts; opts.AllOrNothing {
		if err := ins.begin(); err != nil {
			return err
		}
	}
	switch {
	case exists:
	case len(ins.opts.Columns) > 0:
		if err := ins.setColumns(ins.opts.Columns); err != nil {
			return err
		}
		if err := ins.createTable(); err != nil {
			return err
		}
	default:
		ins.sampling = true
		if err := ins.sample(); err != nil {
			return err
		}
	}
	for {
		more, err := ins.nextRow()
		if err != nil {
			return err
		}
		if !more {
			break
		}
		start := ins.d.InputOffset() - 1
		ins.row++
		if err := ins.readRow(); err != nil {
			return ins.rowError(err, ins.row, -1)
		}
		if len(ins.cols) > ins.ncols {
			if err := ins.alter(); err != nil {
				return err
			}
		}
		if err := ins.addRow(ins.cur, ins.text, ins.row, start); err != nil {
			return err
		}
	}
	return ins.finish()
}

// nextRow consumes the '{' that opens the next row, stepping into and out
// of top-level arrays. It reports false at a clean end of input.
func (ins *inserter) nextRow() (bool, error) {
	d := ins.d
	for {
		k := d.PeekKind()
		switch {
		case k == '{':
			if !ins.inArray && ins.opts.Format == Array {
				return false, ins.rowError(&TypeError{Msg: "input is an object, want an array of objects"}, ins.row+1, -1)
			}
			if _, err := d.NextToken(); err != nil {
				return false, ins.rowError(err, ins.row+1, -1)
			}
			return true, nil
		case k == '[' && !ins.inArray:
			if ins.opts.Format == Lines {
				return false, ins.rowError(&TypeError{Msg: "input is an array, want newline-delimited objects"}, ins.row+1, -1)
			}
			d.NextToken()
			ins.inArray = true
		case k == ']' && ins.inArray:
			d.NextToken()
			ins.inArray = false
		case k == '[' || k == '"' || k == 't' || k == 'f' || k == 'n' || k == '0':
			return false, ins.rowError(&TypeError{Msg: "row is " + kindName(k) + ", want an object"}, ins.row+1, d.InputOffset())
		default:
			// The end of input, or something that is no value: the
			// decoder says which.
			_, err := d.NextToken()
			if err == io.EOF {
				return false, nil
			}
			if err == nil {
				err = errors.New("json: no value where a row should start") // not reached: the decoder validates
			}
			return false, ins.rowError(err, ins.row+1, -1)
		}
	}
}

func kindName(k byte) string {
	switch k {
	case '[':
		return "an array"
	case '"':
		return "a string"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	}
	return "a number"
}

// readRow reads the members of an object whose '{' has been consumed into
// ins.cur, by column. This is the hot path: each key is found by a byte
// comparison with the keys seen so far, starting where the previous key
// was found, so objects whose keys come in a steady order cost one
// comparison per key.
func (ins *inserter) readRow() error {
	d := ins.d
	clear(ins.cur)
	for {
		tok, err := d.NextToken()
		if err != nil {
			return err
		}
		if tok[0] == '}' {
			return nil
		}
		c := ins.lookup(tok)
		if c < 0 {
			if c, err = ins.newKey(tok); err != nil {
				return err
			}
		}
		if ins.text, err = readValue(d, &ins.cur[c], ins.text); err != nil {
			return err
		}
	}
}

func (ins *inserter) lookup(tok []byte) int {
	keys := ins.keys
	for j := ins.hint; j < len(keys); j++ {
		if keys[j].raw == string(tok) {
			ins.hint = j + 1
			return keys[j].col
		}
	}
	for j := 0; j < ins.hint && j < len(keys); j++ {
		if keys[j].raw == string(tok) {
			ins.hint = j + 1
			return keys[j].col
		}
	}
	return -1
}

// newKey handles a key spelled in a way not seen before (out of line): a
// new name, or a known name escaped differently or in other letter case
// (SQLite column names ignore ASCII case).
func (ins *inserter) newKey(tok []byte) (int, error) {
	name := string(json.AppendUnquoted(nil, tok))
	for i := range ins.cols {
		if asciiEqualFold(ins.cols[i].name, name) {
			if len(ins.keys) < len(ins.cols)+maxAliases {
				ins.keys = append(ins.keys, key{raw: string(tok), col: i})
			}
			return i, nil
		}
	}
	if err := checkName(name); err != nil {
		return -1, fmt.Errorf("key %s: %w", shortName(name), err)
	}
	if !ins.sampling && !ins.opts.Alter {
		return -1, fmt.Errorf("key %s is not a column of table %s (Alter adds it)", shortName(name), shortName(ins.table))
	}
	ins.addColumn(column{name: name}, string(tok))
	return len(ins.cols) - 1, nil
}

func (ins *inserter) addColumn(c column, raw string) {
	ins.cols = append(ins.cols, c)
	ins.keys = append(ins.keys, key{raw: raw, col: len(ins.cols) - 1})
	ins.cur = append(ins.cur, value{})
}

func asciiEqualFold(a, b string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := 0; i < len(a); i++ {
		x, y := a[i], b[i]
		if x != y {
			if 'A' <= x && x <= 'Z' {
				x += 'a' - 'A'
			}
			if 'A' <= y && y <= 'Z' {
				y += 'a' - 'A'
			}
			if x != y {
				return false
			}
		}
	}
	return true
}

// rowError wraps err with the row number and a byte offset: the syntax
// error's own, else off, else the decoder's current offset. Context
// cancellation is returned as it is.
func (ins *inserter) rowError(err error, row, off int64) error {
	var re *RowError
	if errors.As(err, &re) || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	var se *json.SyntaxError
	if errors.As(err, &se) {
		off = se.Offset
	} else if off < 0 {
		off = ins.d.InputOffset()
	}
	return &RowError{Row: row, Offset: off, Err: err}
}

// firstError returns whichever of two errors names the earlier row; a row
// error wins over one that names none.
func firstError(a, b error) error {
	if b == nil || a == b {
		return a
	}
	var ra, rb *RowError
	okA, okB := errors.As(a, &ra), errors.As(b, &rb)
	switch {
	case okA && okB:
		if ra.Row < rb.Row {
			return a
		}
		return b
	case okA:
		return a
	}
	return b
}
