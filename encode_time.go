package json

import (
	"reflect"
	"time"
	"unsafe"
)

// time.Time is written as its MarshalJSON method writes it (RFC 3339 with
// nanoseconds, quoted), without boxing it in an interface, without the
// method's allocation and without checking and compacting the method's
// output: that output is always a compact JSON string with nothing to
// escape. The method itself still words the error for a time it refuses.

func encodeTime(es *encodeState, b []byte, p unsafe.Pointer) ([]byte, error) {
	t := *(*time.Time)(p)
	n0 := len(b)
	b = append(b, '"')
	b = t.AppendFormat(b, time.RFC3339Nano)
	if !strictRFC3339(b[n0+1:]) {
		if _, err := t.MarshalJSON(); err != nil {
			return b[:n0], &MarshalerError{Type: timeType, Err: err}
		}
	}
	return append(b, '"'), nil
}

// strictRFC3339 reports whether s, a time formatted as RFC 3339, is one
// that time.Time's MarshalJSON accepts: a year of exactly four digits and a
// zone offset under 24 hours.
func strictRFC3339(s []byte) bool {
	if len(s) < len("2006-01-02T15:04:05Z") || s[4] != '-' {
		return false
	}
	if s[len(s)-1] == 'Z' {
		return true
	}
	z := s[len(s)-len("+07:00"):]
	return (z[0] == '+' || z[0] == '-') && 10*(z[1]-'0')+(z[2]-'0') < 24
}

func timeEncoder() *typeEncoder {
	return &typeEncoder{
		fn: encodeTime,
		value: func(es *encodeState, b []byte, v reflect.Value) ([]byte, error) {
			t := v.Interface().(time.Time)
			return encodeTime(es, b, unsafe.Pointer(&t))
		},
	}
}
