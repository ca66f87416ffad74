package postgres

import (
	"fmt"
	"strings"

	"github.com/jsonpipe/json/internal/loader"
)

// quoteIdent returns name quoted as an SQL identifier: wrapped in double
// quotes, each double quote inside doubled. Inside quotes PostgreSQL folds
// no case and takes any character but NUL, so a key such as
// `a"; DROP TABLE x; --` is just an odd column name. checkName refuses
// what quoting cannot carry.
func quoteIdent(name string) string {
	return `"` + strings.ReplaceAll(name, `"`, `""`) + `"`
}

// checkName reports whether name can be a table or column name as it is:
// PostgreSQL refuses an empty quoted name and NUL, and silently cuts a
// name longer than 63 bytes, which would make two long keys one column or
// store a key under a name that is not its own; such a name is refused.
func checkName(name string) error {
	switch {
	case name == "":
		return fmt.Errorf("the empty name cannot be a PostgreSQL identifier")
	case strings.IndexByte(name, 0) >= 0:
		return fmt.Errorf("name %s contains a NUL byte, which PostgreSQL cannot hold in an identifier", loader.ShortName(name))
	case len(name) > maxIdentLen:
		return fmt.Errorf("name %s is longer than PostgreSQL's %d-byte limit for identifiers (it would be cut short)", loader.ShortName(name), maxIdentLen)
	}
	return nil
}

// quoteLiteral renders s as an SQL string literal.
func quoteLiteral(s string) string {
	return "'" + strings.ReplaceAll(s, "'", "''") + "'"
}
