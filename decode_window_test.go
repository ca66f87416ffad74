package json

import (
	"bytes"
	stdjson "encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"
	"testing"
)

// longStream is a stream of three top-level values whose first, an object
// of n members of every kind, is longer than the first window (32 KiB)
// for n of 1,000 or more.
func longStream(n int) []byte {
	var b bytes.Buffer
	b.WriteString(" {")
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `"k%d":[%d,"s\n%d",{"x":true,"y":null,"z":-%d.5e-3}]`, i, i, i, i)
	}
	b.WriteString("}\n[1,\"two\",{}]\n  {\"last\":3} \t")
	return b.Bytes()
}

// decodeAll decodes every value of a stream into an any with d, and
// writes each value, error, InputOffset and More as text to compare, and
// whether Buffered holds the input that follows each value.
func decodeAll(in []byte, d interface {
	Decode(any) error
	InputOffset() int64
	More() bool
	Buffered() io.Reader
}) string {
	var b strings.Builder
	for range 5 {
		var v any
		err := d.Decode(&v)
		off := int(d.InputOffset())
		// What Buffered holds depends on how far each decoder has read
		// ahead: it must be the input that follows.
		if rest, _ := io.ReadAll(d.Buffered()); err == nil && !bytes.HasPrefix(in[off:], rest) {
			fmt.Fprintf(&b, "buffered %.40q, not the input at %d\n", rest, off)
		}
		fmt.Fprintf(&b, "%v %v at %d, more %v\n", v, err, off, d.More())
		if err != nil {
			break
		}
	}
	return b.String()
}

// noLen hides a reader's Len method: the decoder cannot know how much it
// holds.
type noLen struct{ io.Reader }

