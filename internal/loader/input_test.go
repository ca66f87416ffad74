package loader

import (
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

// Sniff gives back every byte of the input but a leading BOM, gzip
// decompressed, whatever the reader's chunks, and a reader's error after
// the bytes before it.
func TestSniff(t *testing.T) {
	gz := func(s string) string {
		var b bytes.Buffer
		w := gzip.NewWriter(&b)
		w.Write([]byte(s))
		w.Close()
		return b.String()
	}
	for _, tc := range []struct {
		name, in, want, like string
		gzip, bom            bool
	}{
		{"empty", "", "", "", false, false},
		{"one byte", "{", "{", "", false, false},
		{"json", `[{"a":1}]`, `[{"a":1}]`, "", false, false},
		{"bom", "\xEF\xBB\xBF{}", "{}", "", false, true},
		{"bom only", "\xEF\xBB\xBF", "", "", false, true},
		{"bom, not whole", "\xEF\xBB", "\xEF\xBB", "", false, false},
		{"gzip", gz(`{"a":1}`), `{"a":1}`, "", true, false},
		{"gzip bom", gz("\xEF\xBB\xBF{}"), "{}", "", true, true},
		{"csv", "a,b\n1,2\n", "a,b\n1,2\n", "CSV", false, false},
		{"tsv", "a\tb\n", "a\tb\n", "TSV", false, false},
		{"gzip csv", gz("a,b\n"), "a,b\n", "CSV", true, false},
	} {
		for name, wrap := range map[string]func(io.Reader) io.Reader{"whole": func(r io.Reader) io.Reader { return r }, "byte": iotest.OneByteReader} {
			in, err := Sniff(wrap(strings.NewReader(tc.in)))
			if err != nil {
				t.Fatalf("%s, %s: %v", tc.name, name, err)
			}
			got, err := io.ReadAll(in.R)
			if err != nil || string(got) != tc.want || in.Gzip != tc.gzip || in.BOM != tc.bom {
				t.Errorf("%s, %s: %q, %v, %+v", tc.name, name, got, err, in)
			}
			if name == "whole" && in.Like != tc.like {
				t.Errorf("%s: looks like %q, want %q", tc.name, in.Like, tc.like)
			}
		}
	}
	boom := errors.New("boom")
	in, err := Sniff(iotest.DataErrReader(io.MultiReader(strings.NewReader("{}"), iotest.ErrReader(boom))))
	if err != nil {
		t.Fatal(err)
	}
	got, err := io.ReadAll(in.R)
	if string(got) != "{}" || err != boom {
		t.Errorf("reader error: %q, %v", got, err)
	}
}

// Sniffing what Sniff returned (the command sniffs, then the loader)
// reads nothing more, and keeps a reader's error.
func TestSniffTwice(t *testing.T) {
	boom := errors.New("boom")
	first, err := Sniff(iotest.DataErrReader(io.MultiReader(strings.NewReader("\xEF\xBB\xBF{"), iotest.ErrReader(boom))))
	if err != nil {
		t.Fatal(err)
	}
	second, err := Sniff(first.R)
	if err != nil || !first.BOM || second.BOM {
		t.Fatalf("%v, %+v, %+v", err, first, second)
	}
	got, err := io.ReadAll(second.R)
	if string(got) != "{" || err != boom {
		t.Errorf("%q, %v", got, err)
	}
}
