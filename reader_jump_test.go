package json

import (
	"bytes"
	"io"
	"strconv"
	"strings"
	"testing"
)

// jumpRec has a method, so Decode captures a value of []jumpRec whole
// before decoding it.
type jumpRec struct {
	ID   int
	Name jumpName
}

type jumpName string

func (n *jumpName) UnmarshalText(b []byte) error { *n = jumpName(b); return nil }

// jumpInput is an array of n records, then a second value, so that the
// decoder's window is still its own after the first.
func jumpInput(n int) []byte {
	var b bytes.Buffer
	b.WriteByte('[')
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`{"ID":` + strconv.Itoa(i) + `,"Name":"record number ` + strconv.Itoa(i) + `"}`)
	}
	b.WriteString("] 7")
	return b.Bytes()
}

// hideLen hides a reader's Len method.
type hideLen struct{ io.Reader }

// TestWindowJumpsToReaderLen: a value longer than the window, read from a
// reader that tells its length, grows the window once, to hold the rest
// of the input, not by doubling to the next power of two past it; a
// reader that does not tell, a caller's buffer, and a decoder that
// streams long strings keep doubling. (Decode from a reader that tells
// its length holds all of it before the first value: holdRest.)
func TestWindowJumpsToReaderLen(t *testing.T) {
	in := jumpInput(20000) // about 700 KB: doubling from 32 KiB ends at 1 MiB
	if len(in) < 600<<10 || len(in) > 900<<10 {
		t.Fatalf("input is %d bytes", len(in))
	}
	pow2 := func(n int) bool { return n&(n-1) == 0 }
	for _, c := range []struct {
		name string
		dec  func() *Decoder
		jump bool
	}{
		{"bytes.Reader", func() *Decoder { return NewDecoder(bytes.NewReader(in)) }, true},
		{"strings.Reader", func() *Decoder { return NewDecoder(strings.NewReader(string(in))) }, true},
		{"bytes.Buffer", func() *Decoder { return NewDecoder(bytes.NewBuffer(bytes.Clone(in))) }, true},
		{"no Len", func() *Decoder { return NewDecoder(hideLen{bytes.NewReader(in)}) }, false},
		{"caller's buffer", func() *Decoder { return NewDecoderBuffer(bytes.NewReader(in), make([]byte, 4096)) }, false},
		{"streams", func() *Decoder {
			d := NewDecoder(bytes.NewReader(in))
			d.StreamLongStrings(100, func([]byte) error { return nil })
			return d
		}, false},
		{"streams off", func() *Decoder {
			d := NewDecoder(bytes.NewReader(in))
			d.StreamLongStrings(100, func([]byte) error { return nil })
			d.StreamLongStrings(100, nil)
			return d
		}, true},
	} {
		for _, raw := range []bool{false, true} {
			d := c.dec()
			var err error
			if raw {
				_, err = d.RawValue()
			} else {
				var v []jumpRec
				err = d.Decode(&v)
				if err == nil && (len(v) != 20000 || v[19999].Name != "record number 19999") {
					t.Fatalf("%s: decoded %d records", c.name, len(v))
				}
			}
			if err != nil {
				t.Fatalf("%s raw=%v: %v", c.name, raw, err)
			}
			got := cap(d.s.br.data)
			if c.jump && !raw {
				// Decode held all the input at once (holdRest): a
				// pooled window, the power of two past it.
				if !pow2(got) || got < len(in) || got >= 2*len(in) {
					t.Errorf("%s: Decode's window %d bytes for %d of input, want the power of two past it", c.name, got, len(in))
				}
			} else if c.jump && (got < len(in) || got > len(in)+minBufSize) {
				t.Errorf("%s raw=%v: window %d bytes for %d of input, want about the input", c.name, raw, got, len(in))
			}
			if !c.jump && (!pow2(got) || got < len(in)) {
				t.Errorf("%s raw=%v: window %d bytes for %d of input, want a doubling", c.name, raw, got, len(in))
			}
			var n int
			if err := d.Decode(&n); err != nil || n != 7 {
				t.Errorf("%s raw=%v: then %d %v", c.name, raw, n, err)
			}
			if _, err := d.NextToken(); err != io.EOF {
				t.Errorf("%s raw=%v: at the end %v", c.name, raw, err)
			}
		}
	}
}

// shortLen is a reader whose Len says it holds nothing more.
type shortLen struct{ *bytes.Reader }

func (shortLen) Len() int { return 0 }

// TestWindowJumpShortLen: a Len that says less than the reader holds does
// not stop the window from growing (by a quarter a step at least), nor
// changes what is read.
func TestWindowJumpShortLen(t *testing.T) {
	in := jumpInput(20000)
	d := NewDecoder(shortLen{bytes.NewReader(in)})
	var v []jumpRec
	if err := d.Decode(&v); err != nil || len(v) != 20000 || v[19999].ID != 19999 {
		t.Fatalf("decoded %d records: %v", len(v), err)
	}
	if c := cap(d.s.br.data); c < len(in)-100 || c > 2*len(in) {
		t.Errorf("window %d bytes for %d of input", c, len(in))
	}
	var n int
	if err := d.Decode(&n); err != nil || n != 7 {
		t.Errorf("then %d %v", n, err)
	}
}

// TestWindowJumpStreamsAfterReset: StreamLongStrings set before a Reset
// still keeps the window from jumping past a long string, so the string
// is streamed.
func TestWindowJumpStreamsAfterReset(t *testing.T) {
	long := strings.Repeat("abcdefgh", 100<<10) // 800 KB
	in := `{"a":` + string(jumpInput(2000)[:len(jumpInput(2000))-2]) + `,"b":"` + long + `"}`
	d := NewDecoder(strings.NewReader("1"))
	var got int
	d.StreamLongStrings(100, func(p []byte) error { got += len(p); return nil })
	var one int
	if err := d.Decode(&one); err != nil {
		t.Fatal(err)
	}
	d.Reset(strings.NewReader(in))
	d.NextToken() // {
	d.NextToken() // "a"
	if _, err := d.RawValue(); err != nil {
		t.Fatal(err)
	}
	d.NextToken() // "b"
	tok, err := d.NextToken()
	if err != nil || !Streamed(tok) || got != len(long) {
		t.Errorf("b: %.20q %v, %d bytes streamed of %d", tok, err, got, len(long))
	}
	if c := cap(d.s.br.data); c >= len(long) {
		t.Errorf("window %d bytes, for a string of %d streamed", c, len(long))
	}
}
