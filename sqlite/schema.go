package sqlite

import (
	"encoding"
	"fmt"
	"reflect"
	"regexp"
	"strings"
	"time"

	"github.com/jsonpipe/json/internal/loader"
	"github.com/jsonpipe/json/internal/rowsrc"
)

// Column describes one column of the table Insert creates: its name,
// exactly as the JSON key (after unescaping); its declared type
// ("INTEGER", "REAL", "TEXT", "BLOB", or any other SQLite type name; empty
// means no declared type); NOT NULL; and a DEFAULT (bool, integer,
// float64, string or []byte): a key that is missing from an object, or is
// null, then takes the default. It is the same type in packages sqlite and
// postgres.
type Column = loader.Column

// Declared types Insert infers, as sqlite-utils does.
const (
	TypeInteger = "INTEGER" // integers in int64 range, booleans (0/1)
	TypeReal    = "REAL"    // other numbers; integers mixed with floats
	TypeText    = "TEXT"    // strings, mixtures (nested values with scalars too), all-null
	// TypeJSON is for columns of nested objects and arrays (and nulls),
	// which hold their JSON text. SQLite has no JSON type: the declared
	// type is a name, kept so that WriteQuery writes the objects and
	// arrays back as JSON rather than as strings. It has "TEXT" in it for
	// TEXT affinity, so that a value stored there later (past
	// Options.InferRows) is kept as it came, as in a TEXT column: a bare
	// "JSON" would have NUMERIC affinity and store the string "42" as the
	// number 42.
	TypeJSON = "JSON TEXT"
)

// ColumnsOf returns the columns of a table holding values of the struct
// type T, named as encoding/json (and this module's Unmarshal) name them:
// the json tag's name, or the field name; "-" skips a field; embedded
// structs without a tag are flattened. Go types map to declared types:
// integers and bool INTEGER, floats REAL, strings TEXT; time.Time,
// []byte (base64 in JSON), encoding.TextMarshaler, structs, maps, slices
// and arrays TEXT (their JSON text). Pointers map as their element type.
//
// Use the result as Options.Columns, after setting NotNull or Default
// where wanted.
func ColumnsOf[T any]() ([]Column, error) {
	// SQLite names ignore case: a name taken in another case keeps its
	// first field.
	fields, err := rowsrc.Fields(reflect.TypeFor[T](), true)
	if err != nil {
		return nil, fmt.Errorf("sqlite: ColumnsOf: %w", err)
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
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t == timeType || t.Implements(textMarshalerType) || reflect.PointerTo(t).Implements(textMarshalerType) {
		return TypeText
	}
	switch t.Kind() {
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return TypeInteger
	case reflect.Float32, reflect.Float64:
		return TypeReal
	}
	return TypeText
}

// typeSet records which kinds of value a column has held, for inference.
type typeSet uint8

const (
	sawInt typeSet = 1 << iota
	sawFloat
	sawText
	sawJSON
)

func (s typeSet) add(k kind) typeSet {
	switch k {
	case kindInt:
		return s | sawInt
	case kindFloat:
		return s | sawFloat
	case kindText:
		return s | sawText
	case kindJSON:
		return s | sawJSON
	}
	return s
}

// declType is sqlite-utils' rule: one kind gives its type, integers with
// floats give REAL, anything else mixed (or nothing but nulls) gives TEXT;
// but nested values alone give JSON, not TEXT.
func (s typeSet) declType() string {
	switch s {
	case sawInt:
		return TypeInteger
	case sawFloat, sawInt | sawFloat:
		return TypeReal
	case sawJSON:
		return TypeJSON
	}
	return TypeText
}

// createTableSQL renders CREATE TABLE for cols with the primary key pk
// (column names, in order). A single INTEGER primary key becomes the rowid
// alias ("id INTEGER PRIMARY KEY"), so rows without it get one assigned.
func createTableSQL(table string, cols []column, pk []string) (string, error) {
	var b strings.Builder
	b.WriteString("CREATE TABLE ")
	writeIdent(&b, table)
	b.WriteString(" (\n")
	inlinePK := len(pk) == 1
	for i, c := range cols {
		if i > 0 {
			b.WriteString(",\n")
		}
		b.WriteString("  ")
		writeIdent(&b, c.name)
		if c.typ != "" {
			b.WriteByte(' ')
			b.WriteString(c.typ)
		}
		if inlinePK && c.name == pk[0] {
			b.WriteString(" PRIMARY KEY")
		}
		if c.notNull {
			b.WriteString(" NOT NULL")
		}
		if c.dflt != "" {
			b.WriteString(" DEFAULT ")
			b.WriteString(c.dflt)
		}
	}
	if len(pk) > 1 {
		b.WriteString(",\n  PRIMARY KEY (")
		for i, p := range pk {
			if i > 0 {
				b.WriteString(", ")
			}
			writeIdent(&b, p)
		}
		b.WriteString(")")
	}
	b.WriteString("\n)")
	return b.String(), nil
}

// typePattern is what a declared type may look like: SQLite type names
// ("INTEGER", "VARCHAR(20)", "DECIMAL(10, 2)", "UNSIGNED BIG INT"). Types
// are the one piece of SQL text a caller supplies that is not a quoted
// identifier or a bound value, so they are checked against it.
var typePattern = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_ ]*(\(\s*[+-]?[0-9]+\s*(,\s*[+-]?[0-9]+\s*)?\))?$`)

func validType(t string) error {
	if t == "" || typePattern.MatchString(t) {
		return nil
	}
	return fmt.Errorf("column type %q is not an SQLite type name", t)
}
