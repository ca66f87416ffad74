package serve

import (
	"sort"
	"strings"
)

// schema is what the server knows of the database: the served tables, as
// read at startup and after a refresh. Names from URLs are checked against
// it, so that only the names of existing tables and columns, quoted,
// ever become SQL text.
type schema struct {
	tables map[string]*table
	names  []string // sorted
}

func newSchema(tables map[string]*table) *schema {
	sc := &schema{tables: tables}
	for name := range tables {
		sc.names = append(sc.names, name)
	}
	sort.Strings(sc.names)
	return sc
}

// table is one served table.
type table struct {
	name  string
	cols  []column
	index map[string]int // column name to its place in cols

	// key addresses rows (/table/key, ?_after=): the single-column
	// primary key, or SQLite's rowid ("rowid", then also selected as the
	// rows' first column); "" when there is neither.
	key      string
	rowidKey bool
	keyInt   bool // the key holds integers: SQLite binds it as one
}

type column struct {
	name string
	typ  string // declared type, as the database reports it
}

func newTable(name string, cols []column, pk []string) *table {
	t := &table{name: name, cols: cols, index: make(map[string]int, len(cols))}
	for i, c := range cols {
		t.index[c.name] = i
	}
	if len(pk) == 1 {
		t.key = pk[0]
		t.keyInt = isIntegerType(cols[t.index[pk[0]]].typ)
	}
	return t
}

// hasColumn reports whether name is a column of t (or its rowid key).
func (t *table) hasColumn(name string) bool {
	_, ok := t.index[name]
	return ok || (t.rowidKey && name == "rowid")
}

// hasColumnFold reports whether a column has one of names, ignoring ASCII
// case as SQLite does.
func (t *table) hasColumnFold(names ...string) bool {
	for _, c := range t.cols {
		for _, n := range names {
			if strings.EqualFold(c.name, n) {
				return true
			}
		}
	}
	return false
}

func (t *table) column(name string) (column, bool) {
	i, ok := t.index[name]
	if !ok {
		return column{}, false
	}
	return t.cols[i], true
}

func isIntegerType(typ string) bool {
	switch strings.ToUpper(typ) {
	case "INTEGER", "INT", "BIGINT", "SMALLINT":
		return true
	}
	return false
}

// schemaRows is a schema query's result: a row per column, holding its
// table's name, its name and declared type, and whether it is in the
// primary key. *sql.Rows and pgx.Rows are.
type schemaRows interface {
	Next() bool
	Scan(dest ...any) error
	Err() error
}

// readTables builds the tables of a schema query's rows.
func readTables(rows schemaRows) (map[string]*table, error) {
	cols := map[string][]column{}
	pks := map[string][]string{}
	for rows.Next() {
		var name string
		var c column
		var inPK bool
		if err := rows.Scan(&name, &c.name, &c.typ, &inPK); err != nil {
			return nil, err
		}
		cols[name] = append(cols[name], c)
		if inPK {
			pks[name] = append(pks[name], c.name)
		}
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	tables := make(map[string]*table, len(cols))
	for name, cs := range cols {
		tables[name] = newTable(name, cs, pks[name])
	}
	return tables, nil
}
