package json

import (
	stdjson "encoding/json"
	"reflect"
	"strings"
	"testing"
	"unsafe"
)

// countText and countJSON count their method's calls, as a method with a
// side effect would show them.
type countText struct{ S string }

type countJSON struct{ S string }

var countCalls int

func (c *countText) UnmarshalText(b []byte) error {
	countCalls++
	c.S = string(b)
	return nil
}

func (c *countJSON) UnmarshalJSON(b []byte) error {
	countCalls++
	c.S = string(b)
	return nil
}

// bothUnmarshal decodes data into got with Unmarshal and into want with
// encoding/json, and returns their errors and how many methods each called.
func bothUnmarshal(data []byte, got, want any) (err, stdErr error, calls, stdCalls int) {
	countCalls = 0
	err = Unmarshal(data, got)
	calls, countCalls = countCalls, 0
	stdErr = stdjson.Unmarshal(data, want)
	return err, stdErr, calls, countCalls
}

// hookPlaces are types that reach a counting method in each way a value
// can hold one, and inputs with one value of it.
var hookPlaces = []struct {
	name string
	new  func() any
	in   string
}{
	{"text", func() any { return new(struct{ X countText }) }, `{"X":"a"}`},
	{"textptr", func() any { return new(struct{ X *countText }) }, `{"X":"a"}`},
	{"json", func() any { return new(struct{ X countJSON }) }, `{"X":[1]}`},
	{"jsonptr", func() any { return new(struct{ X *countJSON }) }, `{"X":[1]}`},
	{"slice", func() any { return new(struct{ X []*countText }) }, `{"X":["a"]}`},
	{"array", func() any { return new(struct{ X [2]*countJSON }) }, `{"X":[1]}`},
	{"map", func() any { return new(struct{ X map[string]*countText }) }, `{"X":{"k":"a"}}`},
	{"nested", func() any { return new(struct{ N *struct{ X *countText } }) }, `{"N":{"X":"a"}}`},
	{"records", func() any { return new([]struct{ X *countText }) }, `[{"X":"a"}]`},
	{"top", func() any { return new(*countText) }, `"a"`},
}

// TestHooksAfterSyntaxError: encoding/json checks the whole input before
// it calls a method of the target's; so does Unmarshal, wherever the type
// holds the method (a pointer's once was missed: its method ran, then the
// syntax error came).
func TestHooksAfterSyntaxError(t *testing.T) {
	for _, c := range hookPlaces {
		for _, in := range []string{c.in, c.in[:len(c.in)-1] + `,}`, c.in + ` x`} {
			// The first call, then again (the second call of a type takes
			// its own paths).
			for k := range 3 {
				v, w := c.new(), c.new()
				err, stdErr, ours, theirs := bothUnmarshal([]byte(in), v, w)
				if ours != theirs || errString(err) != errString(stdErr) || !reflect.DeepEqual(v, w) {
					t.Errorf("%s %s, call %d: %d calls, %v; encoding/json: %d calls, %v", c.name, in, k, ours, err, theirs, stdErr)
				}
			}
		}
	}
}

// hookRecord holds methods in each place the typed one pass defers them
// to: fields, pointers, slices (gathered in a scratch buffer, then moved),
// arrays, nested structs and slices of them.
type hookRecord struct {
	ID   int64          `json:"id"`
	T    countText      `json:"t"`
	J    countJSON      `json:"j"`
	P    *countText     `json:"p"`
	L    []countText    `json:"l"`
	A    [2]*countJSON  `json:"a"`
	Kids []hookRecord   `json:"kids"`
	Name string         `json:"name"`
	M    map[string]int `json:"m"`
}

// failText fails on "bad", as a parse of an id or an enum would.
type failText struct{ S string }

func (f *failText) UnmarshalText(b []byte) error {
	countCalls++
	if string(b) == "bad" {
		return &stdjson.UnmarshalTypeError{Value: "bad", Type: reflect.TypeFor[failText]()} // context: the token path's
	}
	f.S = string(b)
	return nil
}

func hookRecords(n int, kids bool) string {
	b := []byte{'['}
	for i := range n {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"id":`...)
		b = appendInt10(b, int64(i))
		b = append(b, `,"t":"t\u00e9`...)
		b = appendInt10(b, int64(i))
		b = append(b, `","j":{"x":[`...)
		b = appendInt10(b, int64(i))
		b = append(b, `]},"p":"p","l":["a","b\n"],"a":[1,"s"],"name":"n","m":{"k":1}`...)
		if kids && i%3 == 0 {
			b = append(b, `,"kids":[{"t":"kid","l":["x"]},{"j":null,"p":"q"}]`...)
		}
		b = append(b, '}')
	}
	return string(append(b, ']'))
}

