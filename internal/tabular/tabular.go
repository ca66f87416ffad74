// Package tabular writes query results as CSV, TSV or an aligned text
// table: the plain-text twins of the JSON exports, shared by the SQLite and
// PostgreSQL packages. Each database package turns its values into fields
// (text, numbers, NULL); this package lays them out.
//
// CSV is RFC 4180 with "\n" line ends: a field holding the separator, a
// double quote, CR or LF (or beginning with a space or tab, or being
// exactly `\.`, which PostgreSQL's COPY reads as the end of data) is
// quoted, its quotes doubled. An empty string is written "" and NULL as an
// empty field, so the two stay apart, as PostgreSQL's COPY ... CSV writes
// them. TSV is the same with a tab for the comma (the "excel-tab" dialect
// sqlite-utils and Python's csv module write and read): fields holding a
// tab, quote, CR or LF are quoted, not backslash-escaped.
//
// CSV and TSV stream: rows are formatted into one buffer, written out
// whenever it passes 64 KiB. Table needs every width before its first
// line, so it keeps the whole result in memory.
package tabular

import (
	"io"
	"strconv"
	"unicode/utf8"
)

// Layout is the plain-text layout of a query's output.
type Layout uint8

const (
	// CSV is comma-separated values with a header row of column names.
	CSV Layout = iota + 1
	// TSV is tab-separated values with a header row, quoted as CSV is.
	TSV
	// Table is aligned columns for a terminal: a header row, a rule of
	// dashes, then the rows; columns two spaces apart, a column of numbers
	// (and NULLs) right-aligned, header included, any other column
	// left-aligned, without trailing spaces on a line; NULL is an
	// empty cell; line breaks, tabs and other control characters in a cell
	// are written as escapes (\n, \r, \t, \x1b), so that a row is one line
	// and a cell cannot move the cursor. Widths count code points, so
	// double-width characters misalign.
	Table
)

func (l Layout) String() string {
	switch l {
	case CSV:
		return "CSV"
	case TSV:
		return "TSV"
	case Table:
		return "Table"
	}
	return "Layout(" + strconv.Itoa(int(l)) + ")"
}

const flushAt = 64 << 10

// Writer lays out rows of fields. A row is its fields in column order
// (Text, Number or Null, one call per column) followed by EndRow. For CSV
// and TSV the header and rows are formatted into one buffer written to
// the io.Writer whenever it passes 64 KiB; for Table every cell is kept
// until Close.
type Writer struct {
	w      io.Writer
	layout Layout
	sep    byte
	ncols  int
	col    int // fields given in the current row
	buf    []byte
	n      int64 // rows formatted
	// written is the number of rows the io.Writer has taken in full.
	written int64

	// Table only: the cells, header first, one after another in cells,
	// ends[i] the end of cell i; text[c] whether column c holds anything
	// but numbers and NULLs.
	cells []byte
	ends  []int
	text  []bool
}

// NewWriter returns a Writer of the columns named cols in layout.
func NewWriter(w io.Writer, layout Layout, cols []string) *Writer {
	t := &Writer{w: w, layout: layout, sep: ',', ncols: len(cols)}
	if layout == TSV {
		t.sep = '\t'
	}
	if layout == Table {
		t.text = make([]bool, len(cols))
		for _, c := range cols {
			t.cells = appendCell(t.cells, c)
			t.ends = append(t.ends, len(t.cells))
		}
		return t
	}
	t.buf = make([]byte, 0, flushAt+4096)
	for i, c := range cols {
		if i > 0 {
			t.buf = append(t.buf, t.sep)
		}
		t.buf = appendQuoted(t.buf, c, t.sep)
	}
	t.buf = append(t.buf, '\n')
	return t
}

// Written returns the number of rows the io.Writer has taken in full.
func (t *Writer) Written() int64 { return t.written }

// Text adds a field of text (or a value written as its text, such as a
// date or JSON), quoted (CSV, TSV) or escaped (Table) as needed.
func (t *Writer) Text(b []byte) {
	if t.layout == Table {
		t.text[t.col] = true
		t.cells = appendCell(t.cells, b)
		t.ends = append(t.ends, len(t.cells))
	} else {
		t.sepIfNeeded()
		t.buf = appendQuoted(t.buf, b, t.sep)
	}
	t.col++
}

// Number adds a field that is a number's text: never quoted, and kept
// right-aligned by Table.
func (t *Writer) Number(b []byte) {
	if t.layout == Table {
		t.cells = append(t.cells, b...)
		t.ends = append(t.ends, len(t.cells))
	} else {
		t.sepIfNeeded()
		t.buf = append(t.buf, b...)
	}
	t.col++
}

// Null adds a NULL: an empty field, unquoted.
func (t *Writer) Null() {
	if t.layout == Table {
		t.ends = append(t.ends, len(t.cells))
	} else {
		t.sepIfNeeded()
	}
	t.col++
}

