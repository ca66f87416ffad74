package json

import (
	"bytes"
	"encoding/binary"
	stdjson "encoding/json"
	"maps"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"
	"unsafe"
)

// TestPassable: the struct types the typed one pass takes, and the ones it
// does not (on which it would give up on most input). It takes a type's
// UnmarshalJSON and UnmarshalText (calling them once it has read all of
// the input), but not in a map's values, nor a map key's.
func TestPassable(t *testing.T) {
	if !fastPaths {
		t.Skip("the typed one pass is a fast path: off in this build")
	}
	type quoted struct {
		Q int `json:",string"`
	}
	type ptrEmbed struct{ *diffPassEmbedded }
	type ptrHidden struct{ *unexportedEmbedded }
	type tagged struct {
		DiffPassPart `json:"e"` // exported: a field of its own
	}
	type roUnexported struct {
		unexportedEmbedded `json:"e"` // unexported: read-only
	}
	for _, c := range []struct {
		v    any
		want bool
	}{
		{diffPass{}, true},
		{struct{ A, B int64 }{}, true},
		{struct{}{}, true},
		{tagged{}, true},
		{diffSmall{}, true},    // recursive, with a time.Time
		{diffNullable{}, true}, // *uint8: narrowAt
		{struct{ X any }{}, true},
		{struct{ X interface{ M() } }{}, false},
		{struct{ X []string }{}, true},
		{struct{ X [][]float64 }{}, true},
		{struct{ X []DiffPassPart }{}, true},
		{struct{ X []*int64 }{}, true},
		{struct{ X []byte }{}, false}, // base64
		{struct{ X []int32 }{}, true}, // narrowAt
		{struct{ X []float32 }{}, true},
		{struct{ X []any }{}, true},
		{struct{ X []time.Time }{}, true},
		{struct{ X *time.Time }{}, true},
		{struct{ X *diffText }{}, true}, // UnmarshalText, deferred (hookAt)
		{struct{ X *diffCustom }{}, true},
		{struct{ X []diffText }{}, true},
		{struct{ X textSlice }{}, true}, // the slice type's own method
		{struct{ X []*DiffPassPart }{}, true},
		{struct{ X **DiffPassPart }{}, true},
		{struct{ X *diffSmall }{}, true},
		{struct{ X map[string]DiffPassPart }{}, true},
		{struct{ X map[diffKey][]int }{}, true},
		{struct{ X map[string]any }{}, true},
		{struct{ X map[diffTextKey]string }{}, false},
		{struct{ X map[string]diffText }{}, false}, // values copied into the map: no method deferred on them
		{passTree{}, true},                         // recursive
		{passCycleA{}, true},
		{passTreeText{}, false}, // recursive, reaching a method through a map's values
		{struct{ X [0]int }{}, true},
		{struct{ X [3][2]float64 }{}, true},
		{struct{ X [2]diffText }{}, true},
		{struct{ X map[string]int }{}, true},
		{struct{ X map[int]string }{}, true},
		{struct{ X map[uint16][]diffText }{}, false}, // a map's values with methods
		{struct{ X map[diffTextKey]int }{}, false},   // a key with UnmarshalText
		{intKeyPass{}, true},
		{struct{ X int32 }{}, true},
		{struct{ X uint64 }{}, true},
		{struct{ X diffLevel }{}, true},
		{struct{ T time.Time }{}, true},
		{struct{ T diffText }{}, true},
		{quoted{}, true},
		{struct {
			I int64   `json:",string"`
			F float64 `json:",string"`
			B bool    `json:",string"`
		}{}, true},
		{struct {
			Q int32 `json:",string"`
		}{}, true},
		{quotedNarrowPass{}, true},
		{struct {
			Q string `json:",string"`
		}{}, false},
		{struct {
			Q *int64 `json:",string"`
		}{}, false},
		{struct {
			Q Number `json:",string"`
		}{}, false},
		{struct{ quotedEmbedded }{}, false}, // promoted through a pointer
		{struct{ R RawMessage }{}, true},
		{struct{ R []RawMessage }{}, true},
		{struct{ R *RawMessage }{}, true},
		{struct{ R map[string]RawMessage }{}, true},
		{ptrEmbed{}, true},
		{ptrHidden{}, true}, // gives up where the pointer is nil
		{roUnexported{}, false},
		{struct{ Inner struct{ X []int } }{}, true},
		{struct{ Inner struct{ X []map[string]int } }{}, true},
		{struct {
			Inner struct{ X []map[string]time.Time }
		}{}, true},
		{struct {
			Inner struct{ X []map[string]diffText }
		}{}, false},
	} {
		ds := getState()
		td := ds.topDecoder(reflect.PointerTo(reflect.TypeOf(c.v)))
		got := td.sd != nil && td.sd.passable()
		putState(ds)
		if got != c.want {
			t.Errorf("%T: passable %v, want %v", c.v, got, c.want)
		}
	}
}

type unexportedEmbedded struct{ X int64 }

type quotedEmbedded struct{ *QuotedPart }

type QuotedPart struct {
	Q int64 `json:",string"`
}

// quotedPass has a ",string" field of each kind the typed one pass reads
// inside its string, among plain ones.
type quotedPass struct {
	I int64   `json:"i,string"`
	N int     `json:"n,string"`
	F float64 `json:"f,string"`
	B bool    `json:"b,string"`
	S string  `json:"s"`
	X int64   `json:"x"`
}

