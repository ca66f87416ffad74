package serve

import (
	"context"
	"errors"
	"io"
	"strconv"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
	json "github.com/jsonpipe/json"
	"github.com/jsonpipe/json/internal/loader"
	"github.com/jsonpipe/json/internal/rowsrc"
	"github.com/jsonpipe/json/postgres"
)

// pgBackend runs each request on a connection of the pool.
type pgBackend struct {
	pool  *pgxpool.Pool
	owned bool // Open made the pool: close it on close
}

func (b *pgBackend) close() error {
	if b.owned {
		b.pool.Close()
	}
	return nil
}

// pgColumns lists the columns of the ordinary and partitioned tables the
// search path makes visible (as "jsonpipe tables" lists them), never the
// catalogs'.
const pgColumns = `SELECT c.relname, a.attname, format_type(a.atttypid, a.atttypmod),
	coalesce(a.attnum = ANY(i.indkey), false)
	FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
	JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
	LEFT JOIN pg_index i ON i.indrelid = c.oid AND i.indisprimary
	WHERE c.relkind IN ('r', 'p') AND NOT c.relispartition AND pg_table_is_visible(c.oid)
	AND n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname NOT LIKE 'pg\_toast%'
	ORDER BY c.relname, a.attnum`

func (b *pgBackend) loadSchema(ctx context.Context) (map[string]*table, error) {
	rows, err := b.pool.Query(ctx, pgColumns)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	return readTables(rows)
}

func (b *pgBackend) quote(name string) string { return postgres.QuoteIdent(name) }
func (b *pgBackend) param(n int) string       { return "$" + strconv.Itoa(n) }
func (b *pgBackend) text(expr string) string  { return expr + "::text" }

// pageKey is the key as text (expr::text): pgx hands every column over as
// its text but bytea, whose bytes come as they are.
func (b *pgBackend) pageKey(expr string) string { return b.text(expr) }

// patchValue gives PostgreSQL each value as text, which it parses as the
// column's type (a number's digits exactly); json and jsonb columns get
// the JSON value itself, a string included.
func (b *pgBackend) patchValue(col column, raw []byte) (any, error) {
	if raw[0] == 'n' {
		return nil, nil
	}
	if col.typ == "json" || col.typ == "jsonb" {
		return string(raw), nil
	}
	if raw[0] == '"' {
		var s string
		err := json.Unmarshal(raw, &s)
		return s, err
	}
	return string(raw), nil
}

func (b *pgBackend) count(ctx context.Context, t *table) (n int64, err error) {
	err = b.pool.QueryRow(ctx, "SELECT count(*) FROM "+b.quote(t.name)).Scan(&n)
	return n, err
}

func (b *pgBackend) stream(ctx context.Context, w io.Writer, format rowsrc.Format, q string, args []any, next func(*string), page int) (int64, error) {
	c, err := b.pool.Acquire(ctx)
	if err != nil {
		return 0, err
	}
	defer c.Release()
	if page > 0 {
		return postgres.WriteQueryPage(ctx, c.Conn(), w, format, page, next, q, args...)
	}
	if next != nil {
		return postgres.WriteQueryLast(ctx, c.Conn(), w, format, next, q, args...)
	}
	return postgres.WriteQuery(ctx, c.Conn(), w, format, q, args...)
}

func (b *pgBackend) insert(ctx context.Context, t *table, r io.Reader, opts *loader.Options) (res loader.Result, err error) {
	c, err := b.pool.Acquire(ctx)
	if err != nil {
		return res, err
	}
	defer c.Release()
	return postgres.Insert(ctx, c.Conn(), t.name, r, opts)
}

func (b *pgBackend) exec(ctx context.Context, q string, args []any) (int64, error) {
	tag, err := b.pool.Exec(ctx, q, args...)
	return tag.RowsAffected(), err
}

// badInput: data exceptions (class 22: a value that does not parse as
// the column's type) and integrity violations (class 23).
func (b *pgBackend) badInput(err error) bool {
	var pe *pgconn.PgError
	return errors.As(err, &pe) && len(pe.Code) == 5 && (pe.Code[:2] == "22" || pe.Code[:2] == "23")
}

func (b *pgBackend) isDBError(err error) bool {
	var pe *pgconn.PgError
	return errors.As(err, &pe)
}
