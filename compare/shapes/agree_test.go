package shapes

import (
	"bytes"
	stdjson "encoding/json"
	"fmt"
	"reflect"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/jsonpipe/json/internal/corpus"
	"github.com/jsonpipe/json/internal/shapes"
)

// testSize is the size of each form in TestShapesAgree: the benchmarks'
// inputs are larger builds of the same generators, of which these are the
// first records.
func testSize() int {
	if testing.Short() {
		return 16 << 10
	}
	return 64 << 10
}

// A deviation is a known, documented way in which a peer decodes or
// validates other than encoding/json on some cases: TestShapesAgree logs
// it rather than failing, and fails when it is no longer seen (on a full
// run), so that the list stays true.
type deviation struct {
	impl  string
	cases *regexp.Regexp // the case names
	ops   *regexp.Regexp // the op names and forms, "decode-typed/ndjson"
	shows *regexp.Regexp // what TestShapesAgree says of the difference
	why   string
}

var deviations = []deviation{
	{"jsoniter", regexp.MustCompile(`.`), regexp.MustCompile(`^decode-.*/ndjson$`),
		regexp.MustCompile(`^every value agrees, then error: `),
		"its Decoder reports an error, not io.EOF, after the last value of a stream that ends in a newline, as NDJSON does (json-iterator/go#698, #494)"},
	{"jsonv2", regexp.MustCompile(`^rec-keycase$`), regexp.MustCompile(`^(unmarshal|decode)-typed/`),
		regexp.MustCompile(`^value 0: `),
		"encoding/json/v2 matches member names to fields case-sensitively unless told otherwise (MatchCaseInsensitiveNames), so keys spelt in another case than the tags are unknown members to it"},
	{"jsonv2", regexp.MustCompile(`^rec-quoted$`), regexp.MustCompile(`^(unmarshal|decode)-typed/`),
		regexp.MustCompile("invalid use of `string` tag option"),
		"encoding/json/v2 takes the string option on numbers only: a bool with it (`json:\",string\"`) is an error, where encoding/json decodes \"true\""},
}

func (d deviation) matches(im, c, opForm, shows string) bool {
	return d.impl == im && d.cases.MatchString(c) && d.ops.MatchString(opForm) && d.shows.MatchString(shows)
}

// TestShapesAgree runs every op on every form of every case with every
// library and compares the outcome with encoding/json's: the decoded
// values (reflect.DeepEqual), Valid's verdict, and the bytes Marshal and
// Encoder.Encode write. jsonpipe must agree in everything. A peer must
// decode and validate as encoding/json does, but where a deviation says
// otherwise; its encoded bytes are its own choice (key order, HTML
// escaping), so a difference is logged, as compare/marshal does, and the
// last lines say which peers write encoding/json's bytes for how many
// cases. With -v, a line "differ <op> <impl> <case>/<form>: ..." per
// difference.
func TestShapesAgree(t *testing.T) {
	impls := allImpls()
	var std impl
	for _, im := range impls {
		if im.name == "encoding_json" {
			std = im
		}
	}
	seen := make([]bool, len(deviations))
	sameBytes := map[string]int{} // impl -> cases all of whose encodings are encoding/json's bytes
	cases := shapes.Cases()
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			in := newInput(c, testSize())
			same := map[string]bool{}
			for _, im := range impls {
				same[im.name] = true
			}
			for _, o := range ops {
				for _, form := range o.forms {
					want, wantOut, err := runOp(std, o, in, form)
					if err != nil {
						t.Fatalf("encoding_json %s %s: %v", o.name, form, err)
					}
					if form == "ndjson" && o.name != "encode" && len(want) != len(in.lines) {
						t.Fatalf("encoding_json %s: %d values from %d lines", o.name, len(want), len(in.lines))
					}
					for _, im := range impls {
						if im.name == std.name {
							continue
						}
						got, gotOut, err := runOp(im, o, in, form)
						why := difference(got, want, gotOut, wantOut, err)
						if why == "" {
							continue
						}
						encoding := o.name == "marshal" || o.name == "encode"
						msg := fmt.Sprintf("%s %s %s/%s: %s", o.name, im.name, c.Name, form, why)
						if encoding {
							same[im.name] = false
						}
						known := -1
						for i, d := range deviations {
							if d.matches(im.name, c.Name, o.name+"/"+form, why) {
								known = i
							}
						}
						switch {
						case im.name == "jsonpipe":
							t.Errorf("differ %s", msg)
						case known >= 0:
							seen[known] = true
							t.Logf("differ %s (known: %s)", msg, deviations[known].why)
						case encoding:
							t.Logf("differ %s", msg)
						default:
							t.Errorf("differ %s (not a known deviation)", msg)
						}
					}
				}
			}
			for name, ok := range same {
				if ok {
					sameBytes[name]++
				}
			}
		})
	}

	var summary []string
	for _, im := range impls {
		if im.name != std.name {
			summary = append(summary, fmt.Sprintf("%s %d/%d", im.name, sameBytes[im.name], len(cases)))
		}
	}
	sort.Strings(summary)
	t.Logf("cases whose Marshal and Encode write encoding/json's bytes in every form: %s", strings.Join(summary, ", "))
	for i, d := range deviations {
		present := false
		for _, im := range impls {
			present = present || im.name == d.impl
		}
		switch {
		case seen[i]:
			t.Logf("known deviation seen: %s on cases %s, ops %s: %s", d.impl, d.cases, d.ops, d.why)
		case present && !testing.Short():
			t.Errorf("known deviation not seen: %s on cases %s, ops %s (%s): update the list", d.impl, d.cases, d.ops, d.why)
		}
	}
}

// runOp runs o on the form with im and returns what it decoded and what
// it wrote.
func runOp(im impl, o op, in *input, form string) (vals []any, out []byte, err error) {
	var buf bytes.Buffer
	err = o.run(im, in, form, func(v any) { vals = append(vals, v) }, &buf)
	return vals, buf.Bytes(), err
}

// difference says how an outcome differs from encoding/json's, or "".
// The values are compared before an error is reported, so that an error
// after the last value (at the end of a stream) is told apart.
func difference(got, want []any, gotOut, wantOut []byte, err error) string {
	switch {
	case err != nil && len(got) == len(want) && reflect.DeepEqual(got, want):
		return "every value agrees, then error: " + err.Error()
	case err != nil:
		return fmt.Sprintf("error after %d values: %v", len(got), err)
	case len(got) != len(want):
		return fmt.Sprintf("%d values, want %d", len(got), len(want))
	case !bytes.Equal(gotOut, wantOut):
		return "bytes: " + corpus.FirstDifference(gotOut, wantOut)
	}
	for i := range got {
		if !reflect.DeepEqual(got[i], want[i]) {
			// The values re-encoded by encoding/json show where, unless
			// they differ only in Go types (int64 against float64).
			g, _ := stdjson.Marshal(got[i])
			w, _ := stdjson.Marshal(want[i])
			if bytes.Equal(g, w) {
				return fmt.Sprintf("value %d: %T against %T, the same JSON", i, got[i], want[i])
			}
			return fmt.Sprintf("value %d: %s", i, corpus.FirstDifference(g, w))
		}
	}
	return ""
}
