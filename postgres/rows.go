package postgres

import (
	"context"
	"errors"
	"io"

	json "github.com/jsonpipe/json"
)

// The per-row loop: finding each row, reading its members into their
// columns by key, and naming the row of an error.

// key is one spelling of a column's name as it appears in the input: the
// raw token, quotes and escapes included, compared as bytes.
type key struct {
	raw string
	col int
}

// maxAliases bounds the extra spellings of known names (escaped forms)
// remembered for the byte comparison.
const maxAliases = 256

// nextRow consumes the '{' that opens the next row, stepping into and out
// of top-level arrays. It reports false at a clean end of input.
func (l *loader) nextRow() (bool, error) {
	d := l.d
	for {
		k := d.PeekKind()
		switch {
		case k == '{':
			if !l.inArray && l.opts.Format == Array {
				return false, l.rowError(&TypeError{Msg: "input is an object, want an array of objects"}, l.read+1, -1)
			}
			if _, err := d.NextToken(); err != nil {
				return false, l.rowError(err, l.read+1, -1)
			}
			return true, nil
		case k == '[' && !l.inArray:
			if l.opts.Format == Lines {
				return false, l.rowError(&TypeError{Msg: "input is an array, want newline-delimited objects"}, l.read+1, -1)
			}
			d.NextToken()
			l.inArray = true
		case k == ']' && l.inArray:
			d.NextToken()
			l.inArray = false
		case k == '[' || k == '"' || k == 't' || k == 'f' || k == 'n' || k == '0':
			return false, l.rowError(&TypeError{Msg: "row is " + tokenKindName(k) + ", want an object"}, l.read+1, d.InputOffset())
		default:
			// The end of input, or something that is no value: the
			// decoder says which.
			_, err := d.NextToken()
			if err == io.EOF {
				return false, nil
			}
			if err == nil {
				err = errors.New("json: no value where a row should start") // not reached: the decoder validates
			}
			return false, l.rowError(err, l.read+1, -1)
		}
	}
}

func tokenKindName(k byte) string {
	switch k {
	case '[':
		return "an array"
	case '"':
		return "a string"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	}
	return "a number"
}

// readRow reads the members of an object whose '{' has been consumed into
// l.cur, by column. Each key is found by a byte comparison with the keys
// seen so far, starting where the previous key was found, so objects whose
// keys come in a steady order cost one comparison per key.
func (l *loader) readRow() error {
	d := l.d
	clear(l.cur)
	for {
		tok, err := d.NextToken()
		if err != nil {
			return err
		}
		if tok[0] == '}' {
			return nil
		}
		c := l.lookup(tok)
		if c < 0 {
			if c, err = l.newKey(tok); err != nil {
				return err
			}
		}
		if l.arena, err = readValue(d, &l.cur[c], l.arena, l.maxValue); err != nil {
			return err
		}
		if col := &l.cols[c]; !col.copied {
			// While sampling, or a column new to the COPY (out of line).
			l.keyedValue(col, &l.cur[c])
		}
	}
}

func (l *loader) lookup(tok []byte) int {
	keys := l.keys
	for j := l.hint; j < len(keys); j++ {
		if keys[j].raw == string(tok) {
			l.hint = j + 1
			return keys[j].col
		}
	}
	for j := 0; j < l.hint && j < len(keys); j++ {
		if keys[j].raw == string(tok) {
			l.hint = j + 1
			return keys[j].col
		}
	}
	return -1
}

// newKey handles a key spelled in a way not seen before (out of line): a
// new name, or a known name escaped differently. A column of the table not
// copied so far needs a new COPY naming it; a key the table has no column
// for is added when sampling (the table is yet to be created) or with
// Alter, and is an error otherwise.
func (l *loader) newKey(tok []byte) (int, error) {
	name := string(json.AppendUnquoted(nil, tok))
	for i := range l.cols {
		if l.cols[i].name == name {
			if len(l.keys) < len(l.cols)+maxAliases {
				l.keys = append(l.keys, key{raw: string(tok), col: i})
			}
			return i, nil
		}
	}
	if err := checkName(name); err != nil {
		return -1, &TypeError{Msg: "key " + shortName(name) + ": " + err.Error()}
	}
	creating := l.sampling && !l.exists && len(l.opts.Columns) == 0
	if !creating && !l.opts.Alter {
		return -1, &TypeError{Msg: "key " + shortName(name) + " is not a column of table " + shortName(l.table) + " (Alter adds it)"}
	}
	l.cols = append(l.cols, column{name: name})
	l.keys = append(l.keys, key{raw: string(tok), col: len(l.cols) - 1})
	l.cur = append(l.cur, value{})
	return len(l.cols) - 1, nil
}

// keyedValue notes that a row holds column c's key, with the value v: its
// kind counts towards c's type, and after sampling the COPY must be remade
// to name c.
func (l *loader) keyedValue(c *column, v *value) {
	c.keyed = true
	c.seen = c.seen.add(v.kind)
	if !l.sampling {
		l.newCols = true
	}
}

// rowError wraps err with the row number and a byte offset: the syntax
// error's own, else off, else the decoder's current offset. Context
// cancellation is returned as it is.
func (l *loader) rowError(err error, row, off int64) error {
	var re *RowError
	if errors.As(err, &re) || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	var se *json.SyntaxError
	if errors.As(err, &se) {
		off = se.Offset
	} else if off < 0 {
		off = l.d.InputOffset()
	}
	return &RowError{Row: row, Offset: off, Err: err}
}
