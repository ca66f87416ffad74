package json

import (
	"errors"
	"io"
	"reflect"
	"testing"
	"unsafe"
)

// fillFields sets every field of the struct v points to (its nested
// structs' fields too) to a value other than its zero value.
func fillFields(t *testing.T, v reflect.Value) {
	for i := 0; i < v.NumField(); i++ {
		f := v.Field(i)
		f = reflect.NewAt(f.Type(), unsafe.Pointer(f.UnsafeAddr())).Elem() // unexported fields too
		switch f.Kind() {
		case reflect.Struct:
			fillFields(t, f)
		case reflect.Bool:
			f.SetBool(true)
		case reflect.Int, reflect.Int64:
			f.SetInt(7)
		case reflect.Uint8:
			f.SetUint(7)
		case reflect.String:
			f.SetString("x")
		case reflect.Slice:
			f.Set(reflect.MakeSlice(f.Type(), 1, 1))
		case reflect.Pointer:
			f.Set(reflect.New(f.Type().Elem()))
		case reflect.Func:
			f.Set(reflect.ValueOf(func([]byte) error { return nil }))
		case reflect.Interface:
			if f.Type() == reflect.TypeFor[error]() {
				f.Set(reflect.ValueOf(errors.New("x")))
			} else {
				f.Set(reflect.ValueOf(io.Reader(&nopReader{})))
			}
		default:
			t.Fatalf("fillFields: field %s of kind %s: teach the test to fill it", v.Type().Field(i).Name, f.Kind())
		}
	}
}

type nopReader struct{}

func (*nopReader) Read([]byte) (int, error) { return 0, io.EOF }

// TestResetBytes: Scanner.resetBytes, written field by field, leaves a
// scanner whose every field is set (a field added later and not reset
// fails here): the input and its facts as a new bytes scanner has them,
// the options (sink, sinkMin, the window's max and streams) and piece's
// buffer kept.
// And Unmarshal's pooled state keeps no reference to its input.
func TestResetBytes(t *testing.T) {
	var s Scanner
	fillFields(t, reflect.ValueOf(&s).Elem())
	piece := s.piece
	data := []byte(`{"a":1}`)
	s.resetBytes(data)
	want := Scanner{sinkMin: 7, piece: piece}
	want.br = byteReader{data: data, err: io.EOF, pin: -1, max: 7, streams: true} // kept with the sink
	if s.sink == nil {
		t.Errorf("resetBytes dropped the sink")
	}
	s.sink = nil
	if !reflect.DeepEqual(s, want) {
		t.Errorf("after resetBytes:\n got %+v\nwant %+v", s, want)
	}

	var fresh Scanner
	fresh.resetBytes(data)
	if fresh.br.max != defaultMaxTokenSize {
		t.Errorf("a new scanner's max after resetBytes: %d, want %d", fresh.br.max, defaultMaxTokenSize)
	}

	// Unmarshal and Valid leave the pooled state without the input.
	ds := getState()
	ds.bd.resetBytes(data)
	ds.bd.s.strTok = data[1:4]
	ds.bd.dropInput()
	if ds.bd.s.br.data != nil || ds.bd.s.strTok != nil {
		t.Errorf("dropInput kept the input: window %q, last string %q", ds.bd.s.br.data, ds.bd.s.strTok)
	}
	putState(ds)
}

// TestEndCallClears: endCall, written field by field so that it stores a
// pointer only where one is set (a write barrier's work while the
// collector marks), leaves no field of call set (a field added later and
// not cleared fails here), but the stack's array, kept, and d where it is
// the state's own decoder.
func TestEndCallClears(t *testing.T) {
	ds := getState()
	defer putState(ds)
	fillFields(t, reflect.ValueOf(&ds.call).Elem())
	stack := ds.stack
	ds.endCall()
	if want := (call{stack: stack[:0]}); !reflect.DeepEqual(ds.call, want) || cap(ds.stack) != cap(stack) {
		t.Errorf("after endCall:\n got %+v\nwant %+v", ds.call, want)
	}
	ds.d = &ds.bd
	ds.endCall()
	if ds.d != &ds.bd {
		t.Errorf("endCall dropped the state's own decoder: d = %p", ds.d)
	}
}
