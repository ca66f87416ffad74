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

// insertPostgres is the insert command into PostgreSQL: the same flags,
// with the same meaning, as sqlite.Options carries them.
func insertPostgres(ctx context.Context, url, table string, in io.Reader, o *sqlite.Options, connections int) (sqlite.Result, error) {
	opts := &postgres.Options{
		PrimaryKey:   o.PrimaryKey,
		NotNull:      o.NotNull,
		Defaults:     o.Defaults,
		Alter:        o.Alter,
		Conflict:     o.Conflict, // one type in both packages
		BatchSize:    o.BatchSize,
		AllOrNothing: o.AllOrNothing,
		Format:       o.Format,
		InferRows:    o.InferRows,
		MaxValueSize: o.MaxValueSize,
		Workers:      o.Workers,
		Connections:  connections,
	}
	if o.Progress != nil {
		opts.Progress = func(p postgres.Progress) { o.Progress(sqlite.Progress(p)) }
	}
	res, err := postgres.InsertURL(ctx, url, table, in, opts)
	return sqlite.Result{Rows: res.Rows, Changes: res.Changes, Created: res.Created, Added: res.Added}, err
}

func queryPostgres(ctx context.Context, url string, stdout io.Writer, nl bool, query string) (int64, error) {
	format := postgres.Array
	if nl {
		format = postgres.Lines
	}
	return postgres.WriteQueryURL(ctx, url, stdout, format, query)
}
