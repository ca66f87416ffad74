package sqlite

import (
	"github.com/jsonpipe/json/internal/loader"
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
//
// It is the same type in packages sqlite and postgres, so one value loads
// into either database; a field only PostgreSQL reads (Connections) is
// ignored here.
type Options = loader.Options

// Progress is a snapshot of a running load. It is the same type in
// packages sqlite and postgres.
type Progress = loader.Progress

// Result reports what a load did. Rows is exact even when Insert returns
// an error: it counts the rows of every committed transaction. Changes
// counts the rows SQLite inserted, replaced or updated (ignored rows are
// not counted). It is the same type in packages sqlite and postgres.
type Result = loader.Result

const (
	defaultRowsPerStatement = 128
	maxParams               = 32766 // SQLITE_MAX_VARIABLE_NUMBER's default
	progressEvery           = loader.ProgressEvery
)

// defaultMaxValueSize is SQLITE_MAX_LENGTH's default: SQLite refuses a
// longer string or blob.
const defaultMaxValueSize = 1_000_000_000

func maxValueSize(o *Options) int { return loader.MaxValueSize(o, defaultMaxValueSize) }
