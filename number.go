package json

import "github.com/jsonpipe/json/internal/number"

// ParseInt parses a number token (as NextToken returns it) as an int64,
// without allocating. A fraction, an exponent or overflow is an error, a
// *strconv.NumError.
func ParseInt(tok []byte) (int64, error) { return number.ParseInt(tok) }

// ParseUint parses a number token as a uint64, without allocating; a sign,
// a fraction, an exponent or overflow is an error.
func ParseUint(tok []byte) (uint64, error) { return number.ParseUint(tok) }

// ParseFloat parses a number token as a float64 with strconv.ParseFloat's
// rounding and range errors, without allocating on success.
func ParseFloat(tok []byte) (float64, error) { return number.ParseFloat(tok, 64) }
