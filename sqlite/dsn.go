package sqlite

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"io"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	sqlite3 "github.com/mattn/go-sqlite3"
)

// Opening databases: the go-sqlite3 DSN a path becomes.

// Open opens the SQLite database file at path with go-sqlite3 (creating it
// when missing, as SQLite does); path may also be a go-sqlite3 DSN such as
// "file:x.db?_journal_mode=WAL".
func Open(path string) (*sql.DB, error) {
	return sql.Open("sqlite3", path)
}

// withoutMutex adds _mutex=no to a go-sqlite3 DSN that names no _mutex
// mode. go-sqlite3 reads parameters after the first '?' of a DSN, unless
// that is its first byte; "" (a temporary database) is left alone.
func withoutMutex(dsn string) string {
	q := strings.IndexByte(dsn, '?')
	if q < 0 && dsn != "" {
		return dsn + "?_mutex=no"
	}
	if q <= 0 {
		return dsn
	}
	if params, err := url.ParseQuery(dsn[q+1:]); err != nil || params.Has("_mutex") {
		return dsn // go-sqlite3 reports the malformed query, or uses the mode given
	}
	return dsn + "&_mutex=no"
}

// openPath opens the database at path (a file path or a go-sqlite3 DSN)
// for InsertPath and WriteQueryPath, in multi-thread mode, and reads its
// header, so that a database SQLite cannot open, or a file that is not an
// SQLite database, is an error naming path and what is wrong with it
// rather than the first statement's bare "unable to open database file".
func openPath(ctx context.Context, path string) (*sql.DB, error) {
	db, err := Open(withoutMutex(path))
	if err != nil {
		return nil, dbPathError(path, err)
	}
	if _, err := db.ExecContext(ctx, "PRAGMA schema_version"); err != nil {
		db.Close()
		if ctx.Err() != nil {
			return nil, err
		}
		return nil, dbPathError(path, err)
	}
	return db, nil
}

// fileName is the file a plain path or DSN names, or "" for a "file:" URI,
// ":memory:" or a temporary database, which are left to SQLite to explain.
func fileName(path string) string {
	name, _, _ := strings.Cut(path, "?")
	if name == ":memory:" || strings.HasPrefix(path, "file:") {
		return ""
	}
	return name
}

// DBError is the error InsertPath and WriteQueryPath return when the
// database at Path cannot be opened, or is not an SQLite database: Err is
// SQLite's error (or os.Stat's), and the message names Path and says what
// is wrong with it where that can be found out (a missing directory, a
// directory, a file that holds something else).
type DBError struct {
	Path string
	Err  error
	why  string
}

func (e *DBError) Error() string {
	if e.why != "" {
		return "sqlite: database " + e.Path + ": " + e.why
	}
	return "sqlite: database " + e.Path + ": " + e.Err.Error()
}

func (e *DBError) Unwrap() error { return e.Err }

// dbPathError names path in err, an error opening it or reading its
// header, and says why in words when the file system shows it.
func dbPathError(path string, err error) error {
	e := &DBError{Path: path, Err: err}
	name := fileName(path)
	var se sqlite3.Error
	if name == "" || !errors.As(err, &se) {
		return e
	}
	switch se.Code {
	case sqlite3.ErrCantOpen:
		if st, serr := os.Stat(name); serr == nil && st.IsDir() {
			e.why = "it is a directory, not a file"
			break
		}
		e.why = whyNoDir(name)
	case sqlite3.ErrNotADB:
		e.why = "the file is not an SQLite database"
		if looksLikeJSON(name) {
			e.why += " (it holds JSON)"
		}
	}
	return e
}

// whyNoDir says what is wrong with the directory of the file name when it
// is missing or not a directory, else "".
func whyNoDir(name string) string {
	dir := filepath.Dir(name)
	st, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "directory " + dir + " does not exist"
	case err == nil && !st.IsDir():
		return dir + " is not a directory"
	}
	return ""
}

// looksLikeJSON reports whether the file at name starts, after blanks,
// with '[' or '{'.
func looksLikeJSON(name string) bool {
	f, err := os.Open(name)
	if err != nil {
		return false
	}
	defer f.Close()
	b := make([]byte, 512)
	n, _ := io.ReadFull(f, b)
	b = bytes.TrimLeft(b[:n], " \t\r\n")
	return len(b) > 0 && (b[0] == '[' || b[0] == '{')
}