// TestHookPass: the typed one pass takes types with UnmarshalJSON and
// UnmarshalText and calls each method once a value, in the input's order,
// after it has read all of the input, with the value in its final place
// (slices of every length: gathered in the scratch buffer, grown past it,
// copied to their length); Unmarshal gives encoding/json's values and
// calls. Where it gives up (null for a method, a value of another kind
// after methods were met), no method has been called. A method that
// fails sends the input to the token path, for encoding/json's error.
func TestHookPass(t *testing.T) {
	if !fastPaths {
		t.Skip("the typed one pass is a fast path: off in this build")
	}
	type one struct {
		T countText `json:"t"`
		N int64     `json:"n"`
	}
	for _, n := range []int{0, 1, 3, 10, 40, 63, 64, 65, 200, 1000} {
		for _, kids := range []bool{false, true} {
			in := []byte(hookRecords(n, kids))
			ds := getState()
			var v []hookRecord
			td := ds.topDecoder(reflect.TypeOf(&v))
			ds.bd.resetBytes(in)
			ds.d = &ds.bd
			countCalls = 0
			if !ds.slicePass(td.slice, in, unsafe.Pointer(&v)) {
				t.Fatalf("%d records: the pass gave up", n)
			}
			if countCalls != 0 {
				t.Fatalf("%d records: %d methods called during the pass", n, countCalls)
			}
			if !ds.runHooks(in) {
				t.Fatalf("%d records: a method failed", n)
			}
			ours := countCalls
			putState(ds)
			var want []hookRecord
			countCalls = 0
			if err := stdjson.Unmarshal(in, &want); err != nil {
				t.Fatal(err)
			}
			if ours != countCalls || !reflect.DeepEqual(v, want) {
				t.Fatalf("%d records (kids %v): %d calls, values equal %v; encoding/json: %d calls", n, kids, ours, reflect.DeepEqual(v, want), countCalls)
			}
			// Unmarshal, twice (the second through the pass at once).
			for range 2 {
				var got []hookRecord
				countCalls = 0
				if err := Unmarshal(in, &got); err != nil || countCalls != ours || !reflect.DeepEqual(got, want) {
					t.Fatalf("Unmarshal %d records: %v, %d calls", n, err, countCalls)
				}
			}
		}
	}
	// A nested slice past its scratch buffer (64 countTexts), grown by
	// doubling, then copied to its length when more than a quarter empty.
	for _, n := range []int{64, 65, 100, 129, 300} {
		l := `"x0"`
		for k := 1; k < n; k++ {
			l += `,"x` + string(appendInt10(nil, int64(k))) + `"`
		}
		in := []byte(`{"id":1,"l":[` + l + `],"kids":[{"l":[` + l + `]}]}`)
		for range 2 {
			var got, want hookRecord
			if err, stdErr, ours, theirs := bothUnmarshal(in, &got, &want); err != nil || stdErr != nil || ours != theirs || !reflect.DeepEqual(got, want) {
				t.Fatalf("a list of %d: %v, %d calls; encoding/json: %v, %d calls", n, err, ours, stdErr, theirs)
			}
		}
	}
	// Decode, on a stream of records, each into a fresh value.
	type rec struct {
		T  countText `json:"t"`
		J  countJSON `json:"j"`
		ID int64     `json:"id"`
		L  []*countText
	}
	stream := `{"t":"a","j":[1],"id":1,"L":["x","y"]} {"id":2,"j":null}` + "\n" + `{"t":"b\u00e9","L":[null,"z"]}`
	for range 2 {
		dec, std := NewDecoder(strings.NewReader(stream)), stdjson.NewDecoder(strings.NewReader(stream))
		for {
			var got, want rec
			countCalls = 0
			err := dec.Decode(&got)
			ours := countCalls
			countCalls = 0
			stdErr := std.Decode(&want)
			if ours != countCalls || !reflect.DeepEqual(got, want) || errString(err) != errString(stdErr) {
				t.Fatalf("Decode: %+v, %d calls, %v; encoding/json: %+v, %d calls, %v", got, ours, err, want, countCalls, stdErr)
			}
			if err != nil {
				break
			}
		}
	}
	if !stdClassic {
		// Below, errors and what a failed decode leaves, which a v2-backed
		// encoding/json words and leaves otherwise (README); the runs on
		// Go 1.26 and with GOEXPERIMENT=nojsonv2 check them.
		return
	}
	// Gives up before any call: null for a method, or a value of another
	// kind after one; the token path then calls each once (or none).
	for _, in := range []string{`{"t":null,"n":1}`, `{"t":"a","n":"1"}`, `{"t":"a","n":1.5}`, `{"t":1}`, `{"t":"a","t":"b","n":2}`, `{"t":"a","n":1,}`} {
		data := []byte(in)
		ds := getState()
		var v one
		td := ds.topDecoder(reflect.TypeOf(&v))
		ds.bd.resetBytes(data)
		ds.d = &ds.bd
		countCalls = 0
		took := ds.structPass(td.sd, data, unsafe.Pointer(&v))
		if took {
			ds.runHooks(data)
		}
		putState(ds)
		if !took && countCalls != 0 {
			t.Errorf("%s: gave up after %d calls", in, countCalls)
		}
		for range 2 {
			var got, want one
			if err, stdErr, ours, theirs := bothUnmarshal(data, &got, &want); ours != theirs || got != want || errString(err) != errString(stdErr) {
				t.Errorf("Unmarshal(%s): %+v, %d calls, %v; encoding/json: %+v, %d calls, %v", in, got, ours, err, want, theirs, stdErr)
			}
		}
	}
	// A method that fails: encoding/json's error, with its context, and
	// what it leaves in the target.
	type withFail struct {
		A []failText `json:"a"`
		N int64      `json:"n"`
		B failText   `json:"b"`
	}
	for _, in := range []string{`{"a":["x","bad","y"],"n":1,"b":"z"}`, `{"n":1,"b":"bad"}`, `{"a":["x"],"b":"z","n":2}`} {
		for range 3 {
			var got, want withFail
			err := Unmarshal([]byte(in), &got)
			stdErr := stdjson.Unmarshal([]byte(in), &want)
			if !reflect.DeepEqual(got, want) || errString(err) != errString(stdErr) {
				t.Errorf("Unmarshal(%s): %+v, %v; encoding/json: %+v, %v", in, got, err, want, stdErr)
			}
		}
		// Decode: the stream stays where encoding/json leaves it.
		stream := in + " " + `{"n":7}` + " " + in
		dec, std := NewDecoder(strings.NewReader(stream)), stdjson.NewDecoder(strings.NewReader(stream))
		for k := 0; k < 3; k++ {
			var got, want withFail
			err := dec.Decode(&got)
			stdErr := std.Decode(&want)
			if !reflect.DeepEqual(got, want) || errString(err) != errString(stdErr) {
				t.Errorf("Decode %d of %s: %+v, %v; encoding/json: %+v, %v", k, stream, got, err, want, stdErr)
			}
		}
	}
}

