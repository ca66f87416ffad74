package serve

import (
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/jsonpipe/json/postgres"
	"github.com/jsonpipe/json/sqlite"
)

// listQuery is a GET /table request's parameters, checked against the
// table's columns.
type listQuery struct {
	filters  []filter // sorted by column, so one shape is one statement
	fields   []string // nil for every column
	order    string   // column; "" for the key's order
	desc     bool
	limit    int64 // -1 for none
	after    string
	hasAfter bool
	nl       bool
}

type filter struct{ col, val string }

// badRequest is a request's fault: a 400 with its message.
type badRequest string

func (e badRequest) Error() string { return string(e) }

func badf(format string, args ...any) error { return badRequest(fmt.Sprintf(format, args...)) }

// parseQuery parses a raw query string strictly: a malformed escape is
// an error, not a silently dropped parameter.
func parseQuery(raw string) (url.Values, error) {
	v, err := url.ParseQuery(raw)
	if err != nil {
		return nil, badf("malformed query string: %v", err)
	}
	return v, nil
}

// single is a parameter's one value; giving it twice is an error.
func single(v url.Values, name string) (string, bool, error) {
	vals, ok := v[name]
	if !ok {
		return "", false, nil
	}
	if len(vals) > 1 {
		return "", false, badf("parameter %s given %d times", quote(name), len(vals))
	}
	return vals[0], true, nil
}

func parseBool(name, s string) (bool, error) {
	if s == "" {
		return true, nil
	}
	b, err := strconv.ParseBool(s)
	if err != nil {
		return false, badf("%s=%s: want 1 or 0", name, quote(s))
	}
	return b, nil
}

func parseList(t *table, v url.Values) (*listQuery, error) {
	q := &listQuery{limit: -1}
	for name := range v {
		s, _, err := single(v, name)
		if err != nil {
			return nil, err
		}
		if !strings.HasPrefix(name, "_") {
			if !t.hasColumn(name) {
				return nil, badf("no column %s in table %s", quote(name), quote(t.name))
			}
			q.filters = append(q.filters, filter{name, s})
			continue
		}
		switch name {
		case "_limit":
			n, err := strconv.ParseInt(s, 10, 64)
			if err != nil || n < 0 {
				return nil, badf("_limit=%s: want a count of rows", quote(s))
			}
			q.limit = n
		case "_after":
			q.after, q.hasAfter = s, true
		case "_order":
			col, desc := strings.CutPrefix(s, "-")
			if !t.hasColumn(col) {
				return nil, badf("_order: no column %s in table %s", quote(col), quote(t.name))
			}
			q.order, q.desc = col, desc
		case "_fields":
			f, err := parseFields(t, s)
			if err != nil {
				return nil, err
			}
			q.fields = f
		case "_nl":
			if q.nl, err = parseBool(name, s); err != nil {
				return nil, err
			}
		default:
			return nil, badf("unknown parameter %s", quote(name))
		}
	}
	slices.SortFunc(q.filters, func(a, b filter) int { return strings.Compare(a.col, b.col) })
	if q.hasAfter {
		if t.key == "" {
			return nil, badRequest(errNoKey.Error())
		}
		if q.order != "" && (q.order != t.key || q.desc) {
			return nil, badf("_after pages in the order of the key %s: leave out _order, or make it %s", quote(t.key), quote(t.key))
		}
	}
	if q.order == t.key && !q.desc {
		q.order = ""
	}
	return q, nil
}

func parseFields(t *table, s string) ([]string, error) {
	fields := strings.Split(s, ",")
	for i, f := range fields {
		if !t.hasColumn(f) {
			return nil, badf("_fields: no column %s in table %s", quote(f), quote(t.name))
		}
		if slices.Contains(fields[:i], f) {
			return nil, badf("_fields: column %s named twice", quote(f))
		}
	}
	return fields, nil
}

// paged reports whether a response ends with a Link to the next page:
// with _limit, in the key's order.
func (q *listQuery) paged(t *table) bool {
	return q.limit > 0 && t.key != "" && q.order == ""
}

// pageRows is the most rows of a page whose next key comes from its own
// rows: both writers' PageRows, which the arrays below check are one.
const pageRows = sqlite.PageRows

var (
	_ [pageRows - postgres.PageRows]struct{}
	_ [postgres.PageRows - pageRows]struct{}
)

