// Command jsonpipe loads JSON into SQLite or PostgreSQL and exports rows
// as JSON, CSV, TSV or a table.
//
//	jsonpipe insert [flags] DB TABLE [FILE|-]
//	jsonpipe query [--nl|--csv|--tsv|--table] DB SQL
//	jsonpipe tables DB
//	jsonpipe schema DB [TABLE]
//	jsonpipe serve [--addr HOST:PORT] [--write] [--token T] [--tables a,b] [--static DIR] [--max-body N] DB
//
// DB is the path of an SQLite database file, or a PostgreSQL URL
// (postgres://... or postgresql://...).
//
// insert reads a JSON array of objects, or newline-delimited objects, from
// FILE (standard input when FILE is "-" or absent; gzip is decompressed,
// a UTF-8 byte order mark skipped) and inserts each object
// as a row of TABLE in DB (an SQLite file is created if missing; rows go
// to PostgreSQL through COPY); TABLE is created if missing, with column
// types inferred from the first rows (nested objects and arrays: JSON TEXT
// in SQLite, jsonb in PostgreSQL). With --csv or --tsv it reads CSV or
// TSV instead: the header row names the columns, their types are detected
// in the first rows as sqlite-utils 4 detects them (integer, real, text),
// an empty field is NULL (with --empty-strings, a text column's is ""), and
// every other flag works as for JSON. A ragged row, a stray quote or
// invalid UTF-8 stops the load, naming its row, line and byte offset.
//
// A later value that does not fit the type a column was given from the
// first rows (a string after integers, 1.5 after integers; for CSV and
// TSV, after the rows the types were detected in) is stored as
// it is in SQLite, whose columns take any value. In PostgreSQL, a column
// of a table the load creates is widened to a type that holds both
// (bigint to double precision, or numeric past int64; to text, or to
// jsonb for an object or array), inside the batch's transaction, and the
// summary says so; with --strict-types, or into a table the load did not
// create, the value stops the load, naming its row.
//
// query runs SQL on DB and writes the rows to standard output as a JSON
// array, or as one object per line with --nl; nested values stored as
// JSON (a column declared JSON TEXT, JSON or JSONB in SQLite, json or
// jsonb in PostgreSQL) come back as JSON, not as strings. --csv and --tsv write a header row
// of column names, then the rows, streamed: RFC 4180 CSV, and TSV quoted
// the same way (a field holding a tab, quote or line break in double
// quotes), NULL as an empty field and an empty string as "", BLOBs and
// bytea in base64, nested JSON as its text. --table writes aligned
// columns for a terminal, NULL as an empty cell, control characters as
// escapes (\n, \t); it holds the whole result in memory for the widths.
//
// tables writes a JSON array of {"table": NAME, "rows": N}, sorted by
// name; schema writes the CREATE statements of every table, or of TABLE.
// In PostgreSQL both see the tables the search path makes visible (public
// by default); schema rebuilds CREATE TABLE from the catalog.
//
// serve answers HTTP on --addr (127.0.0.1:8080; the address is printed
// on standard error) with the tables of DB as JSON: GET / lists them,
// GET /TABLE streams the rows (filters, _limit, _after paging with a Link
// header, _order, _fields, NDJSON), GET /TABLE/KEY is one row, and with
// --write POST /TABLE loads JSON, PATCH and DELETE /TABLE/KEY change a
// row; package serve documents the API. It stops on SIGINT or SIGTERM,
// letting running requests finish.
//
// Run "jsonpipe insert -h" (or query, tables, schema, serve) for the flags.
// Progress goes to standard error while loading when it is a terminal (or
// with --progress), then a one-line summary: rows inserted, and with
// --ignore those skipped, with --replace and --upsert into PostgreSQL
// those replaced or updated (SQLite does not say which rows were new:
// "inserted or replaced", "inserted or updated").
// Errors are said in the flags' terms (--alter, --pk), and a duplicate
// key, or input that looks like CSV, ends with a hint line. A query that fails after
// writing rows leaves its output incomplete and recognisably so: the rows
// before the error, a JSON array without its closing bracket (NDJSON,
// CSV, TSV simply stop; a table shows the rows read), and on standard
// error the error and the count of rows written. Exit status: 0 on
// success, 1 when the load, query or lookup fails (an unknown TABLE for
// schema too), 2 for a usage error.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"time"

	"github.com/jsonpipe/json/internal/loader"
	"github.com/jsonpipe/json/postgres"
	"github.com/jsonpipe/json/sqlite"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	code := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

