package sqlite

import (
	"database/sql/driver"
	"fmt"
	"io"
	"slices"
	"strings"

	sqlite3 "github.com/mattn/go-sqlite3"
)

// Table setup, statements, batches and transactions: everything around the
// per-row hot path in insert.go.

// loadTable reads the columns and primary key of an existing table.
func (ins *inserter) loadTable() (bool, error) {
	rows, err := ins.c.QueryContext(bg, `SELECT name, type, "notnull", dflt_value, pk FROM pragma_table_info(?)`,
		[]driver.NamedValue{{Ordinal: 1, Value: ins.table}})
	if err != nil {
		return false, err
	}
	defer rows.Close()
	dest := make([]driver.Value, 5)
	var pk []string
	var pkPos []int64
	for {
		err := rows.Next(dest)
		if err == io.EOF {
			break
		}
		if err != nil {
			return false, err
		}
		name, _ := dest[0].(string)
		typ, _ := dest[1].(string)
		nn, _ := dest[2].(int64)
		dflt, _ := dest[3].(string)
		c := column{name: name, typ: typ, notNull: nn != 0, dflt: dflt}
		ins.addColumn(c, string(appendString(nil, name)))
		if p, _ := dest[4].(int64); p > 0 {
			pk = append(pk, name)
			pkPos = append(pkPos, p)
		}
	}
	if len(ins.cols) == 0 {
		return false, nil
	}
	// pragma_table_info lists columns in table order; order the key by pk.
	for i := range pk {
		for j := i + 1; j < len(pk); j++ {
			if pkPos[j] < pkPos[i] {
				pk[i], pk[j] = pk[j], pk[i]
				pkPos[i], pkPos[j] = pkPos[j], pkPos[i]
			}
		}
	}
	ins.pk = pk
	if len(ins.opts.PrimaryKey) > 0 {
		ins.pk = ins.opts.PrimaryKey
	}
	return true, ins.prepare()
}

// setColumns takes the caller's columns for a table to create.
func (ins *inserter) setColumns(cols []Column) error {
	for _, c := range cols {
		if err := checkName(c.Name); err != nil {
			return fmt.Errorf("sqlite: column %s: %w", shortName(c.Name), err)
		}
		for i := range ins.cols {
			if asciiEqualFold(ins.cols[i].name, c.Name) {
				return fmt.Errorf("sqlite: column %s given twice (SQLite names ignore case)", shortName(c.Name))
			}
		}
		if err := validType(c.Type); err != nil {
			return fmt.Errorf("sqlite: column %s: %w", shortName(c.Name), err)
		}
		col := column{name: c.Name, typ: c.Type, notNull: c.NotNull}
		if c.Default != nil {
			d, err := sqlLiteral(c.Default)
			if err != nil {
				return fmt.Errorf("sqlite: column %s: %w", shortName(c.Name), err)
			}
			col.dflt = d
		}
		ins.addColumn(col, string(appendString(nil, c.Name)))
	}
	return nil
}

func (ins *inserter) findColumn(name string) int {
	for i := range ins.cols {
		if asciiEqualFold(ins.cols[i].name, name) {
			return i
		}
	}
	return -1
}

