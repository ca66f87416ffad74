package sqlite

import (
	"bytes"
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"runtime"
	"sync"
	"sync/atomic"

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
// base64 string. TEXT in a column declared JSON or JSONB (the declared
// type of a table's column, which a result column taken straight from it
// keeps; an expression has none) is written as the object or array it
// holds, compacted (json.Compact) so that a row stays one line; other
// text there (a scalar, text that is not valid JSON) is a string. go-sqlite3 itself turns columns declared DATE, DATETIME or
// TIMESTAMP into times, written as RFC 3339 strings, and columns declared
// BOOLEAN into true/false.
//
// Memory stays constant: rows are formatted into one buffer that is
// written to w whenever it passes 64 KiB. ctx is checked every 1024 rows.
//
// A query can fail part-way, on a row SQLite cannot compute (an integer
// overflow, say), as can w or ctx. Output cut short never passes for a
// complete result: after an error, w holds the n rows returned, each
// complete, and nothing after them. Array's opening bracket is never
// closed (the output ends with the last row and a newline), and Lines
// simply stops after n lines; with n = 0, w holds nothing at all. When w
// itself fails, n counts the rows it took in full.
func WriteQuery(ctx context.Context, db *sql.DB, w io.Writer, format Format, query string, args ...any) (int64, error) {
	return writeQueryOn(ctx, db, query, args, func(cols, decl []string) rowWriter {
		return newJSONWriter(w, cols, decl, format)
	})
}

// writeQueryOn is writeQuery on a connection of db.
func writeQueryOn(ctx context.Context, db *sql.DB, query string, args []any, out func(cols, decl []string) rowWriter) (int64, error) {
	conn, err := db.Conn(ctx)
	if err != nil {
		return 0, err
	}
	defer conn.Close()
	return writeQueryConn(ctx, conn, query, args, out)
}

// writeQueryConn is writeQuery on conn.
func writeQueryConn(ctx context.Context, conn *sql.Conn, query string, args []any, out func(cols, decl []string) rowWriter) (int64, error) {
	var n int64
	err := conn.Raw(func(dc any) error {
		c, ok := dc.(*sqlite3.SQLiteConn)
		if !ok {
			return fmt.Errorf("sqlite: db's driver connection is %T, want *sqlite3.SQLiteConn", dc)
		}
		var err error
		n, err = writeQuery(ctx, c, query, args, out)
		return err
	})
	return n, err
}

// WriteQueryPath is WriteQuery on the SQLite database file at path (or
// go-sqlite3 DSN), opened for this query only, in SQLite's multi-thread
// mode as InsertPath opens it: the serialized mode's per-call locks were a
// fifth of an export's CPU. A query never creates a database: a plain path
// that names no file is a [*DBError] holding os.Stat's error (a "file:"
// URI says what it wants with its own mode parameter). A database that
// cannot be opened, or a file that is not an SQLite database, is a
// *DBError naming path and what is wrong with it.
func WriteQueryPath(ctx context.Context, path string, w io.Writer, format Format, query string, args ...any) (int64, error) {
	return onPath(ctx, path, func(db *sql.DB) (int64, error) {
		return WriteQuery(ctx, db, w, format, query, args...)
	})
}

// onPath runs f on the database at path, opened for it only, as
// WriteQueryPath describes.
func onPath(ctx context.Context, path string, f func(db *sql.DB) (int64, error)) (int64, error) {
	db, err := OpenExisting(ctx, path)
	if err != nil {
		return 0, err
	}
	n, err := f(db)
	if cerr := db.Close(); err == nil {
		err = cerr
	}
	return n, err
}

// OpenExisting opens the SQLite database at path (a file path or a
// go-sqlite3 DSN) to query it, as WriteQueryPath does: never creating it,
// in SQLite's multi-thread mode, and checking that it is an SQLite
// database, so that what is wrong (no such file, no such directory, not a
// database) is a [*DBError] naming path. A "file:" URI is left to SQLite
// and its mode parameter.
func OpenExisting(ctx context.Context, path string) (*sql.DB, error) {
	if name := fileName(path); name != "" {
		if _, err := os.Stat(name); err != nil {
			e := &DBError{Path: path, Err: err, why: whyNoDir(name)}
			if e.why == "" && errors.Is(err, fs.ErrNotExist) {
				e.why = "no such file (a query never creates a database)"
			}
			return nil, e
		}
	}
	return openPath(ctx, path)
}

// writeQuery runs query on c and writes its rows with the rowWriter out
// makes of its columns and their declared types.
func writeQuery(ctx context.Context, c *sqlite3.SQLiteConn, query string, args []any, out func(cols, decl []string) rowWriter) (int64, error) {
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

	var decl []string
	if r, ok := rows.(*sqlite3.SQLiteRows); ok {
		decl = r.DeclTypes()
	}
	return writeRows(ctx, rows, out(rows.Columns(), decl))
}

// rowWriter formats rows as one output format: jsonWriter or textWriter.
type rowWriter interface {
	// row formats one row; it returns w's error.
	row(vals []driver.Value) error
	// close ends the output of a query that ran to its end.
	close() error
	// abort ends the output of a query that failed with err after the
	// rows formatted so far, and returns the rows written and err.
	abort(err error) (int64, error)
	// rowsWritten is the number of rows w has taken in full.
	rowsWritten() int64
}

// writeRows reads rows to their end, formatting each with rw.
func writeRows(ctx context.Context, rows driver.Rows, rw rowWriter) (int64, error) {
	ncols := len(rows.Columns())
	if pw, ok := rw.(*pageWriter); ok && ncols > 0 {
		return writePage(rows, pw, ncols)
	}
	if runtime.GOMAXPROCS(0) > 1 {
		return pipelined(ctx, rows, rw, ncols)
	}
	dest := make([]driver.Value, ncols)
	var n int64
	for {
		err := rows.Next(dest)
		if err == io.EOF {
			break
		}
		if err != nil {
			return rw.abort(err)
		}
		if n&1023 == 1023 {
			if err := ctx.Err(); err != nil {
				return rw.abort(err)
			}
		}
		if err := rw.row(dest); err != nil {
			return rw.rowsWritten(), err
		}
		n++
	}
	err := rw.close()
	return rw.rowsWritten(), err
}

// jsonWriter formats rows as JSON objects into a buffer written to w
// whenever it passes 64 KiB.
type jsonWriter struct {
	w       io.Writer
	keys    [][]byte     // `{"name":` for the first column, `,"name":` after
	json    []jsonColumn // columns declared JSON: how their text is written
	format  Format
	scratch bytes.Buffer
	buf     []byte
	pooled  *[]byte // buf's pool entry, given back by release
	n       int64   // rows formatted
	written int64   // rows w has taken in full
}

const flushAt = 64 << 10

// newJSONWriter returns a jsonWriter of the columns cols, whose declared
// types (as go-sqlite3 gives them, lower-cased; nil if unknown) are decl.
func newJSONWriter(w io.Writer, cols, decl []string, format Format) *jsonWriter {
	jw := &jsonWriter{w: w, format: format, keys: make([][]byte, len(cols))}
	jw.pooled = getBuf()
	jw.buf = *jw.pooled
	for i, d := range decl {
		if k := jsonColumnOf(d); k != notJSON {
			if jw.json == nil {
				jw.json = make([]jsonColumn, len(cols))
			}
			jw.json[i] = k
		}
	}
	// The keys in one buffer: a server answers many small queries, each
	// making a writer.
	size := 0
	for _, name := range cols {
		size += len(name) + 4 // sep, quotes, colon; more if escaped
	}
	keys := make([]byte, 0, size+32) // json.AppendQuote wants 32 bytes spare
	for i, name := range cols {
		sep := byte(',')
		if i == 0 {
			sep = '{'
		}
		start := len(keys)
		keys = append(appendString(append(keys, sep), name), ':')
		jw.keys[i] = keys[start:len(keys):len(keys)]
	}
	if format != Lines {
		jw.buf = append(jw.buf, '[')
	}
	return jw
}

func (jw *jsonWriter) row(vals []driver.Value) error {
	buf := jw.buf
	if jw.n > 0 && jw.format != Lines {
		buf = append(buf, ",\n"...)
	}
	if len(vals) == 0 {
		buf = append(buf, '{')
	}
	for i, v := range vals {
		buf = append(buf, jw.keys[i]...)
		if jw.json != nil && jw.json[i] != notJSON {
			if s, ok := v.(string); ok {
				buf = appendJSONText(buf, s, jw.json[i], &jw.scratch)
				continue
			}
		}
		buf = appendValue(buf, v)
	}
	buf = append(buf, '}')
	if jw.format == Lines {
		buf = append(buf, '\n')
	}
	jw.n++
	jw.buf = buf
	if len(buf) >= flushAt {
		return jw.flush()
	}
	return nil
}

// flush writes the rows formatted so far.
func (jw *jsonWriter) flush() error {
	if len(jw.buf) > 0 {
		if _, err := jw.w.Write(jw.buf); err != nil {
			return err
		}
		jw.buf = jw.buf[:0]
	}
	jw.written = jw.n
	return nil
}

func (jw *jsonWriter) rowsWritten() int64 { return jw.written }

// close ends the output of a query that ran to its end.
func (jw *jsonWriter) close() error {
	if jw.format != Lines {
		jw.buf = append(jw.buf, "]\n"...)
	}
	err := jw.flush()
	jw.release()
	return err
}

// release gives the buffer back to the pool, once the output has ended.
func (jw *jsonWriter) release() {
	if jw.pooled != nil {
		*jw.pooled = jw.buf
		putBuf(jw.pooled)
	}
	jw.buf, jw.pooled = nil, nil
}

// jsonBufs holds the writers' buffers between queries: each is 68 KiB, a
// size that costs more to allocate and clear than a small query costs to
// run (a server answers many).
var jsonBufs sync.Pool

// getBuf is an empty buffer and its pool entry (the pointer is kept so
// that giving it back allocates nothing).
func getBuf() *[]byte {
	if b, _ := jsonBufs.Get().(*[]byte); b != nil {
		*b = (*b)[:0]
		return b
	}
	b := make([]byte, 0, flushAt+4096)
	return &b
}

func putBuf(b *[]byte) {
	if cap(*b) >= flushAt && cap(*b) <= 4*flushAt {
		jsonBufs.Put(b)
	}
}

// abort ends the output of a query that failed with err after the rows
// formatted so far: they are written, and an array is left open, ending
// with a newline, so that the output cannot pass for a complete result.
// Without a row, nothing is written. It returns the rows written and err.
func (jw *jsonWriter) abort(err error) (int64, error) {
	if jw.n == 0 {
		jw.buf = jw.buf[:0] // at most the opening bracket
		jw.release()
		return 0, err
	}
	if jw.format != Lines {
		jw.buf = append(jw.buf, '\n')
	}
	jw.flush() // err, the query's, is the one to report
	jw.release()
	return jw.written, err
}

// pipelined reads rows on this goroutine and formats and writes them with
// jw on another, handing over batches of 1024 rows; three batches
// circulate. The first batch is read before the other goroutine starts: a
// result that ends in it (a page, a row by its key: what a server asks
// for most) is written on this goroutine, with no goroutine, channel or
// more batches made for it. Batches come from a pool, so that a server's
// queries reuse them rather than each allocating and clearing its own.
func pipelined(ctx context.Context, rows driver.Rows, jw rowWriter, ncols int) (int64, error) {
	const batchRows = 1024
	first := getBatch(batchRows * max(ncols, 1))
	defer putBatch(first, ncols)
	var n int64
	var err error
	for first.n < batchRows {
		if err = rows.Next(first.vals[first.n*ncols : (first.n+1)*ncols]); err != nil {
			if err == io.EOF {
				err = nil
			}
			break
		}
		first.n++
		n++
	}
	if first.n < batchRows || err != nil {
		// The whole result, or the rows before an error: written here.
		for r := 0; r < first.n; r++ {
			if werr := jw.row(first.vals[r*ncols : (r+1)*ncols]); werr != nil {
				return jw.rowsWritten(), werr
			}
		}
		if err != nil {
			return jw.abort(err)
		}
		err = jw.close()
		return jw.rowsWritten(), err
	}

	full := make(chan *batch, 3)
	free := make(chan *batch, 3)
	for i := 0; i < 2; i++ {
		b := getBatch(batchRows * max(ncols, 1))
		defer putBatch(b, ncols)
		free <- b
	}
	var failed atomic.Bool
	var readErr error // set before full is closed
	werr := make(chan error, 1)
	go func() {
		var err error
		for b := range full {
			for r := 0; r < b.n && err == nil; r++ {
				err = jw.row(b.vals[r*ncols : (r+1)*ncols])
			}
			if err != nil {
				failed.Store(true)
			}
			clear(b.vals[:b.n*ncols]) // let the strings go
			free <- b
		}
		if err == nil {
			if readErr != nil {
				_, err = jw.abort(readErr)
			} else {
				err = jw.close()
			}
		}
		werr <- err
	}()
	b := first
	for {
		if b.n == batchRows {
			full <- b
			b = <-free
			b.n = 0
			if failed.Load() {
				break
			}
			if err = ctx.Err(); err != nil {
				break
			}
		}
		dest := b.vals[b.n*ncols : (b.n+1)*ncols]
		if err = rows.Next(dest); err != nil {
			if err == io.EOF {
				err = nil
			}
			break
		}
		b.n++
		n++
	}
	// The rows read before an error are written too (abort).
	full <- b
	readErr = err
	close(full)
	if e := <-werr; err == nil {
		err = e
	}
	if err != nil {
		// Rows read but not written do not count.
		n = jw.rowsWritten()
	}
	return n, err
}

// batch is rows of a query's values, handed from the goroutine that reads
// them to the one that writes them (pipelined).
type batch struct {
	vals []driver.Value
	n    int
}

var batches sync.Pool

// getBatch returns an empty batch of at least size values, from the pool
// when it has one that large.
func getBatch(size int) *batch {
	if b, _ := batches.Get().(*batch); b != nil && cap(b.vals) >= size {
		b.vals, b.n = b.vals[:size], 0
		return b
	}
	return &batch{vals: make([]driver.Value, size)}
}

// putBatch returns b, whose rows have ncols values, to the pool, with the
// values its rows (and a row cut by an error) may hold cleared: they hold
// the strings of a result, which must not be kept alive. Only those: a
// one-row result clears one row, not the batch.
func putBatch(b *batch, ncols int) {
	clear(b.vals[:min(len(b.vals), (b.n+1)*ncols)])
	batches.Put(b)
}
