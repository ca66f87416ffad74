// Package json is a fast JSON decoder and encoder with the API of
// [encoding/json], and a token layer that allocates nothing.
//
// # Layers
//
// Input flows through three layers, each usable on its own:
//
//	io.Reader ─► byteReader ─► Scanner.Next ─► Decoder.NextToken ─► Token, More, Decode, Unmarshal
//
// The byteReader is a sliding window over the reader (up to 32 KiB, less
// for an input that says it is smaller). It grows past that only while a
// single token, or a raw value being captured, is longer than the window, and [Decoder.SetMaxTokenSize] (or
// [Scanner.SetMaxTokenSize]) caps that growth (default 512 MiB).
//
// [Scanner.Next] returns each lexical token as a subslice of the window and
// validates it as RFC 8259 says: string escapes and control bytes, the
// number grammar, the literals, and what may follow a number or literal.
//
// [Decoder.NextToken] validates the order of tokens with a state machine and
// returns every token but ':' and ',' (which it checks and consumes). It
// allocates nothing; its tokens are valid until the next call.
//
// One shortcut: [Unmarshal] into an *any (or a nil map[string]any or []any)
// first reads its bytes in one recursive pass built from the scanner's
// pieces but not its states. That pass gives up on anything it cannot
// decode whole, and the token layer then reads the input again, so values
// and errors are the same either way.
//
// # Encoding
//
// [Marshal], [MarshalIndent], [Encoder], [Compact], [Indent] and
// [HTMLEscape] write what encoding/json writes, byte for byte, and fail as
// it fails, with the same error types and texts. A type's encoder is built
// once, on its first use, from what reflection says about it (field
// offsets, names written out with their quotes and colon, omitempty tests,
// whether a method applies); after that a value is written by calling it,
// with no per-value type checks. Marshal of a value whose types have no
// MarshalJSON or MarshalText method allocates once, for the result;
// [Encoder.Encode] into a writer allocates nothing.
//
// [TokenWriter] is the output side of the token layer, the mirror of
// [Decoder.NextToken]: it writes tokens one at a time, adds the ':' and ','
// itself, checks their order, and allocates nothing. [AppendQuote] and
// [AppendFloat] are the string escaper and float formatter that it, Marshal
// and package sqlite share.
//
// # Compatibility with encoding/json
//
// [Decoder.Token], [Decoder.More], [Decoder.Buffered], [Decoder.InputOffset],
// [Decoder.UseNumber], [Decoder.Decode], [Unmarshal] and [Valid] behave as
// encoding/json's, and so does the encoding side, with the same error
// values: [SyntaxError] has
// encoding/json's shape, messages and Offset conventions, and [Token],
// [Delim], [Number], [RawMessage], [UnmarshalTypeError] and the other types
// that can be are aliases of encoding/json's own, so values cross between
// the two.
//
// Those are the classic encoding/json's results, Go 1.26's, on every
// toolchain. Go 1.27 builds encoding/json on [encoding/json/v2] by default,
// and this package does not follow it; what a program that swaps the import
// sees, by toolchain:
//
//	                             Go 1.26   Go 1.27              Go 1.27, GOEXPERIMENT=nojsonv2
//	decoded values               same      same, but for a few  same
//	error types                  same      same, but for a few  same
//	error texts and offsets      same      Go 1.26's here       same
//	Marshal, Encoder, Indent...  same      same, but for a few  same
//
// Where Go 1.27's encoding/json gives another value or error type for the
// same input, this package gives Go 1.26's (Go 1.27's in brackets):
//
//   - a string that is not a number, into [Number]: a plain error, decoding
//     stops there (an [*UnmarshalTypeError], decoding goes on);
//   - an unquoted value for a ,string field: a plain error (an
//     *UnmarshalTypeError);
//   - bad base64 into []byte: [encoding/base64.CorruptInputError] (an
//     *UnmarshalTypeError);
//   - a number too large for float64 in an array into any: the element
//     left nil (set to 0), with an *UnmarshalTypeError in both;
//   - a map key type with both UnmarshalJSON and UnmarshalText:
//     UnmarshalJSON with the key quoted (UnmarshalText);
//   - [Decoder.Decode] where an object key is due, after [Decoder.Token]: a
//     [*SyntaxError], "not at beginning of value" (the key, decoded as a
//     string);
//   - Decode after Token when the input ends after a comma: [io.EOF]
//     ([io.ErrUnexpectedEOF]);
//   - invalid JSON into an invalid Unmarshal target: the *SyntaxError (the
//     [*InvalidUnmarshalError]);
//   - an interface that holds a pointer to itself, given a value: decoded
//     into the interface (a fatal stack overflow).
//
// The encoding side, too, writes and fails as Go 1.26's encoding/json does
// on every toolchain. Go 1.27's differs from it (and so from this package)
// by design in these ways:
//
//   - invalid UTF-8 in a string is written as the raw bytes of U+FFFD, not
//     as \ufffd;
//   - with [Encoder.SetEscapeHTML](false), U+2028 and U+2029 in what
//     MarshalJSON or a [RawMessage] returns are escaped (kept as they are);
//   - map keys are sorted after invalid UTF-8 in them is replaced (before);
//   - errors from MarshalJSON and MarshalText name the pointer type and
//     give other [SyntaxError] offsets;
//   - an invalid [Number], and a map key whose MarshalText fails, give a
//     [*MarshalerError] (a plain error);
//   - a map whose key is a bool or an array gives an
//     [*UnsupportedValueError] (an [*UnsupportedTypeError]);
//   - maps with float keys are encoded (an *UnsupportedTypeError);
//   - struct tag names with a quote, a backslash or a control character are
//     used (the field's Go name is);
//   - values nested more than 10,000 levels deep fail (they are written).
//
// A type's MarshalJSONTo and UnmarshalJSONFrom methods (encoding/json/v2's
// MarshalerTo and UnmarshalerFrom) are called where Go 1.27's encoding/json
// calls them, with its results and errors; with the classic encoding/json
// neither package calls them (README, "Which encoding/json").
//
// Two deliberate differences from encoding/json on every toolchain:
//
//   - In [Decoder.NextToken] and [Decoder.Token], a number or literal must
//     end at whitespace, a structural character or the end of input.
//     encoding/json's Decoder reads `00`, `true1` or `1"a"` as two top-level
//     values; here the token stream fails after the first value with
//     "invalid character ... after top-level value". Decode keeps
//     encoding/json's behaviour; Unmarshal and Valid reject such input in
//     both packages.
//   - Nesting is limited to 10000 levels ([Decoder.SetMaxDepth]) in every
//     API, Token included; encoding/json's Token has no limit.
//
// # Errors
//
// Syntax errors are [*SyntaxError] with the byte offset:
// [Decoder.NextToken] counts the bytes read up to and including the
// offending one, as encoding/json's Unmarshal does. The input ending inside
// a value is [io.ErrUnexpectedEOF] ([io.EOF] between top-level values); a
// reader's error comes out unchanged. Errors are sticky.
//
// # Helpers for allocation-free consumers
//
// [AppendUnquoted] (and [Decoder.AppendUnquoted]) decodes a string token
// into a caller's buffer; [ParseInt], [ParseUint] and [ParseFloat] parse
// number tokens without allocating; [Decoder.PeekKind], [Decoder.SkipValue]
// and [Decoder.RawValue] look ahead, skip or capture whole values.
//
// # NDJSON on several goroutines
//
// [DecodeLines] decodes a stream of JSON Lines into values of one Go type,
// each line as [Unmarshal] decodes it, on several goroutines, and yields
// the values in input order as an iterator; a [*LineError] names the line
// that failed and where it starts.
package json
