package shapes

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
)

// The record cases: widths, optional, absent, unknown and case-folded
// members, nesting, slices, maps, embedded structs, dense booleans and
// nulls. Each record type is declared as a user would write it, and each
// generator writes every member the type has (but where a case leaves
// members out on purpose).

func recordCases() []*Case {
	cs := []*Case{
		newCase[Rec3]("rec", "rec-fields3", "3 members: id, name, active", writeFields(rec3Fields, nil)),
		newCase[Rec12]("rec", "rec-fields12", "12 members: ids, text, numbers, a flag, a time", writeFields(rec12Fields, nil)),
		newCase[Rec40]("rec", "rec-fields40", "40 members: 19 strings, 9 ints, 7 floats, 5 flags", writeFields(rec40Fields, nil)),
		newCase[Place]("rec", "rec-codes", "a place as gazetteers keep it: id, two codes, name, coordinates, then five more codes of 1 to 4 bytes (class, feature, region, language, currency) and a population", writeFields(placeFields, nil)),
		newCase[Optional]("rec", "rec-optional", "an id and 11 pointer members, each null half the time", writeOptional),
		newCase[Rec12]("rec", "rec-absent", "rec-fields12 with each member but id absent half the time", writeFields(rec12Fields, absentHalf)),
		newCase[Rec12]("rec", "rec-unknown", "rec-fields12 and 6 members the type lacks (an object, an array, scalars, a null)", writeUnknown),
		newCase[Rec12]("rec", "rec-keycase", "rec-fields12 with every key spelt in another case than its tag (Name, EMAIL)", writeFields(keyCase(rec12Fields), nil)),
		newCase[Rec12]("rec", "rec-keyorder", "rec-fields12 with its members sorted by key, not in the type's order, in every record", writeFields(sortedKeys(rec12Fields), nil)),
		newCase[Rec12]("rec", "rec-keyshuffle", "rec-fields12 with its members in a new order in each record", writeShuffled(rec12Fields)),
	}
	for d := 1; d <= 5; d++ {
		name, about := fmt.Sprintf("rec-depth%d", d), fmt.Sprintf("structs nested %d deep: id, name, value and a child", d)
		gen := func(e *enc, r *rand.Rand) { writeLevel(e, r, d) }
		switch d {
		case 1:
			cs = append(cs, newCase[Level1]("rec", name, about, gen))
		case 2:
			cs = append(cs, newCase[Level2]("rec", name, about, gen))
		case 3:
			cs = append(cs, newCase[Level3]("rec", name, about, gen))
		case 4:
			cs = append(cs, newCase[Level4]("rec", name, about, gen))
		case 5:
			cs = append(cs, newCase[Level5]("rec", name, about, gen))
		}
	}
	return append(cs,
		newCase[Tagged]("rec", "rec-strings", "an id and a []string of 3 to 20 words", writeTagged),
		newCase[Listed]("rec", "rec-lists", "a name, a category, a version and two []string of 0 to 4 words (aliases, tags)", writeListed),
		newCase[Series]("rec", "rec-floats", "an id and a []float64 of 8 to 64 coordinates (6 decimals)", writeSeries),
		newCase[Order]("rec", "rec-structs", "an order: id, customer, time and a []Line of 1 to 8 (sku, name, qty, price)", writeOrder),
		newCase[Counts]("rec", "rec-map", "an id and a map[string]int of 8 to 32 keys that do not repeat", writeCounts),
		newCase[Translated]("rec", "rec-mapstructs", "an id and a map[string]Name (official, common) of 4 to 40 language codes, as translations are kept", writeTranslated),
		newCase[Embedded]("rec", "rec-embedded", "an embedded struct and an embedded pointer (present half the time) beside 3 members", writeEmbedded),
		newCase[Bools]("rec", "rec-bools", "16 booleans", writeBools),
		newCase[Nulls]("rec", "rec-nulls", "12 pointer, any, slice and map members, each null 9 times in 10", writeNulls),
		newCase[Quoted]("rec", "rec-quoted", `an int64 id, a price and a flag written as strings (",string"), and a name`, writeQuoted),
		newCase[Methods]("rec", "rec-methods", "a UUID and a status (UnmarshalText), an amount (UnmarshalJSON), a name and a count", writeMethods),
	)
}

