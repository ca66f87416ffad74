package sqlite

import (
	"database/sql/driver"
	"fmt"
	"strings"

	"github.com/jsonpipe/json/internal/loader"
	sqlite3 "github.com/mattn/go-sqlite3"
)

// Rows into chunks, chunks into statements, batches into transactions:
// everything around the per-row hot path in rows.go.

// addRow binds one row's values (vals by column; columns past len(vals)
// are null) as the next row of the current chunk, handing the chunk over
// to be executed when full and committing when the batch is complete.
func (ins *inserter) addRow(vals []value, arena []byte, row, off int64) error {
	if !ins.inTx {
		if err := ins.Begin(); err != nil {
			return err
		}
	}
	ch, n := ins.ch, ins.ncols
	a := ch.args[ch.n*n : ch.n*n+n]
	for c := range a {
		switch {
		case c >= len(vals):
			a[c].Value = nil
		case vals[c].kind >= kindText:
			a[c].Value = ins.boxes.text(arena, vals[c].i, vals[c].n)
		default:
			a[c].Value = vals[c].driverValue()
		}
	}
	ch.row[ch.n] = row
	ch.off[ch.n] = off
	ch.n++
	ins.inBatch++
	if ch.n == ins.perChunk {
		if ins.pipelined {
			if err := ins.send(); err != nil {
				return err
			}
		} else {
			if err := ins.flush(); err != nil {
				return err
			}
			ins.text = ins.text[:0]
		}
	}
	if ins.inBatch%loader.BatchSize(ins.opts) == 0 {
		if err := ins.endBatch(); err != nil {
			return err
		}
	}
	if ins.opts.Progress != nil && row%progressEvery == 0 {
		ins.progress()
	}
	return nil
}

// flush waits for the chunks handed over, then executes the current
// chunk's rows on this goroutine. It leaves the text arena alone: the row
// being read may still point into it.
func (ins *inserter) flush() error {
	if err := ins.sync(); err != nil {
		return err
	}
	ch := ins.ch
	if ch == nil || ch.n == 0 {
		return nil
	}
	k, per, n := ch.n, ins.perStmt, ins.ncols
	ch.n = 0
	full := k / per * per
	if err := ch.run(ins.ctx, ins.stmt, full, per, n); err != nil {
		return ins.locate(ch)
	}
	if rest := k - full; rest > 0 {
		st, err := ins.prepareK(ins.cols[:n], rest)
		if err != nil {
			return err
		}
		defer st.Close()
		if err := execStmt(ins.ctx, st, ch.args[full*n:k*n]); err != nil {
			ch.err, ch.failFrom, ch.failTo = err, full, k
			return ins.locate(ch)
		}
	}
	return nil
}

// locate names the row of a failed statement: its rows are run again one
// by one (the failed statement left nothing behind, and the batch is
// rolled back anyway). A statement the load's cancellation interrupted
// names no row: the context's error is returned.
func (ins *inserter) locate(ch *chunk) error {
	if err := ins.ctx.Err(); err != nil {
		return err
	}
	if ch.failTo-ch.failFrom > 1 {
		for r := ch.failFrom; r < ch.failTo; r++ {
			for c := range ins.one {
				ins.one[c].Value = ch.args[r*ins.ncols+c].Value
			}
			if err := execStmt(ins.ctx, ins.stmt1, ins.one); err != nil {
				return rowErr(ch.row[r], ch.off[r], err)
			}
		}
	}
	return rowErr(ch.row[ch.failFrom], ch.off[ch.failFrom], ch.err)
}

// endBatch ends a batch: commit (unless AllOrNothing), report progress,
// and check for cancellation.
func (ins *inserter) endBatch() error {
	if err := ins.flush(); err != nil {
		return err
	}
	if !ins.opts.AllOrNothing {
		if err := ins.commit(); err != nil {
			return err
		}
	}
	if ins.opts.Progress != nil {
		ins.progress()
	}
	return ins.ctx.Err()
}

// Finish runs the rows pending and commits (loader.Backend).
func (ins *inserter) Finish() error {
	if err := ins.flush(); err != nil {
		return err
	}
	if ins.truncate && !ins.inTx {
		// No rows: the table is emptied all the same.
		if err := ins.Begin(); err != nil {
			return err
		}
	}
	if ins.inTx {
		if err := ins.commit(); err != nil {
			return err
		}
	}
	if ins.opts.Progress != nil {
		ins.progress()
	}
	return nil
}

func (ins *inserter) progress() {
	ins.opts.Progress(Progress{Rows: ins.Row, Committed: ins.res.Rows, Bytes: loader.ReadBy(&ins.Source, ins.par)})
}

