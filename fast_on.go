//go:build !jsonpipe_nofast

package json

// fastPaths turns every fast path on; the jsonpipe_nofast build tag turns
// them all off (fast_off.go), as go-json-experiment/json's optimizeCommon
// does, so that the general path does all the work and CI can run the
// whole test suite over it (.ci/run). It is a constant: in this build each
// guard `if !fastPaths` is dead code the compiler drops, so it costs
// nothing and changes no inlining.
//
// Each fast path either does exactly what the general path would, or backs
// off to it; with the tag, the general path is taken at once. Guarded:
//
// The token layer
//   - Scanner.Next's number of the common shape ended in the window
//     (scanNumber reads every number), and literal's compare of a literal
//     whole in the window (literalSlow reads every literal);
//   - Scanner.nextDelim, the states' read of a ',', ':', ']' or '}'
//     without a call: Next reads every token;
//   - Decoder.plainString (unquote.go), a string token's body taken as its
//     value when the scanner saw no escape: Token and
//     Decoder.AppendUnquoted unquote every string with unquote.Append;
//   - Token's interned strings and string blocks (token.go): each string,
//     and each Number after UseNumber, is made on its own;
//   - windows given back to their pool when the input has ended after a
//     value Decode read (Decoder.recycleWindow): each decoder keeps its
//     window (they still come from the pools, which then stay empty).
//
// Unmarshal and Decode
//   - the one pass over the bytes into an any (onePass,
//     decode_any_bytes.go);
//   - the typed one pass into a zero struct, or nil slice of structs, of
//     scalar, any, time.Time and RawMessage fields (promoted through
//     embedded pointers too), structs, and slices, arrays, maps and
//     pointers of them (structPass, slicePass: decode_struct_bytes.go),
//     integers of 8 to 32 bits, unsigned ones and float32s among them
//     (narrowAt, and scanFloat32's one float32 division where it is
//     exact: the decoders parse them with internal/number and strconv),
//     ",string" fields of those kinds and of int64, float64 and bool
//     (quotedAt, narrowQuoted: decodeQuoted's literalStore does it), and
//     maps with integer keys (intKeyAt: the map decoder parses each key
//     with strconv);
//   - Decode's pass over a value with methods that its window did not
//     hold whole, once captured (decodeStream: bytesPass), and the
//     capture's skip of what the window holds whole by the validator
//     (captureValue, skipWhole): RawValue captures by tokens, and the
//     token path decodes;
//   - the speculative single pass into a zero or flat target (snapshot.go):
//     Unmarshal validates first and Decode captures the value whole, as
//     for a target with user methods;
//   - Valid as checkSyntax's verdict: checkOne, the token path, judges
//     every input;
//   - the one-entry cache of the last argument type's decoder
//     (decodeState.topDecoder);
//   - fastpath.go's shortcuts: memberKey and valueToken (NextToken alone),
//     closeObject, closeArray, arrayComma, openObject and peekWindow,
//     expectKey (a struct's next field or an any object's guessed key,
//     matched in place), scalarNext and pointerNext (numbers, strings,
//     literals and nullable scalars read straight from the window with
//     scanInt64, scanFloat64, readString and literalAt), anyScalarNext,
//     and narrowNext (a member of narrowAt's kinds read at the window);
//   - the struct decoder's inline string, bool, int64 and float64 fields
//     (fastKindOf: the field's decoder decodes it), and its match of a key
//     on its raw bytes (every key is unquoted, then looked up);
//   - key guesses and map sizes for objects decoded into any (anyKey,
//     guessKey, objectHints), and where the sizes vary, members gathered
//     and the map made at its size (popMap): the map is made empty and
//     set a member at a time;
//   - map[string]any's own decoder: the general map decoder decodes it;
//   - a new slice gathered in a scratch buffer and allocated once, and the
//     length estimate of a long one (whole, for an array that is the
//     input's one value): fillSlice grows every slice as append does;
//   - small []any cut from shared blocks (makeAnySlice);
//   - Eisel-Lemire in parseFloat64: internal/number (strconv) decides;
//   - unquote.Unescape's kernel, which decodes the runs and escapes of a
//     string with escapes in the one pass (unescapeAt): the loop in Go
//     decodes every one (and, under the purego tag, has no kernel);
//   - intern.go: the string cache, short strings made in shared blocks, a
//     long escaped string unquoted into its own memory, the boxes kept for
//     strings and numbers decoded into any (and the static boxes of the
//     whole numbers 0 to 1023), and the scanner's facts (no
//     escape, ASCII only) used to skip unquoting or the UTF-8 check: every
//     string value is unquote.Append's output, made with string(), and
//     every value decoded into an any is boxed anew.
//
// Marshal, Encoder and TokenWriter
//   - appendString's strings of up to 32 bytes checked and copied a word
//     at a time, and the struct encoder's string fields of 4 to 24 bytes
//     so written in its loop: appendEscaped writes every string;
//   - the scalars (and pointers to them) written inline by the struct,
//     slice and array loops (typeEncoder.direct, appendDirect: strings,
//     bools, int64, int32, uint64, float64, float32 and Numbers), and the
//     floats of arrays or slices of float64 written by the loop over them
//     (appendFloatLists): each value calls its type's encoder;
//   - the struct encoder's field names copied as one padded 32-byte block
//     (append copies each), and a nil or empty slice written without the
//     slice encoder's core;
//   - encodeAny's type switch over what Unmarshal into any makes, and
//     map[string]any's own encoder (encodeMapStringAny, its two-entry
//     case, encodeSliceAny): every value in an interface goes through its
//     type's encoder, a map[string]any through the general map encoder;
//   - time.Time's and RawMessage's own encoders: their MarshalJSON
//     methods run, as any Marshaler's does;
//   - a MarshalJSON or MarshalText method called through an interface
//     value made from the value's pointer or word and the method's
//     table (methodEncoder): reflect's Addr and TypeAssert make it;
//   - map keys sorted by their packed first 8 bytes (sortOrder): compared
//     as strings;
//   - appendFloat's whole numbers written as integers and its one-word
//     move of a short integer part; integers below 1e6 written from the
//     table of the digits of 0 to 999 (threeDigits) by appendInt10 and
//     putUint, and int64 and int32 fields of 0 to 999 by the struct
//     encoder's loop (appendSmall): digits8; appendInt10's nine to sixteen digits
//     written out instead of putUint's call; the numbers of 9 to 20
//     digits written by internal/digits' vector kernel (digits.PutUint):
//     words of digits8 (putLong, putUint17);
//   - a Number of up to 24 bytes copied and checked from the same words
//     (appendNumberLit): validNumber checks each, then append copies it;
//   - MarshalIndent's and an indenting Encoder's indentation without a
//     check (appendIndentValid): Indent's checking pass indents it.
//
// Not switched: the scanning and formatting kernels (stringStop,
// stringStopWithin, bodyStop, skipWhitespace, skipDigits, digits8, putUint,
// internal/strbody, internal/unquote, internal/shortest), the general
// path's own loops, whose assembly has a pure-Go twin under the purego tag;
// Valid's loop, which is the API itself (its integer case is numberEnd
// written out); internal/number's small integers parsed without strconv;
// the pooled decode and encode states, and a struct encoder called
// directly rather than through its fn (the same code runs either way).
const fastPaths = true
