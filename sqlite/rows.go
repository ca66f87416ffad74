package sqlite

import (
	"fmt"
	"math"

	json "github.com/jsonpipe/json"
	"github.com/jsonpipe/json/internal/loader"
)

// Reading a row: its members into their columns by key, and what the
// load loop (loader.Run, which finds each row and places its errors)
// asks of the inserter per row.

// maxAliases bounds the extra spellings of known names (escaped forms,
// other letter case) remembered for the byte comparison.
const maxAliases = 256

// The inserter is the load loop's backend (loader.Run).
var _ loader.Backend[decodedRows] = (*inserter)(nil)

// Input is the load's input (loader.Backend).
func (ins *inserter) Input() *loader.Source { return &ins.Source }

// Truncate says the table's rows are to be deleted (loader.Backend).
func (ins *inserter) Truncate() { ins.truncate = true }

// ReadRow reads the row whose '{' has been consumed into ins.cur
// (loader.Backend); newKeys says it has keys the statement lacks.
func (ins *inserter) ReadRow() (newKeys bool, err error) {
	err = ins.readRow()
	return len(ins.cols) > ins.ncols, err
}

// AddRow binds the row just read (loader.Backend).
func (ins *inserter) AddRow(off int64) error {
	return ins.addRow(ins.cur, ins.text, ins.Row, off)
}

// readRow reads the members of an object whose '{' has been consumed into
// ins.cur, by column. This is the hot path: each key is found by a byte
// comparison with the keys seen so far, starting where the previous key
// was found, so objects whose keys come in a steady order cost one
// comparison per key. Each value notes which key set it (value.key), so
// that a second key of the row for the same column is seen.
func (ins *inserter) readRow() error {
	d := ins.D
	clear(ins.cur)
	ins.unlisted = ins.unlisted[:0]
	flatten := ins.opts.Flatten
	if flatten {
		ins.flat.Reset()
	}
	for {
		tok, err := d.NextToken()
		if err != nil {
			return err
		}
		if tok[0] == '}' {
			if ins.flat.Depth() == 0 {
				return nil
			}
			ins.flat.Pop() // the end of a nested object flattened
			continue
		}
		if json.Streamed(tok) {
			// A key of a megabyte or more, streamed as a long string is:
			// quoted again, it is a key like any other.
			off, n := ins.bigText()
			tok = json.AppendQuote(nil, string(ins.text[off:off+n]))
			ins.text = ins.text[:off]
		}
		if flatten {
			// Out of line: the key joined to its parents', and a nested
			// object's members read as the row's own.
			tok = ins.flat.Key(tok)
			if d.PeekKind() == '{' {
				d.NextToken()
				ins.flat.Push(tok)
				continue
			}
		}
		c := ins.keys.Lookup(tok)
		k := int32(ins.keys.Found() + 1)
		if c < 0 {
			if c, k, err = ins.newKey(tok); err != nil {
				return err
			}
		}
		v := &ins.cur[c]
		if v.key != 0 {
			// The row has set this column already (out of line).
			if err := ins.sameColumn(c, v.key, tok); err != nil {
				return err
			}
		}
		text, err := readValue(d, v, ins.text, maxValueSize(ins.opts))
		if err != nil {
			return err
		}
		if ins.Bigs.Open() {
			// A string past rowsrc.StreamMin, streamed into ins.Bigs
			// rather than held whole by the decoder.
			off, n := ins.bigText()
			*v = value{kind: kindText, i: int64(off), n: n}
		} else {
			ins.text = text
		}
		v.key = k
	}
}

// newKey handles a key spelled in a way not seen before (out of line): a
// new name, or a known name escaped differently or in other letter case
// (SQLite column names ignore ASCII case). It returns the key's column and
// the key as value.key records it: 1 + its index in ins.keys.List, or,
// for a spelling not listed (past maxAliases), minus 1 + its index in
// ins.unlisted, or, for a worker, which lists no new spelling, keyOther.
func (ins *inserter) newKey(tok []byte) (int, int32, error) {
	name := string(json.AppendUnquoted(nil, tok))
	if ins.worker {
		for i := range ins.cols {
			if asciiEqualFold(ins.cols[i].name, name) {
				return i, keyOther, nil
			}
		}
		return -1, 0, loader.ErrSerial
	}
	for i := range ins.cols {
		if asciiEqualFold(ins.cols[i].name, name) {
			if len(ins.keys.List) < len(ins.cols)+maxAliases {
				ins.keys.Add(string(tok), i)
				return i, int32(len(ins.keys.List)), nil
			}
			return i, ins.unlist(tok), nil
		}
	}
	if err := checkName(name); err != nil {
		return -1, 0, fmt.Errorf("key %s: %w", loader.ShortName(name), err)
	}
	if !ins.sampling && !ins.opts.Alter {
		return -1, 0, fmt.Errorf("key %s is not a column of table %s (Alter adds it)", loader.ShortName(name), loader.ShortName(ins.table))
	}
	ins.addColumn(column{name: name}, string(tok))
	return len(ins.cols) - 1, int32(len(ins.keys.List)), nil
}

// keyOther is value.key for a worker's key in a spelling its list lacks:
// a second key for that column in the row goes to the serial path.
const keyOther = math.MinInt32

// unlist keeps a key the row holds that ins.keys does not list, for
// sameColumn.
func (ins *inserter) unlist(tok []byte) int32 {
	ins.unlisted = append(ins.unlisted, string(tok))
	return -int32(len(ins.unlisted))
}

// sameColumn handles a key tok of the row being read for column c, which
// the row's key first (as value.key records it) has set already (out of
// line). The same name again, spelled alike or escaped differently, is
// one JSON key given twice: its last value wins, as in encoding/json. Two
// names that differ only in ASCII letter case are two keys to JSON but one
// column to SQLite, where one value would silently replace the other:
// that is an error naming both.
func (ins *inserter) sameColumn(c int, first int32, tok []byte) error {
	var raw string
	if first == keyOther {
		return loader.ErrSerial
	}
	if first > 0 {
		raw = ins.keys.List[first-1].Raw
	} else {
		raw = ins.unlisted[-first-1]
	}
	a := json.AppendUnquoted(nil, []byte(raw))
	b := json.AppendUnquoted(nil, tok)
	if string(a) == string(b) {
		return nil
	}
	return &sameColumnError{first: string(a), second: string(b), column: ins.cols[c].name}
}

// sameColumnError reports two keys of one row that name the same column
// of an SQLite table: names that differ only in ASCII letter case.
type sameColumnError struct {
	first, second, column string
}

func (e *sameColumnError) Error() string {
	return fmt.Sprintf("keys %s and %s both name column %s (SQLite column names ignore ASCII case): one of the two values would be lost",
		loader.ShortName(e.first), loader.ShortName(e.second), loader.ShortName(e.column))
}

func (ins *inserter) addColumn(c column, raw string) {
	ins.cols = append(ins.cols, c)
	ins.keys.Add(raw, len(ins.cols)-1)
	ins.cur = append(ins.cur, value{})
}

func asciiEqualFold(a, b string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := 0; i < len(a); i++ {
		x, y := a[i], b[i]
		if x != y {
			if 'A' <= x && x <= 'Z' {
				x += 'a' - 'A'
			}
			if 'A' <= y && y <= 'Z' {
				y += 'a' - 'A'
			}
			if x != y {
				return false
			}
		}
	}
	return true
}
