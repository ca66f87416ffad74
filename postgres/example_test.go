package postgres_test

import (
	"context"
	"fmt"
	"log"
	"os"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jsonpipe/json/postgres"
)

// Load NDJSON into a table created from the rows, then read it back as
// JSON. (Not run by go test: it needs a server, at DATABASE_URL.)
func ExampleInsert() {
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, os.Getenv("DATABASE_URL"))
	if err != nil {
		log.Fatal(err)
	}
	defer conn.Close(ctx)

	in := strings.NewReader(`{"id": 1, "title": "write docs", "tags": ["docs"]}
{"id": 2, "title": "ship it", "done": true}
`)
	res, err := postgres.Insert(ctx, conn, "tasks", in, &postgres.Options{
		PrimaryKey: []string{"id"},
		Conflict:   postgres.Upsert, // re-running updates, never duplicates
	})
	if err != nil {
		log.Fatalf("%v (%d rows committed)", err, res.Rows)
	}
	if _, err := postgres.WriteQuery(ctx, conn, os.Stdout, postgres.Lines, "SELECT * FROM tasks ORDER BY id"); err != nil {
		log.Fatal(err)
	}
}

// The columns of a table for a Go struct, with one made NOT NULL.
func ExampleColumnsOf() {
	type Task struct {
		ID    int64    `json:"id"`
		Title string   `json:"title"`
		Tags  []string `json:"tags,omitempty"`
	}
	cols, err := postgres.ColumnsOf[Task]()
	if err != nil {
		log.Fatal(err)
	}
	cols[1].NotNull = true
	for _, c := range cols {
		fmt.Printf("%s %s not null: %v\n", c.Name, c.Type, c.NotNull)
	}
	_ = &postgres.Options{Columns: cols, PrimaryKey: []string{"id"}}
	// Output:
	// id bigint not null: false
	// title text not null: true
	// tags jsonb not null: false
}

// Load a large NDJSON file over four connections, each batch of 50,000
// rows one transaction, committed in the input's order: on an error the
// rows before the failing batch are in the table, and res.Rows says how
// many. (Not run by go test: it needs a server, at DATABASE_URL.)
func ExampleOptions_connections() {
	ctx := context.Background()
	res, err := postgres.InsertURL(ctx, os.Getenv("DATABASE_URL"), "events", os.Stdin, &postgres.Options{
		Format:      postgres.Lines,
		BatchSize:   50_000,
		Connections: 4,
	})
	if err != nil {
		log.Fatalf("%v (%d rows committed)", err, res.Rows)
	}
	fmt.Println(res.Rows, "rows")
}

// A query's rows as CSV: a header, then a row a line; NULL is an empty
// field, the empty string "". (Not run by go test: it needs a server, at
// DATABASE_URL.)
func ExampleWriteQueryText() {
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, os.Getenv("DATABASE_URL"))
	if err != nil {
		log.Fatal(err)
	}
	defer conn.Close(ctx)

	q := `SELECT * FROM (VALUES (1, 'Cleo, the cat', '["a"]'::jsonb), (2, '', NULL)) AS t(id, name, tags)`
	if _, err := postgres.WriteQueryText(ctx, conn, os.Stdout, postgres.LayoutCSV, q); err != nil {
		log.Fatal(err)
	}
	// Prints:
	// id,name,tags
	// 1,"Cleo, the cat","[""a""]"
	// 2,"",
}