// TestQuotedPass: the typed one pass reads a ",string" integer, float64 or
// bool inside its string, to encoding/json's values, and gives up, leaving
// the struct zero, on every other value of such a field (null, an escape,
// a body of strconv's wider syntax or none), which the token path then
// decodes: Unmarshal's values and errors are encoding/json's on all of
// them, in a struct and in a slice of structs.
func TestQuotedPass(t *testing.T) {
	ints := []string{`"123"`, `"-5"`, `"0"`, `"-0"`, `"0123"`, `"+1"`, `"1.5"`, `"1e3"`, `" 1"`, `"1 "`, `""`, `"-"`,
		`"null"`, `"\u0031"`, `"9223372036854775807"`, `"9223372036854775808"`, `"-9223372036854775808"`, `"-9223372036854775809"`,
		`"abc"`, `"12a"`, `1`, `null`, `true`, `"true"`, `[]`, `{}`, `["1"]`}
	floats := []string{`"1.5"`, `"-0"`, `"0"`, `"2.5E+3"`, `"1e-400"`, `"1e400"`, `"NaN"`, `"Inf"`, `"1."`, `".5"`, `"0x10"`, `"01"`,
		`"123456789012345678901234567890"`, `"1.000000000000000000001"`, `""`, `"null"`, `1.5`, `null`, `"\u0031"`}
	bools := []string{`"true"`, `"false"`, `"tru"`, `"TRUE"`, `"1"`, `"null"`, `""`, `true`, `null`, `"true "`}
	mustTake := map[string]bool{`i"123"`: true, `n"-5"`: true, `i"-9223372036854775808"`: true, `f"1.5"`: true, `f"2.5E+3"`: true, `b"true"`: true, `b"false"`: true}
	checkPassDiff[quotedPass](t, map[string][]string{"i": ints, "n": ints, "f": floats, "b": bools}, mustTake,
		`{"i":"7","f":"7.5","b":"true"}`,
		`{"i":"1","n":"-2","f":"0.25","b":"true","s":"y","x":3}`, `{"b":"false","f":"-1e-7","n":"0","i":"-1"}`)
}

// quotedNarrowPass has a ",string" field of each narrow kind (narrowKind)
// among plain ones.
type quotedNarrowPass struct {
	I8  int8      `json:"i8,string"`
	I32 int32     `json:"i32,string"`
	U8  uint8     `json:"u8,string"`
	U32 uint32    `json:"u32,string"`
	U64 uint64    `json:"u64,string"`
	Up  uintptr   `json:"up,string"`
	K   diffLevel `json:"k,string"`
	F32 float32   `json:"f32,string"`
	S   string    `json:"s"`
	X   int64     `json:"x"`
}

// TestQuotedNarrowPass: as TestQuotedPass, for ",string" fields of the
// narrow kinds (an int32, a uint64, a float32...), which the pass reads
// inside their strings too (narrowQuoted), at their limits and past them.
func TestQuotedNarrowPass(t *testing.T) {
	common := []string{`"0"`, `"-0"`, `"007"`, `"+1"`, `"1.5"`, `"1e3"`, `" 1"`, `"1 "`, `""`, `"-"`, `"null"`, `"\u0031"`,
		`"abc"`, `"12a"`, `1`, `null`, `true`, `"true"`, `[]`, `{}`, `["1"]`, `"-1"`, `"1_0"`, `"0x10"`}
	with := func(more ...string) []string { return append(append([]string(nil), common...), more...) }
	floats := []string{`"1.5"`, `"-0"`, `"0"`, `"2.5E+3"`, `"16777217"`, `"3.4028234e38"`, `"3.4028236e38"`, `"1e39"`, `"-1e39"`,
		`"1e-46"`, `"1.4e-45"`, `"-inf"`, `"-Inf"`, `"NaN"`, `"1."`, `".5"`, `"0x1p4"`, `"01"`, `"123456789012345678901234567890"`,
		`""`, `"null"`, `1.5`, `null`, `"\u0031"`, `"-"`}
	bodies := map[string][]string{
		"i8":  with(`"127"`, `"128"`, `"-128"`, `"-129"`),
		"i32": with(`"2147483647"`, `"2147483648"`, `"-2147483648"`, `"-2147483649"`, `"-9223372036854775809"`),
		"u8":  with(`"255"`, `"256"`),
		"u32": with(`"4294967295"`, `"4294967296"`),
		"u64": with(`"9223372036854775808"`, `"18446744073709551615"`, `"18446744073709551616"`, `"12345678901234567890"`),
		"up":  with(`"18446744073709551615"`, `"18446744073709551616"`),
		"k":   with(`"65535"`, `"65536"`),
		"f32": floats,
	}
	mustTake := map[string]bool{`i8"127"`: true, `i8"-128"`: true, `i32"-2147483648"`: true, `u8"255"`: true, `u32"4294967295"`: true,
		`u64"18446744073709551615"`: true, `u64"12345678901234567890"`: true, `up"18446744073709551615"`: true, `k"65535"`: true,
		`f32"1.5"`: true, `f32"16777217"`: true, `f32"3.4028234e38"`: true, `f32"1e-46"`: true, `i32"-0"`: true, `u8"0"`: true}
	checkPassDiff[quotedNarrowPass](t, bodies, mustTake,
		`{"i8":"7","u64":"7","f32":"7.5","k":"1"}`,
		`{"i8":"1","i32":"-2","u8":"3","u32":"4","u64":"5","up":"6","k":"7","f32":"0.25","s":"y","x":3}`,
		`{"f32":"-1e-7","u64":"0","i8":"-1"}`)
}

// intKeyPass has maps with integer keys of each size and sign, which the
// typed one pass reads (intKeyAt), with values of every sort.
type intKeyPass struct {
	M map[int]string            `json:"m"`
	I map[int8]float64          `json:"i8"`
	L map[int64]struct{ A int } `json:"i64"`
	U map[uint8]int             `json:"u8"`
	W map[uint64]*int32         `json:"u64"`
	P map[uintptr]bool          `json:"up"`
	N map[diffLevel][]int       `json:"k"`
	S string                    `json:"s"`
	X int64                     `json:"x"`
}

