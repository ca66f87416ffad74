package sqlite

import (
	"database/sql/driver"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/jsonpipe/json/internal/loader"
	sqlite3 "github.com/mattn/go-sqlite3"
)

// Creating and altering the table: reading an existing one, taking the
// caller's columns, inferring them from the first rows, adding columns.

var errNoColumns = errors.New("the input's first objects have no keys")

// LoadTable reads the columns and primary key of an existing table.
func (ins *inserter) LoadTable() (bool, error) {
	rows, err := ins.c.QueryContext(ins.ctx, `SELECT name, type, "notnull", dflt_value, pk FROM pragma_table_info(?)`,
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

// CreateTable creates the table from the caller's columns.
func (ins *inserter) CreateTable() error {
	if err := ins.setColumns(ins.opts.Columns); err != nil {
		return err
	}
	return ins.createTable()
}

// setColumns takes the caller's columns for a table to create.
func (ins *inserter) setColumns(cols []Column) error {
	for _, c := range cols {
		if err := checkName(c.Name); err != nil {
			return fmt.Errorf("sqlite: column %s: %w", loader.ShortName(c.Name), err)
		}
		for i := range ins.cols {
			if asciiEqualFold(ins.cols[i].name, c.Name) {
				return fmt.Errorf("sqlite: column %s given twice (SQLite names ignore case)", loader.ShortName(c.Name))
			}
		}
		if err := validType(c.Type); err != nil {
			return fmt.Errorf("sqlite: column %s: %w", loader.ShortName(c.Name), err)
		}
		col := column{name: c.Name, typ: c.Type, notNull: c.NotNull}
		if c.Default != nil {
			d, err := sqlLiteral(c.Default)
			if err != nil {
				return fmt.Errorf("sqlite: column %s: %w", loader.ShortName(c.Name), err)
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
			return fmt.Errorf("sqlite: primary key %s: %w", loader.ShortName(name), err)
		}
		if ins.findColumn(name) < 0 {
			// A key the input never holds: SQLite assigns it (rowid alias).
			ins.addColumn(column{name: name, typ: TypeInteger}, string(appendString(nil, name)))
			// Move it to the front, keeping the keys table in step.
			last := len(ins.cols) - 1
			c := ins.cols[last]
			copy(ins.cols[1:], ins.cols[:last])
			ins.cols[0] = c
			for k := range ins.keys.List {
				if ins.keys.List[k].Col == last {
					ins.keys.List[k].Col = 0
				} else {
					ins.keys.List[k].Col++
				}
			}
		}
	}
	for _, name := range o.NotNull {
		i := ins.findColumn(name)
		if i < 0 {
			return fmt.Errorf("sqlite: NotNull: table %s has no column %s", loader.ShortName(ins.table), loader.ShortName(name))
		}
		ins.cols[i].notNull = true
	}
	for _, name := range sortedKeys(o.Defaults) {
		v := o.Defaults[name]
		i := ins.findColumn(name)
		if i < 0 {
			// A default for a key the input lacks: a column holding it.
			if err := checkName(name); err != nil {
				return fmt.Errorf("sqlite: Defaults: %s: %w", loader.ShortName(name), err)
			}
			ins.addColumn(column{name: name, typ: literalType(v)}, string(appendString(nil, name)))
			i = len(ins.cols) - 1
		}
		d, err := sqlLiteral(v)
		if err != nil {
			return fmt.Errorf("sqlite: column %s: %w", loader.ShortName(name), err)
		}
		ins.cols[i].dflt = d
	}
	if len(ins.cols) == 0 {
		return fmt.Errorf("sqlite: cannot create table %s: %w", loader.ShortName(ins.table), errNoColumns)
	}
	if err := ins.columnLimit(); err != nil {
		return fmt.Errorf("sqlite: cannot create table %s: %w", loader.ShortName(ins.table), err)
	}
	q, err := createTableSQL(ins.table, ins.cols, ins.pk)
	if err != nil {
		return err
	}
	if !ins.inTx {
		if err := ins.Begin(); err != nil {
			return err
		}
	}
	if err := ins.exec(q); err != nil {
		return fmt.Errorf("sqlite: creating table %s: %w", loader.ShortName(ins.table), err)
	}
	ins.created = true
	return ins.prepare()
}

// Sample reads the first rows of the input to infer a missing table's
// columns, creates the table, and inserts those rows. An error in the
// sample is returned after the rows before it have gone through the usual
// batches, so that complete batches stay committed as they would have.
// A table that exists, or that Options.Columns made, needs no sample:
// the rows are all the load loop's.
func (ins *inserter) Sample() error {
	if len(ins.cols) > 0 {
		return nil
	}
	ins.sampling = true
	type srow struct {
		row, off int64
		n        int // values stored for it (columns known then)
	}
	var (
		vals    []value
		rows    []srow
		readErr error
		limit   = loader.InferRows(ins.opts)
	)
	for len(rows) < limit {
		more, start, err := ins.Next()
		if err != nil {
			readErr = err
			break
		}
		if !more {
			break
		}
		if err := ins.readRow(); err != nil {
			readErr = ins.RowError(err, ins.Row, -1)
			break
		}
		for c := range ins.cur {
			ins.cols[c].seen = ins.cols[c].seen.add(ins.cur[c].kind)
		}
		vals = append(vals, ins.cur...)
		rows = append(rows, srow{row: ins.Row, off: start, n: len(ins.cur)})
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

// Alter adds the columns first seen in the current row (Options.Alter):
// the pending rows are executed with the old statement, each column is
// added with the type of its first value, and the statements are
// prepared again.
func (ins *inserter) Alter(int64) error {
	if err := ins.flush(); err != nil {
		return err
	}
	if !ins.inTx {
		if err := ins.Begin(); err != nil {
			return err
		}
	}
	if err := ins.columnLimit(); err != nil {
		return ins.RowError(err, ins.Row, -1)
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
			return ins.RowError(fmt.Errorf("adding column %s: %w", loader.ShortName(col.name), err), ins.Row, -1)
		}
		ins.added = append(ins.added, col.name)
	}
	ins.closeStmts()
	return ins.prepare()
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

// columnLimit says, before SQLite does, that the table would have more
// columns than SQLite allows (SQLITE_MAX_COLUMN, 2,000 unless SQLite was
// built otherwise): SQLite's own "too many columns on t" names neither
// the count nor the limit.
func (ins *inserter) columnLimit() error {
	if limit := ins.c.GetLimit(sqlite3.SQLITE_LIMIT_COLUMN); len(ins.cols) > limit {
		return fmt.Errorf("table %s would have %d columns, more than SQLite's limit of %d (SQLITE_MAX_COLUMN)",
			loader.ShortName(ins.table), len(ins.cols), limit)
	}
	return nil
}
