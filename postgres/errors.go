package postgres

import (
	"fmt"

	"github.com/jsonpipe/json/internal/csvin"
	"github.com/jsonpipe/json/internal/loader"
	"github.com/jsonpipe/json/internal/rowsrc"
)

// RowError is the error Insert returns when row Row (1-based, counting the
// objects of the input) could not be read or stored. Offset is the input
// byte offset where the problem was found: for JSON syntax errors the
// decoder's SyntaxError.Offset, for values PostgreSQL refuses the offset
// at which the row starts, otherwise the decoder's offset.
// Err is the cause, unchanged: a *json.SyntaxError, an I/O error from the
// reader, io.ErrUnexpectedEOF, a *pgconn.PgError, or a *TypeError.
//
// Line and Column, for an error in the JSON text (a syntax error, an
// unexpected end of input), are where an editor shows the byte at fault:
// both 1-based, the column counted in bytes ("é" is two), as Go's
// compiler counts them; 0 when not known or not about the text.
//
// It is the one row error of the loader core (internal/loader), whose
// message starts with "postgres: " for a load of this package.
type RowError = loader.RowError

// rowErr is a row error of this package: row, at input offset off, cause err.
func rowErr(row, off int64, err error) *RowError {
	return loader.NewRowError("postgres", row, off, err)
}

// BatchError is the error Insert returns when PostgreSQL refuses a batch
// without saying which row it refused (a deferred constraint, a trigger):
// rows First to Last, the batch's, were rolled back.
type BatchError struct {
	First, Last int64
	Err         error
}

func (e *BatchError) Error() string {
	return fmt.Sprintf("postgres: rows %d to %d: %v", e.First, e.Last, e.Err)
}

func (e *BatchError) Unwrap() error { return e.Err }

// TypeError reports a JSON value Insert cannot store, such as a row that
// is not an object, a string for a bigint column, or a key PostgreSQL
// cannot take as a column name. It is the same type in packages sqlite
// and postgres.
type TypeError = rowsrc.TypeError

// CSVSyntaxError reports CSV or TSV input (Options.Delimiter) that is not
// well-formed: its record's row, line and byte offset, and what is wrong.
// A *RowError holds it. It is the same type in packages sqlite and
// postgres.
type CSVSyntaxError = csvin.SyntaxError
