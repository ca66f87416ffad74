package postgres

import (
	"bytes"
	"context"
	"encoding/base64"
	"fmt"
	"io"
	"sync"
	"unsafe"

	"github.com/jackc/pgx/v5"
	json "github.com/jsonpipe/json"
)

// WriteQuery runs query with args on conn and streams its rows to w as
// JSON: a JSON array of objects (format Array or Auto) or one object per
// line (Lines), each object's keys being the result's column names. It
// returns the number of rows written.
//
// Values are taken in PostgreSQL's text format and map as: integers and
// floating-point numbers to numbers (NaN and infinities, which JSON
// lacks, to null), numeric to a number exactly as PostgreSQL prints it
// (its NaN and infinities to null), boolean to true or false, json and
// jsonb to their JSON as it is (not a string; json's line breaks between
// tokens removed, so that a row stays one line), bytea to a base64 string,
// NULL to null, and every other type (text, dates, times, uuid, arrays...)
// to a string of its text.
//
// Memory stays constant: rows are read one at a time and formatted into
// one buffer that is written to w whenever it passes 64 KiB.
//
// A query can fail part-way, on a row PostgreSQL cannot compute (a
// division by zero, an overflow), as can w or ctx. Output cut short never
// passes for a complete result: after an error, w holds the n rows
// returned, each complete, and nothing after them. Array's opening bracket
// is never closed (the output ends with the last row and a newline), and
// Lines simply stops after n lines; with n = 0, w holds nothing at all.
// When w itself fails, n counts the rows it took in full.
func WriteQuery(ctx context.Context, conn *pgx.Conn, w io.Writer, format Format, query string, args ...any) (int64, error) {
	return writeQuery(ctx, conn, w, format, nil, 0, query, args)
}

// WriteQueryLast is WriteQuery for a query whose last column is not
// written: first is given its value in the first row, as text (nil for
// NULL), before anything is written; with no row it is not called.
// Package serve selects the key of the next page so, in the page's own
// statement (one round trip, one snapshot).
func WriteQueryLast(ctx context.Context, conn *pgx.Conn, w io.Writer, format Format, first func(v *string), query string, args ...any) (int64, error) {
	return writeQuery(ctx, conn, w, format, first, 0, query, args)
}

// PageRows is the most rows a page of WriteQueryPage may have.
const PageRows = 1024

// WriteQueryPage is WriteQuery for a page: a query whose LIMIT is limit
// (1 to PageRows) and whose last column, not written, is each row's key
// as text. The page is written once its rows are all read, and when
// there are limit of them, next is first given the last one's key (nil
// for NULL): the key the next page starts after. Package serve pages so:
// the next page's key comes from the page's own rows, read once, not from
// a second walk over them.
func WriteQueryPage(ctx context.Context, conn *pgx.Conn, w io.Writer, format Format, limit int, next func(key *string), query string, args ...any) (int64, error) {
	if limit < 1 || limit > PageRows {
		return 0, fmt.Errorf("postgres: WriteQueryPage: limit %d is not 1 to %d", limit, PageRows)
	}
	return writeQuery(ctx, conn, w, format, next, limit, query, args)
}

