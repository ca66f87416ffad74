package loader

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"unsafe"

	json "github.com/jsonpipe/json"
	"github.com/jsonpipe/json/internal/csvin"
	"github.com/jsonpipe/json/internal/rowsrc"
)

// CSV and TSV input (Options.Delimiter). A CSVSource reads the header and
// the first InferRows rows, detects each column's type from them as
// sqlite-utils 4 does (internal/csvin), and from then on is the load's
// input: it writes each record as one line of NDJSON, {"name":value,...},
// with the header's names as keys and each value typed after its column
// (an INTEGER column's 7 is the number 7, a TEXT column's 7 the string
// "7"; an empty field null). The backends then load that as any NDJSON,
// with every option (keys, conflicts, Alter, batches, workers). A table
// the load creates gets its columns as for JSON, inferred by the backend
// from the sampled rows, which the typing makes the detected types (in
// PostgreSQL a column whose sampled numbers include an integer past the
// 64-bit range is numeric, not double precision, as for JSON); being
// inferred, they widen in PostgreSQL for a later value that does not fit
// (bigint to double precision to text), as JSON's do, unless StrictTypes.
// SQLite stores such a value as it is.
//
// Memory stays flat: the records are read into one reused buffer, the
// NDJSON written into another, and the rows' places in the input are kept
// for the last csvRing rows only (for the row errors a database reports).

// csvRing is how many rows back a CSVSource can place a row in its input.
const csvRing = 1 << 16

// A CSVSource is the NDJSON form of CSV or TSV input, for a backend to
// load; see PrepareCSV.
type CSVSource struct {
	rd           *csvin.Reader
	names        []string
	keys         [][]byte // `{"name":` for the first column, `,"name":` for the others
	types        []csvin.Type
	emptyStrings bool

	// The sampled rows, written out first: their fields back to back,
	// each field's end, and each row's place.
	sample     []byte
	sampleEnds []int
	sampleAt   []csvPlace
	nextSample int

	out     []byte // NDJSON not yet read
	outPos  int
	scratch []byte
	rows    int64 // rows written out
	end     error // once the input has ended: io.EOF, or the error that ended it
	tsv     bool
	ring    [csvRing]csvPlace
}

// csvPlace is where a row starts in the input.
type csvPlace struct{ line, off int64 }

// PrepareCSV reads the header and the first rows of CSV or TSV input r
// (o.Delimiter separates the fields) and returns the load's input as
// NDJSON, the options to load it with (a copy of o for NDJSON, and
// Progress counting bytes of r; when r has no rows after its header and
// o has no Columns, the header's columns as Columns, typed by typeName,
// which names a detected type in the database's terms), and the source,
// which places a row error in r (Place). The error is
// about the header: r empty, a header field empty or given twice, a
// syntax error in it; an error in a row comes later, from reading the
// NDJSON, after the rows before it.
func PrepareCSV(r io.Reader, o *Options, typeName func(csvin.Type) string) (io.Reader, *Options, *CSVSource, error) {
	s := &CSVSource{rd: csvin.NewReader(r, o.Delimiter), emptyStrings: o.EmptyStrings, tsv: o.Delimiter == '\t'}
	if err := s.header(); err != nil {
		return nil, nil, nil, err
	}
	s.detect(InferRows(o))
	lo := *o
	lo.Delimiter = 0
	lo.delimited = true
	lo.Format = rowsrc.Lines
	// The backend infers the columns from the sampled rows, written
	// typed after the detected types (an INTEGER column's fields as JSON
	// integers, a REAL column's as numbers, a TEXT column's as strings,
	// empty ones null), so it gives them the detected types, and they
	// are inferred types, which PostgreSQL widens for a later value that
	// does not fit (a column given in Columns it never alters). Only
	// input with no rows gets Columns: its table is still created, with
	// the header's names.
	if len(lo.Columns) == 0 && len(s.sampleAt) == 0 {
		lo.Columns = make([]Column, len(s.names))
		for i, n := range s.names {
			lo.Columns[i] = Column{Name: n, Type: typeName(s.types[i])}
		}
	}
	if p := o.Progress; p != nil {
		lo.Progress = func(pr Progress) {
			pr.Bytes = s.rd.InputOffset()
			p(pr)
		}
	}
	return s, &lo, s, nil
}

// header reads the column names.
func (s *CSVSource) header() error {
	ok, err := s.rd.Next()
	if err != nil {
		return err
	}
	if !ok {
		return fmt.Errorf("%s: the input is empty: it should start with a header row naming the columns", s.kind())
	}
	n := s.rd.Fields()
	for i := 0; i < n; i++ {
		name := string(s.rd.Field(i))
		if name == "" {
			return fmt.Errorf("%s: header: column %d has no name", s.kind(), i+1)
		}
		for j, prev := range s.names {
			if strings.EqualFold(prev, name) {
				how := ""
				if prev != name {
					how = " (names that differ only in letter case are one column in SQLite)"
				}
				return fmt.Errorf("%s: header: columns %d and %d are both named %s%s", s.kind(), j+1, i+1, ShortName(name), how)
			}
		}
		s.names = append(s.names, name)
		key := []byte{','}
		if i == 0 {
			key[0] = '{'
		}
		key = json.AppendQuote(key, name)
		s.keys = append(s.keys, append(key, ':'))
	}
	s.types = make([]csvin.Type, n)
	return nil
}