// createTable creates the table from ins.cols and the options, inside the
// first transaction: if that batch fails, the table goes with it.
func (ins *inserter) createTable() error {
	o := ins.opts
	ins.pk = o.PrimaryKey
	for i := len(ins.pk) - 1; i >= 0; i-- {
		name := ins.pk[i]
		if err := checkName(name); err != nil {
			return fmt.Errorf("sqlite: primary key %s: %w", shortName(name), err)
		}
		if ins.findColumn(name) < 0 {
			// A key the input never holds: SQLite assigns it (rowid alias).
			ins.addColumn(column{name: name, typ: TypeInteger}, string(appendString(nil, name)))
			// Move it to the front, keeping the keys table in step.
			last := len(ins.cols) - 1
			c := ins.cols[last]
			copy(ins.cols[1:], ins.cols[:last])
			ins.cols[0] = c
			for k := range ins.keys {
				if ins.keys[k].col == last {
					ins.keys[k].col = 0
				} else {
					ins.keys[k].col++
				}
			}
		}
	}
	for _, name := range o.NotNull {
		i := ins.findColumn(name)
		if i < 0 {
			return fmt.Errorf("sqlite: NotNull: table %s has no column %s", shortName(ins.table), shortName(name))
		}
		ins.cols[i].notNull = true
	}
	for _, name := range sortedKeys(o.Defaults) {
		v := o.Defaults[name]
		i := ins.findColumn(name)
		if i < 0 {
			// A default for a key the input lacks: a column holding it.
			if err := checkName(name); err != nil {
				return fmt.Errorf("sqlite: Defaults: %s: %w", shortName(name), err)
			}
			ins.addColumn(column{name: name, typ: literalType(v)}, string(appendString(nil, name)))
			i = len(ins.cols) - 1
		}
		d, err := sqlLiteral(v)
		if err != nil {
			return fmt.Errorf("sqlite: column %s: %w", shortName(name), err)
		}
		ins.cols[i].dflt = d
	}
	if len(ins.cols) == 0 {
		return fmt.Errorf("sqlite: cannot create table %s: the input's first objects have no keys", shortName(ins.table))
	}
	q, err := createTableSQL(ins.table, ins.cols, ins.pk)
	if err != nil {
		return err
	}
	if !ins.inTx {
		if err := ins.begin(); err != nil {
			return err
		}
	}
	if err := ins.exec(q); err != nil {
		return fmt.Errorf("sqlite: creating table %s: %w", shortName(ins.table), err)
	}
	ins.created = true
	return ins.prepare()
}

// sample reads the first rows of the input to infer a missing table's
// columns, creates the table, and inserts those rows. An error in the
// sample is returned after the rows before it have gone through the usual
// batches, so that complete batches stay committed as they would have.
func (ins *inserter) sample() error {
	type srow struct {
		row, off int64
		n        int // values stored for it (columns known then)
	}
	var (
		vals    []value
		rows    []srow
		readErr error
		limit   = ins.opts.inferRows()
	)
	for len(rows) < limit {
		more, err := ins.nextRow()
		if err != nil {
			readErr = err
			break
		}
		if !more {
			break
		}
		start := ins.d.InputOffset() - 1
		ins.row++
		if err := ins.readRow(); err != nil {
			readErr = ins.rowError(err, ins.row, -1)
			break
		}
		for c := range ins.cur {
			ins.cols[c].seen = ins.cols[c].seen.add(ins.cur[c].kind)
		}
		vals = append(vals, ins.cur...)
		rows = append(rows, srow{row: ins.row, off: start, n: len(ins.cur)})
	}
	ins.sampling = false
	if len(rows) == 0 {
		return readErr
	}
	for i := range ins.cols {
		c := &ins.cols[i]
		c.typ = c.seen.declType()
		if len(ins.opts.PrimaryKey) == 1 && c.seen&^sawInt == 0 && asciiEqualFold(c.name, ins.opts.PrimaryKey[0]) {
			c.typ = TypeInteger // nothing but integers or nulls: the rowid alias
		}
	}
	first := ""
	if len(ins.cols) > 0 {
		first = ins.cols[0].name
	}
	if err := ins.createTable(); err != nil {
		return err
	}
	// createTable may have put primary-key columns first (and defaults'
	// columns last): values were stored by the column order of the sample.
	shift := 0
	if first != "" {
		shift = ins.findColumn(first)
	}
	arena := ins.text
	ins.text = make([]byte, 0, 4096)
	row := make([]value, len(ins.cols))
	for _, r := range rows {
		clear(row)
		copy(row[shift:], vals[:r.n])
		vals = vals[r.n:]
		if err := ins.addRow(row, arena, r.row, r.off); err != nil {
			return err
		}
	}
	return readErr
}

