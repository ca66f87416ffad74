package serve

import (
	"context"
	"errors"
	"io"
	"strconv"

	"github.com/jackc/pgx/v5"
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

// pgTables are the ordinary and partitioned tables the search path makes
// visible (as "jsonpipe tables" lists them), never the catalogs'.
const pgTables = `SELECT c.oid, c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
	WHERE c.relkind IN ('r', 'p') AND NOT c.relispartition AND pg_table_is_visible(c.oid)
	AND n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname NOT LIKE 'pg\_toast%'`

const pgColumns = `SELECT a.attrelid, a.attname, format_type(a.atttypid, a.atttypmod),
	coalesce(a.attnum = ANY(i.indkey), false)
	FROM pg_attribute a LEFT JOIN pg_index i ON i.indrelid = a.attrelid AND i.indisprimary
	WHERE a.attrelid = ANY($1) AND a.attnum > 0 AND NOT a.attisdropped
	ORDER BY a.attrelid, a.attnum`

func (b *pgBackend) loadSchema(ctx context.Context) (map[string]*table, error) {
	c, err := b.pool.Acquire(ctx)
	if err != nil {
		return nil, err
	}
	defer c.Release()
	rows, err := c.Query(ctx, pgTables)
	if err != nil {
		return nil, err
	}
	names := map[uint32]string{}
	var oids []uint32
	for rows.Next() {
		var oid uint32
		var name string
		if err := rows.Scan(&oid, &name); err != nil {
			rows.Close()
			return nil, err
		}
		names[oid] = name
		oids = append(oids, oid)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	type cols struct {
		cols []column
		pk   []string
	}
	byOid := map[uint32]*cols{}
	rows, err = c.Query(ctx, pgColumns, oids)
	if err != nil {
		return nil, err
	}
	for rows.Next() {
		var oid uint32
		var col column
		var inPK bool
		if err := rows.Scan(&oid, &col.name, &col.typ, &inPK); err != nil {
			rows.Close()
			return nil, err
		}
		tc := byOid[oid]
		if tc == nil {
			tc = &cols{}
			byOid[oid] = tc
		}
		tc.cols = append(tc.cols, col)
		if inPK {
			tc.pk = append(tc.pk, col.name)
		}
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	tables := make(map[string]*table, len(names))
	for oid, name := range names {
		tc := byOid[oid]
		if tc == nil {
			tc = &cols{}
		}
		tables[name] = newTable(name, tc.cols, tc.pk)
	}
	return tables, nil
}

func (b *pgBackend) quote(name string) string { return postgres.QuoteIdent(name) }
func (b *pgBackend) param(n int) string       { return "$" + strconv.Itoa(n) }
func (b *pgBackend) text(expr string) string  { return expr + "::text" }

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

func (b *pgBackend) stream(ctx context.Context, w io.Writer, format rowsrc.Format, q string, args []any, next string, nextArgs []any, head func(string, bool)) (int64, error) {
	c, err := b.pool.Acquire(ctx)
	if err != nil {
		return 0, err
	}
	defer c.Release()
	if next == "" {
		head("", false)
		return postgres.WriteQuery(ctx, c.Conn(), w, format, q, args...)
	}
	// One snapshot for the next key and the page.
	tx, err := c.BeginTx(ctx, pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly})
	if err != nil {
		return 0, err
	}
	defer tx.Rollback(context.Background())
	var key *string
	switch err := tx.QueryRow(ctx, next, nextArgs...).Scan(&key); {
	case errors.Is(err, pgx.ErrNoRows):
		head("", false)
	case err != nil:
		return 0, err
	default:
		head(deref(key), key != nil)
	}
	return postgres.WriteQuery(ctx, c.Conn(), w, format, q, args...)
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
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
