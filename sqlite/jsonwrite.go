package sqlite

import (
	"bytes"
	"encoding/base64"
	"strconv"
	"strings"
	"time"
	"unsafe"

	"github.com/jsonpipe/json"
)

// Appending JSON values for WriteQuery. Each function appends to b and
// returns the extended slice, allocating only when b must grow.

// appendString appends s as a JSON string through the module's one string
// escaper, json.AppendQuote: escaped as encoding/json escapes it with HTML
// escaping off (U+2028 and U+2029 are still escaped, so the output is also
// valid JavaScript).
func appendString(b []byte, s string) []byte { return json.AppendQuote(b, s) }

// appendFloat appends f as encoding/json writes a float64 (json.AppendFloat),
// except that an integral value keeps a ".0" so that a REAL column reads
// back as REAL. NaN and infinities, which JSON cannot hold, become null.
func appendFloat(b []byte, f float64) []byte {
	start := len(b)
	b, err := json.AppendFloat(b, f, 64)
	if err != nil {
		return append(b, "null"...)
	}
	for _, c := range b[start:] {
		if c == '.' || c == 'e' {
			return b
		}
	}
	return append(b, '.', '0')
}

// appendValue appends one column value as go-sqlite3 hands it over.
func appendValue(b []byte, v any) []byte {
	switch v := v.(type) {
	case nil:
		return append(b, "null"...)
	case int64:
		return strconv.AppendInt(b, v, 10)
	case float64:
		return appendFloat(b, v)
	case string:
		return appendString(b, v)
	case []byte:
		b = append(b, '"')
		b = base64.StdEncoding.AppendEncode(b, v)
		return append(b, '"')
	case bool:
		if v {
			return append(b, "true"...)
		}
		return append(b, "false"...)
	case time.Time:
		b = append(b, '"')
		b = v.AppendFormat(b, time.RFC3339Nano)
		return append(b, '"')
	}
	// Not produced by go-sqlite3; keep the output valid JSON regardless.
	return append(b, "null"...)
}

// jsonColumn says how WriteQuery writes the TEXT of a column, from its
// declared type as go-sqlite3 gives it, lower-cased.
type jsonColumn uint8

const (
	notJSON    jsonColumn = iota
	jsonNested            // "json text" (TypeJSON, which Insert declares): objects and arrays are JSON
	jsonAny               // "json" or "jsonb", a table the user made: any valid JSON text is JSON
)

func jsonColumnOf(decl string) jsonColumn {
	switch decl {
	case "json text":
		return jsonNested
	case "json", "jsonb":
		return jsonAny
	}
	return notJSON
}

// appendJSONText appends s, the text of a JSON column, as the JSON it
// holds, with insignificant whitespace removed so that a value spread over
// lines keeps NDJSON one row a line. Text that is not valid JSON is
// appended as a string, so the output stays valid. In a column Insert
// declared (jsonNested), only an object or array is JSON: a scalar stored
// there after the rows its type was inferred from is kept as it came, as
// in a TEXT column (the string "42" is stored as the text 42), so it
// comes back as a string. scratch is reused from call to call.
func appendJSONText(b []byte, s string, kind jsonColumn, scratch *bytes.Buffer) []byte {
	if kind == jsonNested {
		if t := strings.TrimLeft(s, " \t\r\n"); t == "" || t[0] != '{' && t[0] != '[' {
			return appendString(b, s)
		}
	}
	scratch.Reset()
	if json.Compact(scratch, unsafe.Slice(unsafe.StringData(s), len(s))) != nil {
		return appendString(b, s)
	}
	return append(b, scratch.Bytes()...)
}
