package sqlite

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"fmt"
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
	return writeQueryOn(ctx, db, query, args, withoutLast(w, format, func(jw rowWriter) rowWriter {
		return &lastColumn{rowWriter: jw, first: first}
	}))
}

// withoutLast makes the rowWriter of a query whose last column is not
// written: wrap is given a JSON writer of the other columns (with no
// column at all, the JSON writer is used as it is).
func withoutLast(w io.Writer, format Format, wrap func(jw rowWriter) rowWriter) func(cols, decl []string) rowWriter {
	return func(cols, decl []string) rowWriter {
		n := len(cols) - 1
		if n < 0 {
			return newJSONWriter(w, cols, decl, format)
		}
		if len(decl) > n {
			decl = decl[:n]
		}
		return wrap(newJSONWriter(w, cols[:n], decl, format))
	}
}

// PageRows is the most rows a page of WriteQueryPage may have.
const PageRows = 1024

// WriteQueryPage is WriteQuery for a page: a query whose LIMIT is limit
// (1 to PageRows) and whose last column, not written, is each row's key.
// The page's rows are read before any is written, and when there are
// limit of them, next is first given the last one's key as text (nil for
// NULL): the key the next page starts after. Package serve pages so:
// the next page's key comes from the page's own rows, read once, not from
// a second walk over them.
func WriteQueryPage(ctx context.Context, db *sql.DB, w io.Writer, format Format, limit int, next func(key *string), query string, args ...any) (int64, error) {
	if limit < 1 || limit > PageRows {
		return 0, fmt.Errorf("sqlite: WriteQueryPage: limit %d is not 1 to %d", limit, PageRows)
	}
	return writeQueryOn(ctx, db, query, args, withoutLast(w, format, func(jw rowWriter) rowWriter {
		return &pageWriter{rowWriter: jw, limit: limit, next: next}
	}))
}

// pageWriter writes the rows of a page (WriteQueryPage) without their
// last column, the key.
type pageWriter struct {
	rowWriter
	limit int
	next  func(*string)
}

func (pw *pageWriter) row(vals []driver.Value) error {
	return pw.rowWriter.row(vals[:len(vals)-1])
}

// writePage reads the rows of a page, hands the last row's key to next
// when there are limit rows, then writes them; the rows read before an
// error are written too.
func writePage(rows driver.Rows, pw *pageWriter, ncols int) (int64, error) {
	b := getBatch(pw.limit * ncols)
	defer putBatch(b, ncols)
	var err error
	for b.n < pw.limit {
		if err = rows.Next(b.vals[b.n*ncols : (b.n+1)*ncols]); err != nil {
			if err == io.EOF {
				err = nil
			}
			break
		}
		b.n++
	}
	if err == nil && b.n == pw.limit {
		pw.next(keyText(b.vals[b.n*ncols-1]))
	}
	for r := 0; r < b.n; r++ {
		if werr := pw.row(b.vals[r*ncols : (r+1)*ncols]); werr != nil {
			return pw.rowsWritten(), werr
		}
	}
	if err != nil {
		return pw.abort(err)
	}
	err = pw.close()
	return pw.rowsWritten(), err
}

// keyText is a key's value as text: nil for NULL.
func keyText(v driver.Value) *string {
	var s string
	switch v := v.(type) {
	case string:
		s = v
	case []byte:
		s = string(v)
	case int64:
		s = strconv.FormatInt(v, 10)
	case float64:
		s = strconv.FormatFloat(v, 'g', -1, 64)
	default:
		return nil
	}
	return &s
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
		lc.first(keyText(vals[n]))
	}
	return lc.rowWriter.row(vals[:n])
}
