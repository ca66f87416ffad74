package json

import (
	"bytes"
	stdjson "encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/jsonpipe/json/internal/corpus"
)

func TestValid(t *testing.T) {
	for _, tc := range tokenCases {
		want := tc.err == "" && len(tc.tokens) > 0 && !strings.HasPrefix(tc.name, "stream")
		if got := Valid([]byte(tc.in)); got != want {
			t.Errorf("%s: Valid(%q) = %v, want %v", tc.name, tc.in, got, want)
		}
	}
	for _, in := range []string{`{} x`, `1 2`, `[1] [2]`, "\ufeff{}"} {
		if Valid([]byte(in)) {
			t.Errorf("Valid(%q) = true", in)
		}
	}
}

// TestUnmarshalSyntaxErrors checks the errors checkOne gives (what Unmarshal
// reports for a syntax error) against encoding/json's, message and offset.
func TestUnmarshalSyntaxErrors(t *testing.T) {
	for _, tc := range tokenCases {
		if strings.HasPrefix(tc.name, "stream") {
			continue
		}
		if got, want := ourCheck([]byte(tc.in)), stdCheck([]byte(tc.in)); !sameError(got, want) {
			t.Errorf("%s: %q\n got  %s\n want %s", tc.name, tc.in, errString(got), errString(want))
		}
	}
}

