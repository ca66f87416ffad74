package sqlite_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"strings"

	"github.com/jsonpipe/json/sqlite"
)

func tempDB() (string, func()) {
	dir, err := os.MkdirTemp("", "sqlite-example-")
	if err != nil {
		log.Fatal(err)
	}
	return filepath.Join(dir, "example.db"), func() { os.RemoveAll(dir) }
}

// Load newline-delimited JSON into a new table, then read it back.
func ExampleInsert() {
	path, cleanup := tempDB()
	defer cleanup()
	db, err := sqlite.Open(path)
	if err != nil {
		log.Fatal(err)
	}
	defer db.Close()

	input := `{"title":"Clean Room","done":false}
{"title":"Check Twitter","done":true,"tags":["social"]}
`
	res, err := sqlite.Insert(context.Background(), db, "tasks", strings.NewReader(input), &sqlite.Options{
		PrimaryKey: []string{"id"}, // not in the input: SQLite numbers the rows
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%d rows, table created: %v\n", res.Rows, res.Created)

	var create string
	db.QueryRow("SELECT sql FROM sqlite_master WHERE name = 'tasks'").Scan(&create)
	fmt.Println(create)
	// Output:
	// 2 rows, table created: true
	// CREATE TABLE "tasks" (
	//   "id" INTEGER PRIMARY KEY,
	//   "title" TEXT,
	//   "done" INTEGER,
	//   "tags" JSON TEXT
	// )
}

// Load a file into a database file, creating both the database and the
// table; loading it again with Ignore changes nothing.
func ExampleInsertPath() {
	path, cleanup := tempDB()
	defer cleanup()
	input := `[{"id":1,"name":"ada"},{"id":2,"name":"grace"}]`
	opts := &sqlite.Options{PrimaryKey: []string{"id"}, Conflict: sqlite.Ignore}
	for i := 0; i < 2; i++ {
		res, err := sqlite.InsertPath(context.Background(), path, "people", strings.NewReader(input), opts)
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("load %d: %d rows read, %d changed\n", i+1, res.Rows, res.Changes)
	}
	// Output:
	// load 1: 2 rows read, 2 changed
	// load 2: 2 rows read, 0 changed
}

// A failure names the row and byte offset; complete batches before it stay.
func ExampleRowError() {
	path, cleanup := tempDB()
	defer cleanup()
	input := `{"n":1}
{"n":2}
{"n":3,}
`
	res, err := sqlite.InsertPath(context.Background(), path, "t", strings.NewReader(input), &sqlite.Options{BatchSize: 1})
	fmt.Println(err)
	fmt.Println("committed:", res.Rows)
	// Output:
	// sqlite: row 3 at byte 24 (line 3, column 8): invalid character '}' looking for beginning of object key string
	// committed: 2
}

// SQLite ignores ASCII case in column names: a key in any case goes to
// its column, but two keys of one row that name the same column are an
// error, as one of their values would be lost.
func ExampleInsert_keyCase() {
	path, cleanup := tempDB()
	defer cleanup()
	input := `{"id":1,"Group":"a"}
{"id":2,"GROUP":"b"}
{"id":3,"Group":"c","group":"d"}
`
	res, err := sqlite.InsertPath(context.Background(), path, "t", strings.NewReader(input), &sqlite.Options{BatchSize: 1})
	fmt.Println(err)
	fmt.Println("committed:", res.Rows)
	// Output:
	// sqlite: row 3 at byte 69: keys "Group" and "group" both name column "Group" (SQLite column names ignore ASCII case): one of the two values would be lost
	// committed: 2
}

// Stream a query's rows out as JSON.
func ExampleWriteQuery() {
	path, cleanup := tempDB()
	defer cleanup()
	db, _ := sqlite.Open(path)
	defer db.Close()
	db.Exec(`CREATE TABLE t (i INTEGER, r REAL, s TEXT, b BLOB, n TEXT);
		INSERT INTO t VALUES (1, 2.0, 'say "hi"', x'cafe', NULL)`)

	if _, err := sqlite.WriteQuery(context.Background(), db, os.Stdout, sqlite.Lines, "SELECT * FROM t WHERE i = ?", 1); err != nil {
		log.Fatal(err)
	}
	// Output:
	// {"i":1,"r":2.0,"s":"say \"hi\"","b":"yv4=","n":null}
}

// Rows as CSV, then as a table for a terminal. NULL is an empty field,
// the empty string "" (quoted).
func ExampleWriteQueryText() {
	db, _ := sqlite.Open(":memory:")
	defer db.Close()
	db.Exec(`CREATE TABLE t (id INTEGER, name TEXT, tags JSON);
		INSERT INTO t VALUES (1, 'Cleo, the cat', '["a","b"]'), (20, '', NULL), (300, NULL, '[]')`)

	q := "SELECT * FROM t ORDER BY id"
	if _, err := sqlite.WriteQueryText(context.Background(), db, os.Stdout, sqlite.LayoutCSV, q); err != nil {
		log.Fatal(err)
	}
	fmt.Println()
	if _, err := sqlite.WriteQueryText(context.Background(), db, os.Stdout, sqlite.LayoutTable, q); err != nil {
		log.Fatal(err)
	}
	// Output:
	// id,name,tags
	// 1,"Cleo, the cat","[""a"",""b""]"
	// 20,"",
	// 300,,[]
	//
	//  id  name           tags
	// ---  -------------  ---------
	//   1  Cleo, the cat  ["a","b"]
	//  20
	// 300                 []
}

// A query that fails part-way leaves the rows before the error, and an
// array that is not closed: the output cannot pass for a complete result.
func ExampleWriteQuery_failure() {
	db, _ := sqlite.Open(":memory:")
	defer db.Close()
	var out strings.Builder
	n, err := sqlite.WriteQuery(context.Background(), db, &out, sqlite.Array,
		`SELECT column1 AS x, abs(column1) AS a FROM (VALUES (1), (-2), (-9223372036854775807 - 1), (4))`)
	fmt.Print(out.String())
	fmt.Printf("%d rows written, then: %v\n", n, err)
	// Output:
	// [{"x":1,"a":1},
	// {"x":-2,"a":2}
	// 2 rows written, then: integer overflow
}

// A database that cannot be opened, or a file that is not one, is named
// in the error, with what is wrong with it.
func ExampleDBError() {
	path, cleanup := tempDB()
	defer cleanup()
	dir := filepath.Dir(path)
	os.WriteFile(path, []byte(`[{"id":1}]`), 0o644)
	for _, db := range []string{filepath.Join(dir, "missing", "t.db"), path} {
		_, err := sqlite.InsertPath(context.Background(), db, "t", strings.NewReader(`{"id":2}`), nil)
		var de *sqlite.DBError
		fmt.Println(errors.As(err, &de), strings.ReplaceAll(err.Error(), dir, "DIR"))
	}
	// Output:
	// true sqlite: database DIR/missing/t.db: directory DIR/missing does not exist
	// true sqlite: database DIR/example.db: the file is not an SQLite database (it holds JSON)
}

// Take a table's columns from a Go struct type.
func ExampleColumnsOf() {
	type Task struct {
		ID    int64    `json:"id"`
		Title string   `json:"title"`
		Done  bool     `json:"done"`
		Tags  []string `json:"tags,omitempty"`
	}
	cols, err := sqlite.ColumnsOf[Task]()
	if err != nil {
		log.Fatal(err)
	}
	cols[1].NotNull = true
	for _, c := range cols {
		fmt.Println(c.Name, c.Type, c.NotNull)
	}
	// Use as: sqlite.Insert(ctx, db, "tasks", r, &sqlite.Options{Columns: cols, PrimaryKey: []string{"id"}})

	// Output:
	// id INTEGER false
	// title TEXT true
	// done INTEGER false
	// tags TEXT false
}

// Load a file, then export the table by path, as `jsonpipe query` does.
func ExampleWriteQueryPath() {
	path, cleanup := tempDB()
	defer cleanup()
	input := `{"title":"Clean Room","done":false}
{"title":"Check Twitter","done":true}
`
	if _, err := sqlite.InsertPath(context.Background(), path, "tasks", strings.NewReader(input), nil); err != nil {
		log.Fatal(err)
	}
	n, err := sqlite.WriteQueryPath(context.Background(), path, os.Stdout, sqlite.Array, "SELECT * FROM tasks WHERE done = ?", 1)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("rows:", n)
	// Output:
	// [{"title":"Check Twitter","done":1}]
	// rows: 1
}

// OpenExisting never creates a database: a path that names no file is an
// error that says so.
func ExampleOpenExisting() {
	_, err := sqlite.OpenExisting(context.Background(), "no/such/dir/tasks.db")
	fmt.Println(err)
	// Output:
	// sqlite: database no/such/dir/tasks.db: directory no/such/dir does not exist
}
