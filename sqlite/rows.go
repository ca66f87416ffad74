package sqlite

import (
	"context"
	"errors"
	"fmt"

	json "github.com/jsonpipe/json"
	"github.com/jsonpipe/json/internal/rowsrc"
)

// The per-row loop: finding each row, reading its members into their
// columns by key, and naming the row of an error.

// maxAliases bounds the extra spellings of known names (escaped forms,
// other letter case) remembered for the byte comparison.
const maxAliases = 256

func (ins *inserter) run() error {
	if err := ins.ctx.Err(); err != nil {
		return err
	}
	exists, err := ins.loadTable()
	if err != nil {
		return err
	}
	if opts := ins.opts; opts.AllOrNothing {
		if err := ins.begin(); err != nil {
			return err
		}
	}
	switch {
	case exists:
	case len(ins.opts.Columns) > 0:
		if err := ins.setColumns(ins.opts.Columns); err != nil {
			return err
		}
		if err := ins.createTable(); err != nil {
			return err
		}
	default:
		ins.sampling = true
		if err := ins.sample(); err != nil {
			return err
		}
	}
	// The workers start with the first row after the sampled ones, when
	// the table and its columns are settled (parallel.go).
	if ins.opts.workers() > 1 && !ins.rows.InArray() && ins.opts.Format != Array {
		ins.startParallel()
	}
	for {
		var start int64
		if ins.par != nil && !ins.par.serial {
			ok, err := ins.nextParallel()
			if err != nil {
				return err
			}
			if ok {
				if err := ins.addRow(ins.cur, ins.text, ins.row, ins.par.off); err != nil {
					return err
				}
				continue
			}
			if !ins.par.serial {
				break // the end of the input
			}
			// The workers handed the rest of the input over to ins.d.
		}
		more, err := ins.nextRow()
		if err != nil {
			return err
		}
		if !more {
			break
		}
		start = ins.inputOffset() - 1
		ins.row++
		if err := ins.readRow(); err != nil {
			return ins.rowError(err, ins.row, -1)
		}
		if len(ins.cols) > ins.ncols {
			if err := ins.alter(); err != nil {
				return err
			}
		}
		if err := ins.addRow(ins.cur, ins.text, ins.row, start); err != nil {
			return err
		}
	}
	return ins.finish()
}

// nextRow consumes the '{' that opens the next row, stepping into and out
// of top-level arrays. It reports false at a clean end of input.
func (ins *inserter) nextRow() (bool, error) {
	more, off, err := ins.rows.Next()
	if err != nil {
		if off >= 0 {
			off += ins.base
		}
		return false, ins.rowError(err, ins.row+1, off)
	}
	return more, nil
}

// readRow reads the members of an object whose '{' has been consumed into
// ins.cur, by column. This is the hot path: each key is found by a byte
// comparison with the keys seen so far, starting where the previous key
// was found, so objects whose keys come in a steady order cost one
// comparison per key.
func (ins *inserter) readRow() error {
	d := ins.d
	clear(ins.cur)
	for {
		tok, err := d.NextToken()
		if err != nil {
			return err
		}
		if tok[0] == '}' {
			return nil
		}
		if json.Streamed(tok) {
			// A key of a megabyte or more, streamed as a long string is:
			// quoted again, it is a key like any other.
			off, n := ins.bigText()
			tok = json.AppendQuote(nil, string(ins.text[off:off+n]))
			ins.text = ins.text[:off]
		}
		c := ins.keys.Lookup(tok)
		if c < 0 {
			if c, err = ins.newKey(tok); err != nil {
				return err
			}
		}
		text, err := readValue(d, &ins.cur[c], ins.text, ins.opts.maxValueSize())
		if err != nil {
			return err
		}
		if ins.bigs.Open() {
			// A string past rowsrc.StreamMin, streamed into ins.bigs
			// rather than held whole by the decoder.
			off, n := ins.bigText()
			ins.cur[c] = value{kind: kindText, i: int64(off), n: n}
		} else {
			ins.text = text
		}
	}
}

// newKey handles a key spelled in a way not seen before (out of line): a
// new name, or a known name escaped differently or in other letter case
// (SQLite column names ignore ASCII case).
func (ins *inserter) newKey(tok []byte) (int, error) {
	name := string(json.AppendUnquoted(nil, tok))
	if ins.worker {
		for i := range ins.cols {
			if asciiEqualFold(ins.cols[i].name, name) {
				return i, nil
			}
		}
		return -1, errSerial
	}
	for i := range ins.cols {
		if asciiEqualFold(ins.cols[i].name, name) {
			if len(ins.keys.List) < len(ins.cols)+maxAliases {
				ins.keys.Add(string(tok), i)
			}
			return i, nil
		}
	}
	if err := checkName(name); err != nil {
		return -1, fmt.Errorf("key %s: %w", shortName(name), err)
	}
	if !ins.sampling && !ins.opts.Alter {
		return -1, fmt.Errorf("key %s is not a column of table %s (Alter adds it)", shortName(name), shortName(ins.table))
	}
	ins.addColumn(column{name: name}, string(tok))
	return len(ins.cols) - 1, nil
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

// rowError wraps err with the row number and a byte offset: the syntax
// error's own, else off, else the decoder's current offset. Context
// cancellation is returned as it is.
func (ins *inserter) rowError(err error, row, off int64) error {
	var re *RowError
	if errors.As(err, &re) || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	var se *json.SyntaxError
	if errors.As(err, &se) {
		// A decoder started mid-input (after the parallel decoders
		// handed over) counts from where it started: the error is made
		// to count from the start of the input.
		se.Offset += ins.base
		off = se.Offset
	} else if at, rerr, ok := rowsrc.ReadErrorAt(err); ok {
		// The reader's error: where reading stopped, with workers or
		// without.
		off, err = at, rerr
	} else if off < 0 {
		off = ins.inputOffset()
	}
	return &RowError{Row: row, Offset: off, Err: err}
}

// firstError returns whichever of two errors names the earlier row; a row
// error wins over one that names none.
func firstError(a, b error) error {
	if b == nil || a == b {
		return a
	}
	var ra, rb *RowError
	okA, okB := errors.As(a, &ra), errors.As(b, &rb)
	switch {
	case okA && okB:
		if ra.Row < rb.Row {
			return a
		}
		return b
	case okA:
		return a
	}
	return b
}
