package json

import (
	"bytes"
	stdjson "encoding/json"
)

// TEMPORARY until indent.go lands: compaction and indentation through
// encoding/json.

func appendCompact(dst, src []byte, escapeHTML bool) ([]byte, error) {
	var buf bytes.Buffer
	if err := stdjson.Compact(&buf, src); err != nil {
		return dst, convertStdSyntaxError(err)
	}
	if escapeHTML {
		var h bytes.Buffer
		stdjson.HTMLEscape(&h, buf.Bytes())
		buf = h
	}
	return append(dst, buf.Bytes()...), nil
}

func appendIndent(dst, src []byte, prefix, indent string) ([]byte, error) {
	buf := bytes.NewBuffer(dst)
	if err := stdjson.Indent(buf, src, prefix, indent); err != nil {
		return dst, convertStdSyntaxError(err)
	}
	return buf.Bytes(), nil
}
