package serve

import (
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"

	json "github.com/jsonpipe/json"
	"github.com/jsonpipe/json/internal/rowsrc"
)

// index answers GET /: the served tables and their row counts, or with
// Options.Static, to a browser, the app's index.html.
func (s *Server) index(w http.ResponseWriter, r *http.Request) {
	if s.root != nil && strings.Contains(r.Header.Get("Accept"), "text/html") && s.serveFile(w, r, "index.html") {
		return
	}
	sc := s.schema.Load()
	b := []byte{'['}
	for i, name := range sc.names {
		n, err := s.db.count(r.Context(), sc.tables[name])
		if err != nil {
			s.fail(w, r, nil, fmt.Errorf("counting the rows of %s: %w", quote(name), err))
			return
		}
		if i > 0 {
			b = append(b, ",\n"...)
		}
		b = json.AppendQuote(append(b, `{"table":`...), name)
		b = strconv.AppendInt(append(b, `,"rows":`...), n, 10)
		b = append(b, '}')
	}
	b = append(b, "]\n"...)
	w.Header().Set("Content-Type", contentJSON)
	w.Write(b)
}

// wantsLines reports whether the client asked for NDJSON.
func wantsLines(r *http.Request, nl bool) bool {
	return nl || strings.Contains(r.Header.Get("Accept"), contentNDJSON)
}

// list answers GET /table: the rows, streamed.
func (s *Server) list(w http.ResponseWriter, r *http.Request, t *table) {
	v, err := parseQuery(r.URL.RawQuery)
	if err != nil {
		s.fail(w, r, nil, err)
		return
	}
	q, err := parseList(t, v)
	if err != nil {
		s.fail(w, r, nil, err)
		return
	}
	var kb [96]byte
	st := s.stmts.get(t, q.appendShape(kb[:0], t), func() statements { return listStatements(s.db, t, q) })
	var ab [6]any
	args := ab[:0]
	for _, f := range q.filters {
		a, ok := arg(t, f.col, f.val)
		if !ok {
			s.emptyList(w, r, q)
			return // no integer key equals a value that is not an integer
		}
		args = append(args, a)
	}
	if q.hasAfter {
		a, ok := arg(t, t.key, q.after)
		if !ok {
			s.fail(w, r, nil, badf("_after=%s: the key %s holds integers", quote(q.after), quote(t.key)))
			return
		}
		args = append(args, a)
	}
	if st.keyed {
		// The next key's subquery first: the filters, _after, _limit-1.
		n := len(args)
		args = append(args, q.limit-1)
		args = append(args, args[:n]...)
	}
	if q.limit >= 0 {
		args = append(args, q.limit)
	}
	format, ctype := rowsrc.Array, headerJSON
	if wantsLines(r, q.nl) {
		format, ctype = rowsrc.Lines, headerNDJSON
	}
	w.Header()["Content-Type"] = ctype
	sw := newStreamWriter(w, s.writeTimeout)
	s.streaming.Add(1)
	defer s.streaming.Add(-1)
	var next func(*string)
	page := 0
	if st.page {
		page = int(q.limit)
	}
	if st.keyed || st.page {
		next = func(key *string) {
			if key != nil {
				w.Header()["Link"] = []string{nextLink(r, v, *key)}
			}
		}
	}
	n, err := s.db.stream(r.Context(), sw, format, st.query, args, next, page)
	if err != nil {
		s.fail(w, r, sw, err)
		return
	}
	if n == 0 && sw.n == 0 && format == rowsrc.Lines {
		w.WriteHeader(http.StatusOK) // no rows: an empty body
	}
}

// emptyList answers a list no row can match.
func (s *Server) emptyList(w http.ResponseWriter, r *http.Request, q *listQuery) {
	if wantsLines(r, q.nl) {
		w.Header().Set("Content-Type", contentNDJSON)
		w.WriteHeader(http.StatusOK)
		return
	}
	w.Header().Set("Content-Type", contentJSON)
	w.Write([]byte("[]\n"))
}

// nextLink is the Link header's value for the next page: the request's
// URL (path and query, relative to the host) with _after set to key; v is
// the request's query as parsed (its _after is set to key). The query is
// written as url.Values.Encode writes it (the keys sorted, each value
// escaped by url.QueryEscape), into one string.
func nextLink(r *http.Request, v url.Values, key string) string {
	v["_after"] = []string{key}
	var kb [8]string
	keys := kb[:0]
	for k := range v {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	var bb [256]byte
	b := append(bb[:0], '<')
	b = append(b, r.URL.EscapedPath()...)
	b = append(b, '?')
	for i, k := range keys {
		ke := url.QueryEscape(k)
		for j, val := range v[k] {
			if i > 0 || j > 0 {
				b = append(b, '&')
			}
			b = append(b, ke...)
			b = append(b, '=')
			b = append(b, url.QueryEscape(val)...)
		}
	}
	b = append(b, `>; rel="next"`...)
	return string(b)
}

// one answers GET /table/key: the row as an object, or 404.
func (s *Server) one(w http.ResponseWriter, r *http.Request, t *table, key string) {
	if t.key == "" {
		writeError(w, http.StatusNotFound, errNoKey.Error())
		return
	}
	var fields []string
	if r.URL.RawQuery == "" {
		s.writeRow(w, r, t, key, nil)
		return
	}
	v, err := parseQuery(r.URL.RawQuery)
	if err != nil {
		s.fail(w, r, nil, err)
		return
	}
	for name := range v {
		val, _, err := single(v, name)
		if err == nil && name != "_fields" {
			err = badf("unknown parameter %s (a row takes only _fields)", quote(name))
		}
		if err == nil {
			fields, err = parseFields(t, val)
		}
		if err != nil {
			writeError(w, http.StatusBadRequest, err.Error())
			return
		}
	}
	s.writeRow(w, r, t, key, fields)
}

// writeRow writes the row of t whose key is key, or answers 404.
func (s *Server) writeRow(w http.ResponseWriter, r *http.Request, t *table, key string, fields []string) {
	var kb [64]byte
	shape := appendJoin(append(kb[:0], "R\x00"...), fields)
	st := s.stmts.get(t, shape, func() statements { return statements{query: oneStatement(s.db, t, fields)} })
	arg, ok := arg(t, t.key, key)
	if !ok {
		s.noRow(w, t, key)
		return
	}
	w.Header()["Content-Type"] = headerJSON
	sw := newStreamWriter(w, s.writeTimeout)
	// Lines: one object and a newline; nothing at all for no row.
	args := [1]any{arg}
	n, err := s.db.stream(r.Context(), sw, rowsrc.Lines, st.query, args[:], nil, 0)
	switch {
	case err != nil:
		s.fail(w, r, sw, err)
	case n == 0:
		s.noRow(w, t, key)
	}
}

func (s *Server) noRow(w http.ResponseWriter, t *table, key string) {
	writeError(w, http.StatusNotFound, fmt.Sprintf("no row of %s with %s %s", quote(t.name), quote(t.key), quote(key)))
}

// appendJoin appends names to b, each after a zero byte but the first.
func appendJoin(b []byte, names []string) []byte {
	for i, n := range names {
		if i > 0 {
			b = append(b, 0)
		}
		b = append(b, n...)
	}
	return b
}