// detect reads up to n rows, keeping them, and sets the columns' types
// from them. An error in them is kept for Read, after the rows before it.
func (s *CSVSource) detect(n int) {
	tr := make([]csvin.Tracker, len(s.names))
	for len(s.sampleAt) < n {
		ok, err := s.next()
		if !ok {
			s.end = orEOF(err)
			break
		}
		rec, ends := s.rd.Record()
		base := len(s.sample)
		s.sample = append(s.sample, rec...)
		for i, e := range ends {
			start := 0
			if i > 0 {
				start = ends[i-1]
			}
			k, _ := csvin.Classify(rec[start:e], s.scratch)
			tr[i].Add(k)
			s.sampleEnds = append(s.sampleEnds, base+e)
		}
		_, line, off := s.rd.Where()
		s.sampleAt = append(s.sampleAt, csvPlace{line, off})
	}
	for i := range tr {
		s.types[i] = tr[i].Type()
	}
}

func orEOF(err error) error {
	if err == nil {
		return io.EOF
	}
	return err
}

// next reads the next record, which must have one field per column.
func (s *CSVSource) next() (bool, error) {
	ok, err := s.rd.Next()
	if err != nil || !ok {
		return false, err
	}
	if n := s.rd.Fields(); n != len(s.names) {
		row, line, off := s.rd.Where()
		return false, &csvin.SyntaxError{Record: row - 1, Line: line, Offset: off, TSV: s.tsv,
			Msg: fmt.Sprintf("%d fields, but the header names %d columns", n, len(s.names))}
	}
	return true, nil
}

// Read writes rows as NDJSON into p. What p cannot take (a row cut by its
// end) is moved to the front of out before more rows are written after
// it, so out stays about len(p) long: appended to without that, it held
// the whole input, since a row seldom ends where p does.
func (s *CSVSource) Read(p []byte) (int, error) {
	if s.outPos > 0 {
		s.out, s.outPos = s.out[:copy(s.out, s.out[s.outPos:])], 0
	}
	for len(s.out)-s.outPos < len(p) && (s.end == nil || s.nextSample < len(s.sampleAt)) {
		s.produce(len(p))
	}
	n := copy(p, s.out[s.outPos:])
	s.outPos += n
	if s.outPos == len(s.out) {
		s.out, s.outPos = s.out[:0], 0
		if n == 0 && s.end != nil {
			return 0, s.end
		}
	}
	return n, nil
}

// produce writes rows into s.out until it holds at least want bytes or
// the input ends: the sampled rows first, then the rest.
func (s *CSVSource) produce(want int) {
	for len(s.out)-s.outPos < want {
		if i := s.nextSample; i < len(s.sampleAt) {
			ncol := len(s.names)
			start := 0
			if i > 0 {
				start = s.sampleEnds[i*ncol-1]
			}
			s.writeRow(s.sample, start, s.sampleEnds[i*ncol:(i+1)*ncol], s.sampleAt[i])
			s.nextSample++
			if s.nextSample == len(s.sampleAt) {
				s.sample, s.sampleEnds, s.sampleAt, s.nextSample = nil, nil, nil, 0
			}
			continue
		}
		if s.end != nil {
			return
		}
		ok, err := s.next()
		if !ok {
			s.end = orEOF(err)
			return
		}
		rec, ends := s.rd.Record()
		_, line, off := s.rd.Where()
		s.writeRow(rec, 0, ends, csvPlace{line, off})
	}
}

// writeRow writes one row as a line of NDJSON: the fields of rec from
// start, ending at ends, with the row's place noted for Place. This is
// the hot path: keys are written ready-made, numbers as they are when
// they are JSON numbers already.
func (s *CSVSource) writeRow(rec []byte, start int, ends []int, at csvPlace) {
	s.rows++
	s.ring[s.rows%csvRing] = at
	out := s.out
	for i, e := range ends {
		f := rec[start:e]
		start = e
		out = append(out, s.keys[i]...)
		if len(f) == 0 {
			if s.emptyStrings && s.types[i] == csvin.Text {
				out = append(out, '"', '"')
			} else {
				out = append(out, "null"...)
			}
			continue
		}
		if s.types[i] != csvin.Text {
			k, num := csvin.Classify(f, s.scratch)
			if k == csvin.KindInt || k == csvin.KindFloat {
				out = append(out, num...)
				if cap(num) > cap(s.scratch) {
					s.scratch = num[:0]
				}
				continue
			}
		}
		out = json.AppendQuote(out, unsafeString(f))
	}
	s.out = append(out, '}', '\n')
}

// Place puts a row error a backend reports (row, its NDJSON offset, its
// cause) back in the CSV input: a *csvin.SyntaxError (a malformed record,
// met while reading) is at its own row and offset; any other error is at
// the row's first byte, its line named, when the row is one of the last
// 65,536 read, else at offset -1 (not known).
func (s *CSVSource) Place(row, off int64, err error) (int64, int64, error) {
	var se *csvin.SyntaxError
	if errors.As(err, &se) {
		return se.Record, se.Offset, se
	}
	if row >= 1 && row <= s.rows && s.rows-row < csvRing {
		at := s.ring[row%csvRing]
		return row, at.off, fmt.Errorf("line %d: %w", at.line, err)
	}
	return row, -1, err
}

func (s *CSVSource) kind() string {
	if s.tsv {
		return "tsv"
	}
	return "csv"
}

// Names returns the header's column names.
func (s *CSVSource) Names() []string { return s.names }

// Types returns the detected column types.
func (s *CSVSource) Types() []csvin.Type { return s.types }

// unsafeString views b as a string, for AppendQuote, which only reads it.
func unsafeString(b []byte) string { return unsafe.String(unsafe.SliceData(b), len(b)) }
