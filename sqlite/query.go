package sqlite

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"fmt"
	"io"

	sqlite3 "github.com/mattn/go-sqlite3"
)

// WriteQuery runs query with args on db and streams its rows to w as JSON:
// a JSON array of objects (format Array or Auto) or one object per line
// (Lines), each object's keys being the result's column names. It returns
// the number of rows written.
//
// Values map as: INTEGER to a number, REAL to a number (integral values
// keep ".0"; NaN and infinities, which JSON lacks, become null), TEXT to a
// string (escaped; invalid UTF-8 becomes U+FFFD), NULL to null, BLOB to a
// base64 string. go-sqlite3 itself turns columns declared DATE, DATETIME or
// TIMESTAMP into times, written as RFC 3339 strings, and columns declared
// BOOLEAN into true/false.
//
// Memory stays constant: rows are formatted into one buffer that is
// written to w whenever it passes 64 KiB. ctx is checked every 1024 rows.
func WriteQuery(ctx context.Context, db *sql.DB, w io.Writer, format Format, query string, args ...any) (int64, error) {
	conn, err := db.Conn(ctx)
	if err != nil {
		return 0, err
	}
	defer conn.Close()
	var n int64
	err = conn.Raw(func(dc any) error {
		c, ok := dc.(*sqlite3.SQLiteConn)
		if !ok {
			return fmt.Errorf("sqlite: db's driver connection is %T, want *sqlite3.SQLiteConn", dc)
		}
		var err error
		n, err = writeQuery(ctx, c, w, format, query, args)
		return err
	})
	return n, err
}

func writeQuery(ctx context.Context, c *sqlite3.SQLiteConn, w io.Writer, format Format, query string, args []any) (int64, error) {
	named := make([]driver.NamedValue, len(args))
	for i, a := range args {
		v, err := driver.DefaultParameterConverter.ConvertValue(a)
		if err != nil {
			return 0, fmt.Errorf("sqlite: query argument %d: %w", i+1, err)
		}
		named[i] = driver.NamedValue{Ordinal: i + 1, Value: v}
	}
	// The query runs on a background context: go-sqlite3 takes locks per
	// row for a cancellable one. Cancellation is checked between rows.
	rows, err := c.QueryContext(context.Background(), query, named)
	if err != nil {
		return 0, err
	}
	defer rows.Close()

	cols := rows.Columns()
	// keys[i] is `{"name":` for the first column and `,"name":` after.
	keys := make([][]byte, len(cols))
	for i, name := range cols {
		sep := byte(',')
		if i == 0 {
			sep = '{'
		}
		keys[i] = append(appendString([]byte{sep}, name), ':')
	}
	dest := make([]driver.Value, len(cols))
	const flushAt = 64 << 10
	buf := make([]byte, 0, flushAt+4096)
	if format != Lines {
		buf = append(buf, '[')
	}
	var n int64
	for {
		err := rows.Next(dest)
		if err == io.EOF {
			break
		}
		if err != nil {
			return n, err
		}
		if n&1023 == 1023 {
			if err := ctx.Err(); err != nil {
				return n, err
			}
		}
		if n > 0 && format != Lines {
			buf = append(buf, ",\n"...)
		}
		if len(cols) == 0 {
			buf = append(buf, '{')
		}
		for i, v := range dest {
			buf = append(buf, keys[i]...)
			buf = appendValue(buf, v)
		}
		buf = append(buf, '}')
		if format == Lines {
			buf = append(buf, '\n')
		}
		n++
		if len(buf) >= flushAt {
			if _, err := w.Write(buf); err != nil {
				return n, err
			}
			buf = buf[:0]
		}
	}
	if format != Lines {
		buf = append(buf, "]\n"...)
	}
	if len(buf) > 0 {
		if _, err := w.Write(buf); err != nil {
			return n, err
		}
	}
	return n, nil
}