// A field is a member's key and how its value is written.
type field struct {
	key   string
	value func(e *enc, r *rand.Rand)
}

// writeFields writes an object of fields; skip, when not nil, leaves out
// the members it says so of (the first one, the id, never).
func writeFields(fields []field, skip func(r *rand.Rand) bool) func(e *enc, r *rand.Rand) {
	return func(e *enc, r *rand.Rand) {
		e.open('{')
		for i, f := range fields {
			if i > 0 && skip != nil && skip(r) {
				continue
			}
			e.key(f.key)
			f.value(e, r)
		}
		e.close('}')
	}
}

func absentHalf(r *rand.Rand) bool { return r.IntN(2) == 0 }

// sortedKeys returns fields sorted by key, as a producer that sorts its
// keys writes them.
func sortedKeys(fields []field) []field {
	out := slices.Clone(fields)
	slices.SortFunc(out, func(a, b field) int { return strings.Compare(a.key, b.key) })
	return out
}

// writeShuffled writes every one of fields in an order of its own in
// each record.
func writeShuffled(fields []field) func(e *enc, r *rand.Rand) {
	return func(e *enc, r *rand.Rand) {
		e.open('{')
		for _, i := range r.Perm(len(fields)) {
			e.key(fields[i].key)
			fields[i].value(e, r)
		}
		e.close('}')
	}
}

// keyCase returns fields with their keys spelt otherwise: in turn Title
// case (created_at: Created_At) and upper case, as a producer with other
// conventions writes them.
func keyCase(fields []field) []field {
	out := make([]field, len(fields))
	for i, f := range fields {
		k := strings.ToUpper(f.key)
		if i%2 == 0 {
			parts := strings.Split(f.key, "_")
			for j, p := range parts {
				parts[j] = strings.ToUpper(p[:1]) + p[1:]
			}
			k = strings.Join(parts, "_")
		}
		out[i] = field{k, f.value}
	}
	return out
}

// Value writers for the fields.
func idValue(e *enc, r *rand.Rand)    { e.int(id(r)) }
func nameValue(e *enc, r *rand.Rand)  { e.text(r, 8, 24) }
func boolValue(e *enc, r *rand.Rand)  { e.bool(r.IntN(2) == 0) }
func timeValue(e *enc, r *rand.Rand)  { e.time(r) }
func emailValue(e *enc, r *rand.Rand) { e.email(r) }
func moneyValue(e *enc, r *rand.Rand) { e.float(amount(r)) }
func intUpTo(n int) func(e *enc, r *rand.Rand) {
	return func(e *enc, r *rand.Rand) { e.int(int64(r.IntN(n))) }
}
func wordOf(lo, hi int) func(e *enc, r *rand.Rand) {
	return func(e *enc, r *rand.Rand) { e.word(r, lo, hi) }
}
func textOf(lo, hi int) func(e *enc, r *rand.Rand) {
	return func(e *enc, r *rand.Rand) { e.text(r, lo, hi) }
}
func digits(n int) func(e *enc, r *rand.Rand) {
	return func(e *enc, r *rand.Rand) {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte('0' + r.IntN(10))
		}
		e.quoted(b)
	}
}
func floatUpTo(f float64) func(e *enc, r *rand.Rand) {
	return func(e *enc, r *rand.Rand) { e.float(r.Float64() * f) }
}

// coord returns a coordinate from -180 to 180 with 6 decimals.
func coord(r *rand.Rand) float64 { return math.Round((r.Float64()*360-180)*1e6) / 1e6 }

type Rec3 struct {
	ID     int64  `json:"id"`
	Name   string `json:"name"`
	Active bool   `json:"active"`
}

var rec3Fields = []field{{"id", idValue}, {"name", nameValue}, {"active", boolValue}}

type Rec12 struct {
	ID        int64   `json:"id"`
	Name      string  `json:"name"`
	Email     string  `json:"email"`
	Age       int     `json:"age"`
	Score     float64 `json:"score"`
	Active    bool    `json:"active"`
	CreatedAt string  `json:"created_at"`
	City      string  `json:"city"`
	Zip       string  `json:"zip"`
	Balance   float64 `json:"balance"`
	Visits    int     `json:"visits"`
	Phone     string  `json:"phone"`
}

