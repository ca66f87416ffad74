package postgres

import (
	"context"
	"encoding/base64"
	"io"

	"github.com/jackc/pgx/v5"
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
	// backslash-escaped as COPY's text format does.
	LayoutTSV = tabular.TSV
	// LayoutTable is aligned columns for a terminal. It holds the whole
	// result in memory, to know the widths.
	LayoutTable = tabular.Table
)

// WriteQueryText runs query with args on conn and writes its rows to w as
// CSV, TSV or an aligned table (layout), with a header row of the
// result's column names. It returns the number of rows written.
//
// Fields are the values' text as PostgreSQL prints it (numeric exactly,
// NaN and Infinity as such, json and jsonb as their JSON, arrays as
// {1,2}), but for boolean, written true or false as in the JSON output,
// and bytea, in base64 as in the JSON output. NULL is an empty field; in
// CSV and TSV an empty string is "" (quoted), so the two stay apart, as
// COPY ... CSV writes them. A field holding the separator, a quote, CR or
// LF is quoted, its quotes doubled.
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
func WriteQueryText(ctx context.Context, conn *pgx.Conn, w io.Writer, layout Layout, query string, args ...any) (int64, error) {
	rows, err := conn.Query(ctx, query, append([]any{resultFormats}, args...)...)
	if err != nil {
		return 0, err
	}
	defer rows.Close()
	fields := rows.FieldDescriptions()
	names := make([]string, len(fields))
	kinds := make([]outKind, len(fields))
	for i, f := range fields {
		names[i] = f.Name
		kinds[i] = outKindOf(f.DataTypeOID)
	}
	t := tabular.NewWriter(w, layout, names)
	var scratch []byte
	for rows.Next() {
		for i, v := range rows.RawValues() {
			switch {
			case v == nil:
				t.Null()
			case kinds[i] == outNumber || kinds[i] == outFloat:
				t.Number(v)
			case kinds[i] == outBool:
				if v[0] == 't' {
					t.Text([]byte("true"))
				} else {
					t.Text([]byte("false"))
				}
			case kinds[i] == outBytea:
				scratch = base64.StdEncoding.AppendEncode(scratch[:0], v)
				t.Text(scratch)
			default:
				t.Text(v)
			}
		}
		if err := t.EndRow(); err != nil {
			return t.Written(), err
		}
	}
	if err := rows.Err(); err != nil {
		return t.Abort(err)
	}
	err = t.Close()
	return t.Written(), err
}

// WriteQueryTextURL is WriteQueryText over a new connection to url, closed
// when the query is done.
func WriteQueryTextURL(ctx context.Context, url string, w io.Writer, layout Layout, query string, args ...any) (int64, error) {
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		return 0, err
	}
	defer conn.Close(context.Background())
	return WriteQueryText(ctx, conn, w, layout, query, args...)
}
