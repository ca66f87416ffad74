// Package serve serves the tables of an SQLite or PostgreSQL database as
// a JSON HTTP API, streaming rows from the database to the client.
//
//	s, err := serve.Open(ctx, "tasks.db", serve.Options{})
//	defer s.Close()
//	http.ListenAndServe("127.0.0.1:8080", s)
//
// The command "jsonpipe serve DB" runs one.
//
// # Reading
//
//   - GET / is a JSON array of {"table": NAME, "rows": N} for the served
//     tables: every user table (not SQLite's sqlite_... tables, nor
//     PostgreSQL's catalogs; in PostgreSQL, those the search path makes
//     visible), or those of Options.Tables.
//   - GET /TABLE is the table's rows, a JSON array of objects streamed as
//     they are read, or NDJSON (one object a line) with the header
//     "Accept: application/x-ndjson" or ?_nl=1. Rows come in the key's
//     order. Parameters: ?COL=VALUE keeps the rows whose column equals the
//     value (several are ANDed; values are bound, compared as the
//     database compares text with the column); ?_limit=N; ?_order=COL or
//     ?_order=-COL (descending); ?_fields=A,B selects columns; ?_after=KEY
//     starts after the row with that key. A response with _limit that is
//     full ends with a header Link: <...>; rel="next", the same request
//     with _after set to the page's last key. A column or parameter not
//     known is a 400 naming it.
//   - GET /TABLE/KEY is the row with that key, one object (404 when none);
//     it takes ?_fields.
//
// A row's key is the table's single-column primary key, or in SQLite the
// rowid of a table without one, which then is selected too, as the rows'
// first member "rowid". A table with neither (a composite key, or in
// PostgreSQL no key) is served as a list, without paging by key or
// single rows. Values are written as package sqlite's and package
// postgres's WriteQuery write them; columns holding JSON (JSON TEXT in
// SQLite, json and jsonb in PostgreSQL) as the JSON they hold.
//
// # Writing
//
// With Options.Write (else these are 405), and with Options.Token the
// header "Authorization: Bearer TOKEN" (else 401):
//
//   - POST /TABLE loads the body, a JSON array of objects or NDJSON,
//     through sqlite.Insert or postgres.Insert into the existing table, all
//     or nothing (Options.AllOrNothing): 201 {"inserted": N}, or 400
//     {"error": ..., "row": N, "offset": BYTE} with nothing stored.
//     ?_pk=COL,... names the conflict key, ?_upsert=1 updates rows whose
//     key exists, ?_alter=1 adds columns for new keys.
//   - PATCH /TABLE/KEY sets the columns of the body's JSON object and
//     answers the row as it then is; 404 when there is no such row.
//   - DELETE /TABLE/KEY deletes the row: 204, or 404.
//
// A body over Options.MaxBody (64 MiB by default) is a 413. A POST to a
// table that does not exist is a 404: serve makes no tables.
//
// # Errors
//
// Every error is JSON, {"error": "..."}, with the status that fits: 400
// for a request at fault, 404 for no such table or row, 405, 401, 413,
// 500 for the database failing. A query that fails after rows were sent
// ends the connection instead, the array left unclosed, so that a cut
// response never passes for a whole one.
//
// # Static files
//
// With Options.Static, GET / from a browser (an Accept header with
// text/html) gets the directory's index.html, and a path that is not a
// served table gets the directory's file of that name, if there is one
// (never outside the directory: ".." is refused and os.Root keeps
// symbolic links inside).
//
// # Safety and resources
//
// Table and column names from a request are checked against the schema
// read at startup (read again after a load adds columns, and at most once
// a second when a request names an unknown table), and are always quoted;
// values, _limit too, are always bound. The SQL text of each request
// shape is built once and cached. Rows go from the statement to the
// response through the streaming writers of packages sqlite and postgres,
// so a response's memory does not grow with its row count. Open serves
// SQLite in WAL mode through a pool of query-only readers and one writer; a client that goes
// away cancels its query, and each write of a response must finish within
// 30 seconds, so a client that stops reading is dropped.
package serve
