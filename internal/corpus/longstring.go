package corpus

import (
	"encoding/json"
	"strings"
)

// LongStringUnit is the piece LongString repeats: every kind of escape
// (short ones, \u with a surrogate pair), multi-byte UTF-8 written out, and
// plain bytes.
const LongStringUnit = `abc\"\\\n\u00e9\uD83D\uDE00é中😀` + "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"

// LongString returns the body of a JSON string (no quotes) of at least size
// bytes made of LongStringUnit, and its value as encoding/json decodes it:
// the huge value the loaders' memory tests stream.
func LongString(size int) (body, value string) {
	body = strings.Repeat(LongStringUnit, (size+len(LongStringUnit)-1)/len(LongStringUnit))
	if err := json.Unmarshal([]byte(`"`+body+`"`), &value); err != nil {
		panic(err) // the unit is valid JSON text
	}
	return body, value
}
