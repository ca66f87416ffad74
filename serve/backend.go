package serve

import (
	"context"
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
	// pageKey is the SQL of a page's key column (WriteQueryPage), which
	// the writer turns into text for the last row only.
	pageKey(expr string) string
	// patchValue converts a JSON value of a PATCH body for col.
	patchValue(col column, raw []byte) (any, error)

	count(ctx context.Context, t *table) (int64, error)
	// stream runs q and writes its rows to w. With next, q's last
	// column is not written: next is given its value in the first row
	// (nil for NULL) before anything is written (WriteQueryLast); or,
	// with page > 0, q is a page of that many rows at most whose last
	// column is each row's key, and next is given the last row's key
	// before anything is written when the page is full (WriteQueryPage).
	stream(ctx context.Context, w io.Writer, format rowsrc.Format, q string, args []any, next func(key *string), page int) (int64, error)
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
