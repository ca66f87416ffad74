package serve

import (
	"context"
	"crypto/subtle"
	"database/sql"
	"errors"
	"fmt"
	"net/http"
	"os"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
)

// Options configure a Server. The zero value serves every table of the
// database read-only, with no static files.
type Options struct {
	Write   bool     // allow POST/PATCH/DELETE
	Token   string   // if set, writes need "Authorization: Bearer <Token>"
	Tables  []string // if set, only these tables are served
	Static  string   // directory of static files (see the package doc); "" for none
	MaxBody int64    // request body cap, 0 = 64 MiB; over it: 413
}

// DefaultMaxBody is the request body cap when Options.MaxBody is 0.
const DefaultMaxBody = 64 << 20

// writeTimeout is how long one write of a response may take before the
// connection is given up (a client that stopped reading).
const writeTimeout = 30 * time.Second

// Server serves the tables of one database over HTTP (see the package
// doc). It is safe for concurrent use.
type Server struct {
	opts    Options
	db      backend
	root    *os.Root // Options.Static, opened; nil without
	schema  atomic.Pointer[schema]
	refresh sync.Mutex // held while the schema is read again
	lastRef atomic.Int64
	stmts   stmtCache

	writeTimeout time.Duration // per write of a response; tests shorten it
	streaming    atomic.Int64  // responses being streamed, for tests
}

// Open serves the database db names: an SQLite file (which must exist;
// it is switched to WAL mode, read through a pool of connections and
// written through one) or a postgres:// or postgresql:// URL (a pgxpool
// of its own). Close closes what Open opened.
func Open(ctx context.Context, db string, opts Options) (*Server, error) {
	if isPostgresURL(db) {
		pool, err := pgxpool.New(ctx, db)
		if err != nil {
			return nil, err
		}
		if err := pool.Ping(ctx); err != nil {
			pool.Close()
			return nil, err
		}
		s, err := newServer(ctx, &pgBackend{pool: pool, owned: true}, opts)
		if err != nil {
			pool.Close()
		}
		return s, err
	}
	b, err := openSQLite(ctx, db)
	if err != nil {
		return nil, err
	}
	s, err := newServer(ctx, b, opts)
	if err != nil {
		b.close()
	}
	return s, err
}

// New serves an SQLite database opened with sqlite.Open (go-sqlite3),
// switched to WAL mode when it is a file. Reads share db's connection
// pool; writes take turns, one at a time. Close leaves db open. Open
// also has each connection keep its prepared statements; with New, add
// "_stmt_cache_size=64" to the DSN db was opened with for the same.
func New(db *sql.DB, opts Options) (*Server, error) {
	ctx := context.Background()
	if _, err := db.ExecContext(ctx, "PRAGMA journal_mode=WAL"); err != nil {
		return nil, err
	}
	return newServer(ctx, newSQLiteBackend(db, db, false), opts)
}

// NewPostgres serves the tables the search path of pool's connections
// makes visible (public by default). Close leaves pool open.
func NewPostgres(pool *pgxpool.Pool, opts Options) (*Server, error) {
	return newServer(context.Background(), &pgBackend{pool: pool}, opts)
}

func isPostgresURL(db string) bool {
	return strings.HasPrefix(db, "postgres://") || strings.HasPrefix(db, "postgresql://")
}

func newServer(ctx context.Context, b backend, opts Options) (*Server, error) {
	if opts.MaxBody <= 0 {
		opts.MaxBody = DefaultMaxBody
	}
	s := &Server{opts: opts, db: b, writeTimeout: writeTimeout}
	if opts.Static != "" {
		root, err := os.OpenRoot(opts.Static)
		if err != nil {
			return nil, fmt.Errorf("serve: static files: %w", err)
		}
		s.root = root
	}
	sc, err := s.loadSchema(ctx)
	if err != nil {
		s.closeRoot()
		return nil, err
	}
	for _, name := range opts.Tables {
		if sc.tables[name] == nil {
			s.closeRoot()
			return nil, fmt.Errorf("serve: no table %q in the database", name)
		}
	}
	s.schema.Store(sc)
	return s, nil
}

func (s *Server) closeRoot() {
	if s.root != nil {
		s.root.Close()
	}
}

// Close closes the database connections Open opened (not those given to
// New or NewPostgres) and the static directory. Requests still running
// fail.
func (s *Server) Close() error {
	s.closeRoot()
	return s.db.close()
}

// loadSchema reads the served tables and their columns.
func (s *Server) loadSchema(ctx context.Context) (*schema, error) {
	tables, err := s.db.loadSchema(ctx)
	if err != nil {
		return nil, fmt.Errorf("serve: reading the schema: %w", err)
	}
	if s.opts.Tables != nil {
		keep := make(map[string]*table, len(s.opts.Tables))
		for _, name := range s.opts.Tables {
			if t := tables[name]; t != nil {
				keep[name] = t
			}
		}
		tables = keep
	}
	return newSchema(tables), nil
}