var rec12Fields = []field{
	{"id", idValue}, {"name", nameValue}, {"email", emailValue}, {"age", intUpTo(100)},
	{"score", floatUpTo(100)}, {"active", boolValue}, {"created_at", timeValue},
	{"city", wordOf(4, 14)}, {"zip", digits(5)}, {"balance", moneyValue},
	{"visits", intUpTo(100000)}, {"phone", digits(10)},
}

// Place is a record of short codes, as a gazetteer (GeoNames), a country
// list or a catalogue keeps them: of 1 to 4 bytes, before and after the
// coordinates.
type Place struct {
	ID         int64   `json:"id"`
	Class      string  `json:"class"`
	Country    string  `json:"country"`
	Name       string  `json:"name"`
	Lat        float64 `json:"lat"`
	Lon        float64 `json:"lon"`
	Feature    string  `json:"feature"`
	Region     string  `json:"region"`
	Lang       string  `json:"lang"`
	Currency   string  `json:"currency"`
	Population int64   `json:"population"`
}

var placeFields = []field{
	{"id", intUpTo(10_000_000)}, {"class", codeOf(1, 1)}, {"country", codeOf(2, 2)},
	{"name", textOf(4, 24)}, {"lat", coordValue}, {"lon", coordValue},
	{"feature", codeOf(3, 4)}, {"region", digits(2)}, {"lang", codeOf(2, 3)},
	{"currency", codeOf(3, 3)}, {"population", intUpTo(10_000_000)},
}

// codeOf writes a code of lo to hi capital letters.
func codeOf(lo, hi int) func(e *enc, r *rand.Rand) {
	return func(e *enc, r *rand.Rand) {
		b := make([]byte, lo+r.IntN(hi-lo+1))
		for i := range b {
			b[i] = byte('A' + r.IntN(26))
		}
		e.quoted(b)
	}
}

func coordValue(e *enc, r *rand.Rand) { e.float(coord(r)) }

type Rec40 struct {
	ID          int64   `json:"id"`
	UUID        string  `json:"uuid"`
	FirstName   string  `json:"first_name"`
	LastName    string  `json:"last_name"`
	Email       string  `json:"email"`
	Phone       string  `json:"phone"`
	Street      string  `json:"street"`
	City        string  `json:"city"`
	Region      string  `json:"region"`
	PostalCode  string  `json:"postal_code"`
	Country     string  `json:"country"`
	Latitude    float64 `json:"latitude"`
	Longitude   float64 `json:"longitude"`
	Age         int     `json:"age"`
	HeightCM    float64 `json:"height_cm"`
	WeightKG    float64 `json:"weight_kg"`
	IsActive    bool    `json:"is_active"`
	IsVerified  bool    `json:"is_verified"`
	IsAdmin     bool    `json:"is_admin"`
	CreatedAt   string  `json:"created_at"`
	UpdatedAt   string  `json:"updated_at"`
	LastLogin   string  `json:"last_login"`
	LoginCount  int     `json:"login_count"`
	Balance     float64 `json:"balance"`
	CreditLimit float64 `json:"credit_limit"`
	Currency    string  `json:"currency"`
	Plan        string  `json:"plan"`
	Seats       int     `json:"seats"`
	Referrer    string  `json:"referrer"`
	Notes       string  `json:"notes"`
	Score       float64 `json:"score"`
	Rank        int     `json:"rank"`
	Karma       int64   `json:"karma"`
	Followers   int     `json:"followers"`
	Following   int     `json:"following"`
	Posts       int     `json:"posts"`
	Newsletter  bool    `json:"newsletter"`
	Marketing   bool    `json:"marketing"`
	Locale      string  `json:"locale"`
	TimeZone    string  `json:"timezone"`
}

