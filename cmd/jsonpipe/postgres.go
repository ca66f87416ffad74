package main

import (
	"context"
	"errors"
	"io"
	"strings"

	"github.com/jsonpipe/json/postgres"
	"github.com/jsonpipe/json/sqlite"
)

// aboutInput reports whether err is about the input's rows (it names a
// row, or rows), rather than about the database (which cannot be opened,
// say): only then does the input's name head the message.
func aboutInput(err error) bool {
	return errors.As(err, new(*sqlite.RowError)) || errors.As(err, new(*postgres.RowError)) || errors.As(err, new(*postgres.BatchError))
}

// isPostgres reports whether DB names a PostgreSQL server rather than an
// SQLite file.
func isPostgres(db string) bool {
	return strings.HasPrefix(db, "postgres://") || strings.HasPrefix(db, "postgresql://")
}

func queryPostgres(ctx context.Context, url string, stdout io.Writer, nl bool, query string) (int64, error) {
	format := postgres.Array
	if nl {
		format = postgres.Lines
	}
	return postgres.WriteQueryURL(ctx, url, stdout, format, query)
}
