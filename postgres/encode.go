package postgres

import (
	"encoding/binary"
	"math"
	"slices"
	"strconv"
	"strings"

	json "github.com/jsonpipe/json"
	"github.com/jsonpipe/json/internal/loader"
)

// How each column's values are written into COPY's binary format (or, when
// a column has a type this package has no binary writer for, into COPY's
// text format for the whole COPY, for PostgreSQL to parse).

// colType is a column's PostgreSQL type, as far as writing it goes.
type colType uint8

const (
	tOther colType = iota // written as text, COPY in text format
	tText                 // text, varchar, bpchar, name: UTF-8 bytes
	tBool
	tInt2
	tInt4
	tInt8
	tFloat4
	tFloat8
	tNumeric
	tJSON
	tJSONB
)

// colTypeOf maps a type's OID (pg_type.oid of the built-in types) to its
// writer.
func colTypeOf(oid uint32) colType {
	switch oid {
	case 16:
		return tBool
	case 20:
		return tInt8
	case 21:
		return tInt2
	case 23:
		return tInt4
	case 25, 1043, 1042, 19:
		return tText
	case 700:
		return tFloat4
	case 701:
		return tFloat8
	case 1700:
		return tNumeric
	case 114:
		return tJSON
	case 3802:
		return tJSONB
	}
	return tOther
}

// binaryHeader starts a binary COPY: the signature, no flags, no header
// extension.
var binaryHeader = []byte("PGCOPY\n\xff\r\n\x00\x00\x00\x00\x00\x00\x00\x00\x00")

// binaryTrailer ends it: a tuple of -1 fields.
var binaryTrailer = []byte{0xff, 0xff}

func kindName(k kind) string {
	switch k {
	case kNull:
		return "null"
	case kFalse, kTrue:
		return "a boolean"
	case kInt, kBigInt:
		return "an integer"
	case kFloat:
		return "a number"
	case kString:
		return "a string"
	}
	return "an object or array"
}

// typeMismatch words the error of a value of kind k for column c.
func typeMismatch(c *column, v *value, arena []byte) error {
	what := kindName(v.kind)
	if v.kind == kInt || v.kind == kBigInt || v.kind == kFloat {
		t := string(v.text(arena))
		if len(t) > 40 {
			t = t[:40] + "..."
		}
		what = "number " + t
	}
	return &TypeError{Msg: "column " + loader.ShortName(c.name) + " is " + c.typ + "; the value is " + what}
}

// accepts reports whether a value of kind k may be stored in a column of
// type ct: a text column takes any scalar's text and a nested value's JSON,
// json and jsonb any JSON value, numbers only numbers, booleans only
// booleans. Other types get the value's text, for PostgreSQL to judge.
func accepts(ct colType, k kind) bool {
	switch ct {
	case tBool:
		return k == kTrue || k == kFalse
	case tInt2, tInt4, tInt8:
		return k == kInt
	case tFloat4, tFloat8, tNumeric:
		return k == kInt || k == kBigInt || k == kFloat
	}
	return true
}

// boolLiteral reads PostgreSQL's boolean input forms (any case, spaces
// around): 1 for true, 0 for false.
func boolLiteral(t []byte) (byte, bool) {
	switch strings.ToLower(strings.TrimSpace(string(t))) {
	case "t", "true", "y", "yes", "on", "1":
		return 1, true
	case "f", "false", "n", "no", "off", "0":
		return 0, true
	}
	return 0, false
}

// piece is a part of the COPY data: bytes of the out buffer, or of the
// arena, where a long value is sent from without a copy.
type piece struct {
	arena bool
	data  []byte // a chunk of a streamed string, sent from where it is
	from  int
	to    int
}

// bigField is the size from which a text or JSON value is sent from the
// arena rather than copied into out.
const bigField = 32 << 10