var rec40Fields = []field{
	{"id", idValue}, {"uuid", wordOf(32, 32)}, {"first_name", wordOf(3, 10)}, {"last_name", wordOf(4, 12)},
	{"email", emailValue}, {"phone", digits(10)}, {"street", textOf(10, 30)}, {"city", wordOf(4, 14)},
	{"region", wordOf(4, 14)}, {"postal_code", digits(5)}, {"country", wordOf(4, 12)},
	{"latitude", func(e *enc, r *rand.Rand) { e.float(coord(r) / 2) }},
	{"longitude", func(e *enc, r *rand.Rand) { e.float(coord(r)) }},
	{"age", intUpTo(100)}, {"height_cm", floatUpTo(220)}, {"weight_kg", floatUpTo(150)},
	{"is_active", boolValue}, {"is_verified", boolValue}, {"is_admin", boolValue},
	{"created_at", timeValue}, {"updated_at", timeValue}, {"last_login", timeValue},
	{"login_count", intUpTo(10000)}, {"balance", moneyValue}, {"credit_limit", moneyValue},
	{"currency", wordOf(3, 3)}, {"plan", wordOf(4, 10)}, {"seats", intUpTo(500)},
	{"referrer", wordOf(6, 20)}, {"notes", textOf(20, 80)}, {"score", floatUpTo(1)},
	{"rank", intUpTo(1000000)}, {"karma", idValue}, {"followers", intUpTo(1000000)},
	{"following", intUpTo(10000)}, {"posts", intUpTo(100000)}, {"newsletter", boolValue},
	{"marketing", boolValue}, {"locale", wordOf(5, 5)}, {"timezone", wordOf(8, 20)},
}

type Optional struct {
	ID        int64    `json:"id"`
	Name      *string  `json:"name"`
	Nick      *string  `json:"nick"`
	Age       *int     `json:"age"`
	Score     *float64 `json:"score"`
	Active    *bool    `json:"active"`
	ParentID  *int64   `json:"parent_id"`
	Note      *string  `json:"note"`
	Email     *string  `json:"email"`
	Rating    *float64 `json:"rating"`
	Verified  *bool    `json:"verified"`
	DeletedAt *string  `json:"deleted_at"`
}

var optionalFields = []field{
	{"id", idValue}, {"name", nameValue}, {"nick", wordOf(3, 12)}, {"age", intUpTo(100)},
	{"score", floatUpTo(100)}, {"active", boolValue}, {"parent_id", idValue}, {"note", textOf(10, 60)},
	{"email", emailValue}, {"rating", floatUpTo(5)}, {"verified", boolValue}, {"deleted_at", timeValue},
}

func writeOptional(e *enc, r *rand.Rand) {
	e.open('{')
	for i, f := range optionalFields {
		e.key(f.key)
		if i > 0 && r.IntN(2) == 0 {
			e.null()
			continue
		}
		f.value(e, r)
	}
	e.close('}')
}

// writeUnknown writes a Rec12 with members it does not declare among its
// own, where an API's newer version would add them.
func writeUnknown(e *enc, r *rand.Rand) {
	e.open('{')
	for i, f := range rec12Fields {
		e.key(f.key)
		f.value(e, r)
		switch i {
		case 1:
			e.key("trace_id")
			e.word(r, 16, 16)
		case 3:
			e.key("meta")
			e.open('{')
			e.key("source")
			e.word(r, 4, 10)
			e.key("version")
			e.int(int64(r.IntN(100)))
			e.key("labels")
			e.open('[')
			for range 1 + r.IntN(3) {
				e.word(r, 3, 8)
			}
			e.close(']')
			e.close('}')
		case 6:
			e.key("links")
			e.open('[')
			for range 1 + r.IntN(3) {
				e.quoted(urlBody(r, 30+r.IntN(30)))
			}
			e.close(']')
		case 8:
			e.key("rank")
			e.float(r.Float64())
		case 10:
			e.key("deleted")
			e.bool(r.IntN(10) == 0)
			e.key("extra")
			e.null()
		}
	}
	e.close('}')
}

type Level0 struct {
	ID    int64   `json:"id"`
	Name  string  `json:"name"`
	Value float64 `json:"value"`
}

type Level1 struct {
	ID    int64   `json:"id"`
	Name  string  `json:"name"`
	Value float64 `json:"value"`
	Child Level0  `json:"child"`
}

type Level2 struct {
	ID    int64   `json:"id"`
	Name  string  `json:"name"`
	Value float64 `json:"value"`
	Child Level1  `json:"child"`
}

type Level3 struct {
	ID    int64   `json:"id"`
	Name  string  `json:"name"`
	Value float64 `json:"value"`
	Child Level2  `json:"child"`
}

type Level4 struct {
	ID    int64   `json:"id"`
	Name  string  `json:"name"`
	Value float64 `json:"value"`
	Child Level3  `json:"child"`
}

