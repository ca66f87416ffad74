package json

import (
	"bytes"
	stdjson "encoding/json"
)

// What still forwards to encoding/json, and the types that values and
// errors share with it. The shared types are aliases so that values and
// errors cross between the two packages unchanged (errors.As with either
// package's type works, and encoding/json's Marshal treats our Number and
// RawMessage as its own).

// Indent appends to dst an indented form of the JSON-encoded src. It forwards
// to encoding/json.Indent; a syntax error is returned as this package's
// *SyntaxError, with the same message and Offset.
func Indent(dst *bytes.Buffer, src []byte, prefix, indent string) error {
	return convertStdSyntaxError(stdjson.Indent(dst, src, prefix, indent))
}

// Compact appends to dst the JSON-encoded src with insignificant space
// characters elided. It forwards to encoding/json.Compact; a syntax error is
// returned as this package's *SyntaxError.
func Compact(dst *bytes.Buffer, src []byte) error {
	return convertStdSyntaxError(stdjson.Compact(dst, src))
}

// HTMLEscape appends to dst the JSON-encoded src with <, >, &, U+2028 and
// U+2029 characters inside string literals changed to \u003c, \u003e, \u0026,
// \u2028, \u2029. It is encoding/json.HTMLEscape.
func HTMLEscape(dst *bytes.Buffer, src []byte) { stdjson.HTMLEscape(dst, src) }

// convertStdSyntaxError turns encoding/json's *SyntaxError into ours, which
// has the same message and Offset; other errors pass through.
func convertStdSyntaxError(err error) error {
	if se, ok := err.(*stdjson.SyntaxError); ok {
		return &SyntaxError{msg: se.Error(), Offset: se.Offset}
	}
	return err
}

// Marshaler is the interface implemented by types that can marshal
// themselves into valid JSON. It is encoding/json's Marshaler.
type Marshaler = stdjson.Marshaler

// Unmarshaler is the interface implemented by types that can unmarshal a JSON
// description of themselves. The input can be assumed to be a valid encoding
// of a JSON value. UnmarshalJSON must copy the JSON data if it wishes to
// retain the data after returning. It is encoding/json's Unmarshaler.
type Unmarshaler = stdjson.Unmarshaler

// RawMessage is a raw encoded JSON value. It is encoding/json's RawMessage,
// so Marshal copies it verbatim and Unmarshal stores a copy of the input.
type RawMessage = stdjson.RawMessage

// An UnmarshalTypeError describes a JSON value that was not appropriate for a
// value of a specific Go type. It is encoding/json's UnmarshalTypeError: Value,
// Type, Offset, Struct and Field are set exactly as encoding/json sets them.
type UnmarshalTypeError = stdjson.UnmarshalTypeError

// An InvalidUnmarshalError describes an invalid argument passed to Unmarshal
// or Decode (the argument must be a non-nil pointer). It is encoding/json's.
type InvalidUnmarshalError = stdjson.InvalidUnmarshalError

// An UnmarshalFieldError is encoding/json's deprecated, unused error type.
//
// Deprecated: No longer used; kept for compatibility.
type UnmarshalFieldError = stdjson.UnmarshalFieldError

// An UnsupportedTypeError is returned by Marshal when attempting to encode an
// unsupported value type. It is encoding/json's.
type UnsupportedTypeError = stdjson.UnsupportedTypeError

// An UnsupportedValueError is returned by Marshal when attempting to encode
// an unsupported value. It is encoding/json's.
type UnsupportedValueError = stdjson.UnsupportedValueError

// A MarshalerError represents an error from calling a MarshalJSON or
// MarshalText method. It is encoding/json's.
type MarshalerError = stdjson.MarshalerError

// InvalidUTF8Error is encoding/json's deprecated, unused error type.
//
// Deprecated: No longer used; kept for compatibility.
type InvalidUTF8Error = stdjson.InvalidUTF8Error
