package sqlite

import (
	"context"
	"database/sql"
	"io"
)

// QuoteIdent returns name quoted as an SQLite identifier, as Insert and
// WriteQuery's callers quote table and column names: in double quotes,
// each double quote inside doubled. A name holding NUL cannot be an
// identifier; callers should refuse it.
func QuoteIdent(name string) string { return quoteIdent(name) }

// WriteQueryConn is WriteQuery on conn, one connection of a database
// opened with go-sqlite3, so that the query can run inside a transaction
// begun on conn (package serve reads a page and its next key from one
// snapshot this way).
func WriteQueryConn(ctx context.Context, conn *sql.Conn, w io.Writer, format Format, query string, args ...any) (int64, error) {
	return writeQueryConn(ctx, conn, query, args, func(cols, decl []string) rowWriter {
		return newJSONWriter(w, cols, decl, format)
	})
}
