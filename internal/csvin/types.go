package csvin

import (
	"strconv"
)

// Type is a column type as sqlite-utils 4 detects it in CSV and TSV.
type Type uint8

const (
	Text    Type = iota // any value
	Integer             // every non-empty value an integer
	Real                // every non-empty value a number, some not integers
)

func (t Type) String() string {
	switch t {
	case Integer:
		return "integer"
	case Real:
		return "real"
	}
	return "text"
}

// Kind is what a single field holds.
type Kind uint8

const (
	KindEmpty Kind = iota
	KindText
	KindInt
	KindFloat
)

// Tracker detects a column's type from its values, as sqlite-utils'
// TypeTracker does: each non-empty value rules out the types it does not
// parse as (Python's int(), then float()); the first type not ruled out
// wins, else text. A column with no non-empty value at all is Text (the
// choice made here: sqlite-utils' tracker, with nothing ruled out, would
// say integer).
type Tracker struct {
	seen, notInt, notNum bool
}

// Add notes one value of the column, of kind k.
func (t *Tracker) Add(k Kind) {
	switch k {
	case KindEmpty:
		return
	case KindText:
		t.notInt, t.notNum = true, true
	case KindFloat:
		t.notInt = true
	}
	t.seen = true
}

// Type is the column's type from the values added so far.
func (t *Tracker) Type() Type {
	switch {
	case !t.seen || t.notNum:
		return Text
	case t.notInt:
		return Real
	}
	return Integer
}

// Classify returns what field f holds, and for a number its text as a JSON
// number (f itself when it is one already, else written into scratch).
//
// Numbers are read as Python's int() and float() read them, with these
// exceptions, which are Text here: integers outside int64 (SQLite would
// store them as REAL anyway) are KindFloat; "inf", "nan" and floats
// outside float64's range, which JSON cannot write, are Text; only ASCII
// white space around a number is allowed.
func Classify(f, scratch []byte) (Kind, []byte) {
	if len(f) == 0 {
		return KindEmpty, nil
	}
	if k := jsonNumber(f); k != KindText {
		if k == KindInt && !fitsInt64(f) {
			k = KindFloat
		}
		if k == KindFloat && !finite(f) {
			return KindText, nil
		}
		if k == KindInt && len(f) == 2 && f[0] == '-' && f[1] == '0' {
			return KindInt, append(scratch[:0], '0')
		}
		return k, f
	}
	return pythonNumber(f, scratch)
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// jsonNumber reports the kind of f if it is a JSON number as it stands
// (the fast path: most numbers in CSV files are), else KindText.
func jsonNumber(f []byte) Kind {
	i := 0
	if f[0] == '-' {
		i++
	}
	if i == len(f) {
		return KindText
	}
	switch {
	case f[i] == '0':
		i++
	case isDigit(f[i]):
		for i < len(f) && isDigit(f[i]) {
			i++
		}
	default:
		return KindText
	}
	k := KindInt
	if i < len(f) && f[i] == '.' {
		i++
		d := i
		for i < len(f) && isDigit(f[i]) {
			i++
		}
		if i == d {
			return KindText
		}
		k = KindFloat
	}
	if i < len(f) && (f[i] == 'e' || f[i] == 'E') {
		i++
		if i < len(f) && (f[i] == '+' || f[i] == '-') {
			i++
		}
		d := i
		for i < len(f) && isDigit(f[i]) {
			i++
		}
		if i == d {
			return KindText
		}
		k = KindFloat
	}
	if i != len(f) {
		return KindText
	}
	return k
}

func fitsInt64(f []byte) bool {
	if len(f) < 18 {
		return true
	}
	_, err := strconv.ParseInt(string(f), 10, 64)
	return err == nil
}

func finite(f []byte) bool {
	_, err := strconv.ParseFloat(string(f), 64)
	return err == nil
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'
}

// pythonNumber is the slow part of Classify: the forms Python's int() and
// float() take that JSON does not (white space around, a '+', leading
// zeros, '_' between digits, ".5", "5."), rewritten into scratch as a
// JSON number.
func pythonNumber(f, scratch []byte) (Kind, []byte) {
	for len(f) > 0 && isSpace(f[0]) {
		f = f[1:]
	}
	for len(f) > 0 && isSpace(f[len(f)-1]) {
		f = f[:len(f)-1]
	}
	out := scratch[:0]
	i := 0
	if i < len(f) && (f[i] == '+' || f[i] == '-') {
		if f[i] == '-' {
			out = append(out, '-')
		}
		i++
	}
	// digits reads digits with single '_' between them, appending them to
	// out; it returns how many digits it read, or -1 for a misplaced '_'.
	digits := func() int {
		n := 0
		for i < len(f) {
			switch c := f[i]; {
			case isDigit(c):
				out = append(out, c)
				n++
			case c == '_' && n > 0 && i+1 < len(f) && isDigit(f[i+1]):
			default:
				return n
			}
			i++
		}
		return n
	}
	intStart := len(out)
	nInt := digits()
	if nInt < 0 {
		return KindText, nil
	}
	// Leading zeros go: JSON does not take them.
	z := intStart
	for z < len(out)-1 && out[z] == '0' {
		z++
	}
	out = append(out[:intStart], out[z:]...)
	k := KindInt
	if i < len(f) && f[i] == '.' {
		i++
		k = KindFloat
		if nInt == 0 {
			out = append(out, '0')
		}
		out = append(out, '.')
		if digits() == 0 {
			if nInt == 0 {
				return KindText, nil // "." alone
			}
			out = out[:len(out)-1] // "5." is 5
		}
	} else if nInt == 0 {
		return KindText, nil
	}
	if i < len(f) && (f[i] == 'e' || f[i] == 'E') {
		i++
		k = KindFloat
		out = append(out, 'e')
		if i < len(f) && (f[i] == '+' || f[i] == '-') {
			out = append(out, f[i])
			i++
		}
		if digits() == 0 {
			return KindText, nil
		}
	}
	if i != len(f) {
		return KindText, nil
	}
	if k == KindInt {
		if string(out) == "-0" {
			out = append(out[:0], '0')
		}
		if !fitsInt64(out) {
			k = KindFloat
		}
	}
	if k == KindFloat && !finite(out) {
		return KindText, nil
	}
	return k, out
}