// TestDecodeHoldsRest: a Decoder whose reader says how much it holds
// (bytes.Reader, strings.Reader, bytes.Buffer), up to wholeWindow, reads
// all of it into one window at its first value (holdRest), whatever the
// target, unless that value ends in its first endProbe bytes (NDJSON's
// records), and the one pass into any reads there a document longer than
// the first window. A
// reader that does not say, a caller's buffer (NewDecoderBuffer), a
// SetMaxTokenSize below the input's size and an input past wholeWindow
// keep the window of 32 KiB at most, and the pass gives up on such a
// document, for the token path. Either way, values, errors, InputOffset
// and More are encoding/json's, and Buffered holds the input that follows
// each value.
func TestDecodeHoldsRest(t *testing.T) {
	in := longStream(2000)
	if len(in) <= 2*defaultBufSize {
		t.Fatalf("the stream is %d bytes: not longer than the first window", len(in))
	}
	want := decodeAll(in, stdjson.NewDecoder(bytes.NewReader(in)))
	if strings.Contains(want, "not the input") {
		t.Fatalf("encoding/json:\n%.300s", want)
	}
	fast := fastChecks(t, "which pass reads the value, and the window's size")

	// firstValue runs the one pass, as Decode would, on d's first value,
	// and checks whether it took the value, and the window's capacity.
	firstValue := func(name string, d *Decoder, took bool, window func(int) bool) {
		t.Helper()
		ds := getState()
		defer putState(ds)
		ds.d = d
		var got any
		d.holdInput() // as Decode does first
		if ok := ds.streamOnePass(&got); ok != took && fast {
			t.Errorf("%s: the one pass took the long value: %v, want %v", name, ok, took)
		}
		if c := cap(d.s.br.data); !window(c) && fast {
			t.Errorf("%s: a window of %d bytes for an input of %d", name, c, len(in))
		}
	}
	whole := func(c int) bool { return c >= len(in)+1 && c <= 2*len(in) }
	small := func(c int) bool { return c <= defaultBufSize }

	var d *Decoder
	for name, r := range map[string]func() io.Reader{
		"bytes.Reader":   func() io.Reader { return bytes.NewReader(in) },
		"strings.Reader": func() io.Reader { return strings.NewReader(string(in)) },
		"bytes.Buffer":   func() io.Reader { return bytes.NewBuffer(bytes.Clone(in)) },
	} {
		firstValue(name, NewDecoder(r()), true, whole)
		// Decode itself.
		d = NewDecoder(r())
		var v any
		if err := d.Decode(&v); err != nil {
			t.Fatal(err)
		}
		if c := cap(d.s.br.data); !whole(c) && fast {
			t.Errorf("%s: Decode read the long value in a window of %d bytes, for an input of %d", name, c, len(in))
		}
		if got := decodeAll(in, NewDecoder(r())); got != want {
			t.Errorf("%s:\n%.300s\nencoding/json:\n%.300s", name, got, want)
		}
		// Reset to the same input again: the window held already is
		// kept.
		d = NewDecoder(r())
		decodeAll(in, d)
		d.Reset(r())
		firstValue(name+", after Reset", d, true, whole)
	}

	// A typed target: the window is held too.
	d = NewDecoder(bytes.NewReader(in))
	var typed map[string][]any
	if err := d.Decode(&typed); err != nil {
		t.Fatal(err)
	}
	if c := cap(d.s.br.data); !whole(c) && fast {
		t.Errorf("Decode into a map[string][]any: a window of %d bytes", c)
	}

	// Short values, the first of them whole in the first window, as
	// NDJSON's records: the window is not held.
	short := bytes.Repeat([]byte("{\"a\":[1,\"x\\\"]\"]}\n"), 4000)
	d = NewDecoder(bytes.NewReader(short))
	for range 3 {
		if err := d.Decode(&typed); err != nil {
			t.Fatal(err)
		}
		if c := cap(d.s.br.data); !small(c) && fast {
			t.Errorf("NDJSON of %d bytes: a window of %d bytes", len(short), c)
		}
	}

	// Values that end in the first window, but past the first endProbe
	// bytes, where holdInput stops looking: the rest is held.
	rec := append(append([]byte(`{"a":"`), bytes.Repeat([]byte("x"), endProbe)...), "\"}\n"...)
	long := bytes.Repeat(rec, 2*defaultBufSize/len(rec))
	firstValue("records past endProbe", NewDecoder(bytes.NewReader(long)), true, func(c int) bool { return c > len(long) })
	if got, want := decodeAll(long, NewDecoder(bytes.NewReader(long))), decodeAll(long, stdjson.NewDecoder(bytes.NewReader(long))); got != want {
		t.Errorf("records past endProbe:\n%.300s\nencoding/json:\n%.300s", got, want)
	}

	// A reader past its first byte: the window holds what is left.
	r := bytes.NewReader(in)
	r.ReadByte()
	firstValue("a reader past its first byte", NewDecoder(r), true, func(c int) bool { return c >= len(in) && c <= 2*len(in) })

	capped := NewDecoder(bytes.NewReader(in))
	capped.SetMaxTokenSize(len(in) - 1)
	for name, d := range map[string]*Decoder{
		"no Len":                 NewDecoder(noLen{bytes.NewReader(in)}),
		"NewDecoderBuffer":       NewDecoderBuffer(bytes.NewReader(in), make([]byte, 0, 4096)),
		"SetMaxTokenSize(len-1)": capped,
	} {
		firstValue(name, d, false, small)
	}
	for name, d := range map[string]func() *Decoder{
		"no Len":           func() *Decoder { return NewDecoder(noLen{bytes.NewReader(in)}) },
		"NewDecoderBuffer": func() *Decoder { return NewDecoderBuffer(bytes.NewReader(in), make([]byte, 0, 4096)) },
		"SetMaxTokenSize(len-1)": func() *Decoder {
			d := NewDecoder(bytes.NewReader(in))
			d.SetMaxTokenSize(len(in) - 1)
			return d
		},
	} {
		if got := decodeAll(in, d()); got != want {
			t.Errorf("%s:\n%.300s\nencoding/json:\n%.300s", name, got, want)
		}
	}

	// Past wholeWindow: the first window, and the pass gives up at its end.
	huge := append([]byte("["), bytes.Repeat([]byte(`1234567,`), wholeWindow/8)...)
	huge = append(huge, "0]"...)
	d = NewDecoder(bytes.NewReader(huge))
	ds := getState()
	defer putState(ds)
	ds.d = d
	var got any
	d.holdInput()
	if ds.streamOnePass(&got) && fast {
		t.Errorf("the one pass took a value of %d bytes", len(huge))
	}
	if c := cap(d.s.br.data); c > defaultBufSize && fast {
		t.Errorf("a window of %d bytes for an input of %d, past wholeWindow", c, len(huge))
	}
	if err := d.Decode(&got); err != nil {
		t.Fatal(err)
	}
	if a, ok := got.([]any); !ok || len(a) != wholeWindow/8+1 || a[1] != 1234567.0 {
		t.Errorf("the long array decoded to %d values", len(a))
	}
}