// appendBinary appends value v of column c in COPY's binary format: its
// length, then its bytes. A long text is not copied: the pieces up to it
// are closed, and it is sent from the arena.
func (cp *copier) appendBinary(c *column, v *value) error {
	out, arena := cp.out, cp.r.arena
	if v.kind == kNull {
		cp.out = append(out, 0xff, 0xff, 0xff, 0xff)
		return nil
	}
	if c.ct == tBool && v.kind == kString && loader.FromDelimited(cp.r.opts) {
		// CSV and TSV have no booleans: a field of a boolean column is
		// read as COPY reads one (true/false, t/f, yes/no, on/off, 1/0).
		b, ok := boolLiteral(v.text(arena))
		if !ok {
			return typeMismatch(c, v, arena)
		}
		cp.out = append(out, 0, 0, 0, 1, b)
		return nil
	}
	if !accepts(c.ct, v.kind) {
		return typeMismatch(c, v, arena)
	}
	if v.big {
		if c.ct == tText && !cp.inline {
			// Sent from its chunks: its length, then each chunk.
			cp.out = binary.BigEndian.AppendUint32(out, uint32(v.n))
			for _, ch := range cp.r.bigs.Of(v.off, v.n) {
				cp.sendData(ch)
			}
			return nil
		}
		cp.r.flat(v)
		out, arena = cp.out, cp.r.arena
	}
	switch c.ct {
	case tBool:
		var b byte
		if v.kind == kTrue {
			b = 1
		}
		out = append(out, 0, 0, 0, 1, b)
	case tInt2, tInt4, tInt8:
		switch {
		case c.ct == tInt8:
			out = binary.BigEndian.AppendUint64(append(out, 0, 0, 0, 8), uint64(v.i))
		case c.ct == tInt4 && v.i == int64(int32(v.i)):
			out = binary.BigEndian.AppendUint32(append(out, 0, 0, 0, 4), uint32(v.i))
		case c.ct == tInt2 && v.i == int64(int16(v.i)):
			out = binary.BigEndian.AppendUint16(append(out, 0, 0, 0, 2), uint16(v.i))
		default:
			return &TypeError{Msg: "column " + loader.ShortName(c.name) + " is " + c.typ + "; " + strconv.FormatInt(v.i, 10) + " is out of its range"}
		}
	case tFloat4, tFloat8:
		f := float64(v.i)
		if v.kind != kInt {
			var err error
			if f, err = json.ParseFloat(v.text(arena)); err != nil {
				return typeMismatch(c, v, arena)
			}
		}
		if c.ct == tFloat8 {
			out = binary.BigEndian.AppendUint64(append(out, 0, 0, 0, 8), math.Float64bits(f))
		} else {
			f32 := float32(f)
			if math.IsInf(float64(f32), 0) {
				return typeMismatch(c, v, arena)
			}
			out = binary.BigEndian.AppendUint32(append(out, 0, 0, 0, 4), math.Float32bits(f32))
		}
	case tNumeric:
		at := len(out)
		out = append(out, 0, 0, 0, 0)
		var ok bool
		if out, ok = appendNumeric(out, v.text(arena)); !ok {
			return &TypeError{Msg: "column " + loader.ShortName(c.name) + " is " + c.typ + "; the number is out of its range"}
		}
		binary.BigEndian.PutUint32(out[at:], uint32(len(out)-at-4))
	default: // text, json, jsonb
		if v.kind == kString && c.ct == tText || v.kind == kJSON {
			n := v.n
			if c.ct == tJSONB {
				n++
			}
			out = binary.BigEndian.AppendUint32(out, uint32(n))
			if c.ct == tJSONB {
				out = append(out, 1) // jsonb's binary format version
			}
			if v.n >= bigField && !cp.inline {
				cp.out = out
				cp.sendArena(v.off, v.off+v.n)
				return nil
			}
			out = append(out, v.text(arena)...)
			break
		}
		at := len(out)
		out = append(out, 0, 0, 0, 0)
		if c.ct == tJSONB {
			out = append(out, 1)
		}
		out = appendScalarText(out, v, arena, c.ct != tText)
		binary.BigEndian.PutUint32(out[at:], uint32(len(out)-at-4))
	}
	cp.out = out
	return nil
}

// appendScalarText appends the text of a scalar: a number's token, true or
// false, and a string as it is, or, for a json column, quoted.
func appendScalarText(out []byte, v *value, arena []byte, asJSON bool) []byte {
	switch v.kind {
	case kTrue:
		return append(out, "true"...)
	case kFalse:
		return append(out, "false"...)
	case kString:
		if asJSON {
			return json.AppendQuote(out, string(v.text(arena)))
		}
	}
	return append(out, v.text(arena)...)
}