// writeQuery is WriteQuery; with first, WriteQueryLast, or with page > 0
// WriteQueryPage of page rows.
func writeQuery(ctx context.Context, conn *pgx.Conn, w io.Writer, format Format, first func(*string), page int, query string, args []any) (int64, error) {
	rows, err := conn.Query(ctx, query, append([]any{resultFormats}, args...)...)
	if err != nil {
		return 0, err
	}
	defer rows.Close()
	fields := rows.FieldDescriptions()
	last := len(fields) // the columns written
	if first != nil && last > 0 {
		last--
		fields = fields[:last]
	} else {
		first = nil
	}
	keys := make([][]byte, len(fields))
	kinds := make([]outKind, len(fields))
	for i, f := range fields {
		sep := byte(',')
		if i == 0 {
			sep = '{'
		}
		keys[i] = append(json.AppendQuote([]byte{sep}, f.Name), ':')
		kinds[i] = outKindOf(f.DataTypeOID)
	}
	bp := getBuf()
	defer putBuf(bp)
	buf := (*bp)[:0]
	defer func() { *bp = buf }() // (a buffer that grew is kept grown)
	if format != Lines {
		buf = append(buf, '[')
	}
	var n, written int64 // rows formatted, rows w has taken
	var keyBuf [48]byte
	key, keyNull := keyBuf[:0], true // a page's last key so far
	for rows.Next() {
		if format != Lines && n > 0 {
			buf = append(buf, ",\n"...)
		}
		vals := rows.RawValues()
		if first != nil {
			if page > 0 {
				key, keyNull = append(key[:0], vals[last]...), vals[last] == nil
			} else if n == 0 {
				var s *string
				if v := vals[last]; v != nil {
					t := string(v)
					s = &t
				}
				first(s)
			}
			vals = vals[:last]
		}
		for i, v := range vals {
			buf = append(buf, keys[i]...)
			buf = appendOut(buf, kinds[i], v)
		}
		if len(vals) == 0 {
			buf = append(buf, '{')
		}
		buf = append(buf, '}')
		if format == Lines {
			buf = append(buf, '\n')
		}
		n++
		if len(buf) >= 64<<10 && page == 0 {
			if _, err := w.Write(buf); err != nil {
				return written, err
			}
			buf = buf[:0]
			written = n
		}
	}
	if err := rows.Err(); err != nil {
		// The rows before the error are written; an array is left open.
		if n == 0 {
			return 0, err
		}
		if format != Lines {
			buf = append(buf, '\n')
		}
		if _, werr := w.Write(buf); werr == nil {
			written = n
		}
		return written, err
	}
	if page > 0 && first != nil && n == int64(page) {
		var s *string
		if !keyNull {
			t := string(key)
			s = &t
		}
		first(s)
	}
	if format != Lines {
		buf = append(buf, "]\n"...)
	}
	if len(buf) > 0 {
		if _, err := w.Write(buf); err != nil {
			return written, err
		}
	}
	return n, nil
}

// outBufs holds WriteQuery's buffers between queries: each is 80 KiB, a
// size that costs more to allocate and clear than a small query costs to
// run (a server answers many).
var outBufs sync.Pool

func getBuf() *[]byte {
	if b, _ := outBufs.Get().(*[]byte); b != nil {
		return b
	}
	b := make([]byte, 0, 80<<10)
	return &b
}

func putBuf(b *[]byte) {
	if cap(*b) <= 320<<10 {
		outBufs.Put(b)
	}
}

// WriteQueryURL is WriteQuery over a new connection to url, closed when
// the query is done.
func WriteQueryURL(ctx context.Context, url string, w io.Writer, format Format, query string, args ...any) (int64, error) {
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		return 0, err
	}
	defer conn.Close(context.Background())
	return WriteQuery(ctx, conn, w, format, query, args...)
}

// resultFormats asks for every column in text format but bytea, which
// comes as its bytes.
var resultFormats = pgx.QueryResultFormatsByOID{17: pgx.BinaryFormatCode}

// outKind is how a column's text becomes JSON.
type outKind uint8

const (
	outString outKind = iota
	outNumber         // integers: the text is a JSON number
	outFloat          // a JSON number, but for NaN and infinities
	outBool
	outJSON
	outBytea
)

func outKindOf(oid uint32) outKind {
	switch oid {
	case 20, 21, 23, 26: // int8, int2, int4, oid
		return outNumber
	case 700, 701, 1700: // float4, float8, numeric
		return outFloat
	case 16:
		return outBool
	case 114, 3802:
		return outJSON
	case 17:
		return outBytea
	}
	return outString
}

func appendOut(b []byte, k outKind, v []byte) []byte {
	if v == nil {
		return append(b, "null"...)
	}
	switch k {
	case outNumber:
		return append(b, v...)
	case outJSON:
		return appendJSON(b, v)
	case outFloat:
		if c := v[len(v)-1]; c < '0' || c > '9' { // NaN, Infinity, -Infinity
			return append(b, "null"...)
		}
		return append(b, v...)
	case outBool:
		if len(v) > 0 && v[0] == 't' {
			return append(b, "true"...)
		}
		return append(b, "false"...)
	case outBytea:
		b = append(b, '"')
		b = base64.StdEncoding.AppendEncode(b, v)
		return append(b, '"')
	}
	return json.AppendQuote(b, unsafe.String(unsafe.SliceData(v), len(v)))
}

// appendJSON appends v, a json or jsonb value's text, as it is, unless it
// spans lines (json keeps its input's text; jsonb never does): then
// compacted, so that NDJSON stays one row a line.
func appendJSON(b []byte, v []byte) []byte {
	if bytes.IndexByte(v, '\n') < 0 && bytes.IndexByte(v, '\r') < 0 {
		return append(b, v...)
	}
	var c bytes.Buffer
	if json.Compact(&c, v) != nil { // PostgreSQL checked it: cannot happen
		return json.AppendQuote(b, string(v))
	}
	return append(b, c.Bytes()...)
}
