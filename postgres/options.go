package postgres

import (
	"github.com/jsonpipe/json/internal/loader"
	"github.com/jsonpipe/json/internal/rowsrc"
)

// Conflict says what happens when a row collides with a stored one on the
// table's primary key.
//
// It is the same type in packages sqlite and postgres.
type Conflict = rowsrc.Conflict

const (
	// Fail stops the load with an error naming the row; the batch holding
	// it is rolled back. Rows are copied straight into the table.
	Fail = rowsrc.Fail
	// Ignore keeps the stored row and skips the new one (ON CONFLICT DO
	// NOTHING; within one batch the first of two rows with the same key
	// is kept). Loading the same input twice with a primary key changes
	// nothing.
	Ignore = rowsrc.Ignore
	// Replace overwrites the stored row with the new one, as SQLite's
	// INSERT OR REPLACE does: every column the load writes takes the new
	// row's value, null where the new row has null or lacks the key, and
	// the table's other columns take their defaults. Within one batch the
	// last of two rows with the same key wins, as if they were stored one
	// after the other.
	Replace = rowsrc.Replace
	// Upsert updates the stored row's other columns with the new row's
	// non-null values, keeping stored values where the new row has null
	// or lacks the key (ON CONFLICT ... DO UPDATE with COALESCE); rows of
	// one batch with the same key are merged in input order the same way.
	// It needs a primary key.
	Upsert = rowsrc.Upsert
)

// Format is the shape of the JSON input.
//
// It is the same type in packages sqlite and postgres.
type Format = rowsrc.Format

const (
	// Auto accepts any sequence of top-level objects and arrays of
	// objects: one JSON array, NDJSON, or concatenated objects.
	Auto = rowsrc.Auto
	// Array is a single JSON array of objects (several concatenated
	// arrays are accepted).
	Array = rowsrc.Array
	// Lines is newline-delimited JSON: one object per line (any
	// whitespace between objects, or none, is accepted).
	Lines = rowsrc.Lines
)

// Options tune Insert. The zero value is ready to use: infer the columns,
// fail on unknown keys and on conflicts, commit every 100,000 rows.
//
// It is the same type in packages sqlite and postgres, so one value loads
// into either database; the fields only SQLite reads (RowsPerStatement,
// BulkPragmas) are ignored here. A default (Defaults, Column.Default)
// fills a column that a load's COPY does not name, that is when none of
// the load's rows has the key; where the COPY names it, a row that lacks
// the key or holds null stores null. A default's Go type gives the type
// of a column made for it: bool boolean; int, int32, int64 bigint; uint64
// numeric; float64 double precision; string text; []byte bytea. Conflict
// modes other than Fail copy each batch into a temporary staging table
// first and move it into the table with INSERT ... SELECT ... ON
// CONFLICT, as COPY itself has no ON CONFLICT.
type Options = loader.Options

// Progress is a snapshot of a running load. It is the same type in
// packages sqlite and postgres.
type Progress = loader.Progress

// Result reports what a load did. Rows is exact even when Insert returns
// an error: it counts the rows of every committed transaction. Changes
// counts the rows PostgreSQL inserted or updated (ignored rows are not
// counted). It is the same type in packages sqlite and postgres.
type Result = loader.Result

const (
	defaultMaxValueSize = 1 << 30 // PostgreSQL's limit for one field
	progressEvery       = loader.ProgressEvery
	maxIdentLen         = 63 // NAMEDATALEN-1: PostgreSQL cuts longer names
)

func maxValueSize(o *Options) int { return loader.MaxValueSize(o, defaultMaxValueSize) }

func batchSize(o *Options) int64 { return int64(loader.BatchSize(o)) }