// TestIntKeyPass: the typed one pass reads a map's integer keys when they
// are plain integers its key type holds, to encoding/json's maps, and
// gives up on every other key (a '+', an escape, past the type's range,
// not a number), which the token path then decodes to encoding/json's
// values and errors.
func TestIntKeyPass(t *testing.T) {
	objects := []string{`{}`, `{"1":V,"-2":V,"0":V}`, `{"007":V}`, `{"-0":V}`, `{"+1":V}`, `{"1e3":V}`, `{"1.5":V}`, `{" 1":V}`, `{"":V}`,
		`{"-":V}`, `{"\u0031":V}`, `{"a":V}`, `{"1":V,"1":W}`, `{"2":V,"1":V,"3":W}`, `null`, `{"1":null}`, `[]`, `{"1":V,"x":V}`,
		`{ "1" : V , "2" : W }`, `{"12345678901234567890123":V}`, `{"1":V`, `{"1" V}`, `{1:V}`}
	with := func(v, w string, more ...string) []string {
		var out []string
		for _, in := range append(objects, more...) {
			out = append(out, strings.ReplaceAll(strings.ReplaceAll(in, "V", v), "W", w))
		}
		return out
	}
	bodies := map[string][]string{
		"m":   with(`"a"`, `"b"`, `{"9223372036854775807":"x","-9223372036854775808":"y"}`, `{"9223372036854775808":"x"}`, `{"-9223372036854775809":"x"}`),
		"i8":  with(`1.5`, `-0`, `{"127":1,"-128":2}`, `{"128":1}`, `{"-129":1}`, `{"1":"x"}`),
		"i64": with(`{"A":1}`, `{"A":2,"B":3}`, `{"1":{"A":"x"}}`),
		"u8":  with(`1`, `2`, `{"255":1}`, `{"256":1}`, `{"-1":1}`),
		"u64": with(`7`, `null`, `{"18446744073709551615":1}`, `{"9999999999999999999":1}`, `{"18446744073709551616":1}`, `{"1":2147483648}`),
		"up":  with(`true`, `false`),
		"k":   with(`[1,2]`, `[]`, `{"65535":[3]}`, `{"65536":[3]}`),
	}
	mustTake := map[string]bool{
		`m{"9223372036854775807":"x","-9223372036854775808":"y"}`: true, `i8{"127":1,"-128":2}`: true, `u8{"255":1}`: true,
		`u64{"9999999999999999999":1}`: true, `k{"65535":[3]}`: true, `m{"2":"a","1":"a","3":"b"}`: true, `m{"1":"a","1":"b"}`: true,
		`m{"-0":"a"}`: true, `i64{ "1" : {"A":1} , "2" : {"A":2,"B":3} }`: true,
	}
	for _, k := range []string{"m", "i8", "i64", "u8", "u64", "up", "k"} {
		mustTake[k+`{}`] = true
		mustTake[k+bodies[k][2]] = true  // "007"
		mustTake[k+bodies[k][15]] = true // {"1":null}
		if k == "m" || k == "i8" || k == "i64" {
			mustTake[k+bodies[k][1]] = true // a '-' where the key is signed
		}
	}
	checkPassDiff[intKeyPass](t, bodies, mustTake, `{"m":{"5":"z"},"u8":{"6":6}}`,
		`{"m":{"1":"a"},"i8":{"-1":0.5},"i64":{"2":{"A":3}},"u8":{"4":5},"u64":{"6":7},"up":{"8":true},"k":{"9":[10]},"s":"y","x":3}`)
}

// checkPassDiff: for each key of bodies and each of its bodies, a
// document {"s":"x",key:body,"x":7} of T, which the typed one pass either
// takes, to encoding/json's values, or gives up on, leaving the struct
// zero; it must take those mustTake names (key then body). Unmarshal's
// values and errors are then encoding/json's on each document and on more,
// alone and in an array with other, against the classic encoding/json.
func checkPassDiff[T any](t *testing.T, bodies map[string][]string, mustTake map[string]bool, other string, more ...string) {
	t.Helper()
	var ins []string
	for _, key := range slices.Sorted(maps.Keys(bodies)) {
		for _, b := range bodies[key] {
			in := `{"s":"x","` + key + `":` + b + `,"x":7}`
			ins = append(ins, in)
			if fastPaths {
				ds := getState()
				var v T
				data := []byte(in)
				td := ds.topDecoder(reflect.TypeOf(&v))
				ds.bd.resetBytes(data)
				ds.d = &ds.bd
				took := ds.structPass(td.sd, data, unsafe.Pointer(&v))
				putState(ds)
				if !took && !reflect.ValueOf(v).IsZero() {
					t.Errorf("structPass(%s) gave up, leaving %+v, not zero", in, v)
				}
				if !took && mustTake[key+b] {
					t.Errorf("structPass(%s) gave up", in)
				}
				if took {
					var want T
					if err := stdjson.Unmarshal(data, &want); err != nil || !reflect.DeepEqual(v, want) {
						t.Errorf("structPass(%s) took it: %+v; encoding/json: %+v, %v", in, v, want, err)
					}
				}
			}
		}
	}
	ins = append(ins, more...)
	if !stdClassic {
		// A v2-backed encoding/json takes ",string" bodies the classic one
		// refuses ("+1") and words its errors otherwise; jsonpipe keeps the
		// classic behaviour (README), which the runs on Go 1.26 and with
		// GOEXPERIMENT=nojsonv2 hold it to.
		return
	}
	for _, in := range ins {
		var got, want T
		err := Unmarshal([]byte(in), &got)
		stdErr := stdjson.Unmarshal([]byte(in), &want)
		if !reflect.DeepEqual(got, want) || errString(err) != errString(stdErr) {
			t.Errorf("Unmarshal(%s): %+v, %v\nencoding/json: %+v, %v", in, got, err, want, stdErr)
		}
		arr := "[" + in + "," + other + "," + in + "]"
		var gotS, wantS []T
		err = Unmarshal([]byte(arr), &gotS)
		stdErr = stdjson.Unmarshal([]byte(arr), &wantS)
		if !reflect.DeepEqual(gotS, wantS) || errString(err) != errString(stdErr) {
			t.Errorf("Unmarshal(%s): %+v, %v\nencoding/json: %+v, %v", arr, gotS, err, wantS, stdErr)
		}
	}
}

