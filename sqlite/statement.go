package sqlite

import (
	"context"
	"database/sql/driver"
	"fmt"
	"strings"

	"github.com/jsonpipe/json/internal/loader"
	sqlite3 "github.com/mattn/go-sqlite3"
)

// The prepared INSERT statements and how they run.

// insertSQL renders the INSERT statement for k rows of cols.
func (ins *inserter) insertSQL(cols []column, k int) (string, error) {
	var b strings.Builder
	switch ins.opts.Conflict {
	case Ignore:
		b.WriteString("INSERT OR IGNORE INTO ")
	case Replace:
		b.WriteString("INSERT OR REPLACE INTO ")
	default:
		b.WriteString("INSERT INTO ")
	}
	writeIdent(&b, ins.table)
	b.WriteString(" (")
	for i, c := range cols {
		if i > 0 {
			b.WriteString(", ")
		}
		writeIdent(&b, c.name)
	}
	b.WriteString(") VALUES ")
	for r := 0; r < k; r++ {
		if r > 0 {
			b.WriteString(", ")
		}
		b.WriteByte('(')
		for i, c := range cols {
			if i > 0 {
				b.WriteString(", ")
			}
			if c.dflt != "" {
				// A missing key (bound as NULL) or a null takes the default.
				b.WriteString("COALESCE(?, " + c.dflt + ")")
			} else {
				b.WriteByte('?')
			}
		}
		b.WriteByte(')')
	}
	if ins.opts.Conflict == Upsert {
		if len(ins.pk) == 0 {
			return "", fmt.Errorf("sqlite: Upsert needs a primary key: table %s has none and Options.PrimaryKey is empty", loader.ShortName(ins.table))
		}
		b.WriteString(" ON CONFLICT (")
		for i, p := range ins.pk {
			if i > 0 {
				b.WriteString(", ")
			}
			writeIdent(&b, p)
		}
		b.WriteString(") DO ")
		n := 0
		for _, c := range cols {
			isPK := false
			for _, p := range ins.pk {
				isPK = isPK || asciiEqualFold(p, c.name)
			}
			if isPK {
				continue
			}
			if n == 0 {
				b.WriteString("UPDATE SET ")
			} else {
				b.WriteString(", ")
			}
			n++
			writeIdent(&b, c.name)
			b.WriteString(" = COALESCE(excluded.")
			writeIdent(&b, c.name)
			b.WriteString(", ")
			writeIdent(&b, c.name)
			b.WriteByte(')')
		}
		if n == 0 {
			b.WriteString("NOTHING")
		}
	}
	return b.String(), nil
}

func (ins *inserter) prepareK(cols []column, k int) (*sqlite3.SQLiteStmt, error) {
	q, err := ins.insertSQL(cols, k)
	if err != nil {
		return nil, err
	}
	st, err := ins.c.Prepare(q)
	if err != nil {
		return nil, fmt.Errorf("sqlite: preparing insert into %s: %w", loader.ShortName(ins.table), err)
	}
	return st.(*sqlite3.SQLiteStmt), nil
}

// prepare prepares the statements for the current columns, once per
// table shape, and sizes the parameter buffers.
func (ins *inserter) prepare() error {
	n := len(ins.cols)
	if n > maxParams {
		return fmt.Errorf("sqlite: %d columns is more than a statement can bind", n)
	}
	per := ins.opts.RowsPerStatement
	if per <= 0 {
		per = defaultRowsPerStatement
	}
	per = min(per, maxParams/n)
	var err error
	if ins.stmt1, err = ins.prepareK(ins.cols, 1); err != nil {
		return err
	}
	ins.stmt = ins.stmt1
	if per > 1 {
		if ins.stmt, err = ins.prepareK(ins.cols, per); err != nil {
			return err
		}
	}
	ins.ncols, ins.perStmt, ins.perChunk = n, per, chunkRows(per, n)
	ins.ch = newChunk(ins.perChunk, per, n)
	ins.spare, ins.nchunks = nil, 1
	ins.one = make([]driver.NamedValue, n)
	for i := range ins.one {
		ins.one[i].Ordinal = i + 1
	}
	return nil
}

func (ins *inserter) closeStmts() {
	if ins.stmt != nil && ins.stmt != ins.stmt1 {
		ins.stmt.Close()
	}
	if ins.stmt1 != nil {
		ins.stmt1.Close()
	}
	ins.stmt, ins.stmt1 = nil, nil
}

// execStmt runs an INSERT through go-sqlite3's query path, which binds all
// parameters and steps in a single cgo call (its exec path makes one per
// parameter); the statement runs at that first step. Cancelling ctx
// interrupts it (go-sqlite3 then watches ctx for the statement's step, a
// cost shared by its rows).
func execStmt(ctx context.Context, st *sqlite3.SQLiteStmt, args []driver.NamedValue) error {
	rows, err := st.QueryContext(ctx, args)
	if err != nil {
		return err
	}
	return rows.Close()
}