type Level5 struct {
	ID    int64   `json:"id"`
	Name  string  `json:"name"`
	Value float64 `json:"value"`
	Child Level4  `json:"child"`
}

// writeLevel writes a LevelN for depth N.
func writeLevel(e *enc, r *rand.Rand, depth int) {
	e.open('{')
	e.key("id")
	e.int(id(r))
	e.key("name")
	e.text(r, 6, 16)
	e.key("value")
	e.float(amount(r))
	if depth > 0 {
		e.key("child")
		writeLevel(e, r, depth-1)
	}
	e.close('}')
}

type Tagged struct {
	ID   int64    `json:"id"`
	Tags []string `json:"tags"`
}

func writeTagged(e *enc, r *rand.Rand) {
	e.open('{')
	e.key("id")
	e.int(id(r))
	e.key("tags")
	e.open('[')
	for range 3 + r.IntN(18) {
		e.word(r, 4, 12)
	}
	e.close(']')
	e.close('}')
}

// Listed is a record with short lists of names, as emoji, labels or
// packages have them: often one or two words, sometimes none.
type Listed struct {
	Name     string   `json:"name"`
	Category string   `json:"category"`
	Aliases  []string `json:"aliases"`
	Tags     []string `json:"tags"`
	Version  string   `json:"version"`
}

func writeListed(e *enc, r *rand.Rand) {
	e.open('{')
	e.key("name")
	e.text(r, 8, 30)
	e.key("category")
	e.word(r, 6, 16)
	for _, k := range []string{"aliases", "tags"} {
		e.key(k)
		e.open('[')
		for range r.IntN(5) {
			e.word(r, 3, 10)
		}
		e.close(']')
	}
	e.key("version")
	e.quoted(fmt.Appendf(nil, "%d.%d", 1+r.IntN(15), r.IntN(10)))
	e.close('}')
}

type Series struct {
	ID     int64     `json:"id"`
	Values []float64 `json:"values"`
}

func writeSeries(e *enc, r *rand.Rand) {
	e.open('{')
	e.key("id")
	e.int(id(r))
	e.key("values")
	e.open('[')
	for range 8 + r.IntN(57) {
		e.float(coord(r))
	}
	e.close(']')
	e.close('}')
}

type Order struct {
	ID       int64  `json:"id"`
	Customer string `json:"customer"`
	PlacedAt string `json:"placed_at"`
	Lines    []Line `json:"lines"`
}

type Line struct {
	SKU   string  `json:"sku"`
	Name  string  `json:"name"`
	Qty   int     `json:"qty"`
	Price float64 `json:"price"`
}

func writeOrder(e *enc, r *rand.Rand) {
	e.open('{')
	e.key("id")
	e.int(id(r))
	e.key("customer")
	e.text(r, 8, 24)
	e.key("placed_at")
	e.time(r)
	e.key("lines")
	e.open('[')
	for range 1 + r.IntN(8) {
		e.open('{')
		e.key("sku")
		e.word(r, 10, 10)
		e.key("name")
		e.text(r, 8, 30)
		e.key("qty")
		e.int(int64(1 + r.IntN(20)))
		e.key("price")
		e.float(amount(r))
		e.close('}')
	}
	e.close(']')
	e.close('}')
}

type Counts struct {
	ID     int64          `json:"id"`
	Counts map[string]int `json:"counts"`
}

func writeCounts(e *enc, r *rand.Rand) {
	e.open('{')
	e.key("id")
	e.int(id(r))
	e.key("counts")
	e.open('{')
	for range 8 + r.IntN(25) {
		e.key(string(word(r, 6+r.IntN(7)))) // 62^6 spellings at least: none repeats in a record
		e.int(int64(r.IntN(100000)))
	}
	e.close('}')
	e.close('}')
}

// Translated is a record with a map from a small vocabulary of keys to
// small structs, as names in many languages are kept (a country's
// translations): the keys come again from record to record, the values
// do not.
type Translated struct {
	ID    int64           `json:"id"`
	Names map[string]Name `json:"names"`
}

type Name struct {
	Official string `json:"official"`
	Common   string `json:"common"`
}

