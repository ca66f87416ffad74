// Package postgres streams JSON into PostgreSQL tables through COPY, and
// query results back out as JSON, through [github.com/jackc/pgx/v5].
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
//	conn, _ := pgx.Connect(ctx, "postgres://localhost/mydb")
//	res, err := postgres.Insert(ctx, conn, "tasks", file, &postgres.Options{
//		PrimaryKey: []string{"id"},
//	})
//
// No map, struct or []any is built per row. The loader reads tokens with
// [json.Decoder.NextToken], finds each key's column by comparing its bytes
// with the keys seen so far, and keeps the row's values as offsets into a
// reused buffer; each row is then written in COPY's binary format (a
// bigint as eight bytes, a double as its bits, numeric as its base-10000
// digits, text and jsonb as their bytes) into the data of a
// COPY ... FROM STDIN that pgx reads through [pgconn.PgConn.CopyFrom], in
// pieces of about 64 KiB handed over as the loader writes them. A table with a
// column of a type the loader has no binary writer for (timestamptz, uuid,
// arrays, domains...) is copied in COPY's text format instead, and
// PostgreSQL parses those values itself. Every Options.BatchSize rows are
// one transaction. Memory stays flat whatever the input's size: the
// decoder's window and one buffer of COPY data. A value longer than 32 KiB
// is sent from where it was unescaped, not copied again, and a string
// longer than 1 MiB is never held whole by the decoder: it is unescaped in
// pieces as it is read (json.Decoder.StreamLongStrings) into chunks of
// 1 MiB, which a text column's binary COPY sends as they are. One 300 MB
// string costs the load about its own size: 324 MB peak RSS (777 MB when
// the decoder held it).
//
// With Options.Workers above one (by default one fewer than GOMAXPROCS:
// the writer keeps a core busy), NDJSON after
// the first rows is cut into chunks of whole lines that several
// goroutines decode straight into COPY's format; the rows go into the one
// COPY in input order, with their exact numbers and offsets. A row the
// workers cannot take as it is (a key the COPY does not name, a value that
// does not fit, a syntax error, an object spread over lines, a line over
// 4 MiB) hands the rest of the input to the one-goroutine decoder.
//
// # CSV and TSV
//
// With [Options].Delimiter set (',' for CSV, '\t' for TSV), Insert reads
// delimited text with a header row instead of JSON. A new table gets the
// header's columns, typed bigint, double precision or text as sqlite-utils 4
// detects them in the first InferRows rows; values are stored with those
// types, an empty field as NULL (with [Options].EmptyStrings, a text
// column's as the empty string). These are inferred types, as JSON's are:
// a later value that does not fit widens its column as described under
// Tables and types (bigint to double precision to text; numeric when a
// sampled integer is past bigint's range), unless [Options].StrictTypes.
// Every other option works as for JSON. A
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
// A missing table is created, with its columns typed from the first
// Options.InferRows rows: integers bigint, other numbers double precision
// (numeric when an integer is beyond bigint's range), true/false boolean,
// strings text, nested objects and arrays jsonb; a column of mixed kinds is
// jsonb if nested values are among them, text otherwise; a column of only
// nulls is text. With Options.Flatten a nested object's members are
// columns of their own instead, named a_b as sqlite-utils names them;
// with Options.Truncate an existing table is emptied (TRUNCATE) in the
// first batch's transaction. A table has at most 1,600 columns: a load
// that would make more is an error naming the count and the limit.
// [ColumnsOf] derives the columns from a Go struct instead,
// and Options.Columns takes them as given. A single primary-key column the
// rows never hold becomes an identity column that PostgreSQL numbers.
// Options.NotNull and Options.Defaults add constraints, as in package
// sqlite (a default for a key no row holds adds its column).
//
// A later value that does not fit the type a column of a table the load
// creates was inferred to have widens the column, to the type inference
// would have given all its values: bigint becomes double precision for a
// fraction and numeric for an integer beyond bigint (numeric holds both
// exactly), numbers and booleans become text for a string, and any scalar
// becomes jsonb for an object or array. The COPY ends before the row,
// ALTER TABLE ... ALTER COLUMN ... TYPE runs in the batch's transaction
// (the stored values cast: 1.5 becomes '1.5', and into jsonb with
// to_jsonb, so the text 'x' becomes the JSON string "x"), and the load
// goes on with the row; [Result].Widened lists each change. Over several
// connections the batch that widens runs alone, as one that adds a
// column does. Options.StrictTypes turns widening off: the value is then
// an error, as in a table the load did not create or a column whose type
// Options.Columns gave. (A text column takes any value, so it is never
// widened, to jsonb or anything else: a nested value after strings is
// stored as its JSON text.)
//
// An existing table is loaded as it is: the COPY names the columns the
// rows hold, so the others take their defaults, and its types are never
// changed. Values must fit their column: a string in a bigint column, a fraction in an integer column or
// a number beyond its range is a *TypeError naming the row; a text column
// takes any scalar's text and a nested value's JSON; json and jsonb take
// any value. With Options.Alter a key first seen later adds a column; a
// key of an existing column first seen later starts a new COPY naming it.
//
// Names are quoted identifiers: PostgreSQL folds nothing inside quotes, so
// a key is its column's name exactly, whatever it holds (quotes,
// semicolons, any Unicode), and keys that differ only in case ("Group",
// "group") are two columns (package sqlite, whose names ignore ASCII case,
// refuses a row holding both). A key PostgreSQL cannot take as a name
// (empty, holding NUL, or longer than 63 bytes, which PostgreSQL would cut
// short and so could merge two keys into one column) is a *TypeError. One
// key given twice in a row (byte for byte once unescaped) is one column,
// and its last value wins, as with encoding/json. Values only ever travel
// as COPY data.
//
// # Conflicts
//
// COPY has no ON CONFLICT. With Options.Conflict set to [Ignore], [Replace]
// or [Upsert], each batch is copied into a temporary staging table (with
// each row's number) and moved into the table with one
// INSERT ... SELECT ... ON CONFLICT, which settles rows of the same batch
// with the same key in input order. Re-running the same input with a
// primary key and Ignore changes nothing.
//
// # Errors
//
// A syntax error, a value that does not fit, or a row PostgreSQL refuses
// stops the load with a *RowError naming the row (1-based, counting the
// objects of the input) and a byte offset: the batches committed before
// it stay, the failing batch is rolled back, and [Result].Rows counts
// exactly the committed rows. PostgreSQL names the refused row of a COPY
// in its error's context, which is mapped back to the input's row; a
// refusal while moving rows from the staging table is narrowed down to its
// row by bisection (each try rolled back to a savepoint). A refusal no row
// is named for (a deferred constraint) is a *BatchError with the batch's
// rows. A reader's error, a dropped connection and a cancelled context
// come back as they are, with the same exact count; a reader's error in a
// *RowError naming the row it cut short and the offset where reading
// stopped, with workers or without.
//
// # Output
//
// [WriteQuery] runs any query and writes its rows as a JSON array or as
// NDJSON, in constant memory: json and jsonb as JSON, bytea as base64,
// numbers as PostgreSQL prints them, everything else as strings. A query
// that fails part-way leaves the rows before the error in the writer and
// an array unclosed, so that output cut short never parses as a complete
// result.
//
// [WriteQueryText] writes the rows as CSV, TSV ([LayoutCSV], [LayoutTSV],
// streamed the same way) or as an aligned table for a terminal
// ([LayoutTable]), each with a header row of column names: values as
// PostgreSQL prints them, booleans true and false, bytea in base64, NULL
// an empty field and an empty string "".
//
// # Several connections
//
// With Options.Connections above 1 each batch goes to a connection of its
// own as it is read, and the loader reads on into the next batch on
// another. Batches commit in input order, so everything said above about
// errors and exact counts holds as with one connection. Each batch waits
// for the one before through PostgreSQL (an advisory lock the earlier one
// holds until it ends), so that a key a later batch holds and an earlier
// one needs is a deadlock PostgreSQL breaks (after deadlock_timeout) and
// not a hang; the batches not yet committed are then sent again one at a
// time, with the outcome one connection gives. A batch's COPY data is
// kept in memory until it commits.
//
// # Beyond one server
//
// Citus distributes a table's rows over worker nodes and accepts COPY on
// its coordinator, routing each row to its shard, so a load into a
// distributed table is the same Insert, and Options.Connections runs
// several COPYs at once (one COPY and one transaction per batch each,
// committed in input order), spreading the coordinator's routing over as
// many backends. CockroachDB and YugabyteDB accept COPY FROM STDIN as
// well.
package postgres
