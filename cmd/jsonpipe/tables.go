package main

import (
	"context"
	"database/sql"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/jackc/pgx/v5"
	json "github.com/jsonpipe/json"
	"github.com/jsonpipe/json/sqlite"
)

// The tables and schema commands: what is in a database.
//
// SQLite: every table in sqlite_master but SQLite's own (sqlite_...).
// PostgreSQL: the ordinary and partitioned tables the connection's search
// path makes visible (by default those of public), partitions left out
// (their parent counts their rows), named as "jsonpipe insert" names a
// table: unqualified. Both are sorted by name.

// tableRows is one element of the tables command's output.
type tableRows struct {
	name string
	rows int64
}

func tablesCmd(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	pos, err := parseNoFlags("jsonpipe tables DB", args, stderr,
		`Write the tables of DB and how many rows each holds, as a JSON array of
{"table": NAME, "rows": N} sorted by name. SQLite: every table but
SQLite's own (sqlite_...). PostgreSQL: the tables the search path makes
visible (public by default), partitions counted in their parent.`)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return errUsage{"tables needs DB"}
	}
	var tables []tableRows
	if isPostgres(pos[0]) {
		tables, err = postgresTables(ctx, pos[0])
	} else {
		tables, err = sqliteTables(ctx, pos[0])
	}
	if err != nil {
		return err
	}
	b := []byte{'['}
	for i, t := range tables {
		if i > 0 {
			b = append(b, ",\n"...)
		}
		b = json.AppendQuote(append(b, `{"table":`...), t.name)
		b = fmt.Appendf(b, `,"rows":%d}`, t.rows)
	}
	b = append(b, "]\n"...)
	_, err = stdout.Write(b)
	return err
}

func schemaCmd(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	pos, err := parseNoFlags("jsonpipe schema DB [TABLE]", args, stderr,
		`Write the CREATE statements of DB's tables, or of TABLE alone, each
ending with ";". SQLite: the statements as stored in sqlite_master, with
each table's indexes and triggers after it (and views). PostgreSQL: a
CREATE TABLE rebuilt from the catalog (columns, types, defaults, NOT
NULL, constraints such as the primary key), then the table's other
indexes, for the tables the search path makes visible.`)
	if err != nil {
		return err
	}
	if len(pos) < 1 || len(pos) > 2 {
		return errUsage{"schema needs DB [TABLE]"}
	}
	table := ""
	if len(pos) == 2 {
		table = pos[1]
		if table == "" {
			return errUsage{"schema: TABLE is empty"}
		}
	}
	var stmts []string
	if isPostgres(pos[0]) {
		stmts, err = postgresSchema(ctx, pos[0], table)
	} else {
		stmts, err = sqliteSchema(ctx, pos[0], table)
	}
	if err != nil {
		return err
	}
	if table != "" && len(stmts) == 0 {
		return fmt.Errorf("no table %s in %s", quoteName(table), pos[0])
	}
	var b strings.Builder
	for _, s := range stmts {
		b.WriteString(s)
		b.WriteString(";\n")
	}
	_, err = io.WriteString(stdout, b.String())
	return err
}

// parseNoFlags parses the arguments of a command without flags but -h,
// which prints usage and about.
func parseNoFlags(usage string, args []string, stderr io.Writer, about string) ([]string, error) {
	fs := flag.NewFlagSet(strings.Fields(usage)[0]+" "+strings.Fields(usage)[1], flag.ContinueOnError)
	fs.SetOutput(stderr)
	return parseInterleaved(fs, args, usage+"\n\n"+about)
}

// quoteName is name in double quotes, for messages.
func quoteName(name string) string {
	return string(json.AppendQuote(nil, name))
}

// sqliteDB opens the SQLite database at path, which must exist.
func sqliteDB(ctx context.Context, path string, f func(db *sql.DB) error) error {
	db, err := sqlite.OpenExisting(ctx, path)
	if err != nil {
		return err
	}
	err = f(db)
	if cerr := db.Close(); err == nil {
		err = cerr
	}
	return err
}

