package shapes

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"regexp"
	"strings"
	"testing"
)

// testSize is the size of each form in these tests: enough records for
// every case to show its shape, small enough for a quick test.
const testSize = 64 << 10

func TestNames(t *testing.T) {
	name := regexp.MustCompile(`^(str|num|rec)-[a-z0-9-]+$`)
	seen := map[string]bool{}
	for _, c := range Cases() {
		if !name.MatchString(c.Name) || !strings.HasPrefix(c.Name, c.Dim+"-") {
			t.Errorf("%q (dim %q): want lower case, digits and '-' only (benchstat splits names at '/' and '='), after the dimension", c.Name, c.Dim)
		}
		if seen[c.Name] {
			t.Errorf("%s twice", c.Name)
		}
		seen[c.Name] = true
		if Lookup(c.Name) != c {
			t.Errorf("Lookup(%q) is not the case", c.Name)
		}
	}
	if n := len(Cases()); n < 60 {
		t.Errorf("%d cases", n)
	}
}

// TestForms checks that every form of every case is what the package doc
// says, and that every record decodes into the case's type as the case
// says: every member known (but in rec-unknown), every key matched.
func TestForms(t *testing.T) {
	for _, c := range Cases() {
		t.Run(c.Name, func(t *testing.T) {
			f := c.Build(testSize)
			lines := Lines(f.NDJSON)
			var elems []json.RawMessage
			if err := json.Unmarshal(f.Doc, &elems); err != nil {
				t.Fatal(err)
			}
			if len(elems) != len(lines) || len(f.Doc) < testSize || len(f.NDJSON) < testSize {
				t.Fatalf("Doc: %d records, %d bytes; NDJSON: %d lines, %d bytes", len(elems), len(f.Doc), len(lines), len(f.NDJSON))
			}
			for i, line := range lines {
				if !bytes.Equal(line, elems[i]) || !bytes.Equal(line, c.AppendRecord(nil, i)) {
					t.Fatalf("record %d differs between Doc, NDJSON and AppendRecord", i)
				}
			}
			// Pretty is Doc with whitespace only, and with a newline and
			// two spaces before the first record.
			var compact bytes.Buffer
			if err := json.Compact(&compact, f.Pretty); err != nil || !bytes.Equal(compact.Bytes(), f.Doc) {
				t.Fatalf("Pretty compacts to other bytes than Doc (%v)", err)
			}
			if !bytes.HasPrefix(f.Pretty, []byte("[\n  ")) || len(f.Pretty) <= len(f.Doc) {
				t.Fatalf("Pretty is not indented: %d bytes from Doc's %d, starting %q", len(f.Pretty), len(f.Doc), f.Pretty[:min(len(f.Pretty), 8)])
			}

			// Typed, refusing unknown members: only rec-unknown has any.
			dec := json.NewDecoder(bytes.NewReader(f.Doc))
			dec.DisallowUnknownFields()
			err := dec.Decode(c.NewSlice())
			if (err != nil) != (c.Name == "rec-unknown") {
				t.Errorf("Doc with unknown members refused: %v", err)
			}
			for _, line := range lines {
				if err := json.Unmarshal(line, c.NewRecord()); err != nil {
					t.Fatalf("NDJSON line: %v", err)
				}
			}

			// Small documents: their records are the first ones again,
			// and each is MinDoc to MaxDoc long but where one record is
			// longer.
			total, i := 0, 0
			for _, d := range f.Docs {
				var recs []json.RawMessage
				if err := json.Unmarshal(d, &recs); err != nil {
					t.Fatal(err)
				}
				if len(d) < MinDoc || len(d) > MaxDoc && len(recs) > 1 {
					t.Errorf("a small document of %d bytes, %d records", len(d), len(recs))
				}
				for _, r := range recs {
					if !bytes.Equal(r, c.AppendRecord(nil, i)) {
						t.Fatalf("small documents: record %d is not the case's record %d", i, i)
					}
					i++
				}
				total += len(d)
			}
			if total < testSize {
				t.Errorf("small documents: %d bytes", total)
			}
			if c.Dim == "str" {
				// At 4,000 bytes, the only case above MaxDoc: one string a record.
				return
			}
			if n := len(f.Docs); n < testSize/MaxDoc {
				t.Errorf("%d small documents", n)
			}
			checkKeys(t, c, lines)
		})
	}
}

