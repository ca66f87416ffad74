package postgres

import (
	"context"
	"encoding"
	"fmt"
	"reflect"
	"regexp"
	"strings"
	"time"

	"github.com/jsonpipe/json/internal/loader"
	"github.com/jsonpipe/json/internal/rowsrc"

	"github.com/jackc/pgx/v5"
)

// Column describes one column of the table Insert creates: its name,
// exactly as the JSON key (after unescaping); its declared type
// ("bigint", "double precision", "text", "boolean", "jsonb", "numeric", or
// any other PostgreSQL type: "timestamptz", "uuid", "varchar(20)",
// "integer[]"; empty means text); NOT NULL; and a DEFAULT, as a value of
// Options.Defaults gives one. It is the same type in packages sqlite and
// postgres.
type Column = loader.Column

// column is a table column as the loader knows it.
type column struct {
	name    string
	typ     string // as PostgreSQL prints it (format_type)
	ct      colType
	notNull bool
	dflt    string  // a DEFAULT clause's expression for a table Insert creates, or ""
	inTable bool    // the table has it (else it is a key seen, to be added)
	copied  bool    // it is in the COPY's column list
	keyed   bool    // a row has held its key
	seen    typeSet // the kinds of its values while sampling, and first after
	// inferred: its type was inferred from the values (not given in
	// Columns, nor the table's own), so it may be widened (widen.go).
	inferred bool
}

// ColumnsOf returns the columns of a table holding values of the struct
// type T, named as encoding/json (and this module's Unmarshal) name them:
// the json tag's name, or the field name; "-" skips a field; embedded
// structs without a tag are flattened. Go types map to PostgreSQL types:
// bool boolean, integers bigint (uint64 and uint numeric), float32 real,
// float64 double precision, string text, time.Time timestamptz; []byte
// (base64 in JSON) and encoding.TextMarshaler text; structs, maps, slices
// and arrays jsonb. Pointers map as their element type.
//
// Use the result as Options.Columns, after setting NotNull where wanted.
func ColumnsOf[T any]() ([]Column, error) {
	fields, err := rowsrc.Fields(reflect.TypeFor[T](), false)
	if err != nil {
		return nil, fmt.Errorf("postgres: ColumnsOf: %w", err)
	}
	cols := make([]Column, len(fields))
	for i, f := range fields {
		cols[i] = Column{Name: f.Name, Type: goColumnType(f.Type)}
	}
	return cols, nil
}

var (
	timeType          = reflect.TypeFor[time.Time]()
	textMarshalerType = reflect.TypeFor[encoding.TextMarshaler]()
)

func goColumnType(t reflect.Type) string {
	switch {
	case t == timeType:
		return "timestamptz"
	case t.Implements(textMarshalerType) || reflect.PointerTo(t).Implements(textMarshalerType):
		return TypeText
	}
	switch t.Kind() {
	case reflect.Bool:
		return TypeBoolean
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint8, reflect.Uint16, reflect.Uint32:
		return TypeBigint
	case reflect.Uint, reflect.Uint64, reflect.Uintptr:
		return TypeNumeric
	case reflect.Float32:
		return "real"
	case reflect.Float64:
		return TypeDouble
	case reflect.String:
		return TypeText
	case reflect.Slice:
		if t.Elem().Kind() == reflect.Uint8 {
			return TypeText // base64 in JSON
		}
	}
	if t.Kind() == reflect.Interface {
		return TypeJSONB
	}
	return TypeJSONB // structs, maps, slices, arrays
}

// typePattern is what a declared type may look like: PostgreSQL type names
// ("bigint", "double precision", "varchar(20)", "numeric(10, 2)",
// "timestamp with time zone", "text[]", "public.mytype"). Types are the one
// piece of SQL text a caller supplies that is not a quoted identifier or
// COPY data, so they are checked against it.
var typePattern = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_ .]*(\(\s*[+-]?[0-9]+\s*(,\s*[+-]?[0-9]+\s*)?\))?(\s*\[\d*\])*$`)

func validType(t string) error {
	if t == "" || typePattern.MatchString(t) {
		return nil
	}
	return fmt.Errorf("postgres: column type %q is not a PostgreSQL type name", t)
}

// loadTable reads the columns of table, if it exists, with their types
// and its primary key.
func loadTable(ctx context.Context, c *pgx.Conn, table string) (cols []column, pk []string, exists bool, err error) {
	rows, err := c.Query(ctx, `SELECT a.attname, format_type(a.atttypid, a.atttypmod), a.atttypid, a.attnotnull
		FROM pg_attribute a WHERE a.attrelid = to_regclass($1) AND a.attnum > 0 AND NOT a.attisdropped
		ORDER BY a.attnum`, quoteIdent(table))
	if err != nil {
		return nil, nil, false, err
	}
	for rows.Next() {
		var col column
		var oid uint32
		if err := rows.Scan(&col.name, &col.typ, &oid, &col.notNull); err != nil {
			rows.Close()
			return nil, nil, false, err
		}
		col.ct, col.inTable = colTypeOf(oid), true
		cols = append(cols, col)
	}
	if err := rows.Err(); err != nil {
		return nil, nil, false, err
	}
	if len(cols) == 0 {
		var reg *string
		if err := c.QueryRow(ctx, "SELECT to_regclass($1)::text", quoteIdent(table)).Scan(&reg); err != nil {
			return nil, nil, false, err
		}
		if reg == nil {
			return nil, nil, false, nil
		}
	}
	rows, err = c.Query(ctx, `SELECT a.attname FROM pg_index i
		JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = ANY(i.indkey)
		WHERE i.indrelid = to_regclass($1) AND i.indisprimary
		ORDER BY array_position(i.indkey::int2[], a.attnum)`, quoteIdent(table))
	if err != nil {
		return nil, nil, false, err
	}
	pk, err = pgx.CollectRows(rows, pgx.RowTo[string])
	return cols, pk, true, err
}

// createTableSQL renders CREATE TABLE for cols with the primary key pk. A
// single primary-key column that the input never holds (its type still
// unknown) becomes an identity column, numbered by PostgreSQL.
func createTableSQL(table string, cols []column, pk []string) string {
	var b strings.Builder
	b.WriteString("CREATE TABLE " + quoteIdent(table) + " (\n")
	for i, c := range cols {
		if i > 0 {
			b.WriteString(",\n")
		}
		b.WriteString("  " + quoteIdent(c.name) + " " + c.typ)
		if c.notNull {
			b.WriteString(" NOT NULL")
		}
		if c.dflt != "" {
			b.WriteString(" DEFAULT " + c.dflt)
		}
	}
	if len(pk) > 0 {
		b.WriteString(",\n  PRIMARY KEY (")
		for i, p := range pk {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(quoteIdent(p))
		}
		b.WriteString(")")
	}
	b.WriteString("\n)")
	return b.String()
}