const usage = `usage:
  jsonpipe insert [flags] DB TABLE [FILE|-]         load JSON objects, or CSV/TSV, into a table
  jsonpipe query [--nl|--csv|--tsv|--table] DB SQL  write a query's rows as JSON, CSV, TSV or a table
  jsonpipe tables DB                                list the tables and their row counts, as JSON
  jsonpipe schema DB [TABLE]                        write the CREATE statements of the tables, or of TABLE
  jsonpipe serve [flags] DB                         serve the tables as a JSON HTTP API

DB is an SQLite file or a postgres:// URL. Run "jsonpipe COMMAND -h" for the flags.
`

// errUsage marks errors that are the caller's invocation, for exit code 2.
type errUsage struct{ msg string }

func (e errUsage) Error() string { return e.msg }

func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	var err error
	switch args[0] {
	case "insert":
		err = insertCmd(ctx, args[1:], stdin, stderr)
	case "query":
		err = queryCmd(ctx, args[1:], stdout, stderr)
	case "tables":
		err = tablesCmd(ctx, args[1:], stdout, stderr)
	case "schema":
		err = schemaCmd(ctx, args[1:], stdout, stderr)
	case "serve":
		err = serveCmd(ctx, args[1:], stderr)
	case "help", "-h", "-help", "--help":
		fmt.Fprint(stdout, usage)
		return 0
	default:
		err = errUsage{fmt.Sprintf("unknown command %q", args[0])}
	}
	switch {
	case err == nil:
		return 0
	case errors.Is(err, flag.ErrHelp):
		return 0
	case errors.As(err, new(errUsage)):
		fmt.Fprintf(stderr, "jsonpipe: %v\n%s", err, usage)
		return 2
	}
	fmt.Fprintf(stderr, "jsonpipe: %v\n", err)
	return 1
}

// parseInterleaved parses flags that may come before, between or after the
// positional arguments, and returns the positionals.
//
// usage, the command line after "usage: ", heads -h's output; any other
// parse error is returned as an errUsage.
func parseInterleaved(fs *flag.FlagSet, args []string, usage string) ([]string, error) {
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: "+usage)
		fs.PrintDefaults()
	}
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return nil, err
			}
			return nil, errUsage{err.Error()}
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return pos, nil
		}
		if used := len(args) - len(rest); used > 0 && args[used-1] == "--" {
			return append(pos, rest...), nil // all positional after "--"
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
}

type listFlag []string

func (l *listFlag) String() string     { return strings.Join(*l, ",") }
func (l *listFlag) Set(v string) error { *l = append(*l, v); return nil }