func (t *Writer) sepIfNeeded() {
	if t.col > 0 {
		t.buf = append(t.buf, t.sep)
	}
}

// EndRow ends the row whose fields were just given; for CSV and TSV it
// writes the buffer once it passes 64 KiB, and returns the io.Writer's
// error.
func (t *Writer) EndRow() error {
	t.col = 0
	t.n++
	if t.layout == Table {
		return nil
	}
	t.buf = append(t.buf, '\n')
	if len(t.buf) >= flushAt {
		return t.flush()
	}
	return nil
}

func (t *Writer) flush() error {
	if len(t.buf) > 0 {
		if _, err := t.w.Write(t.buf); err != nil {
			return err
		}
		t.buf = t.buf[:0]
	}
	t.written = t.n
	return nil
}

// Close writes what is left: the end of CSV or TSV (the header alone for
// no rows), or the whole table.
func (t *Writer) Close() error {
	if t.layout == Table {
		t.buf = t.appendTable(t.buf[:0])
	}
	return t.flush()
}

// Abort ends the output of a query that failed with err after the rows
// given so far: they are written (as a table, for Table), unless there
// are none, when nothing at all is written, not even the header. It
// returns the rows written and err.
func (t *Writer) Abort(err error) (int64, error) {
	if t.n == 0 {
		t.buf = t.buf[:0]
		return 0, err
	}
	t.col = 0
	t.Close() // err, the query's, is the one to report
	return t.written, err
}

// appendQuoted appends s, a CSV or TSV field separated by sep, quoted if
// it must be.
func appendQuoted[S ~string | ~[]byte](b []byte, s S, sep byte) []byte {
	if !needsQuotes(s, sep) {
		return append(b, s...)
	}
	b = append(b, '"')
	for {
		i := indexByte(s, '"')
		if i < 0 {
			break
		}
		b = append(b, s[:i+1]...)
		b = append(b, '"')
		s = s[i+1:]
	}
	b = append(b, s...)
	return append(b, '"')
}

func needsQuotes[S ~string | ~[]byte](s S, sep byte) bool {
	if len(s) == 0 {
		return true // "" is the empty string; an empty field is NULL
	}
	if s[0] == ' ' || s[0] == '\t' || (len(s) == 2 && s[0] == '\\' && s[1] == '.') {
		return true
	}
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case sep, '"', '\r', '\n':
			return true
		}
	}
	return false
}

func indexByte[S ~string | ~[]byte](s S, c byte) int {
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			return i
		}
	}
	return -1
}

// appendCell appends s as a table cell: control characters escaped.
func appendCell[S ~string | ~[]byte](b []byte, s S) []byte {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x20 && c != 0x7f {
			b = append(b, c)
			continue
		}
		switch c {
		case '\n':
			b = append(b, `\n`...)
		case '\r':
			b = append(b, `\r`...)
		case '\t':
			b = append(b, `\t`...)
		default:
			b = append(b, '\\', 'x', hex[c>>4], hex[c&15])
		}
	}
	return b
}

const hex = "0123456789abcdef"

// appendTable appends the whole table: header, rule, rows.
func (t *Writer) appendTable(b []byte) []byte {
	if t.ncols == 0 {
		return b
	}
	width := make([]int, t.ncols)
	start := 0
	for i, end := range t.ends {
		if w := utf8.RuneCount(t.cells[start:end]); w > width[i%t.ncols] {
			width[i%t.ncols] = w
		}
		start = end
	}
	for c := range width {
		width[c] = max(width[c], 1)
	}
	start = 0
	for i, end := range t.ends {
		c := i % t.ncols
		cell := t.cells[start:end]
		start = end
		pad := width[c] - utf8.RuneCount(cell)
		if c > 0 {
			b = append(b, ' ', ' ')
		}
		right := !t.text[c] // the header too
		if right {
			b = appendSpaces(b, pad)
		}
		b = append(b, cell...)
		if !right && c < t.ncols-1 {
			b = appendSpaces(b, pad)
		}
		if c == t.ncols-1 {
			b = append(trimSpaces(b), '\n')
			if i == t.ncols-1 { // after the header: the rule
				for c, w := range width {
					if c > 0 {
						b = append(b, ' ', ' ')
					}
					for range w {
						b = append(b, '-')
					}
				}
				b = append(b, '\n')
			}
		}
	}
	return b
}

// trimSpaces drops the spaces that end b (the padding of empty cells at
// the end of a line).
func trimSpaces(b []byte) []byte {
	for len(b) > 0 && b[len(b)-1] == ' ' {
		b = b[:len(b)-1]
	}
	return b
}

func appendSpaces(b []byte, n int) []byte {
	for range n {
		b = append(b, ' ')
	}
	return b
}