// Recursive types, which the pass takes when nothing they reach has
// methods; passTree's three fields of its own type would make a search
// of every path 32 deep take 3^32 steps.
type passTree struct {
	ID      int64
	A, B, C []passTree
}

type passTreeText struct {
	Kids []passTreeText
	M    map[string]*passTreeText
	T    *diffText
}

type passCycleA struct{ B *passCycleB }
type passCycleB struct{ A map[string]passCycleA }

// textSlice is a slice type with a method of its own.
type textSlice []string

func (s *textSlice) UnmarshalText(b []byte) error {
	*s = append(*s, string(b))
	return nil
}

type DiffPassPart struct {
	P string
	Q int64
}

// TestStructPass: the typed one pass decodes, by itself, the input it
// takes, to encoding/json's values; on the rest it gives up, leaving the
// struct zero (Unmarshal's token path then decodes it: TestUnmarshalDiff
// and FuzzUnmarshalDiff check what that gives, by the "pass" targets).
func TestStructPass(t *testing.T) {
	if !fastPaths {
		t.Skip("the typed one pass is a fast path: off in this build")
	}
	takes := []string{
		`{}`, ` {}`, "{\n}\n", `{"id":1,"name":"n","Active":true,"Score":1.5,"N":12,"pi":2,"ps":"s","pf":0.25,"Count":3,"hi_there":"h","fourteen_bytes":"f","inner":{"X":4,"y":"y","Deep":{"Z":true}},"e1":"e","E2":5}`,
		`{"E2":5,"e1":"e","inner":{"Deep":{"Z":false},"y":"y","X":-4},"fourteen_bytes":"f","hi_there":"h","Count":3,"ID":7,"NAME":"n","active":false,"score":-0e1}`,
		"{ \"id\" : 1 ,\n  \"name\" :\"n\",\n  \"inner\" : { \"X\" : 4 , \"Deep\" : { } }\n}",
		`{"inner":null,"pi":null,"ps":null,"id":null,"name":null}`,
		`{"zz":[1,{"a":"b"}],"id":1,"yy":{"q":null},"name":"x","xx":"\u00e9","e2":2}`,
		`{"id":1,"id":2,"inner":{"X":1},"inner":{"y":"z"}}`,
		`{"name":"\u00e9\ud83d\ude00\n\"","ps":"\ud800"}`, "{\"name\":\"\xff\xfe é\"}",
		`{"fourteen_bytes":"long name"}`, `{"FOURTEEN_BYTES":"folded"}`, `{"hi_there" :"spaced"}`,
		`{"Score":1.000000000000000000001,"id":-9223372036854775808,"Count":12345678901234567}`, // numberSlow's
		`{"e1":"x","E2":2,"inner":{"Deep":{"Z":true},"X":1},"id":3}`,                            // out of order (fieldAt)
		// keys with escapes or bytes of 0x80 or more: looked up by lookup, with Unicode folding (ſ, K)
		`{"n\u0061me":"x"}`, `{"\u00dc":1}`, `{"Ü":1,"id":2}`, `{"größe":1,"id":2,"\u00fc":3}`, `{"fourteen_byteſ":"f","\u212a":1,"hi_\u0074here":"h"}`,
		"{\"name\xff\":1,\"id\":2}",
		// slices: empty, null, nulls among the elements, of every kind, nested, past the scratch buffer
		`{"tags":[],"pts":[],"parts":[],"Ns":[],"Flags":[],"Nums":[]}`, `{"tags":null,"pts":null,"parts":null}`,
		`{"tags":["a","b\n\u00e9",null,""],"pts":[[1.5,-2],[],null,[0]],"parts":[{"P":"p","Q":1},null,{}],"Ns":[1,-2,null],"Flags":[true,false,null],"Nums":[1,2.5e3]}`,
		`{"tags" : [ "a" , "b" ] , "pts" : [ [ 1 ] , [ ] ] , "parts" : [ { "P" : "x" } ] }`,
		`{"tags":[` + strings.Repeat(`"s",`, 200) + `"t"],"Ns":[` + strings.Repeat(`7,`, 300) + `8],"parts":[` + strings.Repeat(`{"Q":1},`, 100) + `{}]}`,
		`{"Ns":[12345678901234567,-9223372036854775808],"pts":[[1.000000000000000000001]]}`,
		`{"zz":[[1,[2]],{"a":[]}],"tags":["x"]}`,
		// any, maps, pointers: every kind of value, nulls, empty, keys with escapes, a key twice, past the scratch buffer
		`{"any":{"a":[1,"x",null,true,{"b":{}}]},"m":{"a":1,"b\u00e9":-2,"":3,"a":4},"ms":{"x":{"P":"p","Q":1},"y":{},"z":null},"ma":{"k":[1],"l":null},"p":{"P":"q"},"pp":[{"Q":2},null,{}],"anys":[1,"s",null,[],{}]}`,
		`{"any":null,"m":null,"ms":null,"ma":null,"p":null,"pp":null,"anys":null}`, `{"any":1.5,"m":{},"ms":{},"ma":{},"p":{},"pp":[],"anys":[]}`,
		`{"any":"s","m" : { "a" : 1 , "b" : 2 } , "p" : { } }`, `{"any":12345678901234567890123,"m":{"n":12345678901234567}}`,
		`{"m":{` + strings.Repeat(`"k":1,`, 100) + `"z":2},"ms":{` + strings.Repeat(`"k":{"Q":1},`, 100) + `"z":{}}}`,
		// time.Time, arrays, the type itself
		`{"when":"2024-01-02T03:04:05Z","whenp":"2024-01-02T03:04:05.123+01:00","pair":[1,2,[3,{"a":[]}],"x"],"next":{"id":2,"next":{"name":"x","pair":[5]}}}`,
		`{"when":null,"whenp":null,"pair":[1],"pair":[],"next":null}`, `{"pair":[null,2]}`,
		// through embedded pointers: allocated, null or not, nested, a key twice
		`{"pe":"x","pes":[1,2],"pe2":3,"id":1}`, `{"pe2":null}`, `{"pes":null,"id":2}`, `{"pe":"a","pe":"b","pe2":1}`,
		`{"next":{"pe2":5,"pes":[]}}`, `{"pp":[{"P":"x"}],"next":{"pe":"y"}}`,
		// RawMessage: every kind of value, null ("null"), invalid UTF-8 kept, a key twice, in a slice, pointer and map
		`{"raw":{"a":[1,"x\u00e9",null]},"raws":[1,null," s ",{}],"rawp":[true],"rawm":{"a":null,"b":2}}`, `{"raw":null,"rawp":null,"raws":null,"rawm":null}`,
		`{"raw" : 1.5e3 , "id":1}`, `{"raw":"\ud800"}`, "{\"raw\":\"bad\xff\"}", `{"raw":[1,2,3],"raw":{}}`, `{"raw":"long","raw":null}`, `{"raws":[],"rawm":{}}`,
		`{"raw":` + strings.Repeat("[", 40) + strings.Repeat("]", 40) + `}`,
		// null after a member that came before: nil again
		`{"p":{"P":"x"},"p":null,"tags":["a"],"tags":null,"m":{"a":1},"m":null,"ma":{},"ma":null,"whenp":"2024-01-02T03:04:05Z","whenp":null}`,
	}
	givesUp := []string{
		`{"id":"1"}`, `{"name":1}`, `{"Active":"true"}`, `{"inner":[]}`, `{"inner":1}`, // another kind
		`{"id":9223372036854775808}`, `{"id":1.5}`, `{"Score":1e400}`, `{"N":"1"}`, // does not fit
		`{"id":1,}`, `{"id":1 "name":"x"}`, `{"id" 1}`, `{"id":1`, `{"inner":{"X":1}`, `{"name":"a` + "\x01" + `"}`, // syntax
		`{"id":1}x`, `{"id":1} {}`, `[]`, `null`, ``, // not one object
		`{"zz":[1,2,],"id":1}`, `{"zz":{"a" 1}}`, // an unknown member's syntax
		// slices: an element of another kind, a slice for a struct or scalar, syntax
		`{"tags":[1]}`, `{"tags":{}}`, `{"tags":"a"}`, `{"parts":[1]}`, `{"parts":[[]]}`, `{"pts":[[1,"a"]]}`, `{"pts":[1]}`, `{"Ns":[1.5]}`,
		`{"Flags":[1]}`, `{"inner":[1]}`, `{"id":[1]}`, `{"tags":["a",]}`, `{"tags":["a"`, `{"tags":["a" "b"]}`, `{"tags":[,]}`,
		`{"Ns":[` + strings.Repeat(`7,`, 300) + `"8"]}`, `{"parts":[` + strings.Repeat(`{"Q":1},`, 100) + `{"Q":"1"}]}`,
		// any, maps, pointers: another kind, syntax, a value it gives up on
		`{"any":[1,]}`, `{"any":{"a" 1}}`, `{"any":1e400}`, `{"m":[]}`, `{"m":{"a":"1"}}`, `{"m":{"a":1,}}`, `{"m":{"a" 1}}`, `{"m":{1:1}}`, `{"m":{"a":1`,
		`{"m":{"a":1 "b":2}}`, `{"ms":{"x":{"Q":"1"}}}`, `{"ms":{"x":[]}}`, `{"ma":[]}`, `{"ma":{"a":}}`, `{"p":[]}`, `{"p":{"Q":"1"}}`, `{"pp":[{"Q":"1"}]}`, `{"pp":[1]}`,
		`{"m":{` + strings.Repeat(`"k":1,`, 100) + `"z":"2"}}`, `{"ms":{"a":{"P":"\u00e9"},"b":1}}`,
		`{"when":"yesterday"}`, `{"when":1}`, `{"when":"2024-01-02T03:04:05\u005a"}`, `{"whenp":"bad"}`, `{"pair":{}}`, `{"pair":[1,"2"]}`,
		`{"pair":[1,2,]}`, `{"pair":[1,2,[}]}`, `{"pair":[1,2`, `{"pair":[`, `{"pair":[ `, `{"next":{"id":"x"}}`, `{"next":[]}`,
		// behind a nil pointer to an unexported struct type (an error), a value of another kind
		`{"hid":1}`, `{"id":1,"hid":null}`, `{"pe2":1,"pe2":2}`, `{"pe":1}`, `{"pe2":"1"}`, `{"pes":{}}`,
		// RawMessage: syntax, control bytes, past the pass's depth
		`{"raw":[1,]}`, `{"raw":{"a" 1}}`, `{"raw":tru}`, "{\"raw\":\"a\x01\"}", `{"raw":01}`, `{"raw":-}`, `{"raws":[1,]}`, `{"rawm":{"a":}}`,
		`{"raw":` + strings.Repeat("[", 600) + strings.Repeat("]", 600) + `}`, // (the token path's, to 10,000)
		// a member that came before, whose value the token path decodes into
		`{"tags":["a"],"tags":["b","c"]}`, `{"parts":[{"P":"x"}],"parts":[{"Q":1}]}`, `{"m":{"a":1},"m":{"b":2}}`, `{"p":{"P":"x"},"p":{"Q":1}}`, `{"ma":{"a":1},"ma":{}}`,
	}
	check := func(in string, take bool) {
		t.Helper()
		ds := getState()
		defer putState(ds)
		var v diffPass
		data := []byte(in)
		td := ds.topDecoder(reflect.TypeOf(&v))
		ds.bd.resetBytes(data)
		ds.d = &ds.bd
		if got := ds.structPass(td.sd, data, unsafe.Pointer(&v)); got != take {
			t.Fatalf("structPass(%q) took it: %v, want %v", in, got, take)
		}
		if !take {
			if !reflect.ValueOf(v).IsZero() {
				t.Fatalf("structPass(%q) gave up, leaving %+v, not zero", in, v)
			}
			return
		}
		var want diffPass
		if err := stdjson.Unmarshal(data, &want); err != nil {
			t.Fatalf("encoding/json: %v", err)
		}
		if !reflect.DeepEqual(v, want) {
			t.Fatalf("structPass(%q):\n got %+v\nwant %+v", in, v, want)
		}
	}
	for _, in := range takes {
		check(in, true)
	}
	for _, in := range givesUp {
		check(in, false)
	}
	// Every prefix of what it takes ends the input inside a value: it
	// gives up, unless the prefix is a whole object (trailing space cut).
	for _, in := range append(takes, `{"pair":[1,[2,{"a":[ ]}] , "x" ],"when":"2024-01-02T03:04:05Z"}`) {
		for n := range len(in) {
			check(in[:n], stdjson.Valid([]byte(in[:n])))
		}
	}
}

