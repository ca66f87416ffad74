package json

import (
	"fmt"
	"io"
	"reflect"
	"strings"
)

// Errors while decoding into Go values, as encoding/json reports them: the
// first type mismatch is saved while decoding carries on (saveError,
// typeError), a fatal error stops it, and either gets the context of the
// struct fields being decoded (addErrorContext).

// isInputError reports whether err comes from the input (syntax, truncation,
// reading) rather than from decoding into Go values.
func isInputError(err error) bool {
	switch err.(type) {
	case *SyntaxError:
		return true
	}
	if err == io.EOF || err == io.ErrUnexpectedEOF {
		return true
	}
	return false
}

// offset is the input offset just after the last token, relative to the
// start of this value's input, as encoding/json's error Offsets are.
func (ds *decodeState) offset() int64 { return ds.d.InputOffset() - ds.base }

// saveError keeps the first non-fatal error, with its context.
func (ds *decodeState) saveError(err error) {
	if ds.saved == nil {
		ds.saved = ds.addErrorContext(err)
	}
}

// typeError saves an UnmarshalTypeError for a value described by what that
// does not fit type t, at offset off.
func (ds *decodeState) typeError(what string, t reflect.Type, off int64) {
	if ds.saved == nil {
		ds.saved = ds.addErrorContext(&UnmarshalTypeError{Value: what, Type: t, Offset: off})
	}
}

// fatal gives an error that stops decoding its context, once.
func (ds *decodeState) fatal(err error) error {
	if !ds.ctxApplied {
		ds.ctxApplied = true
		err = ds.addErrorContext(err)
	}
	return err
}

// addErrorContext sets Struct and Field of an UnmarshalTypeError from the
// fields being decoded, as encoding/json does.
func (ds *decodeState) addErrorContext(err error) error {
	if len(ds.stack) == 0 {
		return err
	}
	if e, ok := err.(*UnmarshalTypeError); ok {
		top := ds.stack[len(ds.stack)-1]
		e.Struct = top.owner.Name()
		var b strings.Builder
		for _, f := range ds.stack {
			path := f.errPath
			if path == nil {
				path = []string{f.name}
			}
			for _, name := range path {
				if b.Len() > 0 {
					b.WriteByte('.')
				}
				b.WriteString(name)
			}
		}
		if e.Field != "" {
			if b.Len() > 0 {
				b.WriteByte('.')
			}
			b.WriteString(e.Field)
		}
		e.Field = b.String()
	}
	return err
}

// mismatch records that the value starting with tok does not fit type t and
// skips it.
func (ds *decodeState) mismatch(tok []byte, t reflect.Type) error {
	switch tok[0] {
	case '{':
		ds.typeError("object", t, ds.offset())
		return ds.skipRest()
	case '[':
		ds.typeError("array", t, ds.offset())
		return ds.skipRest()
	case '"':
		ds.typeError("string", t, ds.offset())
	case 't', 'f':
		ds.typeError("bool", t, ds.offset())
	case 'n':
	default:
		ds.typeError("number", t, ds.offset())
	}
	return nil
}

// unknownField saves the error DisallowUnknownFields asks for.
func (ds *decodeState) unknownField(key []byte) {
	ds.saveError(fmt.Errorf("json: unknown field %q", key))
}