// small reports whether a paged response is a page of at most pageRows
// rows: read whole before it is written, its last row gives the next
// page's key. A longer one selects that key in a subquery.
func (q *listQuery) small(t *table) bool {
	return q.paged(t) && q.limit <= pageRows
}

// appendShape appends the statement's cache key to b: everything that
// changes its text, nothing that is only bound.
func (q *listQuery) appendShape(b []byte, t *table) []byte {
	b = append(b, 'L')
	for _, f := range q.filters {
		b = append(b, "\x00="...)
		b = append(b, f.col...)
	}
	b = append(b, "\x00F"...)
	for _, f := range q.fields {
		b = append(b, 0)
		b = append(b, f...)
	}
	b = append(b, "\x00O"...)
	b = append(b, q.order...)
	b = append(b, 0)
	for _, x := range [...]bool{q.desc, q.limit >= 0, q.hasAfter, q.paged(t), q.small(t)} {
		b = strconv.AppendBool(b, x)
	}
	return b
}

// statements are the SQL of one shape: the page's query, and whether its
// last column is the key that starts the next page (keyed: a paged shape
// of more than pageRows rows), or each row's key (page: a smaller one).
type statements struct {
	query string
	keyed bool
	page  bool
}

// stmtCache holds the SQL built for each shape, so that a shape's text is
// built once and PostgreSQL's per-connection statement cache (keyed by
// the text) prepares it once. It is emptied when the schema is read again
// and when it grows past maxShapes (shapes are combinations of columns,
// so a client could make many).
//
// The shapes are kept by table as read: a table read again (its columns
// changed) is another *table, so a statement built from the old one, even
// if stored after the cache was emptied, is never used for it. A shape is
// looked up as bytes, so that a request whose shape is known allocates no
// key.
type stmtCache struct {
	mu sync.Mutex
	m  map[*table]map[string]statements
	n  int // shapes held
}

const maxShapes = 4096

func (c *stmtCache) get(t *table, shape []byte, build func() statements) statements {
	c.mu.Lock()
	st, ok := c.m[t][string(shape)]
	c.mu.Unlock()
	if ok {
		return st
	}
	st = build()
	c.mu.Lock()
	if c.m == nil || c.n >= maxShapes {
		c.m, c.n = make(map[*table]map[string]statements), 0
	}
	m := c.m[t]
	if m == nil {
		m = make(map[string]statements)
		c.m[t] = m
	}
	if _, ok := m[string(shape)]; !ok {
		c.n++
	}
	m[string(shape)] = st
	c.mu.Unlock()
	return st
}

func (c *stmtCache) clear() {
	c.mu.Lock()
	c.m, c.n = nil, 0
	c.mu.Unlock()
}

// sqlBuilder writes SQL with the backend's quoting and placeholders.
type sqlBuilder struct {
	strings.Builder
	b backend
	n int // placeholders so far
}

func (sb *sqlBuilder) ident(name string) { sb.WriteString(sb.b.quote(name)) }
func (sb *sqlBuilder) param() {
	sb.n++
	sb.WriteString(sb.b.param(sb.n))
}

// columns writes the select list: fields, or every column (after the
// rowid, for a table addressed by it).
func (sb *sqlBuilder) columns(t *table, fields []string) {
	if fields == nil {
		if t.rowidKey {
			sb.WriteString("rowid AS rowid, ")
		}
		sb.WriteString("*")
		return
	}
	for i, f := range fields {
		if i > 0 {
			sb.WriteString(", ")
		}
		sb.ident(f)
	}
}

// where writes the filters and the _after bound.
func (sb *sqlBuilder) where(t *table, q *listQuery) {
	sep := " WHERE "
	cond := func(col, op string) {
		sb.WriteString(sep)
		sep = " AND "
		sb.ident(col)
		sb.WriteString(op)
		sb.param()
	}
	for _, f := range q.filters {
		cond(f.col, " = ")
	}
	if q.hasAfter {
		cond(t.key, " > ")
	}
}

// arg is the value of v to bind for comparing with col: an integer for a
// key of integers (SQLite compares its rowid with text as text; and a key
// that cannot be one matches no row, false), elsewhere the text, which
// SQLite converts by the column's affinity as it converts a stored value,
// and PostgreSQL parses as the column's type.
func arg(t *table, col, v string) (any, bool) {
	if col == t.key && t.keyInt {
		n, err := strconv.ParseInt(v, 10, 64)
		return n, err == nil
	}
	return v, true
}