// TestStructPassAllocs: the typed one pass allocates nothing of its own
// for a record without strings, slices, maps, pointers or anys: on one
// decoding state, and through Unmarshal into a zero value of the type of
// its call before.
func TestStructPassAllocs(t *testing.T) {
	if !fastPaths {
		t.Skip("the typed one pass is a fast path: off in this build")
	}
	data := []byte(`{"id":1,"Active":true,"Score":2.5,"inner":{"X":4,"Deep":{"Z":true}},"E2":5,"zz":[1,{"a":null}],"m":null,"pp":null}`)
	var v diffPass
	ds := getState()
	defer putState(ds)
	td := ds.topDecoder(reflect.TypeOf(&v))
	ds.d = &ds.bd
	allocs := testing.AllocsPerRun(100, func() {
		v = diffPass{}
		ds.bd.resetBytes(data)
		if !ds.structPass(td.sd, data, unsafe.Pointer(&v)) {
			t.Fatal("structPass gave up")
		}
	})
	if allocs != 0 {
		t.Errorf("structPass of a record without strings: %v allocations, want 0", allocs)
	}
	if raceBuild {
		// sync.Pool drops what is put in it at random under the race
		// detector, and a new state has no type of a call before.
		return
	}
	if err := Unmarshal(data, &v); err != nil {
		t.Fatal(err)
	}
	allocs = testing.AllocsPerRun(100, func() {
		v = diffPass{}
		if err := Unmarshal(data, &v); err != nil {
			t.Fatal(err)
		}
	})
	if allocs != 0 {
		t.Errorf("Unmarshal of a record without strings into a zero struct: %v allocations, want 0", allocs)
	}
}

