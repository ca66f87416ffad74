package json

import (
	"strings"
	"testing"
)

// TestExpectKey: expectKey matches a member start spelt as the name or its
// camelCase alt, with or without space around the ':', for every name
// length and wherever the window ends, and consumes exactly the ',', the
// key and the ':'; it takes nothing else. A wrong answer here would not
// change what Unmarshal returns (lookup finds the field anyway), only how
// fast, so it is checked directly.
func TestExpectKey(t *testing.T) {
	skipNoFast(t, "expectKey, the match of an expected key in place,")
	for n := 1; n <= 20; n++ {
		name := "K" + strings.Repeat("x", n-1)
		f := &keyMatch{name: name}
		f.prepareKey(true)
		other := name[:n-1] + "y"
		for _, c := range []struct {
			member string
			match  bool
		}{
			{`"` + name + `":`, true},
			{`"k` + name[1:] + `":`, true},
			{`"` + name + `" :`, true},
			{`"k` + name[1:] + "\"\n\t:", true},
			{` "` + name + `":`, true},
			{`"` + other + `":`, false},
			{`"` + name + `x":`, false},
			{`"` + name[:n-1] + `":`, false},
			{`"` + strings.ToUpper(name) + `":`, n == 1},
			{`"` + name + `"`, false},
		} {
			for _, first := range []bool{true, false} {
				lead := ""
				if !first {
					lead = ","
				}
				for _, tail := range []string{"1}", "1" + strings.Repeat(" ", 30) + "}"} {
					data := []byte("{" + lead + c.member + tail)
					var d Decoder
					d.resetBytes(data)
					d.s.br.offset = 1
					got, atKey := expectKey(&d, first, f)
					if got != c.match || !atKey {
						t.Fatalf("expectKey(%q, first=%v, name %q) = %v, %v; want %v, true", data, first, name, got, atKey, c.match)
					}
					// A miss keeps the ',' and the space before the key.
					want := 1 + len(lead) + len(c.member) - len(strings.TrimLeft(c.member, " "))
					if got {
						want = 1 + len(lead) + len(c.member)
					}
					if d.s.br.offset != want {
						t.Fatalf("expectKey(%q, name %q) left the offset at %d, want %d", data, name, d.s.br.offset, want)
					}
				}
			}
		}
		// No ',' where one must come: nothing is consumed.
		for _, data := range []string{"{1 }", "{1}", "{1"} {
			var d Decoder
			d.resetBytes([]byte(data))
			d.s.br.offset = 2
			if hit, atKey := expectKey(&d, false, f); hit || atKey || d.s.br.offset != 2 {
				t.Fatalf("expectKey(%q at 2) = %v, %v and left the offset at %d", data, hit, atKey, d.s.br.offset)
			}
		}
	}
}