// orderBy writes the order, its column qualified by the table: an
// unqualified name could be an output column's (the next key's text).
func (sb *sqlBuilder) orderBy(t *table, q *listQuery) {
	col := q.order
	if col == "" {
		col = t.key
	}
	if col == "" {
		return
	}
	sb.WriteString(" ORDER BY ")
	sb.ident(t.name)
	sb.WriteString(".")
	sb.ident(col)
	if q.desc {
		sb.WriteString(" DESC")
	}
}

// listStatements builds the SQL of a list shape. The rows come in the
// key's order unless _order says otherwise; the next page's key is the
// key of the page's last row: for a page of up to pageRows rows, a last
// column of each row (WriteQueryPage), else read by offset in the same
// order.
func listStatements(b backend, t *table, q *listQuery) statements {
	sb := &sqlBuilder{b: b}
	sb.WriteString("SELECT ")
	sb.columns(t, q.fields)
	st := statements{}
	switch {
	case q.small(t):
		// The page is read whole before it is written, so its last row's
		// key, a last column written by no row, is known before the Link
		// header is sent.
		sb.WriteString(", ")
		sb.WriteString(b.pageKey(b.quote(t.key)))
		st.page = true
	case q.paged(t):
		// The key that starts the next page, in the page's own statement
		// (one snapshot, and for PostgreSQL one round trip): a last
		// column, written by no row (WriteQueryLast), holding the key of
		// the page's last row when the page is full, else NULL. The
		// subquery does not depend on the row, so it runs once. Its
		// parameters come first: the filters, _after, and _limit-1.
		sb.WriteString(", (SELECT ")
		sb.WriteString(b.text(b.quote(t.key)))
		sb.WriteString(" FROM ")
		sb.ident(t.name)
		sb.where(t, q)
		sb.orderBy(t, q)
		sb.WriteString(" LIMIT 1 OFFSET ")
		sb.limit()
		sb.WriteString(")")
		st.keyed = true
	}
	sb.WriteString(" FROM ")
	sb.ident(t.name)
	sb.where(t, q)
	sb.orderBy(t, q)
	if q.limit >= 0 {
		sb.WriteString(" LIMIT ")
		sb.limit()
	}
	st.query = sb.String()
	return st
}

// limit writes the placeholder of a LIMIT or OFFSET. SQLite's is an
// expression, not the parameter alone: SQLite (3.47 or so on) reads a
// bound LIMIT or OFFSET to plan the statement and marks it to be planned
// again whenever that parameter is bound again, and go-sqlite3 binds the
// parameters of the statements it keeps on every use, so each page was
// parsed and planned again (sqlite3Reprepare under sqlite3_step, about a
// tenth of the CPU of a one-row page). The planner does not read ? + 0,
// which the limit still binds: nothing from the URL becomes SQL text, and
// every limit is one shape.
func (sb *sqlBuilder) limit() {
	sb.param()
	if _, ok := sb.b.(*sqliteBackend); ok {
		sb.WriteString(" + 0")
	}
}

// whereKey ends a statement on the row whose key is the next parameter.
func (sb *sqlBuilder) whereKey(t *table) string {
	sb.WriteString(" WHERE ")
	sb.ident(t.key)
	sb.WriteString(" = ")
	sb.param()
	return sb.String()
}

// oneStatement selects the row whose key is the one parameter.
func oneStatement(b backend, t *table, fields []string) string {
	sb := &sqlBuilder{b: b}
	sb.WriteString("SELECT ")
	sb.columns(t, fields)
	sb.WriteString(" FROM ")
	sb.ident(t.name)
	return sb.whereKey(t)
}

// updateStatement sets cols of the row whose key is the last parameter.
func updateStatement(b backend, t *table, cols []string) string {
	sb := &sqlBuilder{b: b}
	sb.WriteString("UPDATE ")
	sb.ident(t.name)
	sb.WriteString(" SET ")
	for i, c := range cols {
		if i > 0 {
			sb.WriteString(", ")
		}
		sb.ident(c)
		sb.WriteString(" = ")
		sb.param()
	}
	return sb.whereKey(t)
}

func deleteStatement(b backend, t *table) string {
	sb := &sqlBuilder{b: b}
	sb.WriteString("DELETE FROM ")
	sb.ident(t.name)
	return sb.whereKey(t)
}