// TestSlicePassNestedGrowth: an array inside a value, longer than its
// scratch buffer, grows as append does: not by an estimate from the bytes
// left in the input, which are not its own (here a megabyte of space
// after the value: about 4 MB of room for 70 strings).
func TestSlicePassNestedGrowth(t *testing.T) {
	if !fastPaths {
		t.Skip("the typed one pass is a fast path: off in this build")
	}
	data := []byte(`{"tags":[` + strings.Repeat(`"a",`, 69) + `"b"]}` + strings.Repeat(" ", 1<<20))
	var v diffPass
	Unmarshal(data, &v) // the type of the call before, for the pass
	var before, after runtime.MemStats
	v = diffPass{}
	runtime.ReadMemStats(&before)
	err := Unmarshal(data, &v)
	runtime.ReadMemStats(&after)
	if err != nil || len(v.Tags) != 70 {
		t.Fatalf("Unmarshal: %v, %d tags", err, len(v.Tags))
	}
	if n := after.TotalAlloc - before.TotalAlloc; n > 256<<10 {
		t.Errorf("Unmarshal of a record with 70 tags allocated %d bytes", n)
	}
}

// TestSlicePass: the typed one pass into a nil slice of passable structs
// decodes, by itself, the arrays it takes, to encoding/json's values; on
// the rest it gives up, leaving the slice nil.
func TestSlicePass(t *testing.T) {
	if !fastPaths {
		t.Skip("the typed one pass is a fast path: off in this build")
	}
	takes := []string{
		`[]`, ` [ ] `, `[{}]`, `[null]`, `[{"id":1},null,{"name":"x"}]`, "[\n {\"id\": 1},\n {\"id\": 2}\n]",
		passArray(3, ""), passArray(20, ""), passArray(100, "\n  "),
		// past the scratch buffer with an estimate far too short (grown by
		// doubling), and far too long (copied to its length)
		passArray(20, "")[:len(passArray(20, ""))-1] + strings.Repeat(`,{}`, 300) + `]`,
		`[` + strings.Repeat(`{},`, 20) + passArray(30, "")[1:],
		"[" + strings.Repeat(" ", 100<<10) + passArray(3000, "")[1:], // of any length
		`[{"id":1},{"n\u0061me":"x"}]`,
	}
	givesUp := []string{
		`[{"id":1},{"id":"2"}]`, `[{"id":1},{"N":"2"}]`, `[{"id":1},1]`, `[{"id":1},[]]`, `[{"id":1},]`,
		`[{"id":1}`, `[{"id":1}]x`, `[{"id":1}] []`, `[{"id":1} {"id":2}]`, `[nul]`, `[`, `{}`, `null`,
		passArray(20, "") + "x",
	}
	check := func(in string, take bool) {
		t.Helper()
		ds := getState()
		defer putState(ds)
		var v []diffPass
		data := []byte(in)
		td := ds.topDecoder(reflect.TypeOf(&v))
		ds.bd.resetBytes(data)
		ds.d = &ds.bd
		sl := td.slice
		if sl == nil || sl.elem.sd == nil || !sl.elem.sd.passable() {
			t.Fatalf("[]diffPass: no slice decoder of passable structs")
		}
		if got := ds.slicePass(sl, data, unsafe.Pointer(&v)); got != take {
			t.Fatalf("slicePass(%.80q) took it: %v, want %v", in, got, take)
		}
		if !take {
			if v != nil {
				t.Fatalf("slicePass(%.80q) gave up, leaving %+v, not nil", in, v)
			}
			return
		}
		var want []diffPass
		if err := stdjson.Unmarshal(data, &want); err != nil {
			t.Fatalf("encoding/json: %v", err)
		}
		if !reflect.DeepEqual(v, want) {
			t.Fatalf("slicePass(%.80q):\n got %+v\nwant %+v", in, v, want)
		}
		if cap(v) > len(v)+len(v)/3 {
			t.Fatalf("slicePass(%.80q): len %d, cap %d: more than a quarter empty", in, len(v), cap(v))
		}
	}
	for _, in := range takes {
		check(in, true)
	}
	for _, in := range givesUp {
		check(in, false)
	}
	for _, in := range takes[:6] { // every prefix, as in TestStructPass
		for n := range len(in) {
			check(in[:n], stdjson.Valid([]byte(in[:n])))
		}
	}
}