// validCases are the grammar's corners, each with encoding/json's (Go 1.26)
// verdict; TestValidCases also asks the toolchain's encoding/json.
var validCases = []struct {
	name string
	in   string
	want bool
}{
	// Empty input, whitespace, and what follows the value.
	{"empty", "", false},
	{"only spaces", "   ", false},
	{"only whitespace set", " \t\n\r", false},
	{"space around", " \t\n\r1 \t\n\r", true},
	{"form feed before", "\f1", false},
	{"form feed after", "1\f", false},
	{"vertical tab", "[\v1]", false},
	{"NBSP before", "\u00a01", false},
	{"NBSP inside", "[1,\u00a02]", false},
	{"NUL before", "\x001", false},
	{"NUL after", "1\x00", false},
	{"NUL between", "[1,\x002]", false},
	{"BOM", "\ufeff1", false},
	{"trailing value", "1 2", false},
	{"trailing comma", "1,", false},
	{"trailing close", "[1]]", false},
	{"trailing garbage", `{"a":1}x`, false},
	{"trailing garbage after space", `{"a":1} x`, false},
	{"two objects", `{}{}`, false},

	// Literals.
	{"true", "true", true},
	{"false", "false", true},
	{"null", "null", true},
	{"tru", "tru", false},
	{"t", "t", false},
	{"fals", "fals", false},
	{"nul", "nul", false},
	{"nu", "nu", false},
	{"truex", "truex", false},
	{"trux", "trux", false},
	{"trve", "trve", false},
	{"falsy", "falsy", false},
	{"fAlse", "fAlse", false},
	{"nulx", "nulx", false},
	{"nill", "nill", false},
	{"trux in array", "[trux]", false},
	{"falsy in object", `{"a":falsy}`, false},
	{"true1", "true1", false},
	{"nulll", "nulll", false},
	{"True", "True", false},
	{"NULL", "NULL", false},
	{"nan", "NaN", false},
	{"infinity", "Infinity", false},
	{"literal in array", "[true,false,null]", true},
	{"tru in array", "[tru]", false},
	{"nul in array", "[nul]", false},
	{"literals unseparated", "[truefalse]", false},

	// Numbers.
	{"zero", "0", true},
	{"minus zero", "-0", true},
	{"int", "123", true},
	{"neg int", "-123", true},
	{"frac", "1.5", true},
	{"exp", "1e5", true},
	{"Exp", "1E5", true},
	{"exp plus", "1e+5", true},
	{"exp minus", "1E-5", true},
	{"full", "-12.340e+056", true},
	{"zero frac", "0.0", true},
	{"zero exp", "0e0", true},
	{"long", "123456789012345678901234567890.123456789012345678901234567890e123456", true},
	{"minus", "-", false},
	{"minus space", "- 1", false},
	{"minus minus", "--1", false},
	{"plus", "+1", false},
	{"leading zero", "01", false},
	{"leading zeros", "00", false},
	{"neg leading zero", "-01", false},
	{"leading zero in array", "[01]", false},
	{"dot", "1.", false},
	{"dot in array", "[1.]", false},
	{"dot exp", "1.e5", false},
	{"dot first", ".5", false},
	{"neg dot first", "-.5", false},
	{"e", "1e", false},
	{"e plus", "1e+", false},
	{"e minus", "1E-", false},
	{"e in array", "[1e]", false},
	{"e twice", "1e5e5", false},
	// Negative numbers in a container, where Valid's loop reads a
	// negative integer at once, and each way out of that.
	{"neg in array", "[-1,-23,-456789012345678901234]", true},
	{"neg frac exp in object", `{"a":-12.5e3,"b":-7E-2,"c":-0.5,"d":-0}`, true},
	{"neg last in data", "[-9", false},
	{"minus last in data", "[-", false},
	{"minus in array", "[-]", false},
	{"minus comma", "[-,1]", false},
	{"neg leading zero in array", "[-01]", false},
	{"neg dot in array", "[-1.]", false},
	{"neg e in array", "[-1e]", false},
	{"neg letter in array", "[-1x]", false},
	{"minus minus in array", "[--1]", false},
	{"dot twice", "1.5.5", false},
	{"exp frac", "1e5.5", false},
	{"hex", "0x10", false},
	{"number letter", "1a", false},
	{"number then string", `[1"a"]`, false},
	{"number then literal", `[1true]`, false},
	{"number then minus", `1-`, false},

	// Strings.
	{"string", `"abc"`, true},
	{"empty string", `""`, true},
	{"unclosed", `"abc`, false},
	{"only quote", `"`, false},
	{"escapes", `"\"\\\/\b\f\n\r\t"`, true},
	{"u escape", `"\u00e9\uD834\uDD1E"`, true},
	{"u escape NUL", `"\u0000"`, true},
	{"lone surrogate", `"\ud800"`, true},
	{"bad escape", `"\a"`, false},
	{"bad escape x", `"\x41"`, false},
	{"escaped apostrophe", `"\'"`, false},
	{"escaped NUL", "\"\\\x00\"", false},
	{"escape at end", `"\`, false},
	{"escape then end", `"a\"`, false},
	{"u short", `"\u12"`, false},
	{"u short at end", `"\u12`, false},
	{"u bad hex", `"\u12g4"`, false},
	{"u bad hex first", `"\uZ234"`, false},
	{"u bad hex last", `"\u123x"`, false},
	{"U escape", `"\U0041"`, false},
	{"NUL in string", "\"a\x00b\"", false},
	{"newline in string", "\"a\nb\"", false},
	{"tab in string", "\"a\tb\"", false},
	{"0x1f in string", "\"\x1f\"", false},
	{"DEL in string", "\"\x7f\"", true},
	{"invalid UTF-8", "\"a\xffb\"", true},
	{"invalid UTF-8 lead", "\"\xc3\"", true},
	{"surrogate in UTF-8", "\"\xed\xa0\x80\"", true},
	{"overlong", "\"\xc0\xaf\"", true},
	{"UTF-8", `"é😀"`, true},
	{"invalid UTF-8 outside string", "[\xff]", false},
	{"single quotes", `'a'`, false},

	// Arrays and objects.
	{"empty array", "[]", true},
	{"empty array spaced", "[ \n ]", true},
	{"empty object", "{}", true},
	{"empty object spaced", "{ \t }", true},
	{"array", "[1, 2 ,3]", true},
	{"object", `{"a":1,"b" : [2], "c":{}}`, true},
	{"nested", `[[[]],[{}],{"a":[{"b":null}]}]`, true},
	{"array unclosed", "[1", false},
	{"array open", "[", false},
	{"array comma end", "[1,", false},
	{"array trailing comma", "[1,]", false},
	{"array leading comma", "[,1]", false},
	{"array double comma", "[1,,2]", false},
	{"array no comma", "[1 2]", false},
	{"array colon", "[1:2]", false},
	{"array closed by brace", "[1}", false},
	{"empty array closed by brace", "[}", false},
	{"close only", "]", false},
	{"object open", "{", false},
	{"object key only", `{"a"`, false},
	{"object colon end", `{"a":`, false},
	{"object value end", `{"a":1`, false},
	{"object comma end", `{"a":1,`, false},
	{"object trailing comma", `{"a":1,}`, false},
	{"object no colon", `{"a" 1}`, false},
	{"object double colon", `{"a"::1}`, false},
	{"object no value", `{"a":}`, false},
	{"object comma for colon", `{"a",1}`, false},
	{"object number key", `{1:1}`, false},
	{"object literal key", `{null:1}`, false},
	{"object unquoted key", `{a:1}`, false},
	{"object closed by bracket", `{"a":1]`, false},
	{"empty object closed by bracket", `{]`, false},
	{"object no comma", `{"a":1 "b":2}`, false},
	{"object leading comma", `{,"a":1}`, false},
	{"object bad key string", `{"\x":1}`, false},
	{"array in object closed wrongly", `{"a":[1}`, false},
	{"object in array closed wrongly", `[{"a":1]`, false},
	{"colon top", ":", false},
	{"comma top", ",", false},
}

func TestValidCases(t *testing.T) {
	for _, tc := range validCases {
		t.Run(tc.name, func(t *testing.T) {
			if got := Valid([]byte(tc.in)); got != tc.want {
				t.Errorf("Valid(%q) = %v, want %v", tc.in, got, tc.want)
			}
			if std := stdjson.Valid([]byte(tc.in)); std != tc.want {
				t.Errorf("encoding/json.Valid(%q) = %v: the case's want is wrong", tc.in, std)
			}
		})
	}
}

// TestValidDepth: nesting up to encoding/json's limit of 10000 levels is
// valid, one level more is not, for arrays, objects and both mixed.
func TestValidDepth(t *testing.T) {
	if defaultMaxDepth != 10000 {
		t.Fatalf("defaultMaxDepth = %d, encoding/json's limit is 10000", defaultMaxDepth)
	}
	nest := func(depth int, open, inner, close string) string {
		return strings.Repeat(open, depth) + inner + strings.Repeat(close, depth)
	}
	mixed := func(depth int) string {
		var b, e strings.Builder
		for i := range depth {
			if i%3 == 0 {
				b.WriteString(`{"k":`)
				e.WriteString("}")
			} else {
				b.WriteString("[")
				e.WriteString("]")
			}
		}
		closing := []byte(e.String())
		slices.Reverse(closing)
		return b.String() + "0" + string(closing)
	}
	for _, depth := range []int{1, 63, 64, 65, 127, 128, 129, defaultMaxDepth - 1, defaultMaxDepth, defaultMaxDepth + 1, 3 * defaultMaxDepth} {
		for name, in := range map[string]string{
			"arrays":        nest(depth, "[", "", "]"),
			"arrays spaced": nest(depth, "[ ", "1", " ]"),
			"objects":       nest(depth-1, `{"":`, "{}", "}"),
			"objects deep":  nest(depth, `{"a":`, "1", "}"),
			"mixed":         mixed(depth),
			"unclosed":      strings.Repeat("[", depth),
			"wrong close":   strings.Repeat("[", depth) + "}" + strings.Repeat("]", depth-1),
		} {
			want := stdjson.Valid([]byte(in))
			if name != "unclosed" && name != "wrong close" && want != (depth <= defaultMaxDepth) {
				t.Fatalf("%s %d: encoding/json.Valid = %v: its limit has moved", name, depth, want)
			}
			if got := Valid([]byte(in)); got != want {
				t.Errorf("%s, %d levels: Valid = %v, encoding/json says %v", name, depth, got, want)
			}
		}
	}
}

// TestValidStringOffsets puts every kind of byte a string body can stop at,
// or pass, at every offset of the 8-byte words the body is scanned in, in
// bodies of every length up to 40, after a prefix of 0 to 7 bytes, and of
// the lengths around validRun and twice it, after fewer prefixes.
func TestValidStringOffsets(t *testing.T) {
	specials := []string{`"`, `\"`, `\\`, `\n`, `\u00e9`, `\u00`, `\x`, `\`, "\x00", "\x1f", "\n", "\x7f", "\x80", "\xff", "é", " "}
	// Up to 40 bytes from every place; then runs about validRun bytes
	// long (where the loop hands a run to validString) and about twice
	// that (the kernel's blocks), from fewer.
	lengths := []int{}
	for n := range 41 {
		lengths = append(lengths, n)
	}
	for n := validRun - 8; n <= validRun+8; n++ {
		lengths = append(lengths, n, n+validRun)
	}
	for pre := range 8 {
		prefix := strings.Repeat(" ", pre)
		for _, n := range lengths {
			if n > 40 && pre%3 != 0 {
				continue
			}
			for at := 0; at <= n; at++ {
				for _, sp := range specials {
					body := strings.Repeat("a", at) + sp + strings.Repeat("b", n-at)
					for _, in := range []string{
						prefix + `"` + body + `"`,
						prefix + `"` + body,
						prefix + `["` + body + `",1]`,
						prefix + `{"` + body + `":"` + body + `"}`,
					} {
						if got, want := Valid([]byte(in)), stdjson.Valid([]byte(in)); got != want {
							t.Fatalf("Valid(%q) = %v, encoding/json says %v", in, got, want)
						}
					}
				}
			}
		}
	}
}

