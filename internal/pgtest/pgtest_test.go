package pgtest

import (
	"context"
	"testing"
)

func TestMain(m *testing.M) { Main(m) }

func TestSchema(t *testing.T) {
	c := Conn(t)
	ctx := context.Background()
	if _, err := c.Exec(ctx, "CREATE TABLE x (a int)"); err != nil {
		t.Fatal(err)
	}
	var schema string
	if err := c.QueryRow(ctx, "SELECT table_schema FROM information_schema.tables WHERE table_name = 'x'").Scan(&schema); err != nil {
		t.Fatal(err)
	}
	var sp string
	c.QueryRow(ctx, "SHOW search_path").Scan(&sp)
	if schema != sp {
		t.Fatalf("table in schema %q, search_path %q", schema, sp)
	}
}
