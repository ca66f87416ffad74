// Package sqlite streams JSON into SQLite tables, and SQLite query results
// back out as JSON, through [github.com/mattn/go-sqlite3] (cgo).
//
// # Loading
//
// [Insert] reads objects from an [io.Reader]: one JSON array of objects,
// newline-delimited JSON (NDJSON), or objects simply concatenated; the
// shape is detected, or enforced with [Options].Format. Each object becomes
// a row; each key a column. Input compressed with gzip is recognised by
// its first two bytes and decompressed (offsets in errors then count
// decompressed bytes), and a UTF-8 byte order mark at the start is
// skipped (offsets count from after it). When the first row fails and the
// input looks like CSV or TSV, the row's error says so.
//
//	db, _ := sqlite.Open("tasks.db")
//	res, err := sqlite.Insert(ctx, db, "tasks", file, &sqlite.Options{
//		PrimaryKey: []string{"id"},
//	})
//
// No map or struct is built per row. The inserter reads tokens with
// [json.Decoder.NextToken] and binds each value straight into the parameter
// slot of its column, found by comparing the key's bytes with the keys seen
// so far (starting after the previous key's column, so keys in a steady
// order cost one comparison each). Strings are unescaped once, into a
// buffer reused from statement to statement; nested objects and arrays are
// captured as their exact input text with [json.Decoder.RawValue]. Rows go
// into a prepared multi-row INSERT (Options.RowsPerStatement rows a
// statement), executed through go-sqlite3's raw connection
// ([database/sql.Conn.Raw]), whose query path binds and steps a whole
// statement in one cgo call; and every Options.BatchSize rows are one
// transaction. With GOMAXPROCS above one, decoding and SQLite overlap: one
// goroutine reads and binds the next thousand rows while another runs the
// statements for the previous ones. The hot path allocates only the
// [database/sql/driver.Value] boxing go-sqlite3's API needs: one small
// allocation per float value, per integer above 255, and per text that
// does not repeat (a short text seen again is boxed once). [InsertPath],
// which opens a connection of its own, opens it in SQLite's multi-thread
// mode, skipping the serialized mode's per-call locks. Memory stays flat
// whatever the input's size: one statement's rows, one decoder window
// (which grows only to hold a single long value, capped by
// Options.MaxValueSize; a string past 1 MiB is streamed out of it in
// pieces and copied once onto the statement's text), and SQLite's own
// page cache.
//
// With Options.Workers above one (by default one fewer than GOMAXPROCS:
// the writer keeps a core busy), NDJSON after
// the first rows is cut into chunks of whole lines that several
// goroutines decode into rows of values; the loading goroutine binds them
// in input order, with their exact numbers and offsets, and SQLite keeps
// its one writer. A row the workers cannot take as it is (a key new to the
// table, a syntax error, an object spread over lines, a line over 4 MiB)
// hands the rest of the input to the one-goroutine decoder.
//
// # CSV and TSV
//
// With [Options].Delimiter set (',' for CSV, '\t' for TSV), Insert reads
// delimited text with a header row instead of JSON. A new table gets the
// header's columns, typed INTEGER, REAL or TEXT as sqlite-utils 4
// detects them in the first InferRows rows; values are stored with those
// types, an empty field as NULL (with [Options].EmptyStrings, a text
// column's as the empty string), and a later value its column's type does
// not describe as it is (1.5 or abc in an INTEGER column is stored as a
// real or a text). Every other option works as for JSON. A
// malformed record (more or fewer fields than the header, a stray or
// unclosed quote, invalid UTF-8) is a [*RowError] holding a
// [*CSVSyntaxError], at the record's row, line and byte offset; a row
// the database refuses is at the offset of the row's first byte in the
// CSV, its line named in the message (-1 when the row is more than 65,536
// rows behind the reader). An empty input, an empty or repeated header
// name are errors; a header alone creates the table with text columns.
//
// # Tables and types
//
// A missing table is created, inside the first batch's transaction. Its
// columns come from Options.Columns (see [ColumnsOf] for a Go struct type),
// or are inferred, as sqlite-utils does, from the first Options.InferRows
// rows (1000): integers and booleans INTEGER, other numbers REAL (and
// integers mixed with them), strings TEXT, nested objects and arrays JSON TEXT
// (TEXT affinity, holding their JSON; see [TypeJSON]), anything mixed or only null
// TEXT. With Options.Flatten a nested object's members are columns of
// their own instead, named a_b as sqlite-utils names them; with
// Options.Truncate an existing table's rows are deleted first, in the
// first batch's transaction. A table has at most 2,000 columns
// (SQLITE_MAX_COLUMN): a load that would make more is an error naming the
// count and the limit. An empty key is a column named "", as sqlite-utils
// makes it. Options.PrimaryKey
// names the key; a single key the input lacks, or holds only integers in,
// becomes INTEGER PRIMARY KEY, which SQLite fills in. Options.NotNull and
// Options.Defaults add constraints. A key first seen later is an error
// naming the key and the row, unless Options.Alter adds a column for it.
//
// A later value of another type than its column's (a string after
// integers, an object after numbers) is stored as it is: SQLite's typing
// is dynamic, a column's declared type only an affinity that converts a
// value when nothing is lost (the integer 1 becomes 1.0 in a REAL column,
// the string "x" stays text in an INTEGER one). So no column is widened,
// nothing stops the load, and Options.StrictTypes, which in package
// postgres keeps a mismatch an error, changes nothing here.
//
// Values bind as: strings TEXT; numbers int64 when the literal is an
// integer in int64's range, else float64 (precision beyond float64 is
// lost, as encoding/json loses it); true and false 1 and 0; null NULL (or
// the column's default, if it has one); nested values TEXT. A key missing
// from an object is NULL, or the column's default.
//
// Table and column names are always quoted as SQL identifiers, so any key
// (`a"; DROP TABLE x; --`, `]`, "", a 10 KB key) is just a column name;
// values are only ever bound, never spliced into SQL. SQLite ignores ASCII
// case in names (and only ASCII case): keys "Name" and "name" are one
// column, so a row may spell a key in any case, even one other than its
// existing column's. Two such keys in one row, though, would put two
// values in one column, the later silently replacing the earlier: that
// row is a [*RowError] naming both keys, whether the table is new, altered
// or existing. One key given twice in a row (byte for byte once unescaped)
// is one JSON key, and its last value wins, as with encoding/json. A name
// containing NUL is an error.
//
// # Conflicts, batches and failure
//
// Options.Conflict says what a primary-key collision does: [Fail] (the
// default), [Ignore], [Replace] or [Upsert]. A syntax error, a value that
// cannot be stored, a constraint failure or a reader error in row N stops
// the load with a [*RowError] naming row N (1-based) and a byte offset (for
// a reader's error, where reading stopped, with workers or without);
// batches committed before it stay, the batch holding it is rolled back,
// and [Result].Rows says exactly how many rows were committed.
// AllOrNothing makes the whole load one transaction. Cancelling ctx stops
// the load at the statement running then, and rolls its batch back; the
// error is the context's.
//
// Options.BulkPragmas trades crash safety for speed for the duration of
// the load only; it is off unless asked for, and the database's own
// settings are restored afterwards.
//
// # Exporting
//
// [WriteQuery] runs any query and streams its rows to an [io.Writer] as a
// JSON array of objects ([Array]) or as NDJSON ([Lines]): integers and
// reals as numbers, text escaped, NULL as null, BLOBs as base64, in
// constant memory; the text of a column declared JSON (as Insert declares
// nested values' columns) is written as the JSON it holds, not as a
// string. A query that fails part-way leaves the rows before the error in
// the writer and an array unclosed, so that output cut short never parses
// as a complete result. [WriteQueryPath] does it on a database it opens by
// path, as InsertPath.
//
// [WriteQueryText] writes the rows as CSV, TSV ([LayoutCSV], [LayoutTSV],
// streamed the same way) or as an aligned table for a terminal
// ([LayoutTable]), each with a header row of column names; NULL is an
// empty field, an empty string "" ([WriteQueryTextPath] opens by path).
//
// # The command
//
// cmd/jsonpipe wraps both: "jsonpipe insert [flags] DB TABLE [FILE|-]" and
// "jsonpipe query [--nl|--csv|--tsv|--table] DB SQL", with "jsonpipe
// tables DB" and "jsonpipe schema DB [TABLE]" to look around.
package sqlite

//go:generate go test -run TestTasksFile -update