// TestValidIntegerOffsets: integers of 1 to 21 digits, signed and not, with
// every kind of byte that can end one (or fail to) after them, at every
// offset of the four-byte turns Valid reads digits in, and cut at the end of
// data, inside an array and inside an object, as encoding/json judges them.
func TestValidIntegerOffsets(t *testing.T) {
	stops := []string{"", " ", ",", "]", "}", ".", ".5", "e", "e7", "E+1", "x", "-", "0", "\x00", "\xff", "/"}
	for pre := range 4 {
		prefix := strings.Repeat(" ", pre)
		for n := 1; n <= 21; n++ {
			digits := "9876543210123456789012"[:n]
			for _, sign := range []string{"", "-"} {
				for _, stop := range stops {
					num := sign + digits + stop
					for _, in := range []string{
						prefix + num,
						prefix + num + "1", // a second value at the top level is not one
						prefix + "[" + num,
						prefix + "[" + num + "]",
						prefix + "[" + num + ",1]",
						prefix + `{"k":` + num + "}",
						prefix + `{"k":` + num + `,"j":0}`, // the ',' after the digits, taken at once
						prefix + `[{"k":` + num + `}, {"j" :` + num + "}]",
					} {
						if got, want := Valid([]byte(in)), stdjson.Valid([]byte(in)); got != want {
							t.Fatalf("Valid(%q) = %v, encoding/json says %v", in, got, want)
						}
					}
				}
			}
		}
	}
}

