package json

import (
	stdjson "encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strconv"
	"testing"
)

// Methods called on values of every way an interface holds them: the
// encoders of methodEncoder make the interface value themselves (a pointer
// to the value, or its one word) where encoding/json asks reflect.

type mmMap map[string]int

func (m mmMap) MarshalJSON() ([]byte, error) {
	if m == nil {
		return []byte(`"nil map"`), nil
	}
	return []byte(strconv.Itoa(len(m)*10 + m["k"])), nil
}

type mmOnePtr struct{ p *int }

func (o mmOnePtr) MarshalText() ([]byte, error) {
	if o.p == nil {
		return []byte("nil"), nil
	}
	return []byte("p" + strconv.Itoa(*o.p)), nil
}

type mmChan chan int

func (c mmChan) MarshalJSON() ([]byte, error) { return []byte(strconv.Itoa(cap(c))), nil }

type mmFunc func() string

func (f mmFunc) MarshalText() ([]byte, error) {
	if f == nil {
		return []byte("nil func"), nil
	}
	return []byte(f()), nil
}

type mmArr1 [1]*int

func (a mmArr1) MarshalJSON() ([]byte, error) {
	if a[0] == nil {
		return []byte(`[]`), nil
	}
	return []byte(fmt.Sprintf(`[%d]`, *a[0])), nil
}

type mmUUID [16]byte

func (u mmUUID) MarshalText() ([]byte, error) { return []byte(fmt.Sprintf("%x", u[:])), nil }

type mmSmall uint8

func (s mmSmall) MarshalJSON() ([]byte, error) { return []byte(strconv.Itoa(int(s) + 1000)), nil }

type mmZero struct{}

func (mmZero) MarshalJSON() ([]byte, error) { return []byte(`"zero"`), nil }

// mmMutate's method changes its copy: the value marshalled must not change.
type mmMutate struct{ N int }

func (m mmMutate) MarshalJSON() ([]byte, error) {
	m.N++
	return []byte(strconv.Itoa(m.N)), nil
}

type mmPtrRecv struct{ S string }

func (m *mmPtrRecv) MarshalText() ([]byte, error) { return []byte("ptr:" + m.S), nil }

// mmFail fails when Fail is set, from either method.
type mmFail struct{ Fail bool }

func (f mmFail) MarshalJSON() ([]byte, error) {
	if f.Fail {
		return nil, errors.New("mmFail: failed")
	}
	return []byte(`"ok"`), nil
}

type mmFailText struct{ Fail bool }

func (f *mmFailText) MarshalText() ([]byte, error) {
	if f.Fail {
		return nil, errors.New("mmFailText: failed")
	}
	return []byte(`ok`), nil
}

type mmRecord struct {
	Map    mmMap
	NilMap mmMap
	One    mmOnePtr
	NilOne mmOnePtr
	Chan   mmChan
	Func   mmFunc
	Arr    mmArr1
	UUID   mmUUID
	Small  mmSmall
	Zero   mmZero
	Mut    mmMutate
	Ptr    mmPtrRecv
	PU     *mmUUID
	PNil   *mmUUID
	PMap   *mmMap
	PPtr   *mmPtrRecv
	Any    any
	Iface  stdjson.Marshaler
	Fail   mmFail
	FailT  mmFailText
}

func TestMethodEncoders(t *testing.T) {
	n := 7
	u := mmUUID{1, 2, 3, 15: 0xff}
	m := mmMap{"k": 3, "j": 1}
	rec := mmRecord{
		Map: m, One: mmOnePtr{&n}, Chan: make(mmChan, 4), Func: func() string { return "f" },
		Arr: mmArr1{&n}, UUID: u, Small: 200, Mut: mmMutate{5}, Ptr: mmPtrRecv{"s"},
		PU: &u, PMap: &m, PPtr: &mmPtrRecv{"pp"}, Any: u, Iface: m,
	}
	values := []any{
		m, mmMap(nil), mmOnePtr{&n}, mmOnePtr{}, make(mmChan, 2), mmChan(nil), mmFunc(func() string { return "g" }), mmFunc(nil),
		mmArr1{&n}, mmArr1{}, u, &u, (*mmUUID)(nil), mmSmall(3), mmZero{}, mmMutate{1}, mmPtrRecv{"v"}, &mmPtrRecv{"p"},
		rec, &rec, []mmRecord{rec, {}}, [2]mmRecord{rec}, map[string]mmRecord{"r": rec},
		[]any{m, mmOnePtr{&n}, u, &u, mmSmall(4), mmZero{}, mmMutate{2}, mmPtrRecv{"i"}, mmArr1{&n}, mmFunc(nil)},
		map[string]any{"m": m, "o": mmOnePtr{}, "u": u, "c": make(mmChan, 1)},
		[]mmUUID{u, {}}, [3]mmSmall{1, 2, 3}, []*mmUUID{&u, nil}, map[string]mmMap{"a": m, "b": nil},
		[]mmMutate{{1}, {2}}, []mmPtrRecv{{"a"}}, [1]mmPtrRecv{{"b"}}, map[string]mmPtrRecv{"c": {"c"}},
		struct{ R [2]mmPtrRecv }{}, struct{ A [1]mmOnePtr }{[1]mmOnePtr{{&n}}},
		mmFail{true}, []mmFail{{false}, {true}}, &mmFailText{true}, []mmFailText{{false}, {true}}, mmFailText{true},
		struct{ F mmFail }{mmFail{true}}, &struct{ F mmFailText }{mmFailText{true}}, []any{mmFail{true}},
	}
	for i, v := range values {
		want, werr := stdjson.Marshal(v)
		for round := 0; round < 2; round++ { // the second from the cached encoders
			got, err := Marshal(v)
			if (err != nil) != (werr != nil) || err == nil && string(got) != string(want) {
				t.Errorf("%d: Marshal(%T) = %s, %v; encoding/json: %s, %v", i, v, got, err, want, werr)
				continue
			}
			if err == nil || !stdClassic {
				continue
			}
			var me, wme *MarshalerError
			if !errors.As(err, &me) || !errors.As(werr, &wme) || me.Error() != wme.Error() || me.Type != wme.Type {
				t.Errorf("%d: Marshal(%T): error %#v; encoding/json: %#v", i, v, err, werr)
			}
		}
	}
	// The methods took copies: nothing they did reached the values.
	if rec.Mut.N != 5 || !reflect.DeepEqual(rec.UUID, u) {
		t.Errorf("a value receiver changed the value: %+v", rec)
	}
}
