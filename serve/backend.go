package serve

import (
	"context"
	"errors"
	"io"

	"github.com/jsonpipe/json/internal/loader"
	"github.com/jsonpipe/json/internal/rowsrc"
)

// backend is what the server needs of a database: SQLite (sqliteBackend)
// or PostgreSQL (pgBackend).
type backend interface {
	// loadSchema reads the user tables (not the database's own) by name.
	loadSchema(ctx context.Context) (map[string]*table, error)
	// quote quotes an identifier; param is the n-th (1-based) placeholder;
	// text is the SQL of expr's value as text.
	quote(name string) string
	param(n int) string
	text(expr string) string
	// patchValue converts a JSON value of a PATCH body for col.
	patchValue(col column, raw []byte) (any, error)

	count(ctx context.Context, t *table) (int64, error)
	// stream runs next (when not "") and then q in one snapshot, calling
	// head with next's one value (ok false when next has no row) before
	// writing q's rows to w.
	stream(ctx context.Context, w io.Writer, format rowsrc.Format, q string, args []any, next string, nextArgs []any, head func(key string, ok bool)) (int64, error)
	// insert loads r into table t, all or nothing.
	insert(ctx context.Context, t *table, r io.Reader, opts *loader.Options) (loader.Result, error)
	// exec runs a write and returns the rows it changed.
	exec(ctx context.Context, q string, args []any) (int64, error)
	// badInput reports whether err is the database refusing a value
	// from the request (400) rather than failing (500).
	badInput(err error) bool
	// isDBError reports whether err comes from the database.
	isDBError(err error) bool
	close() error
}

// nextKey hands head the next page's key, as its query scanned it (err,
// which is noRows when the page is not full).
func nextKey(err, noRows error, key *string, head func(string, bool)) error {
	switch {
	case errors.Is(err, noRows):
		head("", false)
	case err != nil:
		return err
	case key == nil:
		head("", false) // a NULL key: no next page to name
	default:
		head(*key, true)
	}
	return nil
}