// TestValidTruncations: every prefix of inputs that exercise each part of
// the grammar is judged as encoding/json judges it.
func TestValidTruncations(t *testing.T) {
	for _, in := range []string{
		`{"a":[1,-2.5e+3,0,true,false,null,"x\"\u00e9y"],"b":{"c":{}},"d":[]}`,
		" [ 1 , { \"k\" : \"v\" } , [ ] ] ",
		`-0.0E-0`,
		`"\ud834\udd1e and some more text past eight bytes"`,
	} {
		for i := 0; i <= len(in); i++ {
			for _, cut := range []string{in[:i], in[:i] + "x", in[i:]} {
				if got, want := Valid([]byte(cut)), stdjson.Valid([]byte(cut)); got != want {
					t.Errorf("Valid(%q) = %v, encoding/json says %v", cut, got, want)
				}
			}
		}
	}
}

// TestValidFiles compares Valid with encoding/json's on every JSONTestSuite
// file, every corpus file, and cuts of the corpus files.
func TestValidFiles(t *testing.T) {
	dir := corpus.ConformanceDir(t)
	paths, _ := filepath.Glob(filepath.Join(dir, "*.json"))
	if len(paths) < 300 {
		t.Fatalf("only %d files in %s", len(paths), dir)
	}
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if got, want := Valid(data), stdjson.Valid(data); got != want {
			t.Errorf("%s: Valid = %v, encoding/json says %v", filepath.Base(p), got, want)
		}
	}
	for _, f := range corpus.All(t) {
		if got, want := Valid(f.Data), stdjson.Valid(f.Data); got != want || !got {
			t.Errorf("%s: Valid = %v, encoding/json says %v", f.Name, got, want)
		}
		if testing.Short() {
			continue
		}
		// Cuts at 16 places, and a byte changed there.
		for k := 1; k <= 16; k++ {
			i := len(f.Data) * k / 17
			cut := f.Data[:i]
			if got, want := Valid(cut), stdjson.Valid(cut); got != want {
				t.Errorf("%s cut at %d: Valid = %v, encoding/json says %v", f.Name, i, got, want)
			}
			changed := bytes.Clone(f.Data)
			changed[i] ^= byte(k)
			if got, want := Valid(changed), stdjson.Valid(changed); got != want {
				t.Errorf("%s with byte %d changed: Valid = %v, encoding/json says %v", f.Name, i, got, want)
			}
		}
	}
}