// alter adds the columns first seen in the current row (Options.Alter):
// the pending rows are executed with the old statement, each column is
// added with the type of its first value, and the statements are
// prepared again.
func (ins *inserter) alter() error {
	if err := ins.flush(); err != nil {
		return err
	}
	if !ins.inTx {
		if err := ins.begin(); err != nil {
			return err
		}
	}
	for c := ins.ncols; c < len(ins.cols); c++ {
		col := &ins.cols[c]
		col.typ = typeSet(0).add(ins.cur[c].kind).declType()
		var b strings.Builder
		b.WriteString("ALTER TABLE ")
		writeIdent(&b, ins.table)
		b.WriteString(" ADD COLUMN ")
		writeIdent(&b, col.name)
		b.WriteString(" " + col.typ)
		if err := ins.exec(b.String()); err != nil {
			return ins.rowError(fmt.Errorf("adding column %s: %w", shortName(col.name), err), ins.row, -1)
		}
		ins.added = append(ins.added, col.name)
	}
	ins.closeStmts()
	return ins.prepare()
}

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
			return "", fmt.Errorf("sqlite: Upsert needs a primary key: table %s has none and Options.PrimaryKey is empty", shortName(ins.table))
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
		return nil, fmt.Errorf("sqlite: preparing insert into %s: %w", shortName(ins.table), err)
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

// addRow binds one row's values (vals by column; columns past len(vals)
// are null) as the next row of the current chunk, handing the chunk over
// to be executed when full and committing when the batch is complete.
func (ins *inserter) addRow(vals []value, arena []byte, row, off int64) error {
	if !ins.inTx {
		if err := ins.begin(); err != nil {
			return err
		}
	}
	ch, n := ins.ch, ins.ncols
	a := ch.args[ch.n*n : ch.n*n+n]
	for c := range a {
		if c < len(vals) {
			a[c].Value = vals[c].driverValue(arena)
		} else {
			a[c].Value = nil
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
	if ins.inBatch%ins.opts.batchSize() == 0 {
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
	if err := ch.run(ins.stmt, full, per, n); err != nil {
		return ins.locate(ch)
	}
	if rest := k - full; rest > 0 {
		st, err := ins.prepareK(ins.cols[:n], rest)
		if err != nil {
			return err
		}
		defer st.Close()
		if err := execStmt(st, ch.args[full*n:k*n]); err != nil {
			ch.err, ch.failFrom, ch.failTo = err, full, k
			return ins.locate(ch)
		}
	}
	return nil
}

// locate names the row of a failed statement: its rows are run again one
// by one (the failed statement left nothing behind, and the batch is
// rolled back anyway).
func (ins *inserter) locate(ch *chunk) error {
	if ch.failTo-ch.failFrom > 1 {
		for r := ch.failFrom; r < ch.failTo; r++ {
			for c := range ins.one {
				ins.one[c].Value = ch.args[r*ins.ncols+c].Value
			}
			if err := execStmt(ins.stmt1, ins.one); err != nil {
				return &RowError{Row: ch.row[r], Offset: ch.off[r], Err: err}
			}
		}
	}
	return &RowError{Row: ch.row[ch.failFrom], Offset: ch.off[ch.failFrom], Err: ch.err}
}

// execStmt runs an INSERT through go-sqlite3's query path, which binds all
// parameters and steps in a single cgo call (its exec path makes one per
// parameter); the statement runs at that first step.
func execStmt(st *sqlite3.SQLiteStmt, args []driver.NamedValue) error {
	rows, err := st.QueryContext(bg, args)
	if err != nil {
		return err
	}
	return rows.Close()
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

func (ins *inserter) finish() error {
	if err := ins.flush(); err != nil {
		return err
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
	ins.opts.Progress(Progress{Rows: ins.row, Committed: ins.res.Rows, Bytes: ins.d.InputOffset()})
}

func (ins *inserter) begin() error {
	if err := ins.exec("BEGIN IMMEDIATE"); err != nil {
		return err
	}
	ins.inTx = true
	return nil
}

func (ins *inserter) commit() error {
	if err := ins.exec("COMMIT"); err != nil {
		return err
	}
	ins.inTx = false
	ins.res.Rows += int64(ins.inBatch)
	ins.inBatch = 0
	// What the transaction did is now kept.
	ins.res.Created = ins.res.Created || ins.created
	ins.res.Added = append(ins.res.Added, ins.added...)
	ins.added = ins.added[:0]
	return nil
}

func (ins *inserter) exec(q string) error {
	_, err := ins.c.Exec(q, nil)
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

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// literalType is the column type for a default value's Go type.
func literalType(v any) string {
	switch v.(type) {
	case bool, int, int32, int64, uint64:
		return TypeInteger
	case float64:
		return TypeReal
	case []byte:
		return "BLOB"
	}
	return TypeText
}
