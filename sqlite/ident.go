package sqlite

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// quoteIdent returns name quoted as an SQL identifier: wrapped in double
// quotes, each double quote inside doubled. Any byte sequence becomes a
// single identifier this way (a key such as `a"; DROP TABLE x; --` is just
// an odd column name), except NUL, which SQLite cannot hold in a name; see
// checkName.
func quoteIdent(name string) string {
	var b strings.Builder
	b.Grow(len(name) + 2)
	writeIdent(&b, name)
	return b.String()
}

func writeIdent(b *strings.Builder, name string) {
	b.WriteByte('"')
	for {
		i := strings.IndexByte(name, '"')
		if i < 0 {
			break
		}
		b.WriteString(name[:i+1])
		b.WriteByte('"')
		name = name[i+1:]
	}
	b.WriteString(name)
	b.WriteByte('"')
}

var errNULName = errors.New("name contains a NUL byte, which SQLite cannot store in an identifier")

// checkName reports whether name can be a table or column name.
func checkName(name string) error {
	if strings.IndexByte(name, 0) >= 0 {
		return errNULName
	}
	return nil
}

// sqlLiteral renders a Go value as an SQL literal for a DEFAULT clause.
// Strings are single-quoted with quotes doubled; nothing else is spliced.
func sqlLiteral(v any) (string, error) {
	switch v := v.(type) {
	case nil:
		return "NULL", nil
	case bool:
		if v {
			return "1", nil
		}
		return "0", nil
	case int:
		return strconv.Itoa(v), nil
	case int64:
		return strconv.FormatInt(v, 10), nil
	case int32:
		return strconv.FormatInt(int64(v), 10), nil
	case uint64:
		return strconv.FormatUint(v, 10), nil
	case float64:
		if math.IsInf(v, 0) || math.IsNaN(v) {
			return "", fmt.Errorf("default %v is not a finite number", v)
		}
		s := strconv.FormatFloat(v, 'g', -1, 64)
		if !strings.ContainsAny(s, ".eE") {
			s += ".0"
		}
		return s, nil
	case string:
		if strings.IndexByte(v, 0) >= 0 {
			return "", errors.New("default string contains a NUL byte")
		}
		return "'" + strings.ReplaceAll(v, "'", "''") + "'", nil
	case []byte:
		const hex = "0123456789ABCDEF"
		b := make([]byte, 0, 3+2*len(v))
		b = append(b, "X'"...)
		for _, c := range v {
			b = append(b, hex[c>>4], hex[c&15])
		}
		return string(append(b, '\'')), nil
	}
	return "", fmt.Errorf("default of type %T is not supported (use bool, integer, float64, string or []byte)", v)
}
