package serve

import (
	"context"
	"database/sql"
	"errors"
	"io"
	"strconv"
	"strings"

	json "github.com/jsonpipe/json"
	"github.com/jsonpipe/json/internal/loader"
	"github.com/jsonpipe/json/internal/rowsrc"
	"github.com/jsonpipe/json/sqlite"
	sqlite3 "github.com/mattn/go-sqlite3"
)

// sqliteBackend reads through a pool of connections and writes through
// one: SQLite in WAL mode lets readers run beside the one writer.
type sqliteBackend struct {
	read, write *sql.DB
	owned       bool          // close read and write on close
	turn        chan struct{} // one write at a time
}

func newSQLiteBackend(read, write *sql.DB, owned bool) *sqliteBackend {
	return &sqliteBackend{read: read, write: write, owned: owned, turn: make(chan struct{}, 1)}
}

// openSQLite opens the database at path (which must exist) twice: a
// writer (one connection, WAL, immediate transactions) and a pool of
// query-only readers. Each connection keeps its last stmtCache prepared
// statements by their SQL text (go-sqlite3's _stmt_cache_size), so that
// a request shape, whose text is built once (stmtCache), is also
// prepared once per connection, not once per request.
func openSQLite(ctx context.Context, path string) (*sqliteBackend, error) {
	sep := "?"
	if strings.Contains(path, "?") {
		sep = "&"
	}
	write, err := sqlite.OpenExisting(ctx, path+sep+"_journal_mode=WAL&_busy_timeout=10000&_txlock=immediate&_stmt_cache_size="+stmtCacheSize)
	if err != nil {
		return nil, err
	}
	write.SetMaxOpenConns(1)
	read, err := sqlite.OpenExisting(ctx, path+sep+"_busy_timeout=10000&_query_only=1&_stmt_cache_size="+stmtCacheSize)
	if err != nil {
		write.Close()
		return nil, err
	}
	read.SetMaxOpenConns(readers())
	read.SetMaxIdleConns(readers())
	return newSQLiteBackend(read, write, true), nil
}

// stmtCacheSize is the prepared statements each SQLite connection keeps.
const stmtCacheSize = "64"

func (b *sqliteBackend) close() error {
	if !b.owned {
		return nil
	}
	return errors.Join(b.read.Close(), b.write.Close())
}

// sqliteColumns lists every user table's columns (not SQLite's own
// sqlite_... tables).
const sqliteColumns = `SELECT m.name, p.name, p.type, p.pk > 0
	FROM sqlite_master m JOIN pragma_table_info(m.name) p
	WHERE m.type = 'table' AND m.name NOT LIKE 'sqlite\_%' ESCAPE '\'
	ORDER BY m.name, p.cid`

func (b *sqliteBackend) loadSchema(ctx context.Context) (map[string]*table, error) {
	rows, err := b.read.QueryContext(ctx, sqliteColumns)
	if err != nil {
		return nil, err
	}
	tables, err := readTables(rows)
	rows.Close()
	if err != nil {
		return nil, err
	}
	for name, t := range tables {
		// A table without a single-column key is addressed by its rowid,
		// unless a column takes its name or it is WITHOUT ROWID.
		if t.key != "" || t.hasColumnFold("rowid", "_rowid_", "oid") {
			continue
		}
		if _, err := b.read.ExecContext(ctx, "SELECT rowid FROM "+b.quote(name)+" LIMIT 0"); err == nil {
			t.key, t.rowidKey, t.keyInt = "rowid", true, true
		}
	}
	return tables, nil
}

func (b *sqliteBackend) quote(name string) string {
	if name == "rowid" {
		return "rowid" // a served name "rowid" is the rowid key (see table.key)
	}
	return sqlite.QuoteIdent(name)
}
func (b *sqliteBackend) param(int) string        { return "?" }
func (b *sqliteBackend) text(expr string) string { return "CAST(" + expr + " AS TEXT)" }

// pageKey is the key as it is: CAST(... AS TEXT) made SQLite format every
// row's integer key as text and go-sqlite3 a Go string of it, per row;
// sqlite.WriteQueryPage formats the last one.
func (b *sqliteBackend) pageKey(expr string) string { return expr }

// patchValue binds as Insert does: strings as text, integers as int64,
// other numbers as float64, booleans as 1 and 0, objects and arrays as
// their JSON text.
func (b *sqliteBackend) patchValue(col column, raw []byte) (any, error) {
	switch raw[0] {
	case 'n':
		return nil, nil
	case 't':
		return int64(1), nil
	case 'f':
		return int64(0), nil
	case '"':
		var s string
		err := json.Unmarshal(raw, &s)
		return s, err
	case '{', '[':
		return string(raw), nil
	}
	if n, err := strconv.ParseInt(string(raw), 10, 64); err == nil {
		return n, nil
	}
	return strconv.ParseFloat(string(raw), 64)
}

func (b *sqliteBackend) count(ctx context.Context, t *table) (n int64, err error) {
	err = b.read.QueryRowContext(ctx, "SELECT count(*) FROM "+b.quote(t.name)).Scan(&n)
	return n, err
}

func (b *sqliteBackend) stream(ctx context.Context, w io.Writer, format rowsrc.Format, q string, args []any, next func(*string), page int) (int64, error) {
	if page > 0 {
		return sqlite.WriteQueryPage(ctx, b.read, w, format, page, next, q, args...)
	}
	if next != nil {
		return sqlite.WriteQueryLast(ctx, b.read, w, format, next, q, args...)
	}
	return sqlite.WriteQuery(ctx, b.read, w, format, q, args...)
}

// lock takes the write turn, or gives up with ctx.
func (b *sqliteBackend) lock(ctx context.Context) error {
	select {
	case b.turn <- struct{}{}:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (b *sqliteBackend) unlock() { <-b.turn }

func (b *sqliteBackend) insert(ctx context.Context, t *table, r io.Reader, opts *loader.Options) (loader.Result, error) {
	if err := b.lock(ctx); err != nil {
		return loader.Result{}, err
	}
	defer b.unlock()
	return sqlite.Insert(ctx, b.write, t.name, r, opts)
}

func (b *sqliteBackend) exec(ctx context.Context, q string, args []any) (int64, error) {
	if err := b.lock(ctx); err != nil {
		return 0, err
	}
	defer b.unlock()
	res, err := b.write.ExecContext(ctx, q, args...)
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}

// badInput: SQLite refuses values only through constraints, which the
// request caused.
func (b *sqliteBackend) badInput(err error) bool {
	var se sqlite3.Error
	return errors.As(err, &se) && (se.Code == sqlite3.ErrConstraint || se.Code == sqlite3.ErrMismatch)
}

func (b *sqliteBackend) isDBError(err error) bool {
	var se sqlite3.Error
	return errors.As(err, &se)
}