// reloadSchema reads the schema again: after a load that added columns,
// or, at most once a second, when a request names a table not known.
func (s *Server) reloadSchema(ctx context.Context, force bool) {
	now := time.Now().UnixNano()
	if !force && now-s.lastRef.Load() < int64(time.Second) {
		return
	}
	s.refresh.Lock()
	defer s.refresh.Unlock()
	if !force && now-s.lastRef.Load() < int64(time.Second) {
		return
	}
	s.lastRef.Store(now)
	sc, err := s.loadSchema(ctx)
	if err != nil {
		return // keep serving the schema known
	}
	s.schema.Store(sc)
	s.stmts.clear()
}

// table is the served table name, or nil.
func (s *Server) table(ctx context.Context, name string) *table {
	if t := s.schema.Load().tables[name]; t != nil {
		return t
	}
	if strings.IndexByte(name, 0) >= 0 || strings.HasPrefix(name, "sqlite_") {
		return nil
	}
	s.reloadSchema(ctx, false)
	return s.schema.Load().tables[name]
}

// ServeHTTP answers one request of the API the package doc describes.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	name, key, nsegs, ok := splitPath(r.URL.EscapedPath())
	if !ok {
		s.notTable(w, r, "no such resource")
		return
	}
	if nsegs == 0 {
		if !isRead(r.Method) {
			methodNotAllowed(w, "GET, HEAD")
			return
		}
		s.index(w, r)
		return
	}
	t := s.table(r.Context(), name)
	if t == nil {
		s.notTable(w, r, fmt.Sprintf("no table %s", quote(name)))
		return
	}
	if nsegs == 1 {
		switch {
		case isRead(r.Method):
			s.list(w, r, t)
		case r.Method == http.MethodPost:
			if s.writeAllowed(w, r) {
				s.insert(w, r, t)
			}
		default:
			methodNotAllowed(w, s.allow("GET, HEAD", "POST"))
		}
		return
	}
	switch {
	case isRead(r.Method):
		s.one(w, r, t, key)
	case r.Method == http.MethodPatch:
		if s.writeAllowed(w, r) {
			s.patch(w, r, t, key)
		}
	case r.Method == http.MethodDelete:
		if s.writeAllowed(w, r) {
			s.delete(w, r, t, key)
		}
	default:
		methodNotAllowed(w, s.allow("GET, HEAD", "PATCH, DELETE"))
	}
}

func isRead(method string) bool { return method == http.MethodGet || method == http.MethodHead }

// allow is the Allow header: the reads, and the writes with Options.Write.
func (s *Server) allow(reads, writes string) string {
	if s.opts.Write {
		return reads + ", " + writes
	}
	return reads
}

// writeAllowed answers 405 without Options.Write and 401 without the
// token, and reports whether the write may go on.
func (s *Server) writeAllowed(w http.ResponseWriter, r *http.Request) bool {
	if !s.opts.Write {
		methodNotAllowed(w, "GET, HEAD")
		return false
	}
	if s.opts.Token != "" {
		got, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
		if !ok || subtle.ConstantTimeCompare([]byte(got), []byte(s.opts.Token)) != 1 {
			w.Header().Set("WWW-Authenticate", `Bearer realm="jsonpipe"`)
			writeError(w, http.StatusUnauthorized, "writes need the header Authorization: Bearer <token>")
			return false
		}
	}
	return true
}

// splitPath cuts an escaped URL path into "/", "/table" or "/table/key"
// (n segments: 0, 1 or 2), each segment unescaped (so %2F is a slash
// inside a name).
func splitPath(p string) (table, key string, n int, ok bool) {
	p, ok = strings.CutPrefix(p, "/")
	if !ok {
		return "", "", 0, false
	}
	if p == "" {
		return "", "", 0, true
	}
	first, rest, two := strings.Cut(p, "/")
	if two && strings.IndexByte(rest, '/') >= 0 {
		return "", "", 0, false
	}
	if table, ok = segment(first); !ok {
		return "", "", 0, false
	}
	if !two {
		return table, "", 1, true
	}
	if key, ok = segment(rest); !ok {
		return "", "", 0, false
	}
	return table, key, 2, true
}

// segment is a path segment unescaped; an empty one is not one.
func segment(s string) (string, bool) {
	u, err := pathUnescape(s)
	return u, err == nil && u != ""
}

// readers is the size of the SQLite read pool Open makes: enough that
// streams to slow clients leave connections for the quick requests.
func readers() int { return max(8, 4*runtime.GOMAXPROCS(0)) }

var errNoKey = errors.New("the table has no single-column primary key (nor a rowid) to address rows by")