// appendText appends v in COPY's text format: \N for null, otherwise its
// text with backslash, newline, carriage return and tab escaped.
func (cp *copier) appendText(c *column, v *value) error {
	if v.kind == kNull {
		cp.out = append(cp.out, '\\', 'N')
		return nil
	}
	if c.ct == tBool && v.kind == kString && loader.FromDelimited(cp.r.opts) {
		// A CSV or TSV field of a boolean column (see appendBinary).
		if _, ok := boolLiteral(v.text(cp.r.arena)); !ok {
			return typeMismatch(c, v, cp.r.arena)
		}
		cp.out = appendCopyEscaped(cp.out, v.text(cp.r.arena))
		return nil
	}
	if !accepts(c.ct, v.kind) {
		return typeMismatch(c, v, cp.r.arena)
	}
	if v.kind == kString && c.ct != tJSON && c.ct != tJSONB || v.kind == kJSON {
		if v.big {
			// Escaped from its chunks, into room made for it at once
			// (append's growth by a quarter would copy it over and over).
			cp.out = slices.Grow(cp.out, v.n+v.n/8)
			for _, ch := range cp.r.bigs.Of(v.off, v.n) {
				cp.out = appendCopyEscaped(cp.out, ch)
			}
			return nil
		}
		cp.out = appendCopyEscaped(cp.out, v.text(cp.r.arena))
		return nil
	}
	cp.r.flat(v)
	cp.scratch = appendScalarText(cp.scratch[:0], v, cp.r.arena, c.ct == tJSON || c.ct == tJSONB)
	cp.out = appendCopyEscaped(cp.out, cp.scratch)
	return nil
}

func appendCopyEscaped(out, s []byte) []byte {
	start := 0
	for i, c := range s {
		var e byte
		switch c {
		case '\\':
			e = '\\'
		case '\n':
			e = 'n'
		case '\r':
			e = 'r'
		case '\t':
			e = 't'
		default:
			continue
		}
		out = append(append(out, s[start:i]...), '\\', e)
		start = i + 1
	}
	return append(out, s[start:]...)
}

// appendNumeric appends the number token tok in numeric's binary format:
// the count of base-10000 digits, the weight of the first, the sign, the
// display scale (digits after the point), then the digits. It reports
// false for a number beyond numeric's range.
func appendNumeric(out, tok []byte) ([]byte, bool) {
	neg := tok[0] == '-'
	if neg {
		tok = tok[1:]
	}
	var digits []byte // significant digits, without the point
	var stack [64]byte
	digits = stack[:0]
	point := 0 // digits before the point
	frac := 0  // digits after the point in the token
	i := 0
	for ; i < len(tok) && tok[i] >= '0' && tok[i] <= '9'; i++ {
		digits = append(digits, tok[i])
		point++
	}
	if i < len(tok) && tok[i] == '.' {
		for i++; i < len(tok) && tok[i] >= '0' && tok[i] <= '9'; i++ {
			digits = append(digits, tok[i])
			frac++
		}
	}
	exp := 0
	if i < len(tok) && (tok[i] == 'e' || tok[i] == 'E') {
		e, err := strconv.Atoi(string(tok[i+1:]))
		if err != nil || e > 1<<20 || e < -(1<<20) {
			return out, false
		}
		exp = e
	}
	point += exp
	dscale := max(frac-exp, 0)
	// Leading and trailing zeros change nothing but where the point is.
	for len(digits) > 0 && digits[0] == '0' {
		digits = digits[1:]
		point--
	}
	for len(digits) > 0 && digits[len(digits)-1] == '0' {
		digits = digits[:len(digits)-1]
	}
	const maxScale, maxWeight = 16383, 131072 / 4
	if dscale > maxScale {
		return out, false
	}
	if len(digits) == 0 {
		return append(out, 0, 0, 0, 0, 0, 0, byte(dscale>>8), byte(dscale)), true
	}
	// Align the point on a base-10000 digit: pad on the left so that the
	// digits before it are a multiple of four, and on the right to whole
	// groups.
	padL := ((-point)%4 + 4) % 4
	n := (padL + len(digits) + 3) / 4
	weight := (point+padL)/4 - 1 // point+padL is a multiple of 4
	if weight > maxWeight || weight < -maxWeight {
		return out, false
	}
	sign := uint16(0)
	if neg {
		sign = 0x4000
	}
	out = binary.BigEndian.AppendUint16(out, uint16(n))
	out = binary.BigEndian.AppendUint16(out, uint16(int16(weight)))
	out = binary.BigEndian.AppendUint16(out, sign)
	out = binary.BigEndian.AppendUint16(out, uint16(dscale))
	k := -padL // index in digits of the group's first digit
	for g := 0; g < n; g++ {
		d := 0
		for j := 0; j < 4; j++ {
			d *= 10
			if x := k + j; x >= 0 && x < len(digits) {
				d += int(digits[x] - '0')
			}
		}
		out = binary.BigEndian.AppendUint16(out, uint16(d))
		k += 4
	}
	return out, true
}
