package sqlite

import (
	"bytes"
	"encoding/base64"
	"strconv"
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

// isJSONType reports whether a column's declared type, lower-cased as
// go-sqlite3 gives it, says the column holds JSON text: "json" (the type
// Insert declares for nested objects and arrays) or "jsonb".
func isJSONType(decl string) bool { return decl == "json" || decl == "jsonb" }

// appendJSONText appends s, the text of a column declared JSON, as the
// JSON value it holds, with insignificant whitespace removed so that a
// value spread over lines keeps NDJSON one row a line. Text that is not
// valid JSON is appended as a string instead, so the output stays valid.
// scratch is reused from call to call.
func appendJSONText(b []byte, s string, scratch *bytes.Buffer) []byte {
	scratch.Reset()
	if json.Compact(scratch, unsafe.Slice(unsafe.StringData(s), len(s))) != nil {
		return appendString(b, s)
	}
	return append(b, scratch.Bytes()...)
}