// sqliteIdent quotes name as an SQLite identifier.
func sqliteIdent(name string) string {
	return `"` + strings.ReplaceAll(name, `"`, `""`) + `"`
}

const sqliteTableNames = `SELECT name FROM sqlite_master
	WHERE type = 'table' AND name NOT LIKE 'sqlite\_%' ESCAPE '\' ORDER BY name`

func sqliteTables(ctx context.Context, path string) (tables []tableRows, err error) {
	err = sqliteDB(ctx, path, func(db *sql.DB) error {
		names, err := strings1(db.QueryContext(ctx, sqliteTableNames))
		if err != nil {
			return err
		}
		for _, name := range names {
			t := tableRows{name: name}
			if err := db.QueryRowContext(ctx, "SELECT count(*) FROM "+sqliteIdent(name)).Scan(&t.rows); err != nil {
				return fmt.Errorf("counting the rows of %s: %w", quoteName(name), err)
			}
			tables = append(tables, t)
		}
		return nil
	})
	return tables, err
}

// sqliteSchema returns the stored CREATE statements: of every table (but
// SQLite's own) and view, or of table alone; each table's indexes and
// triggers follow it. SQLite ignores ASCII case in names, and so does
// TABLE.
func sqliteSchema(ctx context.Context, path, table string) (stmts []string, err error) {
	err = sqliteDB(ctx, path, func(db *sql.DB) error {
		stmts, err = strings1(db.QueryContext(ctx, `
			WITH t AS (SELECT name FROM sqlite_master
				WHERE type IN ('table', 'view') AND name NOT LIKE 'sqlite\_%' ESCAPE '\'
				AND (?1 = '' OR name = ?1 COLLATE NOCASE))
			SELECT m.sql FROM sqlite_master m JOIN t ON m.tbl_name = t.name
			WHERE m.sql IS NOT NULL
			ORDER BY t.name, m.type NOT IN ('table', 'view'), m.type, m.name`, table))
		return err
	})
	return stmts, err
}

// strings1 is the first column of rows, each a string.
func strings1(rows *sql.Rows, err error) ([]string, error) {
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, rows.Err()
}

// postgresVisibleTables selects the oid and name of the tables the
// search path makes visible, or of the one named $1.
const postgresVisibleTables = `SELECT c.oid, c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
	WHERE c.relkind IN ('r', 'p') AND NOT c.relispartition AND pg_table_is_visible(c.oid)
	AND n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname NOT LIKE 'pg\_toast%'
	AND ($1 = '' OR c.relname = $1)
	ORDER BY c.relname`

type pgTable struct {
	oid  uint32
	name string
}

func postgresDB(ctx context.Context, url string, f func(c *pgx.Conn) error) error {
	c, err := pgx.Connect(ctx, url)
	if err != nil {
		return err
	}
	defer c.Close(context.Background())
	return f(c)
}

func visibleTables(ctx context.Context, c *pgx.Conn, table string) ([]pgTable, error) {
	rows, err := c.Query(ctx, postgresVisibleTables, table)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (pgTable, error) {
		var t pgTable
		err := r.Scan(&t.oid, &t.name)
		return t, err
	})
}

func postgresTables(ctx context.Context, url string) (tables []tableRows, err error) {
	err = postgresDB(ctx, url, func(c *pgx.Conn) error {
		ts, err := visibleTables(ctx, c, "")
		if err != nil {
			return err
		}
		for _, t := range ts {
			r := tableRows{name: t.name}
			if err := c.QueryRow(ctx, "SELECT count(*) FROM "+pgx.Identifier{t.name}.Sanitize()).Scan(&r.rows); err != nil {
				return fmt.Errorf("counting the rows of %s: %w", quoteName(t.name), err)
			}
			tables = append(tables, r)
		}
		return nil
	})
	return tables, err
}

