package sqlite

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"io"
	"strconv"
)

// QuoteIdent returns name quoted as an SQLite identifier, as Insert and
// WriteQuery's callers quote table and column names: in double quotes,
// each double quote inside doubled. A name holding NUL cannot be an
// identifier; callers should refuse it.
func QuoteIdent(name string) string { return quoteIdent(name) }

// WriteQueryLast is WriteQuery for a query whose last column is not
// written: first is given its value in the first row, as text (nil for
// NULL), before anything is written; with no row it is not called.
// Package serve selects the key of the next page so, in the page's own
// statement (one statement, one snapshot).
func WriteQueryLast(ctx context.Context, db *sql.DB, w io.Writer, format Format, first func(v *string), query string, args ...any) (int64, error) {
	return writeQueryOn(ctx, db, query, args, func(cols, decl []string) rowWriter {
		n := len(cols) - 1
		if n < 0 {
			return newJSONWriter(w, cols, decl, format)
		}
		if len(decl) > n {
			decl = decl[:n]
		}
		return &lastColumn{rowWriter: newJSONWriter(w, cols[:n], decl, format), first: first}
	})
}

// lastColumn writes rows without their last column, whose first value it
// hands to first.
type lastColumn struct {
	rowWriter
	first func(*string)
	seen  bool
}

func (lc *lastColumn) row(vals []driver.Value) error {
	n := len(vals) - 1
	if !lc.seen {
		lc.seen = true
		var s *string
		switch v := vals[n].(type) {
		case string:
			s = &v
		case []byte:
			t := string(v)
			s = &t
		case int64:
			t := strconv.FormatInt(v, 10)
			s = &t
		case float64:
			t := strconv.FormatFloat(v, 'g', -1, 64)
			s = &t
		}
		lc.first(s)
	}
	return lc.rowWriter.row(vals[:n])
}
