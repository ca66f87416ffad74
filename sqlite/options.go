package sqlite

import (
	"runtime"

	"github.com/jsonpipe/json/internal/rowsrc"
)

// Conflict says what happens when a row collides with a stored one on a
// primary key or unique constraint.
//
// It is the same type in packages sqlite and postgres.
type Conflict = rowsrc.Conflict

const (
	// Fail stops the load with an error naming the row (SQL's ABORT); the
	// batch holding it is rolled back.
	Fail = rowsrc.Fail
	// Ignore keeps the stored row and skips the new one (INSERT OR
	// IGNORE). Loading the same input twice with a primary key changes
	// nothing. Note that OR IGNORE also skips rows that break NOT NULL.
	Ignore = rowsrc.Ignore
	// Replace deletes the stored row and inserts the new one (INSERT OR
	// REPLACE).
	Replace = rowsrc.Replace
	// Upsert updates the stored row's other columns with the new row's
	// non-null values, keeping stored values where the new row has null
	// or lacks the key (INSERT ... ON CONFLICT (pk) DO UPDATE). It needs
	// a primary key.
	Upsert = rowsrc.Upsert
)

// Format is the shape of the JSON input, or of the output of WriteQuery.
//
// It is the same type in packages sqlite and postgres.
type Format = rowsrc.Format

const (
	// Auto accepts, on input, any sequence of top-level objects and arrays
	// of objects: one JSON array, NDJSON, or concatenated objects. On
	// output it means Array.
	Auto = rowsrc.Auto
	// Array is a single JSON array of objects (several concatenated
	// arrays are accepted on input).
	Array = rowsrc.Array
	// Lines is newline-delimited JSON: one object per line (on input, any
	// whitespace between objects, or none, is accepted).
	Lines = rowsrc.Lines
)

// Options tune Insert. The zero value is ready to use: infer the columns,
// fail on unknown keys and on conflicts, commit every 100,000 rows.
type Options struct {
	// Columns, when the table does not exist yet, are its columns, in
	// order, with their types (see ColumnsOf for a Go struct type). When
	// empty, the columns and their types are inferred from the first
	// InferRows rows. Ignored when the table exists.
	Columns []Column

	// PrimaryKey names the primary-key column(s) of a table Insert
	// creates. A single key column that the input never holds, or holds
	// only integers in, becomes "INTEGER PRIMARY KEY": SQLite assigns it
	// when the row has none. For Upsert on an existing table the table's
	// own primary key is used when this is empty.
	PrimaryKey []string

	// NotNull and Defaults add NOT NULL constraints and DEFAULT values to
	// the named columns of a table Insert creates (in addition to those
	// set in Columns). A default for a key the input does not have adds a
	// column typed after the default's Go type; NotNull must name a column
	// that exists.
	NotNull  []string
	Defaults map[string]any

	// Alter adds a column, typed from its first value, for each key first
	// seen after the table was created. Without it such a key is an error
	// naming the key and the row.
	Alter bool

	// Conflict chooses what a primary-key or unique collision does.
	Conflict Conflict

	// BatchSize is the number of rows committed per transaction; 0 means
	// 100,000. A failure rolls back only the batch it happened in.
	BatchSize int

	// AllOrNothing wraps the whole load in one transaction: on any error
	// nothing is kept. BatchSize then only paces progress reports and
	// cancellation checks.
	AllOrNothing bool

	// Format, when not Auto, rejects input of the other shape.
	Format Format

	// InferRows is how many rows are read before creating a missing table,
	// to infer its columns; 0 means 1000. Keys first seen later need Alter.
	InferRows int

	// RowsPerStatement is how many rows each INSERT statement carries
	// (multi-row VALUES); 0 means 128, and it is capped so that a
	// statement has at most 32,766 parameters. 1 gives the classic
	// single-row statement.
	RowsPerStatement int

	// BulkPragmas sets, for the duration of the load only,
	// "PRAGMA synchronous=OFF" and (unless the database is in WAL mode)
	// "PRAGMA journal_mode=MEMORY", and restores the previous settings
	// afterwards. It makes loading into a file faster, at a price: if the
	// machine or process dies mid-load, the database file can be left
	// corrupt, not just missing the last batch. Off by default.
	BulkPragmas bool

	// MaxValueSize caps the length in bytes of any single JSON token or
	// nested value; 0 means 1,000,000,000, SQLite's default limit on the
	// length of a value (SQLITE_MAX_LENGTH). A longer value stops the load
	// with its row and offset as soon as it passes the cap, before it is
	// buffered whole.
	MaxValueSize int

	// Progress, when set, is called from Insert's goroutine after every
	// committed batch and about every 65,536 rows in between.
	Progress func(Progress)

	// Workers is the number of goroutines that decode NDJSON (or
	// concatenated objects) after the first rows; 0 means one fewer than
	// runtime.GOMAXPROCS(0) (SQLite's writer keeps a core busy), at least
	// one; 1 decodes on the loading goroutine. The
	// input is cut into chunks of whole lines, each decoded by one worker
	// into rows of values; the loading goroutine binds them, in input
	// order with their exact numbers and offsets, and SQLite's one
	// writer runs the statements as without workers. A JSON array is
	// decoded by one goroutine. A row the workers cannot take as they are
	// (a key new to the table, a syntax error, an object over several
	// lines, a line over 4 MiB or over MaxValueSize) hands the rest of the
	// input over to the one-goroutine decoder, which deals with it as
	// without workers (a long line is streamed, each value held to
	// MaxValueSize, never held whole).
	Workers int

	// serial, for tests and benchmarks, keeps decoding and executing
	// statements on one goroutine.
	serial    bool
	blockSize int // the chunks' size for the workers, for tests (0: 256 KiB)
}

// Progress is a snapshot of a running load.
type Progress struct {
	Rows      int64 // rows read so far
	Committed int64 // rows in committed transactions
	Bytes     int64 // input bytes consumed
}

// Result reports what a load did. Rows is exact even when Insert returns
// an error: it counts the rows of every committed transaction.
type Result struct {
	Rows    int64    // input rows in committed transactions
	Changes int64    // rows SQLite inserted, replaced or updated (ignored rows are not counted)
	Created bool     // the table was created
	Added   []string // columns added by Alter
}

const (
	defaultBatchSize        = 100_000
	defaultInferRows        = 1000
	defaultRowsPerStatement = 128
	maxParams               = 32766 // SQLITE_MAX_VARIABLE_NUMBER's default
	progressEvery           = 1 << 16
)

func (o *Options) batchSize() int {
	if o.BatchSize > 0 {
		return o.BatchSize
	}
	return defaultBatchSize
}

// defaultMaxValueSize is SQLITE_MAX_LENGTH's default: SQLite refuses a
// longer string or blob.
const defaultMaxValueSize = 1_000_000_000

func (o *Options) maxValueSize() int {
	if o.MaxValueSize > 0 {
		return o.MaxValueSize
	}
	return defaultMaxValueSize
}

func (o *Options) workers() int {
	if o.serial {
		return 1
	}
	if o.Workers > 0 {
		return o.Workers
	}
	// The writer keeps a core busy (SQLite's statements, or a PostgreSQL
	// server on the same machine): on two cores a second decoder only
	// competes with it (measured: SQLite 14% slower, PostgreSQL on
	// flights 29% slower).
	return max(1, runtime.GOMAXPROCS(0)-1)
}

func (o *Options) inferRows() int {
	if o.InferRows > 0 {
		return o.InferRows
	}
	return defaultInferRows
}