// TestDecodeHoldsRestTyped: after Decode into a map[string]any held all
// the input in the window, the typed values that follow are decoded from
// it as encoding/json decodes them, twice over (a pooled state may run
// the typed one pass the second time, streamPass); a cut or broken long
// document gives encoding/json's error.
func TestDecodeHoldsRestTyped(t *testing.T) {
	type member struct {
		X bool
		Z float64
	}
	in := longStream(2000)
	for _, in := range [][]byte{in, in[:len(in)-40], append(bytes.Clone(in[:40000]), in[40001:]...)} {
		for round := range 2 {
			var got, want map[string]any
			var gotS, wantS []member
			d, sd := NewDecoder(bytes.NewReader(in)), stdjson.NewDecoder(bytes.NewReader(in))
			err, werr := d.Decode(&got), sd.Decode(&want)
			if !sameError(err, werr) || !reflect.DeepEqual(got, want) || err == nil && d.InputOffset() != sd.InputOffset() {
				t.Fatalf("round %d, %d bytes: %v at %d; encoding/json %v at %d", round, len(in), err, d.InputOffset(), werr, sd.InputOffset())
			}
			if err != nil {
				continue
			}
			err, werr = d.Decode(&gotS), sd.Decode(&wantS)
			if !sameError(err, werr) || !reflect.DeepEqual(gotS, wantS) {
				t.Fatalf("round %d: %v, %v; encoding/json %v, %v", round, gotS, err, wantS, werr)
			}
			var last struct{ Last int }
			if err := d.Decode(&last); err != nil || last.Last != 3 {
				t.Fatalf("round %d: the last value: %v, %v", round, last, err)
			}
			if err := d.Decode(&last); !errors.Is(err, io.EOF) {
				t.Fatalf("round %d: after the last value: %v", round, err)
			}
		}
	}
}

