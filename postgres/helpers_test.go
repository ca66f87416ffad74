package postgres

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jsonpipe/json/internal/pgtest"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

var bg = context.Background()

// load runs Insert of input into table over a fresh schema's connection.
func load(t *testing.T, c *pgx.Conn, table, input string, opts *Options) (Result, error) {
	t.Helper()
	return Insert(bg, c, table, strings.NewReader(input), opts)
}

// mustLoad is load that fails the test on error.
func mustLoad(t *testing.T, c *pgx.Conn, table, input string, opts *Options) Result {
	t.Helper()
	res, err := load(t, c, table, input, opts)
	if err != nil {
		t.Fatalf("Insert: %v", err)
	}
	return res
}

// dump returns the rows of a query, each as its columns' text (or NULL)
// joined by '|', in one string of lines.
func dump(t *testing.T, c *pgx.Conn, query string) string {
	t.Helper()
	if _, err := c.Exec(bg, "SET TIME ZONE 'UTC'"); err != nil {
		t.Fatal(err)
	}
	rows, err := c.Query(bg, query, pgx.QueryExecModeSimpleProtocol)
	if err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	defer rows.Close()
	var b strings.Builder
	for rows.Next() {
		vals := rows.RawValues()
		for i, v := range vals {
			if i > 0 {
				b.WriteByte('|')
			}
			if v == nil {
				b.WriteString("NULL")
			} else {
				b.Write(v)
			}
		}
		b.WriteByte('\n')
	}
	if err := rows.Err(); err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	return b.String()
}

// columnTypes returns "name type" of each column of table, in order.
func columnTypes(t *testing.T, c *pgx.Conn, table string) string {
	t.Helper()
	return dump(t, c, fmt.Sprintf(`SELECT a.attname || ' ' || format_type(a.atttypid, a.atttypmod)
		FROM pg_attribute a WHERE a.attrelid = to_regclass(%s) AND a.attnum > 0 AND NOT a.attisdropped ORDER BY a.attnum`,
		quoteLiteral(quoteIdent(table))))
}

func count(t *testing.T, c *pgx.Conn, table string) int64 {
	t.Helper()
	var n int64
	if err := c.QueryRow(bg, "SELECT count(*) FROM "+quoteIdent(table)).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}