// A ",string" member whose string ends in the input's last 8 bytes (the
// last member of a small document; a token the token path holds alone) is
// read in place too: stringStop leaves those bytes, and quotedAt used to
// give up there, to decodeQuoted's copy and reflect.Values (4 allocations
// here, and every such member of a 1 MB array that Decode reads by tokens).
func TestQuotedTailNoAllocs(t *testing.T) {
	if raceBuild || !fastPaths {
		t.Skip("allocation counts: not under the race detector, nor without the fast paths")
	}
	type q struct {
		ID     int64   `json:"id,string"`
		Price  float64 `json:"price,string"`
		Active bool    `json:"active,string"`
	}
	in := []byte(`{"id":"5","price":"1.5","active":"true"}`)
	want := q{5, 1.5, true}
	var v q
	if n := testing.AllocsPerRun(100, func() { v = q{}; _ = Unmarshal(in, &v) }); n != 0 || v != want {
		t.Errorf("Unmarshal: %v allocations, %+v", n, v)
	}
	r := bytes.NewReader(nil)
	d := NewDecoder(r)
	if n := testing.AllocsPerRun(100, func() { v = q{}; r.Reset(in); _ = d.Decode(&v) }); n != 0 || v != want {
		t.Errorf("Decode: %v allocations, %+v", n, v)
	}
	// Each member alone, ending at the token's end: the token path's.
	f := fieldDecoder{typ: reflect.TypeFor[int64](), quotedFast: fastInt64}
	var n int64
	if end := quotedAt(&f, []byte(`"-12"`), 0, unsafe.Pointer(&n)); end != 5 || n != -12 {
		t.Errorf("quotedAt: %d, %d", end, n)
	}
}

// TestNarrowPass: the typed one pass reads integers of 8 to 32 bits,
// unsigned ones and float32s (narrowAt) to encoding/json's values, and
// gives up, leaving the struct zero, on every value their decoders would
// not store (out of range, a fraction or an exponent into an integer, a
// negative or -0 into an unsigned one, past float32's range, another
// kind), which the token path then words: Unmarshal's values and errors
// are encoding/json's on all of them, into the struct and a slice of it.
func TestNarrowPass(t *testing.T) {
	if !fastPaths {
		t.Skip("the typed one pass is a fast path: off in this build")
	}
	ds := getState()
	td := ds.topDecoder(reflect.TypeFor[*diffNarrow]())
	putState(ds)
	if !td.sd.passable() {
		t.Fatalf("diffNarrow is not passable")
	}
	takes := []string{
		`{}`, `{"i8":-128,"i16":-32768,"i32":-2147483648,"u":0,"u8":0,"u16":0,"u32":0,"u64":0,"up":0,"f32":0,"k":0,"x":1}`,
		`{"i8":127,"i16":32767,"i32":2147483647,"u":18446744073,"u8":255,"u16":65535,"u32":4294967295,"u64":9223372036854775807,"up":12,"f32":-0,"k":65535}`,
		`{"i8":-0,"i16":-0,"i32":-0,"f32":-0.0}`,
		`{"f32":0.1,"m":{"a":16777217,"b":3.4028234e38,"c":1e-46,"d":1.4e-45,"e":-2.5e-3,"f":1.00000005,"g":123456789012345678901234567890}}`,
		`{"p":-7,"s":[0,1,4294967295],"a":[127,-128]}`, `{"p":null,"s":null,"a":[1],"m":null,"i8":null,"u64":null,"f32":null}`,
		`{"a":[1,2,3],"s":[],"m":{}}`, `{ "i8" : 1 , "f32" : 2.5e1 , "u16" : 3 }`, "{\n  \"u32\": 7,\n  \"s\": [\n    1\n  ]\n}",
	}
	givesUp := []string{
		`{"i8":128}`, `{"i8":-129}`, `{"i16":32768}`, `{"i32":-2147483649}`, `{"u8":256}`, `{"u16":65536}`, `{"u32":4294967296}`, `{"k":65536}`,
		`{"u":-1}`, `{"u8":-0}`, `{"u64":-0}`, `{"u64":9223372036854775808}`, `{"u64":18446744073709551615}`, `{"u64":18446744073709551616}`,
		`{"i32":1.5}`, `{"i32":1e3}`, `{"u8":1.0}`, `{"i8":"1"}`, `{"u16":true}`, `{"i32":[]}`, `{"p":1.5}`, `{"s":[1,-1]}`, `{"a":[1,300]}`,
		`{"f32":1e39}`, `{"f32":-3.5e38}`, `{"m":{"a":1e39}}`, `{"f32":"1"}`, `{"f32":01}`, `{"i8":01}`, `{"u8":-}`, `{"i8":1`, `{"f32":1.}`,
	}
	check := func(in string, take bool) {
		t.Helper()
		ds := getState()
		defer putState(ds)
		var v diffNarrow
		data := []byte(in)
		ds.bd.resetBytes(data)
		ds.d = &ds.bd
		if got := ds.structPass(td.sd, data, unsafe.Pointer(&v)); got != take {
			t.Fatalf("structPass(%q) took it: %v, want %v", in, got, take)
		}
		if !take && !reflect.ValueOf(v).IsZero() {
			t.Fatalf("structPass(%q) gave up, leaving %+v, not zero", in, v)
		}
		diffUnmarshal(t, data, false)
		diffUnmarshal(t, []byte("["+in+","+in+"]"), false)
	}
	for _, in := range takes {
		check(in, true)
	}
	for _, in := range givesUp {
		check(in, false)
	}
}

