package json

import stdjson "encoding/json"

// The types that values and errors share with encoding/json. They are
// aliases so that values and errors cross between the two packages
// unchanged (errors.As with either package's type works, and
// encoding/json's Marshal treats our Number and RawMessage as its own).

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