// whitespaceTmpl is a document of every kind of value with a % at each
// place whitespace may be, for fillHoles.
const whitespaceTmpl = `%[%{%"k"%:%"v"%,%"n"%:%1%,%"a"%:%[%true%,%null%,%-2%]%,%"o"%:%{%}%,%"e"%:%[%]%}%,%7%]%`

// fillHoles returns tmpl with its k-th % replaced by fill(k).
func fillHoles(tmpl string, fill func(k int) string) string {
	var b strings.Builder
	k := 0
	for _, c := range tmpl {
		if c != '%' {
			b.WriteRune(c)
			continue
		}
		b.WriteString(fill(k))
		k++
	}
	return b.String()
}

// TestValidIndentWidths puts a newline and an indentation at every place
// whitespace may be, their widths (0 to 10 spaces) the same from line to
// line, or growing, or alternating, or at random, some followed by a tab,
// a newline or a byte JSON has no place for: indentEnd checks a width that
// is the last one it took again, and must judge as encoding/json does when
// the next is wider, narrower, or not spaces alone.
func TestValidIndentWidths(t *testing.T) {
	holes := strings.Count(whitespaceTmpl, "%")
	r := rand.New(rand.NewPCG(36, 1))
	patterns := map[string]func(k int) int{
		"same":        func(int) int { return 4 },
		"growing":     func(k int) int { return k % 11 },
		"alternating": func(k int) int { return 2 + k%2*2 },
		"seven-eight": func(k int) int { return 7 + k%2 },
	}
	for i := range 20 {
		widths := make([]int, holes)
		for k := range widths {
			widths[k] = r.IntN(11)
		}
		patterns[fmt.Sprint("random", i)] = func(k int) int { return widths[k] }
	}
	tails := []string{"", "", "", "\t", "\n", "x"}
	for name, width := range patterns {
		for range 4 {
			in := fillHoles(whitespaceTmpl, func(k int) string {
				run := "\n" + strings.Repeat(" ", width(k))
				if r.IntN(8) == 0 {
					run += tails[r.IntN(len(tails))]
				}
				return run
			})
			for i := 0; i <= len(in); i++ {
				if got, want := Valid([]byte(in[:i])), stdjson.Valid([]byte(in[:i])); got != want {
					t.Fatalf("%s: Valid(%q) = %v, encoding/json says %v", name, in[:i], got, want)
				}
			}
		}
	}
}

// TestValidWhitespace puts each kind of whitespace run (none, the one
// space after a pretty-printed colon, a newline and its indentation, tabs,
// CRLF, a run past 8 bytes, and runs spoilt by a byte JSON has no place
// for) at every place whitespace may be and at every cut of the input:
// Valid takes a newline and its spaces, and a lone space, on paths of
// their own, and must still judge as encoding/json does where they end.
func TestValidWhitespace(t *testing.T) {
	runs := []string{"", " ", "  ", "\n", "\n ", "\n    ", "\n" + strings.Repeat(" ", 13), "\n\t\t", "\r\n  ", "\t",
		" \n", "\n  \n  ", "\n  \x00", "\n  \x0b", "\n\xa0", "\x0c", "\n  /",
		// indentEnd's bound: 7 spaces it takes, 8 it leaves to skipWhitespace.
		"\n" + strings.Repeat(" ", 7), "\n" + strings.Repeat(" ", 8), "\n" + strings.Repeat(" ", 7) + "\t"}
	for h := range strings.Count(whitespaceTmpl, "%") {
		for _, run := range runs {
			in := fillHoles(whitespaceTmpl, func(k int) string {
				if k == h {
					return run
				}
				return "\n  " // pretty elsewhere
			})
			for i := 0; i <= len(in); i++ {
				for _, cut := range []string{in[:i], in[:i] + "}"} {
					if got, want := Valid([]byte(cut)), stdjson.Valid([]byte(cut)); got != want {
						t.Fatalf("Valid(%q) = %v, encoding/json says %v", cut, got, want)
					}
				}
			}
		}
	}
}
