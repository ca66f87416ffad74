package shapes

import (
	"encoding/json"
	"math/rand/v2"
	"strconv"
)

// Numbers is the record of the number cases: six numbers of one kind,
// decoded into T (int, int64, float64, json.Number or any; int32, uint64
// or float32, the narrower kinds a Go type may give a field).
type Numbers[T any] struct {
	A T `json:"a"`
	B T `json:"b"`
	C T `json:"c"`
	D T `json:"d"`
	E T `json:"e"`
	F T `json:"f"`
}

// numberKinds: how each kind's number is written, and the Go types it is
// decoded into (those that hold it: a price is no int).
var numberKinds = []struct {
	name, about string
	into        []string
	write       func(b []byte, r *rand.Rand) []byte
}{
	{"small", "ints from 0 to 999", []string{"int", "int64", "float64", "number", "any", "int32"},
		func(b []byte, r *rand.Rand) []byte { return strconv.AppendInt(b, int64(r.IntN(1000)), 10) }},
	{"id", "int64 ids of 18 and 19 digits", []string{"int64", "number", "any", "uint64"},
		func(b []byte, r *rand.Rand) []byte { return strconv.AppendInt(b, id(r), 10) }},
	{"price", "prices, whole cents up to 9999.99, shortest form (12.5, 7, 19.99)", []string{"float64", "number", "any", "float32"},
		func(b []byte, r *rand.Rand) []byte { return strconv.AppendFloat(b, amount(r), 'f', -1, 64) }},
	{"float17", "random float64s below 1000 in their shortest form, mostly 16 or 17 digits", []string{"float64", "number", "any"},
		func(b []byte, r *rand.Rand) []byte { return strconv.AppendFloat(b, r.Float64()*1000, 'f', -1, 64) }},
	{"exp", "exponents: 1 to 9 digits, e or E, signed or not, up to 300", []string{"float64", "number", "any"}, expNumber},
	{"neg", "negative ints of 1 to 18 digits", []string{"int", "int64", "float64", "number", "any"},
		func(b []byte, r *rand.Rand) []byte {
			return strconv.AppendInt(b, -1-r.Int64N(pow10(1+r.IntN(18))), 10)
		}},
}

func pow10(n int) int64 {
	p := int64(1)
	for range n {
		p *= 10
	}
	return p
}

// expNumber writes a number such as 6.02214076e+23, 1.5E-7 or 3e08.
func expNumber(b []byte, r *rand.Rand) []byte {
	b = append(b, byte('1'+r.IntN(9)))
	if digits := r.IntN(9); digits > 0 {
		b = append(b, '.')
		for range digits {
			b = append(b, byte('0'+r.IntN(10)))
		}
	}
	b = append(b, "eE"[r.IntN(2)])
	switch r.IntN(3) {
	case 0:
		b = append(b, '-')
	case 1:
		b = append(b, '+')
	}
	exp := 1 + r.IntN(300)
	if exp < 10 && r.IntN(2) == 0 {
		b = append(b, '0') // as Go and C write it: e-07
	}
	return strconv.AppendInt(b, int64(exp), 10)
}

func numberCases() []*Case {
	var cs []*Case
	for _, k := range numberKinds {
		gen := func(e *enc, r *rand.Rand) {
			e.open('{')
			for _, key := range []string{"a", "b", "c", "d", "e", "f"} {
				e.key(key)
				e.sep()
				e.b = k.write(e.b, r)
			}
			e.close('}')
		}
		for _, into := range k.into {
			name, about := "num-"+k.name+"-"+into, "6 "+k.about+", into "+into
			var c *Case
			switch into {
			case "int":
				c = newCase[Numbers[int]]("num", name, about, gen)
			case "int64":
				c = newCase[Numbers[int64]]("num", name, about, gen)
			case "float64":
				c = newCase[Numbers[float64]]("num", name, about, gen)
			case "number":
				c = newCase[Numbers[json.Number]]("num", name, about, gen)
			case "any":
				c = newCase[Numbers[any]]("num", name, about, gen)
			case "int32":
				c = newCase[Numbers[int32]]("num", name, about, gen)
			case "uint64":
				c = newCase[Numbers[uint64]]("num", name, about, gen)
			case "float32":
				c = newCase[Numbers[float32]]("num", name, about, gen)
			}
			cs = append(cs, c)
		}
	}
	return cs
}