func insertCmd(ctx context.Context, args []string, stdin io.Reader, stderr io.Writer) error {
	fs := flag.NewFlagSet("jsonpipe insert", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var (
		pk, notNull, defaults                listFlag
		nl, array, alter, allOrNothing, bulk bool
		csvIn, tsvIn, emptyStrings           bool
		replace, ignore, upsert, progress    bool
		batch, inferRows, maxValue, workers  int
		connections                          int
		truncate, flatten, strictTypes       bool
	)
	fs.Var(&pk, "pk", "primary-key `column` of a new table (repeat for a compound key)")
	fs.BoolVar(&nl, "nl", false, "input is newline-delimited JSON objects (a top-level array is an error)")
	fs.BoolVar(&array, "array", false, "input is a JSON array of objects")
	fs.BoolVar(&csvIn, "csv", false, "input is CSV (RFC 4180): a header row names the columns; types detected as sqlite-utils does (integer, real, text) in the first --infer-rows rows, widened past them as for JSON in PostgreSQL; an empty field is NULL")
	fs.BoolVar(&tsvIn, "tsv", false, "input is TSV: as --csv with tabs between fields (quoted as CSV is)")
	fs.BoolVar(&emptyStrings, "empty-strings", false, "with --csv or --tsv: an empty field of a text column is the empty string, not NULL")
	fs.BoolVar(&alter, "alter", false, "add columns for keys first seen after the table was created")
	fs.IntVar(&batch, "batch-size", 100000, "rows per transaction")
	fs.BoolVar(&replace, "replace", false, "replace rows whose primary key exists")
	fs.BoolVar(&ignore, "ignore", false, "skip rows whose primary key exists")
	fs.BoolVar(&upsert, "upsert", false, "update rows whose primary key exists with the new non-null values")
	fs.BoolVar(&truncate, "truncate", false, "delete the table's rows first, in the first batch's transaction (an existing table only)")
	fs.BoolVar(&flatten, "flatten", false, "store a nested object's members as columns of their own, named a_b as sqlite-utils does (arrays stay JSON)")
	fs.BoolVar(&allOrNothing, "all-or-nothing", false, "load in one transaction: on error nothing is kept")
	fs.Var(&notNull, "not-null", "`column` of a new table that is NOT NULL (repeatable)")
	fs.Var(&defaults, "default", "`column=value` default for a new table's column (repeatable; value is a JSON scalar or else text)")
	fs.IntVar(&inferRows, "infer-rows", 1000, "rows read to infer a new table's column types (PostgreSQL widens a column of a new table for a later value that does not fit it; SQLite stores such a value as it is)")
	fs.BoolVar(&strictTypes, "strict-types", false, "PostgreSQL: stop at the first value that does not fit its column's inferred type, rather than widening the column")
	fs.BoolVar(&bulk, "bulk", false, "SQLite: synchronous=OFF and journal_mode=MEMORY during the load (faster; a crash mid-load can corrupt the database)")
	fs.IntVar(&maxValue, "max-value-size", 0, "refuse any single value longer than this many `bytes`, as soon as it passes them (0: the database's own limit, 1,000,000,000 for SQLite, 1 GiB for PostgreSQL)")
	fs.IntVar(&workers, "workers", 0, "goroutines decoding NDJSON, rows kept in input order (0: one fewer than the CPUs, at least one, as the writer keeps a core busy; a JSON array is decoded by one)")
	fs.IntVar(&connections, "connections", 0, "PostgreSQL: connections the batches go over, committed in input order (0: as many as --workers when it is given, else 1)")
	fs.BoolVar(&progress, "progress", false, "report progress on standard error even when it is not a terminal")
	pos, err := parseInterleaved(fs, args, "jsonpipe insert [flags] DB TABLE [FILE|-]")
	if err != nil {
		return err
	}
	if len(pos) < 2 || len(pos) > 3 {
		return errUsage{"insert needs DB TABLE [FILE|-]"}
	}
	// The flags map once, into the one Options both databases read.
	opts := &loader.Options{PrimaryKey: pk, NotNull: notNull, Alter: alter, BatchSize: batch,
		AllOrNothing: allOrNothing, BulkPragmas: bulk, InferRows: inferRows, Workers: workers,
		Connections: connections, Truncate: truncate, Flatten: flatten, StrictTypes: strictTypes}
	n := 0
	for _, f := range []struct {
		set bool
		c   sqlite.Conflict
	}{{replace, sqlite.Replace}, {ignore, sqlite.Ignore}, {upsert, sqlite.Upsert}} {
		if f.set {
			n++
			opts.Conflict = f.c
		}
	}
	if n > 1 {
		return errUsage{"--replace, --ignore and --upsert exclude each other"}
	}
	if nl && array {
		return errUsage{"--nl and --array exclude each other"}
	}
	if csvIn && tsvIn || (csvIn || tsvIn) && (nl || array) {
		return errUsage{"--csv, --tsv, --nl and --array exclude each other"}
	}
	if emptyStrings && !csvIn && !tsvIn {
		return errUsage{"--empty-strings is for --csv and --tsv input"}
	}
	switch {
	case csvIn:
		opts.Delimiter = ','
	case tsvIn:
		opts.Delimiter = '\t'
	}
	opts.EmptyStrings = emptyStrings
	if nl {
		opts.Format = sqlite.Lines
	} else if array {
		opts.Format = sqlite.Array
	}
	if batch <= 0 || inferRows <= 0 || maxValue < 0 || workers < 0 || connections < 0 {
		return errUsage{"--batch-size and --infer-rows must be positive, --max-value-size, --workers and --connections not negative"}
	}
	opts.MaxValueSize = maxValue
	for _, d := range defaults {
		col, val, ok := strings.Cut(d, "=")
		if !ok {
			return errUsage{fmt.Sprintf("--default %q: want column=value", d)}
		}
		if opts.Defaults == nil {
			opts.Defaults = map[string]any{}
		}
		opts.Defaults[col] = parseScalar(val)
	}

	dbPath, table := pos[0], pos[1]
	var in io.Reader = stdin
	var size int64 = -1
	name := "standard input"
	if len(pos) == 3 && pos[2] != "-" {
		f, err := os.Open(pos[2])
		if err != nil {
			return err
		}
		defer f.Close()
		in, name = f, pos[2]
		if st, err := f.Stat(); err == nil && st.Mode().IsRegular() {
			size = st.Size()
		}
	}

	// gzip and a byte order mark are the loaders' (loader.Sniff); the
	// command looks first only to know that a gzip file's size says
	// nothing of the progress through its decompressed rows.
	sniffed, err := loader.Sniff(in)
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	in = sniffed.R
	if sniffed.Gzip {
		size = -1
	}

	start := time.Now()
	var p *progressLine
	if tty := isTerminal(stderr); progress || tty {
		p = &progressLine{w: stderr, size: size, start: start, tty: tty}
		opts.Progress = p.report
	}
	var res loader.Result
	if isPostgres(dbPath) {
		if bulk {
			return errUsage{"--bulk is for SQLite (PostgreSQL's COPY needs no pragmas)"}
		}
		res, err = postgres.InsertURL(ctx, dbPath, table, in, opts)
	} else if connections > 1 {
		return errUsage{"--connections is for PostgreSQL (SQLite has one writer)"}
	} else {
		res, err = sqlite.InsertPath(ctx, dbPath, table, in, opts)
	}
	elapsed := time.Since(start)
	if p != nil && p.shown && p.tty {
		fmt.Fprint(stderr, "\r\033[K") // clear the progress line
	}
	if err != nil {
		err = inFlagTerms(err)
		if aboutInput(err) {
			// The error names a row of the input: say which input.
			err = fmt.Errorf("%s: %w", name, err)
		}
		after := ""
		if h := hint(err, *opts); h != "" {
			after = "\njsonpipe: hint: " + h
		}
		return fmt.Errorf("%w\njsonpipe: %s committed to %s before the error%s", err, rowCount(res.Rows), table, after)
	}
	fmt.Fprintln(stderr, summary(res, opts, table, isPostgres(dbPath), elapsed))
	return nil
}

// parseScalar reads a --default value: a JSON number, true, false or
// null, or a JSON string; anything else is taken as text.
func parseScalar(s string) any {
	switch s {
	case "true":
		return true
	case "false":
		return false
	}
	if i, err := strconv.ParseInt(s, 10, 64); err == nil {
		return i
	}
	if f, err := strconv.ParseFloat(s, 64); err == nil {
		return f
	}
	if u, err := strconv.Unquote(s); err == nil && strings.HasPrefix(s, `"`) {
		return u
	}
	return s
}

func queryCmd(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("jsonpipe query", flag.ContinueOnError)
	fs.SetOutput(stderr)
	nl := fs.Bool("nl", false, "write one object per line instead of a JSON array")
	csv := fs.Bool("csv", false, "write CSV (RFC 4180): a header row of column names, then the rows; NULL is an empty field, an empty string \"\", BLOBs base64")
	tsv := fs.Bool("tsv", false, "write TSV: as --csv with tabs, a field holding a tab, quote or line break quoted as in CSV (not backslash-escaped)")
	table := fs.Bool("table", false, "write aligned columns for a terminal (holds the whole result in memory for the widths; NULL is an empty cell, control characters escaped as \\n, \\t)")
	pos, err := parseInterleaved(fs, args, "jsonpipe query [--nl|--csv|--tsv|--table] DB SQL\n\n"+
		"Write the rows of SQL run on DB: a JSON array of objects by default, with\n"+
		"nested values stored as JSON (an SQLite column declared JSON, PostgreSQL\n"+
		"json or jsonb) written as JSON, not as strings.\n")
	if err != nil {
		return err
	}
	if len(pos) != 2 {
		return errUsage{"query needs DB SQL"}
	}
	var layout sqlite.Layout // zero: JSON
	set := 0
	for _, f := range []struct {
		on bool
		l  sqlite.Layout
	}{{*nl, 0}, {*csv, sqlite.LayoutCSV}, {*tsv, sqlite.LayoutTSV}, {*table, sqlite.LayoutTable}} {
		if f.on {
			set++
			layout = f.l
		}
	}
	if set > 1 {
		return errUsage{"--nl, --csv, --tsv and --table exclude each other"}
	}
	format := sqlite.Array
	if *nl {
		format = sqlite.Lines
	}
	var n int64
	switch {
	case isPostgres(pos[0]) && layout != 0:
		n, err = postgres.WriteQueryTextURL(ctx, pos[0], stdout, layout, pos[1])
	case isPostgres(pos[0]):
		n, err = queryPostgres(ctx, pos[0], stdout, *nl, pos[1])
	case layout != 0:
		n, err = sqlite.WriteQueryTextPath(ctx, pos[0], stdout, layout, pos[1])
	default:
		n, err = sqlite.WriteQueryPath(ctx, pos[0], stdout, format, pos[1])
	}
	if err != nil && n > 0 {
		// What was written is every row before the error, and not a
		// complete result: an array is left open, other formats stop.
		open := ""
		if layout == 0 && !*nl {
			open = " (its JSON array is not closed)"
		}
		return fmt.Errorf("%w\njsonpipe: %s written before the error; the output is incomplete%s", err, rowCount(n), open)
	}
	return err
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// progressLine rewrites one line of standard error with the load's
// progress, at most five times a second.
type progressLine struct {
	w     io.Writer
	size  int64
	start time.Time
	last  time.Time
	tty   bool // rewrite one line; else print a line per report
	shown bool
}

func (p *progressLine) report(pr loader.Progress) {
	now := time.Now()
	if now.Sub(p.last) < 200*time.Millisecond && pr.Rows != 0 && p.tty {
		return
	}
	p.last = now
	rate := float64(pr.Rows) / now.Sub(p.start).Seconds()
	line := fmt.Sprintf("%s rows, %s rows/s", commas(pr.Rows), commas(int64(rate)))
	if p.size > 0 {
		line += fmt.Sprintf(", %.0f%%", 100*float64(pr.Bytes)/float64(p.size))
	}
	if p.tty {
		fmt.Fprintf(p.w, "\r\033[K%s", line)
	} else {
		fmt.Fprintf(p.w, "jsonpipe: %s\n", line)
	}
	p.shown = true
}

// rowCount is "1 row" or "N rows", N with thousands separators.
func rowCount(n int64) string { return plural(n, "row", "rows") }

func commas(n int64) string {
	s := strconv.FormatInt(n, 10)
	neg := strings.HasPrefix(s, "-")
	if neg {
		s = s[1:]
	}
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}