// checkKeys checks the record cases' keys against their types' tags.
func checkKeys(t *testing.T, c *Case, lines [][]byte) {
	tags := map[string]bool{}
	for i := range c.Type.NumField() {
		tag, _, _ := strings.Cut(c.Type.Field(i).Tag.Get("json"), ",")
		tags[tag] = true
	}
	some := false // some record lacks a member of the type
	for _, line := range lines {
		var m map[string]json.RawMessage
		if err := json.Unmarshal(line, &m); err != nil {
			t.Fatal(err)
		}
		known := 0
		for k := range m {
			if tags[k] {
				known++
			} else if c.Name == "rec-fields3" || c.Name == "rec-fields12" || c.Name == "rec-fields40" {
				t.Fatalf("member %q is none of the type's", k)
			}
		}
		some = some || known < len(tags)
		switch c.Name {
		case "rec-fields3", "rec-fields12", "rec-fields40", "rec-optional", "rec-unknown", "rec-keyorder", "rec-keyshuffle":
			if known != len(tags) {
				t.Fatalf("%d of the type's %d members in %s", known, len(tags), line)
			}
		case "rec-keycase":
			if known != 0 {
				t.Fatalf("a key spelt as its tag in %s", line)
			}
		}
	}
	if c.Name == "rec-absent" && !some {
		t.Error("no member is ever absent")
	}
}

// TestPrefix: a case's records do not depend on how many are made, so a
// smaller build is a prefix of a larger one, and two builds are the same.
func TestPrefix(t *testing.T) {
	for _, c := range Cases() {
		small, big := c.Build(testSize/4), c.Build(testSize)
		if !bytes.HasPrefix(big.NDJSON, small.NDJSON) || !bytes.HasPrefix(big.Doc, small.Doc[:len(small.Doc)-1]) {
			t.Errorf("%s: a smaller build is not a prefix of a larger", c.Name)
		}
		if again := c.Build(testSize); !bytes.Equal(again.Doc, big.Doc) {
			t.Errorf("%s: two builds differ", c.Name)
		}
	}
}

// TestDistinct: no string value of 8 bytes or more is in two small
// documents, so that what one document leaves in a decoder's cache is of
// no use to the next.
func TestDistinct(t *testing.T) {
	for _, c := range Cases() {
		seen := map[string]int{} // string -> the document it was first seen in
		repeats := 0
		for i, d := range c.Build(testSize).Docs {
			var v any
			if err := json.Unmarshal(d, &v); err != nil {
				t.Fatal(err)
			}
			walkStrings(v, func(s string) {
				if len(s) < 8 {
					return
				}
				if j, ok := seen[s]; ok && j != i {
					repeats++
				} else {
					seen[s] = i
				}
			})
		}
		if repeats > 0 {
			t.Errorf("%s: %d strings of 8 bytes or more repeat between documents (of %d)", c.Name, repeats, len(seen))
		}
	}
}

func walkStrings(v any, fn func(string)) {
	switch v := v.(type) {
	case string:
		fn(v)
	case []any:
		for _, e := range v {
			walkStrings(e, fn)
		}
	case map[string]any:
		for _, e := range v {
			walkStrings(e, fn)
		}
	}
}

// stableHash is the SHA-256 of every case's forms at 16 KB. A change to the
// generator changes it, and the sweep's figures before and after such a
// change are not comparable: update it, and say so in the commit.
const stableHash = "c5d99d46e7b68766d80ee44a8c35d39b7c5891fb266ffa7101435379bc90c822"

func TestStable(t *testing.T) {
	h := sha256.New()
	for _, c := range Cases() {
		f := c.Build(16 << 10)
		h.Write([]byte(c.Name))
		h.Write(f.Doc)
		h.Write(f.NDJSON)
		for _, d := range f.Docs {
			h.Write(d)
		}
	}
	if got := hex.EncodeToString(h.Sum(nil)); got != stableHash {
		t.Errorf("the generator's output changed: hash %s, was %s", got, stableHash)
	}
}