// postgresSchema rebuilds CREATE TABLE for each visible table (or the one
// named table, matched exactly, as PostgreSQL matches a quoted name),
// followed by its indexes that back no constraint.
func postgresSchema(ctx context.Context, url, table string) (stmts []string, err error) {
	err = postgresDB(ctx, url, func(c *pgx.Conn) error {
		ts, err := visibleTables(ctx, c, table)
		if err != nil {
			return err
		}
		for _, t := range ts {
			s, err := createTable(ctx, c, t)
			if err != nil {
				return fmt.Errorf("the schema of %s: %w", quoteName(t.name), err)
			}
			stmts = append(stmts, s)
			rows, err := c.Query(ctx, `SELECT pg_get_indexdef(i.indexrelid) FROM pg_index i
				WHERE i.indrelid = $1 AND NOT EXISTS (SELECT FROM pg_constraint k WHERE k.conindid = i.indexrelid)
				ORDER BY 1`, t.oid)
			if err != nil {
				return err
			}
			idx, err := pgx.CollectRows(rows, pgx.RowTo[string])
			if err != nil {
				return err
			}
			stmts = append(stmts, idx...)
		}
		return nil
	})
	return stmts, err
}

// createTable rebuilds t's CREATE TABLE: each column with its type,
// identity or generation, default and NOT NULL, then each constraint but
// NOT NULL (the primary key, unique, check, foreign keys) as
// pg_get_constraintdef words it.
func createTable(ctx context.Context, c *pgx.Conn, t pgTable) (string, error) {
	var b strings.Builder
	b.WriteString("CREATE TABLE ")
	var name string
	if err := c.QueryRow(ctx, "SELECT quote_ident($1)", t.name).Scan(&name); err != nil {
		return "", err
	}
	b.WriteString(name)
	b.WriteString(" (")
	rows, err := c.Query(ctx, `SELECT quote_ident(a.attname), format_type(a.atttypid, a.atttypmod), a.attnotnull,
			coalesce(pg_get_expr(d.adbin, d.adrelid), ''), a.attidentity::text, a.attgenerated::text
		FROM pg_attribute a LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
		WHERE a.attrelid = $1 AND a.attnum > 0 AND NOT a.attisdropped ORDER BY a.attnum`, t.oid)
	if err != nil {
		return "", err
	}
	n := 0
	var col, typ, dflt, identity, generated string
	var notNull bool
	_, err = pgx.ForEachRow(rows, []any{&col, &typ, &notNull, &dflt, &identity, &generated}, func() error {
		if n > 0 {
			b.WriteByte(',')
		}
		n++
		b.WriteString("\n  " + col + " " + typ)
		switch {
		case identity == "a":
			b.WriteString(" GENERATED ALWAYS AS IDENTITY")
		case identity == "d":
			b.WriteString(" GENERATED BY DEFAULT AS IDENTITY")
		case generated == "s":
			b.WriteString(" GENERATED ALWAYS AS (" + dflt + ") STORED")
		case dflt != "":
			b.WriteString(" DEFAULT " + dflt)
		}
		if notNull {
			b.WriteString(" NOT NULL")
		}
		return nil
	})
	if err != nil {
		return "", err
	}
	rows, err = c.Query(ctx, `SELECT quote_ident(conname), pg_get_constraintdef(oid) FROM pg_constraint
		WHERE conrelid = $1 AND contype <> 'n' ORDER BY contype <> 'p', conname`, t.oid)
	if err != nil {
		return "", err
	}
	var cname, def string
	_, err = pgx.ForEachRow(rows, []any{&cname, &def}, func() error {
		if n > 0 {
			b.WriteByte(',')
		}
		n++
		b.WriteString("\n  CONSTRAINT " + cname + " " + def)
		return nil
	})
	if err != nil {
		return "", err
	}
	if n > 0 {
		b.WriteByte('\n')
	}
	b.WriteByte(')')
	return b.String(), nil
}