// TestDecodeHeldArrays: long arrays of records decoded into slices of
// structs from a window that holds all the input (the typed one pass,
// sliceAt, grows them by estimateLen): one document, and an NDJSON stream
// of arrays, whose first array is no guide to where the others end. The
// values and offsets are encoding/json's, and no slice keeps more than a
// third again of its length as spare room.
func TestDecodeHeldArrays(t *testing.T) {
	type rec struct {
		ID   int      `json:"id"`
		Name string   `json:"name"`
		Tags []string `json:"tags"`
	}
	array := func(n, seed int) []byte {
		var b bytes.Buffer
		b.WriteByte('[')
		for i := range n {
			if i > 0 {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, `{"id":%d,"name":"n%d","tags":[%s]}`, i*seed, i, strings.Repeat(`"t",`, i%7)+`"u"`)
		}
		b.WriteByte(']')
		return b.Bytes()
	}
	one := array(5000, 1)
	var ndjson []byte // the first array longer than the first window
	for k, n := range []int{3000, 40, 7, 20000, 1, 900} {
		ndjson = append(ndjson, array(n, k+2)...)
		ndjson = append(ndjson, '\n')
	}
	fast := fastChecks(t, "the window's size and the slices' capacity")
	for name, in := range map[string][]byte{"one document": one, "NDJSON": ndjson} {
		d, sd := NewDecoder(bytes.NewReader(in)), stdjson.NewDecoder(bytes.NewReader(in))
		for i := 0; ; i++ {
			var got, want []rec
			err, werr := d.Decode(&got), sd.Decode(&want)
			// (A document's window goes back to its pool at its end.)
			if i == 0 && name == "NDJSON" && fast && cap(d.s.br.data) < len(in) {
				t.Errorf("%s: a window of %d bytes for an input of %d", name, cap(d.s.br.data), len(in))
			}
			if !sameError(err, werr) || !reflect.DeepEqual(got, want) || d.InputOffset() != sd.InputOffset() {
				t.Fatalf("%s, value %d: %d records, %v at %d; encoding/json %d, %v at %d",
					name, i, len(got), err, d.InputOffset(), len(want), werr, sd.InputOffset())
			}
			if err != nil {
				break
			}
			if c := cap(got); c > len(got)+len(got)/3+8 && fast {
				t.Errorf("%s, value %d: %d records in a slice of capacity %d", name, i, len(got), c)
			}
		}
	}
}

// TestValueEnds: whether a value ends in the bytes given, brackets in
// strings and escaped quotes not counted.
func TestValueEnds(t *testing.T) {
	for _, c := range []struct {
		in   string
		ends bool
	}{
		{`1`, true}, {`"abc`, true}, {`true`, true}, // scalars: the token path's
		{`{}`, true}, {`[]`, true}, {`[[1],{"a":[]}]`, true},
		{`{"a":1`, false}, {`[[1],[2]`, false}, {`[`, false},
		{`["]"]`, true}, {`["]"`, false}, {`["\"]"]`, true}, {`["\"]"`, false},
		{`["\\"]`, true}, {`["\\\"]"]`, true}, {`["\\\\"]`, true}, {`["\\\"]`, false},
		{`{"}":"{"}`, true}, {`{"a":"b\\"}`, true}, {`{"a":"b\\\"}`, false},
		{"[1]\n[2", true}, {`["x`, false},
	} {
		if got := valueEnds([]byte(c.in), 0); got != c.ends {
			t.Errorf("valueEnds(%s) = %v, want %v", c.in, got, c.ends)
		}
	}
}

// TestBufferedAtEnd pins the one difference README lists for Buffered:
// after a value, it holds the input that follows (here all of it, as
// encoding/json's); once Decode has returned io.EOF, it is empty, the
// trailing whitespace read and dropped, and InputOffset is encoding/json's.
func TestBufferedAtEnd(t *testing.T) {
	for _, in := range []string{"1 \t", "{\"a\":1}  \n", "[1] [2]  ", "1"} {
		d, sd := NewDecoder(strings.NewReader(in)), stdjson.NewDecoder(strings.NewReader(in))
		for {
			var v, w any
			err, werr := d.Decode(&v), sd.Decode(&w)
			got, _ := io.ReadAll(d.Buffered())
			if !sameError(err, werr) || d.InputOffset() != sd.InputOffset() {
				t.Fatalf("%q: %v at %d; encoding/json %v at %d", in, err, d.InputOffset(), werr, sd.InputOffset())
			}
			if err != nil {
				if len(got) != 0 {
					t.Errorf("%q: Buffered after io.EOF holds %q", in, got)
				}
				break
			}
			if string(got) != in[d.InputOffset():] {
				t.Errorf("%q: Buffered after the value at %d holds %q", in, d.InputOffset(), got)
			}
		}
	}
}
