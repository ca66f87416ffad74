package json

import (
	"errors"
	"fmt"
	"math"
	"reflect"
	"strconv"
	"time"
	"unsafe"
)

// The values FuzzMarshalDiff, TestMarshalDiff and TestMarshalRoundTrip
// encode: a builder per family of types, each reading its choices from a
// byte string (encFuzz), so that the fuzzer steers every choice and a fixed
// seed gives a fixed value. The types cover every rule of encoding/json's
// encoder that issue 18 lists.

// encFuzz hands out the bytes of a fuzz input as choices; past its end,
// every choice is zero.
type encFuzz struct{ b []byte }

func (f *encFuzz) byte() byte {
	if len(f.b) == 0 {
		return 0
	}
	c := f.b[0]
	f.b = f.b[1:]
	return c
}

func (f *encFuzz) bool() bool { return f.byte()&1 == 1 }

// n returns a choice in [0, n).
func (f *encFuzz) n(n int) int { return int(f.byte()) % n }

func (f *encFuzz) uint64() uint64 {
	var x uint64
	for range 8 {
		x = x<<8 | uint64(f.byte())
	}
	return x
}

// strPieces are what a byte from 0x80 to 0xbf puts in a string: the
// characters that the encoder escapes or replaces, and UTF-8 that is
// invalid in each way (lone continuation bytes, overlong forms, surrogates,
// truncated sequences, past U+10FFFF).
var strPieces = []string{
	"<", ">", "&", "\u2028", "\u2029", "\x00", "\x1f", "\x7f", `"`, `\`, "\b\f\n\r\t",
	"\xff", "\xc0\x80", "\xed\xa0\x80", "\xed\xbf\xbf", "\xe2\x82", "\xf0\x9f\x98", "\xf4\x90\x80\x80",
	"é", "€", "😀", "\ufffd", "\u00a0", "\ufeff", "\U0010ffff", "</script>", "\u2027", "\u202a",
	"\\u0041", "\x80", "a\xe2\x80\xa8b", "\xc3", "\xe2\x80", "\xe2\x80\xa9\xff",
}

// string: each byte below 0x80 is itself (control characters included), a
// byte from 0xc0 is itself alone (usually invalid UTF-8, sometimes the start
// of valid UTF-8 with the bytes that follow), and a byte from 0x80 to 0xbf
// is a strPieces entry.
func (f *encFuzz) string() string {
	n := f.n(14)
	var b []byte
	for range n {
		c := f.byte()
		switch {
		case c < 0x80:
			b = append(b, c)
		case c >= 0xc0:
			b = append(b, c)
		default:
			b = append(b, strPieces[int(c-0x80)%len(strPieces)]...)
		}
	}
	return string(b)
}

// float64s worth meeting: the boundaries of the 'e' format (1e21, 1e-6),
// the exponents encoding/json rewrites (e-07 to e-7), the limits, the
// non-finite values (errors).
var floatPalette = []float64{
	0, math.Copysign(0, -1), 1, -1, 0.1, 1.0 / 3, 100, 1e6, 1e20, 1e21, 999999999999999999999.0,
	9.999999999999999e20, 1e-6, 1e-7, 0.000001234, 1.234e-7, 123456789, 12345678.9, 1.5e300, -1.5e-300,
	5e-324, math.MaxFloat64, math.SmallestNonzeroFloat64, math.MaxFloat32, math.SmallestNonzeroFloat32,
	1 << 53, 1<<53 + 1, 16777216, 16777217, 2.5e-8, 1e100, math.Inf(1), math.Inf(-1), math.NaN(),
}

func (f *encFuzz) float64() float64 {
	if c := f.byte(); c < 0x80 {
		return floatPalette[int(c)%len(floatPalette)]
	}
	return math.Float64frombits(f.uint64())
}

func (f *encFuzz) float32() float32 {
	if c := f.byte(); c < 0x80 {
		return float32(floatPalette[int(c)%len(floatPalette)])
	}
	return math.Float32frombits(uint32(f.uint64()))
}

// int64In returns a value of a signed kind of the given bits: its limits,
// next to them, zero, -1, or raw bits (truncated by the caller).
func (f *encFuzz) int64In(bits uint) int64 {
	lo, hi := int64(-1)<<(bits-1), int64(1)<<(bits-1)-1
	switch f.n(8) {
	case 0:
		return lo
	case 1:
		return hi
	case 2:
		return 0
	case 3:
		return -1
	case 4:
		return lo + 1
	case 5:
		return hi - 1
	}
	return int64(f.uint64())
}

func (f *encFuzz) uint64In(bits uint) uint64 {
	hi := uint64(1)<<(bits-1)<<1 - 1
	switch f.n(6) {
	case 0:
		return hi
	case 1:
		return 0
	case 2:
		return 1
	case 3:
		return hi - 1
	}
	return f.uint64()
}

// The types.

type encStr string

type encInt int16

type encFloat float64

type encFloatLists struct {
	Pairs [][2]float64
	Rings [][]float64
	Named [][1]encFloat
	Fixed [2][]float64
	Empty [][0]float64
}

type encStrings struct {
	S  string
	N  encStr
	P  *string
	L  []string
	A  [2]string
	M  map[string]string
	Q  string `json:",string"`
	QN encStr `json:",string"`
	I  any
}

// encLists: slices of scalars, which the loop over a struct's fields
// writes itself (typeEncoder.list), each nil, empty or not, of every
// direct kind and of pointers to one; beside them slices that are not
// lists (a named one with MarshalJSON, one of Marshalers), one with
// omitempty, one with ",string" (which a slice ignores) and one promoted
// through an embedded pointer.
type encLists struct {
	S     []string
	I     []int
	I32   []int32
	U     []uint64
	F     []float64
	B     []bool
	N     []Number
	P     []*int
	Named encList
	M     encListM
	E     []EncValM
	Om    []string `json:",omitempty"`
	Q     []int    `json:",string"`
	*EncListsIn
}

type encList []string

// encListM: a slice with MarshalJSON, called for a nil one too.
type encListM []int

func (l encListM) MarshalJSON() ([]byte, error) { return []byte(strconv.Itoa(len(l))), nil }

type EncListsIn struct{ In []int64 }

// fuzzList is nil, empty or up to 4 elements from elem.
func fuzzList[T any](f *encFuzz, elem func() T) []T {
	n := f.n(6)
	if n == 5 {
		return nil
	}
	s := make([]T, n) // n == 0: empty, not nil
	for i := range s {
		s[i] = elem()
	}
	return s
}

type encInts struct {
	I   int
	I8  int8
	I16 int16
	I32 int32
	I64 int64
	U   uint
	U8  uint8
	U16 uint16
	U32 uint32
	U64 uint64
	UP  uintptr
	D   time.Duration
	N   encInt
	Any []any
}

type encIntsString struct {
	I   int           `json:",string"`
	I8  int8          `json:",string"`
	I16 int16         `json:",string"`
	I32 int32         `json:",string"`
	I64 int64         `json:",string"`
	U   uint          `json:",string"`
	U8  uint8         `json:",string"`
	U16 uint16        `json:",string"`
	U32 uint32        `json:",string"`
	U64 uint64        `json:",string"`
	UP  uintptr       `json:",string"`
	D   time.Duration `json:",string"`
	N   encInt        `json:",string"`
	P   *int64        `json:",string"`
	PP  **int         `json:",string"` // two pointers: not quoted
	B   bool          `json:",string"`
	PB  *bool         `json:",string"`
}

type encFloats struct {
	F64  float64
	F32  float32
	N    encFloat
	S64  float64  `json:",string"`
	S32  float32  `json:",string"`
	P    *float64 `json:",string"`
	A32  any      // holds a float32: 32-bit formatting
	A64  any
	Arr  [2]float32
	Many []float64
}

// encTextVal: a comparable struct key with a value-receiver MarshalText.
type encTextVal struct {
	A int8
	B string
}

func (k encTextVal) MarshalText() ([]byte, error) { return []byte(fmt.Sprintf("%d:%s", k.A, k.B)), nil }

// encTextPtr: a pointer-receiver MarshalText; as a key its pointer type.
type encTextPtr struct{ S string }

func (k *encTextPtr) MarshalText() ([]byte, error) { return []byte(k.S), nil }

// encTextStr: a string kind with MarshalText. The classic encoding/json
// uses the string itself as the key; MarshalText is used for values.
type encTextStr string

func (k encTextStr) MarshalText() ([]byte, error) { return []byte("T:" + string(k)), nil }

// encTextInt: an integer kind with MarshalText, which wins over the number.
type encTextInt int32

func (k encTextInt) MarshalText() ([]byte, error) { return []byte("i" + strconv.Itoa(int(k))), nil }

// encTextErr: MarshalText fails for odd values, with a text that does not
// depend on the key (map order decides which key fails first).
type encTextErr uint8

func (k encTextErr) MarshalText() ([]byte, error) {
	if k%2 == 1 {
		return nil, errors.New("encTextErr: odd")
	}
	return []byte("e" + strconv.Itoa(int(k))), nil
}

// encJSONKey: a string kind whose MarshalJSON is no TextMarshaler: the key
// is the string.
type encJSONKey string

func (k encJSONKey) MarshalJSON() ([]byte, error) { return []byte(`"J"`), nil }

type encMaps struct {
	S   map[string]int
	NS  map[encStr]int
	I   map[int]string
	I8  map[int8]string
	I16 map[int16]string
	I32 map[int32]string
	I64 map[int64]string
	U   map[uint]string
	U8  map[uint8]string
	U16 map[uint16]string
	U32 map[uint32]string
	U64 map[uint64]string
	UP  map[uintptr]string
	NI  map[encInt]string
	TV  map[encTextVal]int
	TP  map[*encTextPtr]int
	TS  map[encTextStr]encTextStr
	TI  map[encTextInt]bool
	JK  map[encJSONKey]int
	Any map[string]any
	Nil map[string]int
	MM  map[string]map[int]string
	E   map[string]struct{}
}

type encTextErrMap struct {
	TE map[encTextErr]int
	OK map[string]int
}

// Tags.

type encOmitEmpty struct {
	B   bool            `json:",omitempty"`
	I   int             `json:",omitempty"`
	I8  int8            `json:",omitempty"`
	I16 int16           `json:",omitempty"`
	I32 int32           `json:",omitempty"`
	I64 int64           `json:",omitempty"`
	U   uint            `json:",omitempty"`
	U8  uint8           `json:",omitempty"`
	U16 uint16          `json:",omitempty"`
	U32 uint32          `json:",omitempty"`
	U64 uint64          `json:",omitempty"`
	UP  uintptr         `json:",omitempty"`
	F32 float32         `json:",omitempty"`
	F64 float64         `json:",omitempty"`
	S   string          `json:",omitempty"`
	NS  encStr          `json:"ns,omitempty"`
	Sl  []int           `json:",omitempty"`
	By  []byte          `json:",omitempty"`
	M   map[string]int  `json:",omitempty"`
	A0  [0]int          `json:",omitempty"`
	A2  [2]int          `json:",omitempty"`
	P   *int            `json:",omitempty"`
	If  any             `json:",omitempty"`
	St  struct{ X int } `json:",omitempty"` // never empty
	T   time.Time       `json:",omitempty"` // never empty
	Num Number          `json:",omitempty"`
	Raw RawMessage      `json:",omitempty"`
	SS  int             `json:",omitempty,string"`
}

// encZeroVal: IsZero with a value receiver, true for X == 1 (not the zero
// value), so the method is seen to be used.
type encZeroVal struct{ X int }

func (z encZeroVal) IsZero() bool { return z.X == 1 }

// encZeroPtr: IsZero with a pointer receiver, used even where the field is
// not addressable (encoding/json copies the value to call it).
type encZeroPtr struct{ X int }

func (z *encZeroPtr) IsZero() bool { return z.X == 2 }

type encIsZeroer interface{ IsZero() bool }

type encOmitZero struct {
	B    bool            `json:",omitzero"`
	I    int             `json:",omitzero"`
	I8   int8            `json:",omitzero"`
	I16  int16           `json:",omitzero"`
	I32  int32           `json:",omitzero"`
	I64  int64           `json:",omitzero"`
	U    uint            `json:",omitzero"`
	U8   uint8           `json:",omitzero"`
	U16  uint16          `json:",omitzero"`
	U32  uint32          `json:",omitzero"`
	U64  uint64          `json:",omitzero"`
	UP   uintptr         `json:",omitzero"`
	F32  float32         `json:",omitzero"`
	F64  float64         `json:",omitzero"`
	S    string          `json:",omitzero"`
	NS   encStr          `json:",omitzero"`
	By   []byte          `json:",omitzero"`
	Num  Number          `json:",omitzero"`
	Raw  RawMessage      `json:",omitzero"`
	Sl   []int           `json:",omitzero"` // nil omitted, empty kept
	M    map[string]int  `json:",omitzero"`
	A2   [2]int          `json:",omitzero"`
	P    *int            `json:",omitzero"`
	If   any             `json:",omitzero"` // a zero int inside is kept
	St   struct{ X int } `json:",omitzero"`
	T    time.Time       `json:",omitzero"`
	T2   time.Time       `json:",omitempty,omitzero"`
	ZV   encZeroVal      `json:",omitzero"`
	ZP   encZeroPtr      `json:",omitzero"`
	PZV  *encZeroVal     `json:",omitzero"`
	PZP  *encZeroPtr     `json:",omitzero"`
	IZ   encIsZeroer     `json:",omitzero"`
	Both []int           `json:",omitempty,omitzero"`
	Ch   chan int        `json:",omitzero"` // nil omitted; otherwise an error
	Fn   func()          `json:",omitzero"`
	ZVs  encZeroVal      `json:",omitzero,string"`
}

type encTags struct {
	Skip    int            `json:"-"`
	Dash    int            `json:"-,"`
	Renamed int            `json:"renamed"`
	HTML    string         `json:"a<b>&c"`
	Space   int            `json:"with space"`
	Uni     string         `json:"ünï"`
	Empty   int            `json:""`
	Punct   int            `json:"!#$%&()*+-./:;<=>?@[]^_{|}~ "`
	SI      int            `json:",string"`
	SS      string         `json:",string"`
	SPS     *string        `json:",string"`
	SSl     []int          `json:",string"` // not applicable: ignored
	SM      map[string]int `json:",string"`
	SAny    any            `json:",string"` // an interface: not quoted
	SNum    Number         `json:",string"`
	SM2     EncValM        `json:",string"` // a Marshaler: not quoted
	ST      EncValT        `json:",string"`
	Dup     int            `json:"renamed2"`
	unexp   int
	Ch      chan int `json:"-"`
	Fn      func()   `json:"-"`
}

// encBadTagNames: names encoding/json does not accept, so the field's own
// name is used.
type encBadTagNames struct {
	Quote int `json:"bad\"name"`
	Back  int `json:"back\\"`
	Uni   int `json:"\u00e9"`
	Ctrl  int `json:"a\tb"`
}

// encFloatKeys: a key type encoding/json refuses (but where empty or nil).
type encFloatKeys struct {
	F   map[float64]int
	F32 map[float32]string `json:",omitempty"`
}

// Embedding.

type EncInner struct {
	A int
	B string `json:"b"`
	C int
}

type encInner2 struct {
	A int // conflicts with EncInner.A at the same depth: both dropped
	D int
}

type EncPtrInner struct {
	P int
	Q string `json:"q,omitempty"`
}

type encPtrInnerU struct{ U int }

type EncTagged struct{ T int }

type EncInt int

type encUnexpInt int

type EncDeep2 struct {
	X int
	Y int `json:"y"`
	Z int
}

type EncDeep1 struct {
	EncDeep2
	X int // shallower than EncDeep2.X: wins
}

type encEmbedded struct {
	EncInner
	encInner2
	*EncPtrInner
	*encPtrInnerU
	EncTagged `json:"tagged"`
	EncInt
	encUnexpInt
	C int // shadows EncInner.C
	EncDeep1
}

type EncConfA struct {
	N int
	T int `json:"t"`
	U int
	W int `json:"w"`
}

type EncConfB struct {
	N int
	T int
	V int `json:"U"` // tagged: dominates EncConfA.U
	W int `json:"w"` // tagged as EncConfA.W at the same depth: both dropped
}

// encChain: fields promoted through one embedded pointer and through two
// (EncChainB, then its EncChainC), with fields of each level around the
// deeper ones, and one of them omitempty: a nil pointer hides a run of
// fields the struct encoder skips at once (encField.hides), an omitted
// field hides only itself.
type encChain struct {
	A int `json:"a"`
	*EncChainB
	Z int `json:"z"`
}

type EncChainB struct {
	M int `json:"m"`
	*EncChainC
	N int `json:"n"`
}

type EncChainC struct {
	P int    `json:"p"`
	Q string `json:"q,omitempty"`
	R int    `json:"r"`
}

// encConflictsType is
//
//	struct {
//		EncConfA
//		EncConfB
//		X1 int `json:"x"`
//		X2 int `json:"x"` // both dropped
//		Y  int `json:"y"`
//		Y2 int `json:"Y"` // not a conflict: names are case-sensitive
//	}
//
// made with reflect.StructOf because go vet's structtag check rightly
// reports the repeated names in such a struct written out.
var encConflictsType = reflect.StructOf([]reflect.StructField{
	{Name: "EncConfA", Type: reflect.TypeFor[EncConfA](), Anonymous: true},
	{Name: "EncConfB", Type: reflect.TypeFor[EncConfB](), Anonymous: true},
	{Name: "X1", Type: reflect.TypeFor[int](), Tag: `json:"x"`},
	{Name: "X2", Type: reflect.TypeFor[int](), Tag: `json:"x"`},
	{Name: "Y", Type: reflect.TypeFor[int](), Tag: `json:"y"`},
	{Name: "Y2", Type: reflect.TypeFor[int](), Tag: `json:"Y"`},
})

// encPromoted: EncValM's MarshalJSON is promoted, so the whole struct is
// its output.
type encPromoted struct {
	EncValM
	Extra int
}

// encAmbiguous: two embedded Marshalers at one depth: no method is
// promoted, the struct is encoded field by field.
type encAmbiguous struct {
	EncValM
	EncValT
	Extra int
}

// encTimeEmbed: time.Time's MarshalJSON is promoted.
type encTimeEmbed struct {
	time.Time
	Extra int
}

// Marshalers. Mode picks what the method returns (encMarshalerOutput).

type EncValM struct {
	Mode uint8
	S    string
}

func (m EncValM) MarshalJSON() ([]byte, error) { return encMarshalerOutput(m.Mode, m.S) }

type EncPtrM struct {
	Mode uint8
	S    string
}

func (m *EncPtrM) MarshalJSON() ([]byte, error) { return encMarshalerOutput(m.Mode, m.S) }

type EncValT struct {
	Mode uint8
	S    string
}

func (m EncValT) MarshalText() ([]byte, error) { return encTextOutput(m.Mode, m.S) }

type EncPtrT struct {
	Mode uint8
	S    string
}

func (m *EncPtrT) MarshalText() ([]byte, error) { return encTextOutput(m.Mode, m.S) }

// EncBoth: MarshalJSON wins over MarshalText.
type EncBoth struct{ S string }

func (m EncBoth) MarshalJSON() ([]byte, error) { return []byte(`"json"`), nil }
func (m EncBoth) MarshalText() ([]byte, error) { return []byte("text"), nil }

// encByteM: a byte kind with MarshalJSON: a slice of it is an array of
// what MarshalJSON returns, not base64.
type encByteM uint8

func (b encByteM) MarshalJSON() ([]byte, error) { return []byte(strconv.Itoa(int(b) * 2)), nil }

type encByteT uint8

func (b *encByteT) MarshalText() ([]byte, error) { return []byte{'t', '0' + byte(*b)%10}, nil }

type encByte uint8

type encBytes []byte

const encMarshalerModes = 12

// encMarshalerOutput: valid JSON, JSON with spaces, HTML characters and
// raw U+2028 to compact and escape, invalid JSON, an error, nothing.
func encMarshalerOutput(mode uint8, s string) ([]byte, error) {
	switch mode % encMarshalerModes {
	case 0:
		return []byte(`"` + s + `"`), nil // invalid where s has a quote or a control byte
	case 1:
		return []byte(" { \"a\" : [ 1 , 2.50 , -0 ] ,\n\t\"h\" : \"<&>\u2028\u2029\" , \"e\":{ } } "), nil
	case 2:
		return []byte(`{"a":`), nil
	case 3:
		return nil, errors.New("EncMarshaler: failed")
	case 4:
		return nil, nil
	case 5:
		return []byte(" 12.5e3 "), nil
	case 6:
		return []byte(`1 2`), nil
	case 7:
		return []byte(`null`), nil
	case 8:
		return []byte(`"\u003c\ud83d\ude00\n\ufffd" `), nil
	case 9:
		return []byte("[\"" + s + "\", \"</script>\", \"\xff\"]"), nil
	case 10:
		return []byte(`{"a":1}}`), nil
	}
	return []byte(`[ tru ]`), nil
}

func encTextOutput(mode uint8, s string) ([]byte, error) {
	switch mode % 5 {
	case 0:
		return []byte(s), nil
	case 1:
		return []byte("<&>\u2028" + s), nil
	case 2:
		return nil, errors.New("EncTextMarshaler: failed")
	case 3:
		return nil, nil
	}
	return []byte("\xff\"\\\n"), nil
}

type encMarshalers struct {
	V   EncValM
	P   EncPtrM // called only where the struct is addressable
	PV  *EncValM
	PP  *EncPtrM
	TV  EncValT
	TP  EncPtrT
	PTV *EncValT
	PTP *EncPtrT
	SV  []EncValM
	SP  []EncPtrM // slice elements are addressable
	AP  [1]EncPtrM
	MV  map[string]EncValM
	MP  map[string]EncPtrM // map values are not addressable
	MT  map[string]EncPtrT
	IV  any // EncPtrM by value: not addressable
	IP  any // *EncPtrM
	IN  any // a nil *EncValM
	B   EncBoth
	Pr  encPromoted
	Amb encAmbiguous
	TE  encTimeEmbed
}

// encTextKeyed: TextMarshalers as map keys and values.
type encTextKeyed struct {
	KV map[EncValT]int
	KP map[*EncPtrT]string
}

type encRaw struct {
	R   RawMessage
	PR  *RawMessage
	M   map[string]RawMessage
	I   any
	S   []RawMessage
	Num Number
	NS  Number `json:",string"`
	NI  any
	NM  map[string]Number
}

type encBytesT struct {
	B   []byte
	N   encBytes
	E   []encByte  // a named byte without methods: base64
	M   []encByteM // with MarshalJSON: an array
	T   []encByteT // with a pointer MarshalText: an array
	A   [4]byte    // arrays are arrays
	P   *[]byte
	I   any
	Nil []byte
}

type encNils struct {
	S  []int
	E  []int
	M  map[string]int
	EM map[string]int
	A0 [0]int
	A3 [3]int
	AA [2][2]string
	SS [][]int
	PS *[]int
	I  any
	IS []any
	PP **int
	IE error
	St fmt.Stringer
}

// encUnsupported: the types encoding/json refuses, met as values, as
// empty and nil containers (which encode without looking at their
// elements) and as skipped fields.
type encUnsupported struct {
	C  chan int       `json:",omitzero"` // omitempty would not omit it
	F  func()         `json:",omitzero"`
	X  complex128     `json:",omitzero"`
	MA map[[2]int]int `json:",omitempty"`
	SC []chan int     // nil and empty encode
	MC map[string]func()
	PC *chan int
	UP unsafe.Pointer `json:",omitzero"`
	OK int
}

type encPointers struct {
	P   *int
	PP  **int
	PS  *encStrings
	I   any // *int, **int, *struct or a typed nil
	IP  *any
	PIP **any
}

// A value of each family; the name prefixes a subtest.
type encBuilder struct {
	name  string
	build func(f *encFuzz) any
}

func (f *encFuzz) ptrInt() *int {
	if f.bool() {
		return nil
	}
	x := int(f.int64In(64))
	return &x
}

func (f *encFuzz) strs(max int) []string {
	n := f.n(max + 2)
	if n == max+1 {
		return nil
	}
	s := make([]string, n)
	for i := range s {
		s[i] = f.string()
	}
	return s
}

func (f *encFuzz) valM() EncValM { return EncValM{f.byte(), f.string()} }
func (f *encFuzz) ptrM() EncPtrM { return EncPtrM{f.byte(), f.string()} }
func (f *encFuzz) valT() EncValT { return EncValT{f.byte(), f.string()} }
func (f *encFuzz) ptrT() EncPtrT { return EncPtrT{f.byte(), f.string()} }

var encNumbers = []Number{"0", "-0", "1e+10", "123.456", "1E5", "-1.5e-300", "1e1000", "", "-", "01", "1.", "abc", " 1", "NaN", "0x10", "+1", "1e", `"1"`, "9007199254740993"}

var encTimes = []time.Time{{}, time.Unix(0, 0).UTC(), time.Date(2026, 11, 24, 19, 30, 0, 123456789, time.UTC),
	time.Date(2026, 1, 2, 3, 4, 5, 0, time.FixedZone("X", 3600)), time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC),
	time.Date(-1, 1, 1, 0, 0, 0, 0, time.UTC)}

var encBuilders []encBuilder

func init() {
	encBuilders = []encBuilder{
		{"string", func(f *encFuzz) any { return f.string() }},
		{"strings", func(f *encFuzz) any {
			v := encStrings{S: f.string(), N: encStr(f.string()), L: f.strs(3), Q: f.string(), QN: encStr(f.string())}
			if f.bool() {
				s := f.string()
				v.P = &s
			}
			v.A = [2]string{f.string(), f.string()}
			if ks := f.strs(3); ks != nil {
				v.M = map[string]string{}
				for _, k := range ks {
					v.M[k] = f.string()
				}
			}
			if f.bool() {
				v.I = encStr(f.string())
			}
			return v
		}},
		{"ints", func(f *encFuzz) any {
			v := encInts{I: int(f.int64In(64)), I8: int8(f.int64In(8)), I16: int16(f.int64In(16)), I32: int32(f.int64In(32)),
				I64: f.int64In(64), U: uint(f.uint64In(64)), U8: uint8(f.uint64In(8)), U16: uint16(f.uint64In(16)),
				U32: uint32(f.uint64In(32)), U64: f.uint64In(64), UP: uintptr(f.uint64In(64)), D: time.Duration(f.int64In(64)),
				N: encInt(f.int64In(16))}
			v.Any = []any{v.I8, v.U16, v.I64, v.U64, v.UP, v.N, v.D}
			return v
		}},
		{"intsString", func(f *encFuzz) any {
			v := encIntsString{I: int(f.int64In(64)), I8: int8(f.int64In(8)), I16: int16(f.int64In(16)), I32: int32(f.int64In(32)),
				I64: f.int64In(64), U: uint(f.uint64In(64)), U8: uint8(f.uint64In(8)), U16: uint16(f.uint64In(16)),
				U32: uint32(f.uint64In(32)), U64: f.uint64In(64), UP: uintptr(f.uint64In(64)), D: time.Duration(f.int64In(64)),
				N: encInt(f.int64In(16)), B: f.bool()}
			if f.bool() {
				x := f.int64In(64)
				v.P = &x
			}
			if f.bool() {
				v.PP = new(*int)
				*v.PP = f.ptrInt()
			}
			if f.bool() {
				b := f.bool()
				v.PB = &b
			}
			return v
		}},
		{"float64", func(f *encFuzz) any { return f.float64() }},
		{"float32", func(f *encFuzz) any { return f.float32() }},
		{"floats", func(f *encFuzz) any {
			v := encFloats{F64: f.float64(), F32: f.float32(), N: encFloat(f.float64()), S64: f.float64(), S32: f.float32(),
				A32: f.float32(), A64: f.float64(), Arr: [2]float32{f.float32(), f.float32()}}
			if f.bool() {
				x := f.float64()
				v.P = &x
			}
			for range f.n(4) {
				v.Many = append(v.Many, f.float64())
			}
			return v
		}},
		{"float lists", func(f *encFuzz) any {
			// Arrays and slices of float64 in arrays and slices, whose
			// floats the outer loop writes itself (appendFloatLists).
			var v encFloatLists
			for range f.n(4) {
				v.Pairs = append(v.Pairs, [2]float64{f.float64(), f.float64()})
			}
			for range f.n(4) {
				var s []float64
				switch f.n(3) {
				case 0: // nil: null
				case 1:
					s = []float64{}
				default:
					for range 1 + f.n(3) {
						s = append(s, f.float64())
					}
				}
				v.Rings = append(v.Rings, s)
			}
			if f.bool() {
				v.Named = [][1]encFloat{{encFloat(f.float64())}, {encFloat(f.float64())}}
			}
			v.Fixed = [2][]float64{{f.float64()}, nil}
			v.Empty = make([][0]float64, f.n(3))
			return v
		}},
		{"scalar lists", func(f *encFuzz) any {
			v := encLists{
				S:   fuzzList(f, f.string),
				I:   fuzzList(f, func() int { return int(f.int64In(64)) }),
				I32: fuzzList(f, func() int32 { return int32(f.int64In(32)) }),
				U:   fuzzList(f, f.uint64),
				F:   fuzzList(f, f.float64),
				B:   fuzzList(f, f.bool),
				N:   fuzzList(f, func() Number { return encNumbers[f.n(len(encNumbers))] }),
				P:   fuzzList(f, f.ptrInt),
				Om:  fuzzList(f, f.string),
				Q:   fuzzList(f, func() int { return int(f.int64In(16)) }),
				E:   fuzzList(f, f.valM),
			}
			v.Named = fuzzList(f, f.string)
			v.M = fuzzList(f, func() int { return 1 })
			if f.bool() {
				v.EncListsIn = &EncListsIn{In: fuzzList(f, func() int64 { return f.int64In(64) })}
			}
			return v
		}},
		{"maps", func(f *encFuzz) any {
			var v encMaps
			n := func() int { return f.n(5) - 1 } // -1: a nil map
			if k := n(); k >= 0 {
				v.S, v.NS, v.Any, v.E = map[string]int{}, map[encStr]int{}, map[string]any{}, map[string]struct{}{}
				for i := range k {
					s := f.string()
					v.S[s], v.NS[encStr(s+"n")], v.Any[s], v.E[s] = i, i, f.string(), struct{}{}
				}
			}
			if k := n(); k >= 0 {
				v.I, v.I8, v.I16, v.I32, v.I64 = map[int]string{}, map[int8]string{}, map[int16]string{}, map[int32]string{}, map[int64]string{}
				v.U, v.U8, v.U16, v.U32, v.U64, v.UP = map[uint]string{}, map[uint8]string{}, map[uint16]string{}, map[uint32]string{}, map[uint64]string{}, map[uintptr]string{}
				v.NI = map[encInt]string{}
				for range k {
					s := f.string()
					v.I[int(f.int64In(64))] = s
					v.I8[int8(f.int64In(8))] = s
					v.I16[int16(f.int64In(16))] = s
					v.I32[int32(f.int64In(32))] = s
					v.I64[f.int64In(64)] = s
					v.U[uint(f.uint64In(64))] = s
					v.U8[uint8(f.uint64In(8))] = s
					v.U16[uint16(f.uint64In(16))] = s
					v.U32[uint32(f.uint64In(32))] = s
					v.U64[f.uint64In(64)] = s
					v.UP[uintptr(f.uint64In(64))] = s
					v.NI[encInt(f.int64In(16))] = s
				}
			}
			if k := n(); k >= 0 {
				v.TV, v.TP, v.TS, v.TI, v.JK = map[encTextVal]int{}, map[*encTextPtr]int{}, map[encTextStr]encTextStr{}, map[encTextInt]bool{}, map[encJSONKey]int{}
				for i := range k {
					s := f.string()
					v.TV[encTextVal{int8(f.byte()), s}] = i
					v.TP[&encTextPtr{s + "#" + strconv.Itoa(i)}] = i // distinct texts: encoding/json's order of equal keys is the map's
					v.TS[encTextStr(s)] = encTextStr(s)
					v.TI[encTextInt(f.int64In(32))] = f.bool()
					v.JK[encJSONKey(s)] = i
				}
				if f.bool() {
					v.TP[nil] = -1 // a nil pointer key is ""
				}
			}
			if k := n(); k >= 0 {
				v.MM = map[string]map[int]string{}
				for i := range k {
					if f.bool() {
						v.MM[f.string()] = nil
					} else {
						v.MM[f.string()] = map[int]string{i: f.string(), -i - 1: ""}
					}
				}
			}
			if f.bool() {
				v.Nil = map[string]int{}
			}
			return v
		}},
		{"textKeyErrors", func(f *encFuzz) any {
			v := encTextErrMap{TE: map[encTextErr]int{}, OK: map[string]int{f.string(): 1}}
			for i := range f.n(4) {
				v.TE[encTextErr(f.byte())] = i
			}
			return v
		}},
		{"omitempty", func(f *encFuzz) any {
			var v encOmitEmpty
			if !f.bool() {
				return v
			}
			v.B, v.I, v.I8, v.I64 = f.bool(), int(f.int64In(64)), int8(f.int64In(8)), f.int64In(64)
			v.I16, v.I32 = int16(f.int64In(16)), int32(f.int64In(32))
			v.U, v.U16, v.UP = uint(f.uint64In(64)), uint16(f.uint64In(16)), uintptr(f.uint64In(64))
			v.U8, v.U32, v.U64 = uint8(f.uint64In(8)), uint32(f.uint64In(32)), f.uint64In(64)
			v.F32, v.F64, v.S, v.NS = f.float32(), f.float64(), f.string(), encStr(f.string())
			switch f.n(3) {
			case 1:
				v.Sl, v.By, v.M = []int{}, []byte{}, map[string]int{}
			case 2:
				v.Sl, v.By, v.M = []int{1}, []byte{0}, map[string]int{"": 0}
			}
			v.A2 = [2]int{int(f.int64In(8)), 0}
			v.P = f.ptrInt()
			switch f.n(4) {
			case 1:
				v.If = 0
			case 2:
				v.If = (*int)(nil)
			case 3:
				v.If = ""
			}
			v.T = encTimes[f.n(4)]
			v.Num = encNumbers[f.n(4)]
			if f.bool() {
				v.Raw = RawMessage(`[]`)
			}
			v.SS = int(f.int64In(8))
			return v
		}},
		{"omitzero", func(f *encFuzz) any {
			var v encOmitZero
			if !f.bool() {
				return v
			}
			v.B, v.I, v.U8, v.F32, v.F64, v.S = f.bool(), int(f.int64In(8)), uint8(f.uint64In(8)), f.float32(), f.float64(), f.string()
			v.I8, v.I16, v.I32, v.I64 = int8(f.int64In(8)), int16(f.int64In(16)), int32(f.int64In(32)), f.int64In(64)
			v.U, v.U16, v.U32, v.U64, v.UP = uint(f.uint64In(64)), uint16(f.uint64In(16)), uint32(f.uint64In(32)), f.uint64In(64), uintptr(f.uint64In(64))
			v.NS, v.Num = encStr(f.string()), encNumbers[f.n(3)]
			switch f.n(3) {
			case 1:
				v.By = []byte{} // kept: not nil (an empty RawMessage would be kept too, and fail)
			case 2:
				v.By, v.Raw = []byte(f.string()), RawMessage(`{"r":1}`)
			}
			switch f.n(3) {
			case 1:
				v.Sl, v.M = []int{}, map[string]int{}
			case 2:
				v.Sl, v.M, v.Both = []int{0}, map[string]int{"a": 0}, []int{}
			}
			v.A2 = [2]int{0, int(f.int64In(8))}
			v.P = f.ptrInt()
			switch f.n(4) {
			case 1:
				v.If = 0
			case 2:
				v.If = (*int)(nil)
			case 3:
				v.If = encZeroVal{1}
			}
			v.St.X = int(f.int64In(8))
			v.T, v.T2 = encTimes[f.n(4)], encTimes[f.n(4)]
			v.ZV, v.ZP = encZeroVal{f.n(3)}, encZeroPtr{f.n(3)}
			if f.bool() {
				v.PZV = &encZeroVal{f.n(3)}
			}
			if f.bool() {
				v.PZP = &encZeroPtr{f.n(3)}
			}
			switch f.n(5) {
			case 1:
				v.IZ = (*encZeroPtr)(nil)
			case 2:
				v.IZ = &encZeroPtr{f.n(3)}
			case 3:
				v.IZ = encZeroVal{f.n(3)}
			case 4:
				v.IZ = encTimes[f.n(3)]
			}
			if f.n(8) == 0 {
				v.Ch = make(chan int) // an error
			}
			v.ZVs = encZeroVal{f.n(3)}
			return v
		}},
		{"tags", func(f *encFuzz) any {
			v := encTags{Skip: 1, Dash: int(f.int64In(8)), Renamed: 2, HTML: f.string(), Space: 3,
				Uni: f.string(), Empty: 6, Punct: 7, SI: int(f.int64In(64)), SS: f.string(), Dup: 8, unexp: 9,
				SNum: encNumbers[f.n(len(encNumbers))], SM2: f.valM(), ST: f.valT(), Ch: make(chan int), Fn: func() {}}
			if f.bool() {
				s := f.string()
				v.SPS = &s
			}
			if f.bool() {
				v.SSl, v.SM = []int{1}, map[string]int{"k": 1}
			}
			switch f.n(3) {
			case 1:
				v.SAny = int(f.int64In(8))
			case 2:
				v.SAny = f.string()
			}
			return v
		}},
		{"embedded", func(f *encFuzz) any {
			var v encEmbedded
			v.EncInner = EncInner{1, f.string(), 2}
			v.encInner2 = encInner2{3, 4}
			if f.bool() {
				v.EncPtrInner = &EncPtrInner{5, f.string()}
			}
			if f.bool() {
				v.encPtrInnerU = &encPtrInnerU{6}
			}
			v.EncTagged, v.EncInt, v.encUnexpInt, v.C = EncTagged{7}, EncInt(f.int64In(16)), 8, 9
			v.EncDeep1 = EncDeep1{EncDeep2{10, 11, 12}, 13}
			return v
		}},
		{"embedded chain", func(f *encFuzz) any {
			v := encChain{A: 1, Z: 2}
			if f.bool() {
				v.EncChainB = &EncChainB{M: 3, N: 4}
				if f.bool() {
					v.EncChainC = &EncChainC{P: 5, Q: f.string(), R: 6}
				}
			}
			return []encChain{v, {A: 7}, {EncChainB: &EncChainB{EncChainC: &EncChainC{R: 8}}}}
		}},
		{"conflicts", func(f *encFuzz) any {
			v := reflect.New(encConflictsType).Elem()
			v.Field(0).Set(reflect.ValueOf(EncConfA{1, 2, 3, 4}))
			v.Field(1).Set(reflect.ValueOf(EncConfB{5, 6, 7, 8}))
			for i, x := range []int{9, 10, int(f.int64In(8)), 12} {
				v.Field(2 + i).SetInt(int64(x))
			}
			return v.Interface()
		}},
		{"marshalers", func(f *encFuzz) any {
			v := encMarshalers{V: f.valM(), P: f.ptrM(), TV: f.valT(), TP: f.ptrT(), B: EncBoth{f.string()},
				Pr: encPromoted{f.valM(), 1}, Amb: encAmbiguous{f.valM(), f.valT(), 2},
				TE: encTimeEmbed{encTimes[f.n(len(encTimes))], 3}}
			if f.bool() {
				x := f.valM()
				v.PV = &x
			}
			if f.bool() {
				x := f.ptrM()
				v.PP = &x
			}
			if f.bool() {
				x := f.valT()
				v.PTV = &x
			}
			if f.bool() {
				x := f.ptrT()
				v.PTP = &x
			}
			if f.bool() {
				v.SV, v.SP = []EncValM{f.valM()}, []EncPtrM{f.ptrM(), f.ptrM()}
			}
			v.AP = [1]EncPtrM{f.ptrM()}
			if f.bool() {
				v.MV = map[string]EncValM{f.string(): f.valM()}
				v.MP = map[string]EncPtrM{f.string(): f.ptrM()}
				v.MT = map[string]EncPtrT{f.string(): f.ptrT()}
			}
			v.IV = f.ptrM()
			x := f.ptrM()
			v.IP = &x
			v.IN = (*EncValM)(nil)
			return v
		}},
		{"marshaler", func(f *encFuzz) any { return f.valM() }},
		{"ptrMarshaler", func(f *encFuzz) any { return f.ptrM() }},
		{"textMarshaler", func(f *encFuzz) any { return f.valT() }},
		{"ptrTextMarshaler", func(f *encFuzz) any { return f.ptrT() }},
		{"textKeyed", func(f *encFuzz) any {
			v := encTextKeyed{KV: map[EncValT]int{}, KP: map[*EncPtrT]string{}}
			for i := range f.n(3) {
				k := f.valT()
				// Distinct texts, or encoding/json's order of equal keys would
				// be the map's: every key that gives a text ends in "#i" (modes
				// 3 and 4 would give one text for all, so they become 0); mode
				// 2 fails, with one text for every key.
				k.Mode = k.Mode % 5
				if k.Mode == 3 || k.Mode == 4 {
					k.Mode = 0
				}
				if k.Mode != 2 {
					k.S += "#" + strconv.Itoa(i)
				}
				v.KV[k] = i
				kp := f.ptrT()
				kp.Mode, kp.S = 0, kp.S+"#"+strconv.Itoa(i)
				v.KP[&kp] = f.string()
			}
			if f.n(4) == 0 {
				v.KP[nil] = "nil"
			}
			return v
		}},
		{"raw", func(f *encFuzz) any {
			raws := []RawMessage{nil, RawMessage(`{}`), RawMessage(" [ 1 , \"<&>\u2028\" ] "), RawMessage(`{"a":`), RawMessage(``),
				RawMessage(`null`), RawMessage(`"` + f.string() + `"`), RawMessage(`1 2`), RawMessage("\"\xff\""), RawMessage(`tru`)}
			r := func() RawMessage { return raws[f.n(len(raws))] }
			v := encRaw{R: r(), M: map[string]RawMessage{"k": r()}, I: r(), Num: encNumbers[f.n(len(encNumbers))],
				NS: encNumbers[f.n(len(encNumbers))], NI: encNumbers[f.n(len(encNumbers))]}
			if f.bool() {
				x := r()
				v.PR = &x
			}
			if f.bool() {
				v.S = []RawMessage{r(), r()}
			}
			if f.bool() {
				v.NM = map[string]Number{"n": encNumbers[f.n(len(encNumbers))]}
			}
			return v
		}},
		{"number", func(f *encFuzz) any { return encNumbers[f.n(len(encNumbers))] }},
		{"bytes", func(f *encFuzz) any {
			var v encBytesT
			if f.bool() {
				v.B = []byte(f.string())
			}
			v.N = encBytes(f.string())
			for range f.n(4) {
				c := f.byte()
				v.E, v.M, v.T = append(v.E, encByte(c)), append(v.M, encByteM(c)), append(v.T, encByteT(c))
			}
			v.A = [4]byte{f.byte(), f.byte(), 0, 255}
			if f.bool() {
				b := []byte(f.string())
				v.P = &b
			}
			if f.bool() {
				v.I = []byte(f.string())
			}
			return v
		}},
		{"nils", func(f *encFuzz) any {
			v := encNils{E: []int{}, EM: map[string]int{}, A3: [3]int{1, int(f.int64In(32)), 3},
				AA: [2][2]string{{f.string(), ""}, {}}, SS: [][]int{nil, {}, {1}}}
			if f.bool() {
				v.S, v.M = []int{int(f.int64In(8))}, map[string]int{"a": 1}
			}
			if f.bool() {
				v.PS = &[]int{}
			}
			switch f.n(4) {
			case 1:
				v.I = []int(nil)
			case 2:
				v.I = map[string]int(nil)
			case 3:
				v.I = (*encNils)(nil)
			}
			v.IS = []any{nil, (*int)(nil), []int(nil), map[string]int(nil), (*EncPtrM)(nil), RawMessage(nil), []byte(nil)}
			if f.bool() {
				v.PP = new(*int)
			}
			if f.bool() {
				v.IE = errors.New(f.string()) // *errors.errorString: {}
			}
			if f.bool() {
				v.St = time.Duration(f.int64In(64))
			}
			return v
		}},
		{"arrays", func(f *encFuzz) any {
			switch f.n(4) {
			case 0:
				return [0]string{}
			case 1:
				return [3]float32{f.float32(), f.float32(), f.float32()}
			case 2:
				return [2][1]EncPtrM{{f.ptrM()}, {f.ptrM()}}
			}
			return [2]any{f.string(), [1]int{int(f.int64In(64))}}
		}},
		{"unsupported", func(f *encFuzz) any {
			var v encUnsupported
			v.OK = 1
			switch f.n(12) {
			case 0:
				v.C = make(chan int)
			case 1:
				v.F = func() {}
			case 2:
				v.X = complex(f.float64(), 1)
			case 4:
				v.MA = map[[2]int]int{{1, 2}: 3}
			case 5:
				v.SC = []chan int{nil}
			case 6:
				v.SC = []chan int{}
			case 7:
				v.MC = map[string]func(){}
			case 8:
				v.MC = map[string]func(){"f": nil}
			case 9:
				v.PC = new(chan int)
			case 10:
				v.UP = unsafe.Pointer(&v.OK)
			}
			return v
		}},
		{"badTagNames", func(f *encFuzz) any { return encBadTagNames{1, 2, 3, int(f.int64In(8))} }},
		{"floatKeys", func(f *encFuzz) any {
			var v encFloatKeys
			switch f.n(4) {
			case 1:
				v.F = map[float64]int{}
			case 2:
				v.F = map[float64]int{f.float64(): 1}
			case 3:
				v.F32 = map[float32]string{f.float32(): ""}
			}
			return v
		}},
		{"unsupportedValue", func(f *encFuzz) any {
			switch f.n(6) {
			case 0:
				return make(chan struct{})
			case 1:
				return complex64(1)
			case 2:
				return map[bool]int{true: 1}
			case 3:
				return []func(){}
			case 4:
				return map[EncValM]int{{}: 1} // MarshalJSON is no key method
			}
			return struct{ F func() }{}
		}},
		{"pointers", func(f *encFuzz) any {
			v := encPointers{P: f.ptrInt()}
			if f.bool() {
				v.PP = &v.P
			}
			if f.bool() {
				v.PS = &encStrings{S: f.string()}
			}
			switch f.n(5) {
			case 1:
				v.I = f.ptrInt()
			case 2:
				v.I = &v.P
			case 3:
				v.I = &encInts{I: 1}
			case 4:
				v.I = (*encInts)(nil)
			}
			if f.bool() {
				var a any = f.ptrInt()
				v.IP = &a
				if f.bool() {
					v.PIP = &v.IP
				}
			}
			return v
		}},
		{"time", func(f *encFuzz) any {
			t := encTimes[f.n(len(encTimes))]
			if f.bool() {
				t = time.Unix(f.int64In(40), f.int64In(32)).UTC()
			}
			return []any{t, &t, map[string]time.Time{"t": t}}
		}},
		{"mixed", func(f *encFuzz) any { return f.mixed(0) }},
	}
}

// mixed: an any tree of other builders' values, in []any and map[string]any.
func (f *encFuzz) mixed(depth int) any {
	switch c := f.n(4); {
	case depth < 3 && c == 0:
		s := []any{}
		for range f.n(4) {
			s = append(s, f.mixed(depth+1))
		}
		return s
	case depth < 3 && c == 1:
		m := map[string]any{}
		for range f.n(4) {
			m[f.string()] = f.mixed(depth + 1)
		}
		return m
	}
	b := encBuilders[f.n(len(encBuilders)-1)] // not mixed itself
	return b.build(f)
}
