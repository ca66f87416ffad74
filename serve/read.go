package serve

import (
	"fmt"
	"net/http"
	"net/url"
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
	st := s.stmts.get(t, q.shape(t), func() statements { return listStatements(s.db, t, q) })
	args := make([]any, 0, len(q.filters)+2)
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
		args = append(append(args[:len(args):len(args)], q.limit-1), args...)
	}
	if q.limit >= 0 {
		args = append(args, q.limit)
	}
	format, ctype := rowsrc.Array, contentJSON
	if wantsLines(r, q.nl) {
		format, ctype = rowsrc.Lines, contentNDJSON
	}
	w.Header().Set("Content-Type", ctype)
	sw := newStreamWriter(w, s.writeTimeout)
	s.streaming.Add(1)
	defer s.streaming.Add(-1)
	var next func(*string)
	if st.keyed {
		next = func(key *string) {
			if key != nil {
				w.Header().Set("Link", "<"+nextURL(r, *key)+`>; rel="next"`)
			}
		}
	}
	n, err := s.db.stream(r.Context(), sw, format, st.query, args, next)
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

// nextURL is the request's URL (path and query, relative to the host)
// with _after set to key.
func nextURL(r *http.Request, key string) string {
	v, _ := url.ParseQuery(r.URL.RawQuery)
	v.Set("_after", key)
	return r.URL.EscapedPath() + "?" + v.Encode()
}

// one answers GET /table/key: the row as an object, or 404.
func (s *Server) one(w http.ResponseWriter, r *http.Request, t *table, key string) {
	if t.key == "" {
		writeError(w, http.StatusNotFound, errNoKey.Error())
		return
	}
	v, err := parseQuery(r.URL.RawQuery)
	if err != nil {
		s.fail(w, r, nil, err)
		return
	}
	var fields []string
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
	shape := "R\x00" + strings.Join(fields, "\x00")
	st := s.stmts.get(t, shape, func() statements { return statements{query: oneStatement(s.db, t, fields)} })
	arg, ok := arg(t, t.key, key)
	if !ok {
		s.noRow(w, t, key)
		return
	}
	w.Header().Set("Content-Type", contentJSON)
	sw := newStreamWriter(w, s.writeTimeout)
	// Lines: one object and a newline; nothing at all for no row.
	n, err := s.db.stream(r.Context(), sw, rowsrc.Lines, st.query, []any{arg}, nil)
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