// languages are the keys of Translated's maps, written in this order.
var languages = strings.Fields("ara bre bul cat ces cym dan deu ell est fin fra heb hin hrv hun ind ita jpn kor " +
	"lit msa nld nor per pol por ron rus slk spa srp swe tha tur ukr urd vie yue zho")

func writeTranslated(e *enc, r *rand.Rand) {
	e.open('{')
	e.key("id")
	e.int(id(r))
	e.key("names")
	e.open('{')
	keep := 1 + r.IntN(10) // in 10: 4 to 40 keys of 40
	n := 0
	for i, l := range languages {
		if r.IntN(10) >= keep && len(languages)-i > 4-n {
			continue
		}
		n++
		e.key(l)
		e.open('{')
		e.key("official")
		e.text(r, 12, 40)
		e.key("common")
		e.text(r, 4, 16)
		e.close('}')
	}
	e.close('}')
	e.close('}')
}

type Base struct {
	ID        int64  `json:"id"`
	CreatedAt string `json:"created_at"`
	UpdatedAt string `json:"updated_at"`
}

type Audit struct {
	By      string `json:"by"`
	Reason  string `json:"reason"`
	Version int    `json:"version"`
}

type Embedded struct {
	Base
	*Audit
	Name  string  `json:"name"`
	Email string  `json:"email"`
	Score float64 `json:"score"`
}

func writeEmbedded(e *enc, r *rand.Rand) {
	e.open('{')
	e.key("id")
	e.int(id(r))
	e.key("created_at")
	e.time(r)
	e.key("updated_at")
	e.time(r)
	if r.IntN(2) == 0 {
		e.key("by")
		e.word(r, 4, 12)
		e.key("reason")
		e.text(r, 10, 40)
		e.key("version")
		e.int(int64(1 + r.IntN(50)))
	}
	e.key("name")
	e.text(r, 8, 24)
	e.key("email")
	e.email(r)
	e.key("score")
	e.float(r.Float64() * 100)
	e.close('}')
}

type Bools struct {
	A bool `json:"a"`
	B bool `json:"b"`
	C bool `json:"c"`
	D bool `json:"d"`
	E bool `json:"e"`
	F bool `json:"f"`
	G bool `json:"g"`
	H bool `json:"h"`
	I bool `json:"i"`
	J bool `json:"j"`
	K bool `json:"k"`
	L bool `json:"l"`
	M bool `json:"m"`
	N bool `json:"n"`
	O bool `json:"o"`
	P bool `json:"p"`
}

func writeBools(e *enc, r *rand.Rand) {
	e.open('{')
	for _, k := range "abcdefghijklmnop" {
		e.key(string(k))
		e.bool(r.IntN(2) == 0)
	}
	e.close('}')
}

type Nulls struct {
	A *string        `json:"a"`
	B *int64         `json:"b"`
	C *float64       `json:"c"`
	D *bool          `json:"d"`
	E any            `json:"e"`
	F []int          `json:"f"`
	G map[string]int `json:"g"`
	H *Rec3          `json:"h"`
	I *string        `json:"i"`
	J any            `json:"j"`
	K *int           `json:"k"`
	L []string       `json:"l"`
}

var nullsFields = []field{
	{"a", wordOf(4, 12)}, {"b", idValue}, {"c", floatUpTo(1000)}, {"d", boolValue},
	{"e", wordOf(4, 12)},
	{"f", func(e *enc, r *rand.Rand) {
		e.open('[')
		for range 1 + r.IntN(4) {
			e.int(int64(r.IntN(1000)))
		}
		e.close(']')
	}},
	{"g", func(e *enc, r *rand.Rand) {
		e.open('{')
		e.key("k" + string(word(r, 6)))
		e.int(int64(r.IntN(1000)))
		e.close('}')
	}},
	{"h", writeFields(rec3Fields, nil)},
	{"i", textOf(8, 24)}, {"j", floatUpTo(100)}, {"k", intUpTo(1000)},
	{"l", func(e *enc, r *rand.Rand) {
		e.open('[')
		for range 1 + r.IntN(3) {
			e.word(r, 4, 10)
		}
		e.close(']')
	}},
}

func writeNulls(e *enc, r *rand.Rand) {
	e.open('{')
	for _, f := range nullsFields {
		e.key(f.key)
		if r.IntN(10) != 0 {
			e.null()
			continue
		}
		f.value(e, r)
	}
	e.close('}')
}

