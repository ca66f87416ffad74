package sqlite

import (
	"database/sql"
	"net/url"
	"strings"
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
