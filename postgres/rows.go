package postgres

import (
	"strconv"

	"github.com/jsonpipe/json/internal/rowsrc"

	json "github.com/jsonpipe/json"
	"github.com/jsonpipe/json/internal/loader"
)

// Reading a row: its members into their columns by key (loader.Source
// finds each row and places its errors).

// maxAliases bounds the extra spellings of known names (escaped forms)
// remembered for the byte comparison.
const maxAliases = 256

// rowReader is what reading a row needs: the columns and their keys, the
// row's values, one per column, and the arena their text is in. The
// loading goroutine's is its copyLoader's; each parallel decoder has one
// of its own (workerReader), with a copy of the columns it may not change.
type rowReader struct {
	opts     *Options
	maxValue int            // MaxValueSize
	bigs     *rowsrc.Chunks // the long strings streamed (none for a worker)
	// newKey handles a key not listed in keys (out of line): it returns
	// the key's column, or an error (loader.ErrSerial for a worker).
	newKey func(tok []byte) (int, error)

	cols     []column
	keys     rowsrc.Keys
	cur      []value     // the row being read or sent, one value per column
	nested   rowsrc.Flat // the nested objects being flattened (Flatten)
	arena    []byte      // the text of the rows not yet sent
	newCols  bool        // a key of the row just read is not yet a copied column
	sampling bool        // reading the first rows, before the first COPY
}

// readRow reads the members of an object whose '{' d has consumed into
// l.cur, by column. Each key is found by a byte comparison with the keys
// seen so far, starting where the previous key was found, so objects whose
// keys come in a steady order cost one comparison per key.
func (l *rowReader) readRow(d *json.Decoder) error {
	clear(l.cur)
	flatten := l.opts.Flatten
	if flatten {
		l.nested.Reset()
	}
	for {
		tok, err := d.NextToken()
		if err != nil {
			return err
		}
		if tok[0] == '}' {
			if l.nested.Depth() == 0 {
				return nil
			}
			l.nested.Pop() // the end of a nested object flattened
			continue
		}
		if json.Streamed(tok) {
			// A key of a megabyte or more: no column can be named so.
			_, n := l.bigs.Take()
			return &TypeError{Msg: "key of " + strconv.Itoa(n) + " bytes: longer than PostgreSQL's 63-byte limit for a name"}
		}
		if flatten {
			// Out of line: the key joined to its parents', and a nested
			// object's members read as the row's own.
			tok = l.nested.Key(tok)
			if d.PeekKind() == '{' {
				d.NextToken()
				l.nested.Push(tok)
				continue
			}
		}
		c := l.keys.Lookup(tok)
		if c < 0 {
			if c, err = l.newKey(tok); err != nil {
				return err
			}
		}
		if err = l.readValue(d, &l.cur[c]); err != nil {
			return err
		}
		if col := &l.cols[c]; !col.copied {
			// While sampling, or a column new to the COPY (out of line).
			l.keyedValue(col, &l.cur[c])
		}
	}
}

// newKey handles a key spelled in a way not seen before (out of line): a
// new name, or a known name escaped differently. A column of the table not
// copied so far needs a new COPY naming it; a key the table has no column
// for is added when sampling (the table is yet to be created) or with
// Alter, and is an error otherwise. (A worker's newKey returns
// loader.ErrSerial: the serial path takes the row.)
func (l *copyLoader) newKey(tok []byte) (int, error) {
	name := string(json.AppendUnquoted(nil, tok))
	for i := range l.cols {
		if l.cols[i].name == name {
			if len(l.keys.List) < len(l.cols)+maxAliases {
				l.keys.Add(string(tok), i)
			}
			return i, nil
		}
	}
	if err := checkName(name); err != nil {
		return -1, &TypeError{Msg: "key " + loader.ShortName(name) + ": " + err.Error()}
	}
	creating := l.sampling && !l.exists && len(l.opts.Columns) == 0
	if !creating && !l.opts.Alter {
		return -1, &TypeError{Msg: "key " + loader.ShortName(name) + " is not a column of table " + loader.ShortName(l.table) + " (Alter adds it)"}
	}
	l.cols = append(l.cols, column{name: name})
	l.keys.Add(string(tok), len(l.cols)-1)
	l.cur = append(l.cur, value{})
	return len(l.cols) - 1, nil
}

// keyedValue notes that a row holds column c's key, with the value v: its
// kind counts towards c's type, and after sampling the COPY must be remade
// to name c (a worker, which never samples, then hands the row to the
// serial path).
func (l *rowReader) keyedValue(c *column, v *value) {
	c.keyed = true
	c.seen = c.seen.add(v.kind)
	if !l.sampling {
		l.newCols = true
	}
}