// peekText is the first member of peekRecord: its method sees, through
// its receiver, the record's id, which the input writes after it. The
// token path calls it before the id is read (0); the typed one pass, after
// all of the input (the id).
type peekText struct{ S string }

type peekRecord struct {
	T  peekText `json:"t"`
	ID int64    `json:"id"`
	F  failText `json:"f"`
}

var peekSaw []int64

func (p *peekText) UnmarshalText(b []byte) error {
	countCalls++
	peekSaw = append(peekSaw, (*peekRecord)(unsafe.Pointer(p)).ID)
	p.S = string(b)
	return nil
}

func peekRecords(n int, fail, bad int) string {
	b := []byte{'['}
	for i := range n {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"t":"t`...)
		b = appendInt10(b, int64(i))
		b = append(b, `","id":`...)
		b = appendInt10(b, int64(i+1))
		if i == fail {
			b = append(b, `,"f":"bad"`...)
		} else {
			b = append(b, `,"f":"ok"`...)
		}
		if i == bad {
			b = append(b, ',')
		}
		b = append(b, '}')
	}
	return string(append(b, ']'))
}

// TestHookPassCaptured: Decode captures a value with methods that its
// window does not hold whole (an array of records past 32 KB), then reads
// it with the typed one pass, as Unmarshal does: encoding/json's values,
// calls, errors (a method that fails: the methods up to it called once by
// the pass and once by the token path, as Unmarshal's doc says; a syntax
// error at the end: no call) and the place the stream goes on from.
func TestHookPassCaptured(t *testing.T) {
	for _, c := range []struct {
		n, fail, bad int
	}{{1000, -1, -1}, {3000, -1, -1}, {1000, 900, -1}, {1000, -1, 990}} {
		big := peekRecords(c.n, c.fail, c.bad)
		stream := big + "\n" + `[{"t":"small","id":5}]` + "\n" + big
		dec, std := NewDecoder(strings.NewReader(stream)), stdjson.NewDecoder(strings.NewReader(stream))
		for k := 0; k < 3; k++ {
			var got, want []peekRecord
			countCalls, peekSaw = 0, nil
			err := dec.Decode(&got)
			ours, saw := countCalls, peekSaw
			countCalls = 0
			stdErr := std.Decode(&want)
			wantCalls := countCalls
			if fastPaths && c.fail >= 0 && k == 0 {
				wantCalls *= 2 // the pass's, then the token path's (Unmarshal's doc)
			}
			// (A v2-backed encoding/json goes on past a method that fails,
			// and words its error otherwise: README.)
			callsDiffer := ours != wantCalls && (stdClassic || c.fail < 0)
			if callsDiffer || (stdClassic || err == nil) && (!reflect.DeepEqual(got, want) || errString(err) != errString(stdErr)) {
				t.Fatalf("%+v, value %d: %d records, %d calls, %v; encoding/json: %d records, %d calls, %v", c, k, len(got), ours, err, len(want), countCalls, stdErr)
			}
			// The one pass read the records (fast paths on): each method
			// saw its record's id, read after it.
			if fastPaths && err == nil && len(got) > 1 && (len(saw) != len(got) || saw[0] != 1 || saw[len(saw)-1] != got[len(got)-1].ID) {
				t.Fatalf("%+v, value %d: the methods saw ids %v...: not called after the pass", c, k, saw[:min(len(saw), 3)])
			}
			if err != nil && stdErr != nil {
				break
			}
		}
	}
}