// Quoted is a record whose numbers and flag travel as strings, as an API
// for JavaScript clients writes an int64 it cannot hold as a number.
type Quoted struct {
	ID     int64   `json:"id,string"`
	Price  float64 `json:"price,string"`
	Active bool    `json:"active,string"`
	Name   string  `json:"name"`
}

func writeQuoted(e *enc, r *rand.Rand) {
	e.open('{')
	e.key("id")
	e.quoted(strconv.AppendInt(nil, id(r), 10))
	e.key("price")
	e.quoted(strconv.AppendFloat(nil, amount(r), 'f', -1, 64))
	e.key("active")
	e.quoted(strconv.AppendBool(nil, r.IntN(2) == 0))
	e.key("name")
	e.text(r, 4, 24)
	e.close('}')
}

// Methods is a record whose members have methods of their own, as types
// from other packages do (a UUID, an enum, a decimal amount).
type Methods struct {
	ID     UUID    `json:"id"`
	Status Status  `json:"status"`
	Amount Decimal `json:"amount"`
	Name   string  `json:"name"`
	Count  int64   `json:"count"`
}

// UUID is 16 bytes, written as 36 characters of hex and dashes.
type UUID [16]byte

func (u UUID) MarshalText() ([]byte, error) {
	b := make([]byte, 0, 36)
	for i, c := range u {
		if i == 4 || i == 6 || i == 8 || i == 10 {
			b = append(b, '-')
		}
		b = append(b, hexDigit[c>>4], hexDigit[c&15])
	}
	return b, nil
}

func (u *UUID) UnmarshalText(b []byte) error {
	if len(b) != 36 || b[8] != '-' || b[13] != '-' || b[18] != '-' || b[23] != '-' {
		return fmt.Errorf("shapes: not a UUID: %q", b)
	}
	j := 0
	for i := 0; i < 36; i += 2 {
		if b[i] == '-' {
			i--
			continue
		}
		hi, lo := unhex(b[i]), unhex(b[i+1])
		if hi > 15 || lo > 15 {
			return fmt.Errorf("shapes: not a UUID: %q", b)
		}
		u[j] = hi<<4 | lo
		j++
	}
	return nil
}

const hexDigit = "0123456789abcdef"

func unhex(c byte) byte {
	switch {
	case '0' <= c && c <= '9':
		return c - '0'
	case 'a' <= c && c <= 'f':
		return c - 'a' + 10
	case 'A' <= c && c <= 'F':
		return c - 'A' + 10
	}
	return 255
}

// Status is an enum written as its name.
type Status uint8

var statusNames = []string{"pending", "active", "paused", "closed"} // under 8 bytes: TestDistinct

func (s Status) MarshalText() ([]byte, error) {
	if int(s) >= len(statusNames) {
		return nil, fmt.Errorf("shapes: no status %d", s)
	}
	return []byte(statusNames[s]), nil
}

func (s *Status) UnmarshalText(b []byte) error {
	for i, n := range statusNames {
		if string(b) == n {
			*s = Status(i)
			return nil
		}
	}
	return fmt.Errorf("shapes: no status %q", b)
}

// Decimal is an amount in hundredths, written as a number with up to two
// decimals (12.5, 7, 19.99).
type Decimal int64

func (d Decimal) MarshalJSON() ([]byte, error) {
	return strconv.AppendFloat(nil, float64(d)/100, 'f', -1, 64), nil
}

func (d *Decimal) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		return nil
	}
	f, err := strconv.ParseFloat(string(b), 64)
	if err != nil {
		return fmt.Errorf("shapes: not an amount: %q", b)
	}
	*d = Decimal(math.Round(f * 100))
	return nil
}

func writeMethods(e *enc, r *rand.Rand) {
	e.open('{')
	e.key("id")
	var u UUID
	for i := range u {
		u[i] = byte(r.IntN(256))
	}
	t, _ := u.MarshalText()
	e.quoted(t)
	e.key("status")
	e.quoted([]byte(statusNames[r.IntN(len(statusNames))]))
	e.key("amount")
	e.float(amount(r))
	e.key("name")
	e.text(r, 4, 24)
	e.key("count")
	e.int(int64(r.IntN(1000)))
	e.close('}')
}
