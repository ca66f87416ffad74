package csvin

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

// records reads every record of in, with r made by wrap, as fields joined
// by '|', one record a line.
func records(in string, sep byte, wrap func(io.Reader) io.Reader) (string, error) {
	rd := NewReader(wrap(strings.NewReader(in)), sep)
	var b strings.Builder
	for {
		ok, err := rd.Next()
		if err != nil || !ok {
			return b.String(), err
		}
		for i := 0; i < rd.Fields(); i++ {
			if i > 0 {
				b.WriteByte('|')
			}
			b.Write(rd.Field(i))
		}
		b.WriteByte('\n')
	}
}

var readers = map[string]func(io.Reader) io.Reader{
	"whole":    func(r io.Reader) io.Reader { return r },
	"one byte": iotest.OneByteReader,
	"half":     iotest.HalfReader,
}

func TestRecords(t *testing.T) {
	for _, tc := range []struct {
		name, in, want string
		sep            byte
	}{
		{"plain", "a,b\n1,2\n", "a|b\n1|2\n", ','},
		{"no final line end", "a,b\n1,2", "a|b\n1|2\n", ','},
		{"CRLF", "a,b\r\n1,2\r\n", "a|b\n1|2\n", ','},
		{"lone CR", "a,b\r1,2\r", "a|b\n1|2\n", ','},
		{"quoted", "\"a,b\",\"say \"\"hi\"\"\"\n", "a,b|say \"hi\"\n", ','},
		{"newline in quotes", "\"x\ny\",\"1\r\n2\"\n", "x\ny|1\r\n2\n", ','},
		{"empty fields", ",\n,,\"\"\n", "|\n||\n", ','},
		{"blank lines skipped", "\n\na\r\n\r\nb\n\n", "a\nb\n", ','},
		{"BOM", "\xef\xbb\xbfa,b\n", "a|b\n", ','},
		{"TSV", "a\tb,c\n\"x\ty\"\t\n", "a|b,c\nx\ty|\n", '\t'},
		{"trailing empty field at EOF", "a,", "a|\n", ','},
		{"unicode", "é,日本\n", "é|日本\n", ','},
	} {
		for rn, wrap := range readers {
			got, err := records(tc.in, tc.sep, wrap)
			if err != nil || got != tc.want {
				t.Errorf("%s, %s reader: %q, %v; want %q", tc.name, rn, got, err, tc.want)
			}
		}
	}
}

func TestSyntaxErrors(t *testing.T) {
	for _, tc := range []struct {
		name, in  string
		rec, line int64
		off       int64
		msg       string
	}{
		{"bare quote", "a\nx\"y\n", 1, 2, 3, "bare \""},
		{"after closing quote", "a\n\"x\" \n", 1, 2, 5, "text after the closing"},
		{"open at EOF", "a\nb\n\"x\n\ny", 2, 3, 4, "still open"},
		{"invalid UTF-8", "a,b\n1,x\xc3(\n", 1, 2, 6, "byte 2 of the field is 0xc3"},
		{"header", "a\"\n", 0, 1, 1, "bare"},
	} {
		for rn, wrap := range readers {
			_, err := records(tc.in, ',', wrap)
			var se *SyntaxError
			if !errors.As(err, &se) || se.Record != tc.rec || se.Line != tc.line || se.Offset != tc.off || !strings.Contains(se.Msg, tc.msg) {
				t.Errorf("%s, %s reader: %#v, want record %d line %d offset %d %q", tc.name, rn, err, tc.rec, tc.line, tc.off, tc.msg)
			}
		}
	}
	// A reader's error is returned as it is.
	_, err := records("a,b\n1,2\n", ',', func(r io.Reader) io.Reader { return iotest.DataErrReader(iotest.TimeoutReader(r)) })
	if err != iotest.ErrTimeout {
		t.Errorf("reader error: %v", err)
	}
}

func TestClassify(t *testing.T) {
	for _, tc := range []struct {
		in   string
		kind Kind
		num  string
	}{
		{"", KindEmpty, ""},
		{"7", KindInt, "7"},
		{"-12", KindInt, "-12"},
		{"-0", KindInt, "0"},
		{"007", KindInt, "7"},
		{"+3", KindInt, "3"},
		{" 4 ", KindInt, "4"},
		{"1_000", KindInt, "1000"},
		{"1__0", KindText, ""},
		{"_1", KindText, ""},
		{"1.5", KindFloat, "1.5"},
		{"1e3", KindFloat, "1e3"},
		{".5", KindFloat, "0.5"},
		{"5.", KindFloat, "5"},
		{"-.5e-3", KindFloat, "-0.5e-3"},
		{"99999999999999999999", KindFloat, "99999999999999999999"},
		{"1e400", KindText, ""},
		{"inf", KindText, ""},
		{"nan", KindText, ""},
		{"0x10", KindText, ""},
		{"1,5", KindText, ""},
		{".", KindText, ""},
		{"-", KindText, ""},
		{"abc", KindText, ""},
		{"1 2", KindText, ""},
	} {
		k, num := Classify([]byte(tc.in), nil)
		if k != tc.kind || string(num) != tc.num {
			t.Errorf("Classify(%q) = %v %q, want %v %q", tc.in, k, num, tc.kind, tc.num)
		}
	}
}

func TestTracker(t *testing.T) {
	for _, tc := range []struct {
		kinds []Kind
		want  Type
	}{
		{nil, Text},
		{[]Kind{KindEmpty, KindEmpty}, Text},
		{[]Kind{KindInt, KindEmpty, KindInt}, Integer},
		{[]Kind{KindInt, KindFloat}, Real},
		{[]Kind{KindFloat, KindInt, KindEmpty}, Real},
		{[]Kind{KindInt, KindText}, Text},
	} {
		var tr Tracker
		for _, k := range tc.kinds {
			tr.Add(k)
		}
		if got := tr.Type(); got != tc.want {
			t.Errorf("%v: %v, want %v", tc.kinds, got, tc.want)
		}
	}
}

// Reading records allocates nothing once the buffers have grown.
func TestNextAllocs(t *testing.T) {
	rec := "12345,\"quoted, with \"\"q\"\"\",3.25,text\r\n"
	in := bytes.Repeat([]byte(rec), 2000)
	rd := NewReader(bytes.NewReader(in), ',')
	rd.Next()
	var scratch [64]byte
	allocs := testing.AllocsPerRun(1000, func() {
		ok, err := rd.Next()
		if !ok || err != nil {
			t.Fatal(ok, err)
		}
		for i := 0; i < rd.Fields(); i++ {
			Classify(rd.Field(i), scratch[:0])
		}
	})
	if allocs != 0 {
		t.Errorf("%v allocations per record, want 0", allocs)
	}
}