// Begin opens a transaction (loader.Backend: the load's, for
// AllOrNothing).
func (ins *inserter) Begin() error {
	if err := ins.exec("BEGIN IMMEDIATE"); err != nil {
		return err
	}
	ins.inTx = true
	if ins.truncate {
		return ins.deleteRows()
	}
	return nil
}

// deleteRows deletes the table's rows (Truncate), in the first batch's
// transaction, so that a failure in it leaves them. The rows deleted are
// no changes of the load's: they leave Result.Changes.
func (ins *inserter) deleteRows() error {
	before, err := queryInt(ins.c, "SELECT total_changes()")
	if err != nil {
		return err
	}
	if err := ins.exec("DELETE FROM " + quoteIdent(ins.table)); err != nil {
		return fmt.Errorf("sqlite: emptying table %s: %w", loader.ShortName(ins.table), err)
	}
	after, err := queryInt(ins.c, "SELECT total_changes()")
	if err != nil {
		return err
	}
	ins.changes0 += after - before
	ins.truncate, ins.emptied = false, true
	return nil
}

func (ins *inserter) commit() error {
	if err := ins.endTx("COMMIT"); err != nil {
		return err
	}
	ins.res.Rows += int64(ins.inBatch)
	ins.inBatch = 0
	// total_changes() also counts what a rollback undoes: read it here.
	if n, err := queryInt(ins.c, "SELECT total_changes()"); err == nil {
		ins.res.Changes = n - ins.changes0
	}
	// What the transaction did is now kept.
	ins.res.Created = ins.res.Created || ins.created
	ins.res.Truncated = ins.res.Truncated || ins.emptied
	ins.res.Added = append(ins.res.Added, ins.added...)
	ins.added = ins.added[:0]
	return nil
}

// endTx ends the open transaction with q, "COMMIT" or "ROLLBACK", and
// returns q's error. A failed COMMIT leaves the transaction open, to be
// rolled back; after a ROLLBACK it is over whatever the outcome, as there is
// nothing more to try. Some errors (a full disk, an I/O error) make SQLite
// roll the transaction back itself: a ROLLBACK then has nothing to do, and
// is not run, as it could only fail with "no transaction is active".
func (ins *inserter) endTx(q string) error {
	if q == "ROLLBACK" && ins.c.AutoCommit() {
		ins.inTx = false
		return nil
	}
	// Not cancellable: a batch whose rows all ran commits, and a failed
	// one is rolled back whatever ended it.
	_, err := ins.c.Exec(q, nil)
	if err == nil || q == "ROLLBACK" {
		ins.inTx = false
	}
	return err
}

// exec runs q (BEGIN, CREATE TABLE, ALTER TABLE) with the load's context.
func (ins *inserter) exec(q string) error {
	_, err := ins.c.ExecContext(ins.ctx, q, nil)
	return err
}

// queryRow runs q and returns its first row's values.
func queryRow(c *sqlite3.SQLiteConn, q string, n int) ([]driver.Value, error) {
	rows, err := c.QueryContext(bg, q, nil)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	dest := make([]driver.Value, n)
	if err := rows.Next(dest); err != nil {
		return nil, err
	}
	return dest, nil
}

func queryInt(c *sqlite3.SQLiteConn, q string) (int64, error) {
	v, err := queryRow(c, q, 1)
	if err != nil {
		return 0, err
	}
	n, _ := v[0].(int64)
	return n, nil
}

// bulkPragmas applies Options.BulkPragmas and returns the function that
// restores the previous settings.
func bulkPragmas(c *sqlite3.SQLiteConn) (func() error, error) {
	sync, err := queryInt(c, "PRAGMA synchronous")
	if err != nil {
		return nil, err
	}
	v, err := queryRow(c, "PRAGMA journal_mode", 1)
	if err != nil {
		return nil, err
	}
	mode, _ := v[0].(string)
	set := func(q string) error { _, err := c.Exec(q, nil); return err }
	if err := set("PRAGMA synchronous=OFF"); err != nil {
		return nil, err
	}
	changeMode := false
	switch strings.ToLower(mode) {
	case "delete", "truncate", "persist":
		changeMode = true
		if _, err := queryRow(c, "PRAGMA journal_mode=MEMORY", 1); err != nil {
			set(fmt.Sprintf("PRAGMA synchronous=%d", sync))
			return nil, err
		}
	}
	return func() error {
		if changeMode {
			if _, err := queryRow(c, "PRAGMA journal_mode="+strings.ToUpper(mode), 1); err != nil {
				return err
			}
		}
		return set(fmt.Sprintf("PRAGMA synchronous=%d", sync))
	}, nil
}
