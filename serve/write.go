package serve

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"

	json "github.com/jsonpipe/json"
	"github.com/jsonpipe/json/internal/loader"
	"github.com/jsonpipe/json/internal/rowsrc"
	"github.com/jsonpipe/json/postgres"
	"github.com/jsonpipe/json/sqlite"
)

// insert answers POST /table: the body's rows loaded in one transaction.
func (s *Server) insert(w http.ResponseWriter, r *http.Request, t *table) {
	v, err := parseQuery(r.URL.RawQuery)
	if err != nil {
		s.fail(w, r, nil, err)
		return
	}
	opts := &loader.Options{AllOrNothing: true}
	for name := range v {
		val, _, err := single(v, name)
		switch {
		case err != nil:
		case name == "_pk":
			opts.PrimaryKey = strings.Split(val, ",")
		case name == "_upsert":
			var up bool
			if up, err = parseBool(name, val); up {
				opts.Conflict = rowsrc.Upsert
			}
		case name == "_alter":
			opts.Alter, err = parseBool(name, val)
		default:
			err = badf("unknown parameter %s (POST takes _pk, _upsert, _alter)", quote(name))
		}
		if err != nil {
			s.fail(w, r, nil, err)
			return
		}
	}
	body := http.MaxBytesReader(w, r.Body, s.opts.MaxBody)
	res, err := s.db.insert(r.Context(), t, body, opts)
	if len(res.Added) > 0 {
		s.reloadSchema(r.Context(), true)
	}
	if err != nil {
		s.loadFailed(w, r, err)
		return
	}
	w.Header().Set("Content-Type", contentJSON)
	w.WriteHeader(http.StatusCreated)
	fmt.Fprintf(w, "{\"inserted\":%d}\n", res.Rows)
}

// loadFailed answers a load's error: 413 for a body over the cap, 400
// with the row and offset for a row the loader or the database refused.
func (s *Server) loadFailed(w http.ResponseWriter, r *http.Request, err error) {
	if r.Context().Err() != nil {
		return
	}
	var tooBig *http.MaxBytesError
	if errors.As(err, &tooBig) {
		writeError(w, http.StatusRequestEntityTooLarge, fmt.Sprintf("the body is over %d bytes; nothing was stored", tooBig.Limit))
		return
	}
	row, offset := int64(-1), int64(-1)
	var sre *sqlite.RowError
	var pre *postgres.RowError
	var pbe *postgres.BatchError
	switch {
	case errors.As(err, &sre):
		row, offset = sre.Row, sre.Offset
	case errors.As(err, &pre):
		row, offset = pre.Row, pre.Offset
	case errors.As(err, &pbe):
		row = pbe.First
	case s.db.isDBError(err) && !s.db.badInput(err):
		// The database failed, not the request.
		writeError(w, http.StatusInternalServerError, err.Error()+"; nothing was stored")
		return
	}
	writeErrorAt(w, http.StatusBadRequest, err.Error()+"; nothing was stored", row, offset)
}

// patch answers PATCH /table/key: the body's columns set on the row, and
// the row as it is then.
func (s *Server) patch(w http.ResponseWriter, r *http.Request, t *table, key string) {
	keyArg, ok := s.keyArg(w, r, t, key)
	if !ok {
		return
	}
	data, err := io.ReadAll(http.MaxBytesReader(w, r.Body, s.opts.MaxBody))
	if err != nil {
		s.loadFailed(w, r, err)
		return
	}
	var set map[string]json.RawMessage
	if err := json.Unmarshal(data, &set); err != nil || set == nil {
		writeError(w, http.StatusBadRequest, "the body must be a JSON object of the columns to set")
		return
	}
	if len(set) == 0 {
		writeError(w, http.StatusBadRequest, "the body sets no column")
		return
	}
	cols := make([]string, 0, len(set))
	for c := range set {
		col, ok := t.column(c)
		if !ok {
			writeError(w, http.StatusBadRequest, fmt.Sprintf("no column %s in table %s", quote(c), quote(t.name)))
			return
		}
		cols = append(cols, col.name)
	}
	slices.Sort(cols)
	args := make([]any, 0, len(cols)+1)
	for _, c := range cols {
		col, _ := t.column(c)
		a, err := s.db.patchValue(col, set[c])
		if err != nil {
			writeError(w, http.StatusBadRequest, fmt.Sprintf("column %s: %v", quote(c), err))
			return
		}
		args = append(args, a)
	}
	args = append(args, keyArg)
	shape := appendJoin([]byte("U\x00"), cols)
	st := s.stmts.get(t, shape, func() statements { return statements{query: updateStatement(s.db, t, cols)} })
	n, err := s.db.exec(r.Context(), st.query, args)
	if err != nil {
		s.fail(w, r, nil, err)
		return
	}
	if n == 0 {
		s.noRow(w, t, key)
		return
	}
	if raw, ok := set[t.key]; ok { // the row moved to a new key
		var k any
		if json.Unmarshal(raw, &k) == nil {
			switch k := k.(type) {
			case string:
				key = k
			case float64:
				key = strings.TrimSpace(string(raw))
			}
		}
	}
	s.writeRow(w, r, t, key, nil)
}

// delete answers DELETE /table/key: 204, or 404 when there is no row.
func (s *Server) delete(w http.ResponseWriter, r *http.Request, t *table, key string) {
	keyArg, ok := s.keyArg(w, r, t, key)
	if !ok {
		return
	}
	st := s.stmts.get(t, []byte("D"), func() statements { return statements{query: deleteStatement(s.db, t)} })
	n, err := s.db.exec(r.Context(), st.query, []any{keyArg})
	switch {
	case err != nil:
		s.fail(w, r, nil, err)
	case n == 0:
		s.noRow(w, t, key)
	default:
		w.WriteHeader(http.StatusNoContent)
	}
}

// keyArg is the bound value of a PATCH's or DELETE's key, or false once
// the request is answered: 404 for a table without a key or a key that
// cannot be one, 400 for parameters (these take none).
func (s *Server) keyArg(w http.ResponseWriter, r *http.Request, t *table, key string) (any, bool) {
	if t.key == "" {
		writeError(w, http.StatusNotFound, errNoKey.Error())
		return nil, false
	}
	if r.URL.RawQuery != "" {
		writeError(w, http.StatusBadRequest, r.Method+" takes no parameters")
		return nil, false
	}
	arg, ok := arg(t, t.key, key)
	if !ok {
		s.noRow(w, t, key)
	}
	return arg, ok
}
