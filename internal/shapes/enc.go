package shapes

import (
	"math/rand/v2"
	"strconv"
)

// enc appends JSON text and puts the commas: the generators write what a
// producer would, escapes and key spellings included, which encoding a Go
// value could not.
type enc struct {
	b     []byte
	first bool // no comma before the next value or member
}

// sep writes the comma before a value or member, unless it comes first
// or follows its key.
func (e *enc) sep() {
	if !e.first {
		e.b = append(e.b, ',')
	}
	e.first = false
}

func (e *enc) open(c byte)  { e.sep(); e.b = append(e.b, c); e.first = true }
func (e *enc) close(c byte) { e.b = append(e.b, c); e.first = false }

// key writes a member's name, which needs no escaping, and its colon.
func (e *enc) key(k string) {
	e.sep()
	e.b = append(e.b, '"')
	e.b = append(e.b, k...)
	e.b = append(e.b, '"', ':')
	e.first = true
}

// raw writes a value as it is: a number or literal's text.
func (e *enc) raw(s string) { e.sep(); e.b = append(e.b, s...) }

// quoted writes a string whose body, as written, body is.
func (e *enc) quoted(body []byte) {
	e.sep()
	e.b = append(e.b, '"')
	e.b = append(e.b, body...)
	e.b = append(e.b, '"')
}

func (e *enc) int(i int64) { e.sep(); e.b = strconv.AppendInt(e.b, i, 10) }

// float writes f in the shortest form that reads back as f, without an
// exponent (as encoding/json writes floats from 1e-6 to 1e21).
func (e *enc) float(f float64) { e.sep(); e.b = strconv.AppendFloat(e.b, f, 'f', -1, 64) }

func (e *enc) bool(v bool) {
	if v {
		e.raw("true")
	} else {
		e.raw("false")
	}
}

func (e *enc) null() { e.raw("null") }

// Plain values for the record fields: letters and digits, random, so that
// they do not repeat from record to record.

const alnum = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"

// word returns n random letters and digits.
func word(r *rand.Rand, n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = alnum[r.IntN(len(alnum))]
	}
	return b
}

// text returns n bytes of words: letters and digits, a space every 3 to 9.
func text(r *rand.Rand, n int) []byte {
	b := make([]byte, 0, n)
	next := 3 + r.IntN(7)
	for len(b) < n {
		if len(b) == next && len(b) < n-1 {
			b = append(b, ' ')
			next += 4 + r.IntN(7)
			continue
		}
		b = append(b, alnum[r.IntN(len(alnum))])
	}
	return b
}

func (e *enc) word(r *rand.Rand, lo, hi int) { e.quoted(word(r, lo+r.IntN(hi-lo+1))) }
func (e *enc) text(r *rand.Rand, lo, hi int) { e.quoted(text(r, lo+r.IntN(hi-lo+1))) }

// email writes a made-up address.
func (e *enc) email(r *rand.Rand) {
	b := append(word(r, 5+r.IntN(6)), '@')
	b = append(append(b, word(r, 4+r.IntN(5))...), ".example.com"...)
	e.quoted(b)
}

// time writes an RFC 3339 timestamp in 2020 to 2029.
func (e *enc) time(r *rand.Rand) {
	b := make([]byte, 0, 20)
	two := func(n int) { b = append(b, byte('0'+n/10), byte('0'+n%10)) }
	b = append(b, "202"...)
	b = append(b, byte('0'+r.IntN(10)), '-')
	two(1 + r.IntN(12))
	b = append(b, '-')
	two(1 + r.IntN(28))
	b = append(b, 'T')
	two(r.IntN(24))
	b = append(b, ':')
	two(r.IntN(60))
	b = append(b, ':')
	two(r.IntN(60))
	e.quoted(append(b, 'Z'))
}

// id returns an int64 id of 18 or 19 digits, as database and snowflake ids
// are.
func id(r *rand.Rand) int64 { return 1e17 + r.Int64N(9e18-1e17) }

// amount returns a price: whole cents from 0 to 9,999.99.
func amount(r *rand.Rand) float64 { return float64(r.IntN(1_000_000)) / 100 }