// TestDocumentTail: the last member of a document sits in its last 16
// bytes, where the one pass reads keys (memberTail), flags (flagTail) and
// strings (stringTail) by what is left rather than by whole words. Every
// kind of last member, keys of every length up to past the words, in the
// fields' order and out of it and in another case, strings of every
// length to past a word with non-ASCII, bad UTF-8, escapes and control
// bytes among their last bytes; then every cut of each document: the
// values and errors of encoding/json, typed and into any, by Unmarshal
// and by Decode.
func TestDocumentTail(t *testing.T) {
	lasts := []string{
		`"name":""`, `"name":"a"`, `"name":"abc"`, `"name":"abcdefg"`, `"name":"abcdefgh"`, `"name":"abcdefghijklm"`,
		`"name":"é"`, `"name":"ab中"`, `"name":"a\u00e9"`, `"name":"a\n"`, `"name":"\"x"`, "\"name\":\"a\x01\"",
		"\"name\":\"a\xff\"", "\"name\":\"\xe4\xb8\"", `"NAME":"abc"`, `"Name":"x"`,
		`"Active":true`, `"Active":false`, `"active":true`, `"Active":null`, `"Active":tru`, `"Active":truex`, `"Active":"true"`,
		`"id":1`, `"id":12345`, `"id":-7`, `"id":1.5`, `"id":null`,
		`"hi_there":"x"`, `"fourteen_bytes":"x"`, `"Ü":3`, `"nope":1`, `"x":[1]`, `"Inner":{"X":2}`,
	}
	var docs []string
	for _, last := range lasts {
		for _, before := range []string{"", `"id":9,`, `"Active":true,"id":9,`, `"name":"n","Score":1,`} {
			doc := "{" + before + last + "}"
			docs = append(docs, doc, "["+doc+"]", "["+doc+","+doc+"]", doc+" ", doc+"\n\t")
		}
	}
	for _, doc := range docs {
		for n := len(doc); n >= 0; n-- {
			if n < len(doc) && n%3 != 0 && n < len(doc)-16 {
				continue // the cuts in the last 16 bytes, every third before them
			}
			in := []byte(doc[:n])
			for _, tg := range []struct {
				name string
				new  func() any
			}{
				{"pass", func() any { return new(diffPass) }},
				{"passes", func() any { return new([]diffPass) }},
				{"any", func() any { return new(any) }},
			} {
				want := tg.new()
				werr := stdjson.Unmarshal(in, want)
				for call := range 2 { // the second takes the pass of a type seen
					got := tg.new()
					gerr := Unmarshal(in, got)
					if !sameError(gerr, werr) {
						t.Fatalf("Unmarshal(%q) into %s, call %d:\n got error %s\nwant error %s", in, tg.name, call, describeError(gerr), describeError(werr))
					}
					if !sameValue(got, want, gerr, werr) {
						t.Fatalf("Unmarshal(%q) into %s, call %d:\n got %#v\nwant %#v", in, tg.name, call, deref(got), deref(want))
					}
				}
				// Decode, whose window holds the whole document (a reader
				// with a Len): the pass on the window, its end the input's.
				dwant := tg.new()
				dwerr := stdjson.NewDecoder(bytes.NewReader(in)).Decode(dwant)
				dgot := tg.new()
				dgerr := NewDecoder(bytes.NewReader(in)).Decode(dgot)
				if !sameError(dgerr, dwerr) {
					t.Fatalf("Decode(%q) into %s:\n got error %s\nwant error %s", in, tg.name, describeError(dgerr), describeError(dwerr))
				}
				if !sameValue(dgot, dwant, dgerr, dwerr) {
					t.Fatalf("Decode(%q) into %s:\n got %#v\nwant %#v", in, tg.name, deref(dgot), deref(dwant))
				}
			}
		}
	}
}

// TestMemberTail: memberTail reads what is left of the input from i into
// two words, zeros after it.
func TestMemberTail(t *testing.T) {
	data := []byte(`{"a":1,"name":"x"}`)
	for i := range len(data) {
		var want [16]byte
		copy(want[:], data[i:])
		w0, w1 := memberTail(data, i)
		if w0 != binary.LittleEndian.Uint64(want[:8]) || w1 != binary.LittleEndian.Uint64(want[8:]) {
			t.Errorf("memberTail(%q, %d) = %#x, %#x; want the bytes %q", data, i, w0, w1, want)
		}
	}
}

// TestStringTail: stringTail stops at the first '"', '\\' or control byte,
// or at the end, and ORs the bytes before it.
func TestStringTail(t *testing.T) {
	for _, c := range []struct {
		in   string
		j, k int
		high uint64
	}{
		{`abc"`, 0, 3, 'a' | 'b' | 'c'},
		{`abc`, 1, 3, 'b' | 'c'},
		{`a\b`, 0, 1, 'a'},
		{"a\x1fb", 0, 1, 'a'},
		{"\xe4\xb8\xad\"", 0, 3, 0xe4 | 0xb8 | 0xad},
		{`"`, 0, 0, 0},
		{``, 0, 0, 0},
	} {
		if k, high := stringTail([]byte(c.in), c.j); k != c.k || high != c.high {
			t.Errorf("stringTail(%q, %d) = %d, %#x; want %d, %#x", c.in, c.j, k, high, c.k, c.high)
		}
	}
}
