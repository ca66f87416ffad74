package sqlite

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"encoding/base64"
	"io"
	"strconv"
	"time"
	"unsafe"

	"github.com/jsonpipe/json/internal/tabular"
)

// Layout is the plain-text layout of [WriteQueryText]'s output.
type Layout = tabular.Layout

// The layouts of WriteQueryText.
const (
	// LayoutCSV is comma-separated values (RFC 4180, "\n" line ends) with
	// a header row of column names.
	LayoutCSV = tabular.CSV
	// LayoutTSV is tab-separated values with a header row, fields quoted
	// as in CSV (as sqlite-utils and Python's csv module write TSV), not
	// backslash-escaped.
	LayoutTSV = tabular.TSV
	// LayoutTable is aligned columns for a terminal. It holds the whole
	// result in memory, to know the widths.
	LayoutTable = tabular.Table
)

// WriteQueryText runs query with args on db and writes its rows to w as
// CSV, TSV or an aligned table (layout), with a header row of the
// result's column names. It returns the number of rows written.
//
// Fields are the values' text: integers in decimal, reals as WriteQuery
// writes them (shortest form that reads back, integral values keeping
// ".0", infinities as Inf and -Inf), TEXT as it is (JSON text included),
// BLOBs in base64, booleans (columns declared BOOLEAN) true or false, times
// (columns declared DATE, DATETIME or TIMESTAMP) in RFC 3339. NULL is an
// empty field; in CSV and TSV an empty string is "" (quoted), so the two
// stay apart, as PostgreSQL's COPY writes them. A field holding the
// separator, a quote, CR or LF is quoted, its quotes doubled.
//
// LayoutTable aligns columns two spaces apart, right-aligning a column of
// numbers, and writes line breaks, tabs and other control characters
// inside a value as escapes (\n, \t, \x1b), so that each row is one line.
//
// CSV and TSV stream in constant memory, as WriteQuery does; the table is
// written when the last row has been read. A query that fails part-way
// leaves in w the rows before the error (n of them; nothing, not even the
// header, when n is 0) and returns the error: CSV has no closing mark to
// leave off, so say so to whoever reads the output.
func WriteQueryText(ctx context.Context, db *sql.DB, w io.Writer, layout Layout, query string, args ...any) (int64, error) {
	return writeQueryOn(ctx, db, query, args, func(cols, _ []string) rowWriter {
		return &textWriter{t: tabular.NewWriter(w, layout, cols)}
	})
}

// WriteQueryTextPath is WriteQueryText on the SQLite database file at
// path, opened as [WriteQueryPath] opens it.
func WriteQueryTextPath(ctx context.Context, path string, w io.Writer, layout Layout, query string, args ...any) (int64, error) {
	return onPath(ctx, path, func(db *sql.DB) (int64, error) {
		return WriteQueryText(ctx, db, w, layout, query, args...)
	})
}

// textWriter is the rowWriter of WriteQueryText: each value's text goes
// to a tabular.Writer through one reused buffer.
type textWriter struct {
	t       *tabular.Writer
	scratch []byte
}

func (tw *textWriter) row(vals []driver.Value) error {
	t := tw.t
	for _, v := range vals {
		switch v := v.(type) {
		case nil:
			t.Null()
		case int64:
			tw.scratch = strconv.AppendInt(tw.scratch[:0], v, 10)
			t.Number(tw.scratch)
		case float64:
			tw.scratch = appendTextFloat(tw.scratch[:0], v)
			t.Number(tw.scratch)
		case string:
			t.Text(unsafe.Slice(unsafe.StringData(v), len(v)))
		case []byte:
			tw.scratch = base64.StdEncoding.AppendEncode(tw.scratch[:0], v)
			t.Text(tw.scratch)
		case bool:
			tw.scratch = strconv.AppendBool(tw.scratch[:0], v)
			t.Text(tw.scratch)
		case time.Time:
			tw.scratch = v.AppendFormat(tw.scratch[:0], time.RFC3339Nano)
			t.Text(tw.scratch)
		default: // not produced by go-sqlite3
			t.Null()
		}
	}
	return t.EndRow()
}

// appendTextFloat appends f as appendFloat does, but for the infinities,
// which text can hold: Inf and -Inf, as the sqlite3 shell prints them
// (and NaN).
func appendTextFloat(b []byte, f float64) []byte {
	switch {
	case f != f: // SQLite stores NaN as NULL; kept in case
		return append(b, "NaN"...)
	case f > 1.7976931348623157e308:
		return append(b, "Inf"...)
	case f < -1.7976931348623157e308:
		return append(b, "-Inf"...)
	}
	return appendFloat(b, f)
}

func (tw *textWriter) close() error                   { return tw.t.Close() }
func (tw *textWriter) abort(err error) (int64, error) { return tw.t.Abort(err) }
func (tw *textWriter) rowsWritten() int64             { return tw.t.Written() }
