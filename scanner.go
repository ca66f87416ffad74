package json

import (
	"encoding/binary"
	"io"
	"math/bits"

	"github.com/jsonpipe/json/internal/strbody"
	"github.com/jsonpipe/json/internal/unquote"
	"github.com/jsonpipe/json/internal/utf8dfa"
)

// Byte classes, one table lookup each.
var (
	// whitespace is what JSON skips between tokens.
	whitespace = [256]bool{' ': true, '\t': true, '\n': true, '\r': true}

	// endsValue is what may directly follow a number or a literal:
	// whitespace or a structural character.
	endsValue = [256]bool{
		' ': true, '\t': true, '\n': true, '\r': true,
		',': true, ':': true, '[': true, ']': true, '{': true, '}': true,
	}

	// strSpecial is what stops the scan of a string's body: the closing
	// quote, an escape, or a control byte (which must be escaped).
	strSpecial = func() (t [256]bool) {
		for c := 0; c < 0x20; c++ {
			t[c] = true
		}
		t['"'], t['\\'] = true, true
		return t
	}()

	// delimiter marks the one-byte tokens.
	delimiter = [256]bool{',': true, ':': true, '[': true, ']': true, '{': true, '}': true}

	// hexDigit marks the digits of a \uXXXX escape.
	hexDigit = func() (t [256]bool) {
		for _, c := range "0123456789abcdefABCDEF" {
			t[c] = true
		}
		return t
	}()
)

// Facts the scanner records about the last string token, for free.
const (
	strEscaped  = 1 << iota // the string has a backslash escape
	strNonASCII             // the string may have a byte >= 0x80 (never set when it has none)
)

// errKind says what a sticky scanner error is, so that the decoder can
// word it for the syntactic context it occurred in.
type errKind uint8

const (
	errNone      errKind = iota
	errLexical           // inside a token: final wording
	errBadStart          // errChar cannot start a token
	errBadFollow         // errChar directly follows a number or literal
	errEOF               // the input ended inside a token
	errRead              // the reader failed (or the window limit was hit)
)

// A Scanner splits JSON input into lexical tokens and validates each token
// (string escapes and control bytes, the number grammar, literals), but not
// their order: that is the Decoder's job.
type Scanner struct {
	br  byteReader
	err error // sticky

	errKind errKind
	errChar byte   // the offending byte, for errBadStart and errBadFollow
	errPos  int64  // absolute offset of the offending byte (or of the end)
	tokPos  int64  // absolute offset of the token the error is in
	eofMsg  string // for errEOF: encoding/json's Unmarshal wording

	atEnd  bool  // only whitespace was left: the input ended
	endPos int64 // where that whitespace began

	str    uint8  // strEscaped, strNonASCII: facts about strTok
	strTok []byte // the last string token returned

	// A string longer than sinkMin that the window would have to grow
	// to hold goes to sink in pieces instead, when sink is set
	// (Decoder.StreamLongStrings). streaming is set while one does, and
	// streamStart is where the last one started.
	sink        func([]byte) error
	sinkMin     int
	streaming   bool
	streamStart int64
	piece       []byte // the unquoted piece handed to sink, reused
}

// streamedToken is the token Next returns for a string it streamed.
var streamedToken = []byte(`""`)

// highSurrogate marks the third hex digit of a \uD8xx to \uDBxx escape.
var highSurrogate = [256]bool{'8': true, '9': true, 'a': true, 'b': true, 'A': true, 'B': true}

// NewScanner returns a Scanner reading from r. Its window starts at the
// size r says it holds (a Len method), or 512 bytes, and grows up to 32 KiB
// while r keeps filling it; past that it grows only while a single token is
// longer than it.
func NewScanner(r io.Reader) *Scanner {
	return NewScannerBuffer(r, nil)
}

// NewScannerBuffer returns a Scanner reading from r that uses buf as its
// initial window. The window still grows, up to SetMaxTokenSize, when a single
// token is longer than it.
func NewScannerBuffer(r io.Reader, buf []byte) *Scanner {
	s := new(Scanner)
	s.resetBuffer(r, buf)
	return s
}

// Reset makes s read from r, reusing its window.
func (s *Scanner) Reset(r io.Reader) {
	s.reset(r, s.br.data, s.br.growTo, s.br.own)
}

// resetBuffer makes s read from r into buf, or into a window of its own
// when buf has no room. Only a window of its own grows before a single
// token outgrows it: a caller's buffer keeps its size.
func (s *Scanner) resetBuffer(r io.Reader, buf []byte) {
	growTo, own := 0, false
	if cap(buf) == 0 {
		buf = newWindow(firstWindow(r))
		growTo, own = defaultBufSize, true
	}
	s.reset(r, buf, growTo, own)
}

func (s *Scanner) reset(r io.Reader, buf []byte, growTo int, own bool) {
	max, sink, sinkMin, piece := s.br.max, s.sink, s.sinkMin, s.piece
	*s = Scanner{sink: sink, sinkMin: sinkMin, piece: piece}
	s.br.max, s.br.streams = max, sink != nil
	s.br.reset(r, buf, growTo, own)
}

// firstWindow is the size of a new Scanner's window over r. A decoder is
// often made for one small document (a request body, a message), where
// allocating and clearing 32 KiB cost more than decoding it: the window
// starts at what r says it holds (bytes.Reader, strings.Reader and
// bytes.Buffer have a Len method), or at 512 bytes, and grows by doubling,
// up to 32 KiB, while the reader keeps filling it. newWindow rounds it up
// to a pooled size (a power of two), and a window usually comes from the
// pool, where a decoder whose input ended gave it back.
func firstWindow(r io.Reader) int {
	n := minBufSize
	if l, ok := r.(interface{ Len() int }); ok {
		// One byte more than r holds, so that the Read that fills the
		// window is not taken for a reader with more to give.
		n = l.Len() + 1
	}
	return min(max(n, minBufSize), defaultBufSize)
}

func (s *Scanner) resetBytes(data []byte) {
	// Field by field, as byteReader.resetBytes, keeping the options (sink,
	// sinkMin, the window's max) and piece's buffer.
	s.br.resetBytes(data)
	if s.err != nil { // (pointers stored only where they change: see endCall)
		s.err = nil
	}
	if s.eofMsg != "" {
		s.eofMsg = ""
	}
	if s.strTok != nil {
		s.strTok = nil
	}
	s.errKind, s.errChar, s.errPos, s.tokPos = 0, 0, 0, 0
	s.atEnd, s.endPos, s.str = false, 0, 0
	s.streaming, s.streamStart = false, 0
}

// SetMaxTokenSize caps how far the window may grow to hold one token (or a
// raw value being captured). Past it, Next fails with an error that wraps
// ErrTokenTooLong. The default is 512 MiB. It must be called before the first
// Next.
func (s *Scanner) SetMaxTokenSize(n int) {
	if n < 1 {
		n = 1
	}
	s.br.max = n
}

// Err returns the first error the Scanner met: nil at a clean end of input,
// io.ErrUnexpectedEOF when the input ends inside a token, the reader's own
// error unchanged, or a *SyntaxError.
func (s *Scanner) Err() error { return s.err }

// Next returns the next token: one of { } [ ] : , as a 1-byte slice, a string
// with its quotes and escapes as in the input, a number as written, or true,
// false, null. It returns nil at the end of input or on an error (see Err).
//
// The token is a subslice of the Scanner's window: it is valid only until the
// next call to Next, which may overwrite it, as with bufio.Scanner.Bytes.
//
// Next is the hot path: whitespace skipping and the dispatch on the first
// byte are written out here; refills, numbers, literals and errors are out
// of line.
func (s *Scanner) Next() []byte {
	if s.err != nil {
		return nil
	}
	data, i := s.br.data, s.br.offset
	i = skipWhitespace(data, i)
	if i == len(data) {
		// Slow path: the window is all whitespace.
		if !s.skipSpaceSlow() {
			return nil
		}
		data, i = s.br.data, s.br.offset
	}
	s.br.offset = i
	c := data[i]
	if delimiter[c] {
		s.br.offset = i + 1
		return data[i : i+1]
	}
	switch c {
	case '"':
		w := data[i:]
		n, facts := s.scanString(w, 1)
		if n <= 0 {
			n, facts = s.stringSlow(-n, facts)
			if n <= 0 {
				if n < 0 { // streamed to s.sink, and consumed
					s.strTok, s.str = streamedToken, 0
					return streamedToken
				}
				return nil
			}
			w = s.br.window()
		}
		s.br.release(n)
		s.strTok, s.str = w[:n], facts
		return w[:n]
	case 't', 'f', 'n':
		return s.literal(data[i:], c)
	default:
		if c != '-' && !isDigit(c) {
			s.fail(errBadStart, c, 0, "looking for beginning of value")
			return nil
		}
		// Fast path for -?(0|[1-9][0-9]*)(.[0-9]+)? followed, in the
		// window, by a byte that may end a value; anything else goes
		// through the number state machine.
		if fastPaths {
			j := i
			if c == '-' {
				j++
			}
			k := skipDigits(data, j)
			if k > j && (k == j+1 || data[j] != '0') && k < len(data) {
				if data[k] == '.' {
					f := skipDigits(data, k+1)
					if f > k+1 {
						k = f
					}
				}
				if k < len(data) && endsValue[data[k]] {
					s.br.offset = k
					return data[i:k]
				}
			}
		}
		w := data[i:]
		n, st := s.scanNumber(w, 0, numStart)
		if st != numDone {
			if st == numErr {
				return nil
			}
			return s.numberSlow(n, st)
		}
		if !endsValue[w[n]] {
			s.badFollow(w[n], n)
		}
		s.br.release(n)
		return w[:n]
	}
}

// skipSpaceSlow consumes whitespace, reading more input, until the window
// starts with another byte. At the end of input it records where the
// trailing whitespace began (encoding/json's InputOffset does not count it)
// and returns false.
func (s *Scanner) skipSpaceSlow() bool {
	if s.atEnd {
		return false
	}
	start := s.br.pos()
	for {
		w := s.br.window()
		i := 0
		for i < len(w) && whitespace[w[i]] {
			i++
		}
		s.br.release(i)
		if i < len(w) {
			return true
		}
		if s.br.extend() == 0 {
			s.atEnd, s.endPos = true, start
			s.end()
			return false
		}
	}
}

// nextDelim consumes and returns a one-byte delimiter at the window's start,
// or returns 0 and consumes nothing. It makes no call, so it inlines into
// the Decoder's states: in compact JSON about half the tokens never reach
// Next. It needs no error check: after an error the window starts with the
// first byte of the token that failed (or is empty), and no token starts
// with a delimiter.
func (s *Scanner) nextDelim() byte {
	data, i := s.br.data, s.br.offset
	if fastPaths && i < len(data) && delimiter[data[i]] {
		s.br.offset = i + 1
		return data[i]
	}
	return 0
}

// lastByte is the byte nextDelim consumed last, as a token.
func (s *Scanner) lastByte() []byte { return s.br.data[s.br.offset-1 : s.br.offset] }

// end records a clean end of input, or the reader's error.
func (s *Scanner) end() {
	if s.br.err != io.EOF {
		s.err = s.br.err
		s.errKind = errRead
		s.errPos = s.br.pos()
		s.tokPos = s.errPos
	}
}

// fail records a syntax error at index i of the window (the current token
// starts at the window's first byte).
func (s *Scanner) fail(kind errKind, c byte, i int, context string) {
	s.errKind = kind
	s.errChar = c
	s.tokPos = s.br.pos()
	s.errPos = s.tokPos + int64(i)
	s.err = &SyntaxError{msg: invalidChar(c, context), Offset: s.errPos + 1}
}

// badFollow records that the number or literal just scanned is directly
// followed by c, at index i. The token itself is still returned: the error
// comes from the next call, as encoding/json's Decoder delivers the value
// before it complains about what follows.
func (s *Scanner) badFollow(c byte, i int) {
	s.fail(errBadFollow, c, i, "after top-level value")
}

// truncated records that the input ended inside the token at the window's
// start, after n bytes of it. msg is what encoding/json's Unmarshal says then.
func (s *Scanner) truncated(n int, msg string) {
	if s.br.err != io.EOF {
		s.end()
		return
	}
	s.errKind = errEOF
	s.tokPos = s.br.pos()
	s.errPos = s.tokPos + int64(n)
	s.eofMsg = msg
	s.err = io.ErrUnexpectedEOF
}

const (
	lsb = 0x0101010101010101
	msb = 0x8080808080808080
)

// scanString scans a string token from index j of w (w[0] is the opening
// quote). It returns the token's length, or -j when w ends first at j (j is
// then the resume point: an escape cut by the window's end is rescanned
// whole), or 0 after a syntax error; and the facts it found about the part
// it scanned (strEscaped, strNonASCII), for the caller to record in s.str
// when the token is the one it returns.
//
// The body is scanned by stringStopWithin, 8 bytes at a time, and bodyStop past
// its first 32 bytes; escapes by escapeEnd.
func (s *Scanner) scanString(w []byte, j int) (n int, facts uint8) {
	for {
		var high uint64
		j, high = stringStopWithin(w, j, shortRun)
		facts |= nonASCII(high)
		if j == len(w) {
			return -j, facts
		}
		switch w[j] {
		case '"':
			return j + 1, facts
		case '\\':
			facts |= strEscaped
			e := escapeEnd(w, j)
			if e > 0 {
				j = e
				continue
			}
			if e == 0 {
				return -j, facts
			}
			k, context := -e, "in string escape code"
			if k > j+1 {
				context = "in \\u hexadecimal character escape"
			}
			s.fail(errLexical, w[k], k, context)
			return 0, facts
		default:
			if c := w[j]; c >= 0x20 {
				if j+8 <= len(w) {
					// A long run: stringStopWithin stopped looking.
					j, high = bodyStop(w, j)
					facts |= nonASCII(high)
					continue
				}
				// Fewer than 8 bytes left: one at a time.
				facts |= nonASCII(uint64(c))
				j++
				continue
			}
			s.fail(errLexical, w[j], j, "in string literal")
			return 0, facts
		}
	}
}

// stringStop returns the index of the first '"', '\\' or control byte in w
// at or after j, or, when there is none, the index where fewer than 8 bytes
// are left (the caller goes on a byte at a time); and the OR of the bytes
// it passed (and maybe a few after them): its top bits say "non-ASCII
// seen". It reads 8 bytes at a time (SWAR), and must stay inlinable: it is
// the inner loop of every string.
func stringStop(w []byte, j int) (int, uint64) {
	var high uint64
	for ; j+8 <= len(w); j += 8 {
		v := binary.LittleEndian.Uint64(w[j : j+8])
		high |= v // may include bytes past the stop: only a "maybe"
		// The terms mark '"' with the bytes below 0x20 (as stringStopWithin
		// does) and '\\'; the lowest mark is exact (borrows only run
		// upward), and x and b have v's top bits: one &^ v serves both.
		x, b := v^(lsb*0x02), v^(lsb*'\\')
		if m := ((x - lsb*0x21) | (b - lsb)) &^ v & msb; m != 0 {
			return j + bits.TrailingZeros64(m)>>3, high
		}
	}
	return j, high
}

// stringStopWithin is stringStop for at most n bytes (n/8 words) from j;
// n is a constant at every call, 32 (shortRun) but in Valid's loop. Most
// strings and runs between escapes end there. It returns the index of
// the first '"', '\\' or control byte in them; or, past them, an index
// whose byte is plain, where a longer run goes on with bodyStop (out of
// line: a call costs more than a short search); or, when fewer than 8
// bytes are left, the index where it stopped, as stringStop does. Callers
// test the byte it stops at anyway, so a long run costs the short ones
// nothing.
func stringStopWithin(w []byte, j, n int) (_ int, high uint64) {
	for lim := min(len(w), j+n); j+8 <= lim; j += 8 {
		v := binary.LittleEndian.Uint64(w[j : j+8])
		high |= v
		// x is v with '"' turned into 0x20 and the control bytes kept
		// below it (^0x02 moves bytes within their group of four), so one
		// test marks both (stringStop's terms too).
		x, b := v^(lsb*0x02), v^(lsb*'\\')
		if m := ((x - lsb*0x21) | (b - lsb)) &^ v & msb; m != 0 {
			return j + bits.TrailingZeros64(m)>>3, high
		}
	}
	return j, high
}

// shortRun is how far the decoder's loops look for a string's stop in
// line (stringStopWithin) before bodyStop's call.
const shortRun = 32

// stringTail is stringStop for the fewer than 8 bytes it leaves, a byte
// at a time: the index of the first '"', '\\' or control byte in w at or
// after j, or len(w), and the OR of the bytes before it.
func stringTail(w []byte, j int) (int, uint64) {
	var high uint64
	for ; j < len(w); j++ {
		c := w[j]
		if c == '"' || c == '\\' || c < 0x20 {
			break
		}
		high |= uint64(c)
	}
	return j, high
}

// bodyStop is stringStop for a long run (stringStopWithin found no stop in
// its first shortRun bytes, or validRun in Valid): strbody.Stop, 32 bytes
// a turn (AVX2 on amd64), while 32 bytes are left, then stringStop for the
// rest. Its results are stringStop's (high only says less: a top bit for
// "non-ASCII seen").
//
// The kernel's call costs about three words of SWAR (BenchmarkStop: 3 ns
// for a stop in its first block, AMD EPYC), so a run of 33 to 40 bytes
// pays a little for it, and every longer one gains: strings decoded into
// []string (BenchmarkStringShapes, typed), with the kernel called here
// against four more words read first as before, measured n=40 ~, n=64
// -3.9%, n=100 -9..-16%. On Intel Xeon, shortRun at 64 rather than 32
// (BenchmarkStringShapes typed and any, 8 rounds) took 4-9% less on some
// strings of 40 to 64 bytes and 7-26% longer on some of 72 to 256: 32
// stays.
func bodyStop(w []byte, j int) (int, uint64) {
	var high uint64
	if j+strbody.Block <= len(w) {
		j, high = strbody.Stop(w, j)
		if j+strbody.Block <= len(w) {
			// The kernel stopped inside its blocks: at the stop.
			return j, high
		}
	}
	j, h := stringStop(w, j)
	return j, high | h
}

// escapeEnd checks the escape that starts with the backslash at w[j]. It
// returns the index after it; or 0 when w ends inside it; or -k when w[k]
// (k > j) makes it invalid: k == j+1 for an unknown escape code, k > j+1
// for a \\u escape's bad hexadecimal digit.
func escapeEnd(w []byte, j int) int {
	if j+1 >= len(w) {
		return 0
	}
	switch w[j+1] {
	case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
		return j + 2
	case 'u':
		for k := j + 2; k < j+6; k++ {
			if k >= len(w) {
				return 0
			}
			if !hexDigit[w[k]] {
				return -k
			}
		}
		return j + 6
	}
	return -(j + 1)
}

// nonASCII is strNonASCII when any top bit of high is set.
func nonASCII(high uint64) uint8 {
	if high&msb != 0 {
		return strNonASCII
	}
	return 0
}

// validBody reports whether body, the body of the last string token (which
// had no escape), is valid UTF-8: without a byte >= 0x80 it is.
func (s *Scanner) validBody(body []byte) bool {
	return s.str&strNonASCII == 0 || utf8dfa.Valid(body)
}

// stringSlow finishes a string token that the window cut at j, reading more
// input. It returns the token's length, or 0 after an error, or -1 when the
// string went to s.sink (streamString); and the facts about the whole token
// (those about its first j bytes are given).
func (s *Scanner) stringSlow(j int, facts uint8) (int, uint8) {
	for j > 0 {
		if s.sink != nil && j >= s.sinkMin && s.br.r != nil && s.br.pin < 0 {
			// (A value being captured whole, RawValue's pin, keeps
			// every byte in the window anyway: nothing to stream.)
			return s.streamString(j), 0
		}
		if s.br.extend() == 0 {
			s.stringEnded(j)
			return 0, facts
		}
		var more uint8
		j, more = s.scanString(s.br.window(), j)
		facts |= more
		if j > 0 {
			return j, facts
		}
		j = -j
	}
	return 0, facts
}

// stringEnded records that the input ended (or failed) inside the string
// at the window's start, scanned up to j.
func (s *Scanner) stringEnded(j int) {
	w := s.br.window()
	msg := "unexpected end of JSON input"
	if j < len(w) && w[j] == '\\' {
		// Cut inside an escape: encoding/json's Unmarshal wording.
		msg = invalidChar(' ', "in string escape code")
		if j+1 < len(w) {
			msg = invalidChar(' ', "in \\u hexadecimal character escape")
		}
	}
	s.truncated(len(w), msg)
}

// streamString hands the string token at the window's start, scanned up to
// j (where the window ends; an escape cut there starts at j), to s.sink in
// unquoted pieces, reading on until its closing quote, which it consumes.
// The window keeps only what a piece cannot end in yet. It returns -1, or
// 0 after an error, which it records as stringSlow would, with the token
// counting towards the window's limit as if it were held whole.
func (s *Scanner) streamString(j int) int {
	start := s.br.pos()
	s.streaming, s.streamStart = true, start
	from := 1 // the body's start in the window
	for {
		w := s.br.window()
		cut := pieceEnd(w, from, j)
		if cut > from {
			s.piece = unquote.AppendBody(s.piece[:0], w[from:cut])
			if err := s.sink(s.piece); err != nil {
				return s.streamFailed(err, start)
			}
		}
		s.br.release(cut)
		j -= cut
		from = 0
		if s.br.pos()-start+int64(j) >= int64(s.br.max) {
			return s.streamFailed(&tokenTooLongError{offset: start, limit: s.br.max}, start)
		}
		if s.br.extend() == 0 {
			s.stringEnded(j)
			s.tokPos = start
			return 0
		}
		w = s.br.window()
		n, _ := s.scanString(w, j)
		if n > 0 { // the closing quote is w[n-1]
			if n > 1 {
				s.piece = unquote.AppendBody(s.piece[:0], w[:n-1])
				if err := s.sink(s.piece); err != nil {
					return s.streamFailed(err, start)
				}
			}
			s.br.release(n)
			s.streaming = false
			return -1
		}
		if s.err != nil { // 0 is also -j for j == 0: the error says which
			s.tokPos = start
			return 0
		}
		j = -n
	}
}

// streamFailed records err, the piece function's or the window limit's,
// as ending the streamed string that started at start; it returns 0.
func (s *Scanner) streamFailed(err error, start int64) int {
	s.err, s.errKind, s.errPos, s.tokPos = err, errRead, s.br.pos(), start
	return 0
}

// pieceEnd is where a piece of a streamed string's body w[from:j] may end:
// at j, the end of the scanned part (which holds whole escapes only), less
// a UTF-8 sequence cut short there and an escape of a high surrogate,
// whose low half may follow: both are unquoted with what comes next.
func pieceEnd(w []byte, from, j int) int {
	cut := j
	for k := cut - 1; k >= from && k >= cut-3; k-- {
		c := w[k]
		if c < 0x80 {
			break
		}
		if c >= 0xC0 {
			need := 2
			if c >= 0xF0 {
				need = 4
			} else if c >= 0xE0 {
				need = 3
			}
			if cut-k < need {
				cut = k
			}
			break
		}
	}
	if k := cut - 6; cut == j && k >= from && w[k] == '\\' && w[k+1] == 'u' && w[k+2]|0x20 == 'd' && highSurrogate[w[k+3]] {
		// An escape only if the backslashes ending at k are odd in
		// number (w[from] starts a piece, so never the second of a pair).
		run := 1
		for k-run >= from && w[k-run] == '\\' {
			run++
		}
		if run%2 == 1 {
			cut = k
		}
	}
	return cut
}

// Number grammar states, so that a number cut by the window's end resumes
// where it stopped instead of being rescanned.
const (
	numStart    uint8 = iota // at '-' or the first digit
	numIntFirst              // after '-': a digit
	numInt                   // in the integer digits
	numZero                  // after the integer part: '.', 'e' or the end
	numDot                   // after '.': a digit
	numFrac                  // in the fraction digits
	numE                     // after 'e': a sign or a digit
	numESign                 // after the exponent's sign: a digit
	numExp                   // in the exponent digits
	numDone                  // complete; w[i] is the byte after it
	numErr                   // syntax error (recorded)
)

// numEOF is what encoding/json's Unmarshal says when the input ends in a
// number in state st ("" when the number is complete there).
var numEOF = [...]string{
	numIntFirst: "invalid character ' ' in numeric literal",
	numDot:      "invalid character ' ' after decimal point in numeric literal",
	numE:        "invalid character ' ' in exponent of numeric literal",
	numESign:    "invalid character ' ' in exponent of numeric literal",
	numErr:      "",
}

func isDigit(c byte) bool { return c-'0' < 10 }

// skipSpaces returns the index of the first byte other than ' ' in data at
// or after k, 8 bytes at a time (pretty-printed JSON has long runs of
// spaces after each newline), or the index where fewer than 8 bytes are
// left: every caller is a loop over whitespace a byte at a time that goes
// on from there.
func skipSpaces(data []byte, k int) int {
	for k+8 <= len(data) {
		if v := binary.LittleEndian.Uint64(data[k:k+8]) ^ (lsb * ' '); v != 0 {
			return k + bits.TrailingZeros64(v)>>3
		}
		k += 8
	}
	return k
}

// skipWhitespace returns the index of the first byte that is not
// whitespace in data at or after k, with runs of spaces 8 bytes at a time.
func skipWhitespace(data []byte, k int) int {
	for k < len(data) && whitespace[data[k]] {
		k++
		if k+8 <= len(data) && data[k] == ' ' {
			k = skipSpaces(data, k) // indentation
		}
	}
	return k
}

// skipDigits returns the index of the first non-digit in data at or after k,
// 8 bytes at a time while it can.
func skipDigits(data []byte, k int) int {
	for k+8 <= len(data) {
		if nz := nonDigits(binary.LittleEndian.Uint64(data[k : k+8])); nz != 0 {
			return k + bits.TrailingZeros64(nz)>>3
		}
		k += 8
	}
	for k < len(data) && isDigit(data[k]) {
		k++
	}
	return k
}

// nonDigits marks, with its top bit, each of the 8 bytes of v (loaded
// little-endian) that is not an ASCII digit, or at least the first one: its
// trailing zero bits divided by 8 count the digits v starts with.
func nonDigits(v uint64) uint64 {
	// A byte is a digit iff its high nibble is 3 and adding 6 keeps it
	// so. A carry out of a byte >= 0xFA only disturbs the bytes above the
	// first non-digit, which do not count.
	hi := (v & (lsb * 0xF0)) ^ (lsb * 0x30)              // 0 where the high nibble is 3
	lo := ((v + lsb*0x06) & (lsb * 0xF0)) ^ (lsb * 0x30) // 0 where the low nibble is <= 9
	nz := hi | lo
	return ((nz & (lsb * 0x7F)) + lsb*0x7F | nz) & msb // high bit per non-digit byte
}

// scanNumber scans a number in w from index i in state st. It returns the
// index where it stopped and the state there: numDone (w[i] follows the
// number), numErr, or the state to resume in when w ran out.
func (s *Scanner) scanNumber(w []byte, i int, st uint8) (int, uint8) {
	switch st {
	case numIntFirst:
		goto intFirst
	case numInt:
		goto intDigits
	case numZero:
		goto afterInt
	case numDot:
		goto dot
	case numFrac:
		goto frac
	case numE:
		goto exp
	case numESign:
		goto expSign
	case numExp:
		goto expDigits
	}
	if w[i] == '-' {
		i++
	}
intFirst:
	if i >= len(w) {
		return i, numIntFirst
	}
	if w[i] == '0' {
		i++
		goto afterInt
	}
	if w[i]-'1' > 8 {
		s.fail(errLexical, w[i], i, "in numeric literal")
		return i, numErr
	}
	i++
intDigits:
	for i < len(w) && isDigit(w[i]) {
		i++
	}
	if i >= len(w) {
		return i, numInt
	}
afterInt:
	if i >= len(w) {
		return i, numZero
	}
	if w[i] == '.' {
		i++
		goto dot
	}
	if w[i]|0x20 == 'e' {
		i++
		goto exp
	}
	return i, numDone
dot:
	if i >= len(w) {
		return i, numDot
	}
	if !isDigit(w[i]) {
		s.fail(errLexical, w[i], i, "after decimal point in numeric literal")
		return i, numErr
	}
	i++
frac:
	for i < len(w) && isDigit(w[i]) {
		i++
	}
	if i >= len(w) {
		return i, numFrac
	}
	if w[i]|0x20 == 'e' {
		i++
		goto exp
	}
	return i, numDone
exp:
	if i >= len(w) {
		return i, numE
	}
	if w[i] == '+' || w[i] == '-' {
		i++
	}
expSign:
	if i >= len(w) {
		return i, numESign
	}
	if !isDigit(w[i]) {
		s.fail(errLexical, w[i], i, "in exponent of numeric literal")
		return i, numErr
	}
	i++
expDigits:
	for i < len(w) && isDigit(w[i]) {
		i++
	}
	if i >= len(w) {
		return i, numExp
	}
	return i, numDone
}

// numberSlow finishes a number that the window cut at i in state st: it
// reads more input and resumes. At the end of input the number is complete
// in some states and truncated in others.
func (s *Scanner) numberSlow(i int, st uint8) []byte {
	for {
		if s.br.extend() == 0 {
			if msg := numEOF[st]; msg != "" || s.br.err != io.EOF {
				s.truncated(i, msg)
				return nil
			}
			break // complete at the end of input
		}
		w := s.br.window()
		i, st = s.scanNumber(w, i, st)
		if st == numErr {
			return nil
		}
		if st == numDone {
			if !endsValue[w[i]] {
				s.badFollow(w[i], i)
			}
			break
		}
	}
	w := s.br.window()
	s.br.release(i)
	return w[:i]
}

// literal scans true, false or null, starting with c at w[0].
func (s *Scanner) literal(w []byte, c byte) []byte {
	// Its last four bytes as a word, compared by one load (c is w[0], so
	// false's "alse" is all that is left to compare): a compare of
	// strings of a length known only here is a call to memequal.
	lit, n, last4 := "null", 4, uint32('n'|'u'<<8|'l'<<16|'l'<<24)
	switch c {
	case 't':
		lit, last4 = "true", 't'|'r'<<8|'u'<<16|'e'<<24
	case 'f':
		lit, n, last4 = "false", 5, 'a'|'l'<<8|'s'<<16|'e'<<24
	}
	if fastPaths && len(w) > n && binary.LittleEndian.Uint32(w[n-4:]) == last4 {
		// Fast path: the literal and the byte after it are in the window.
		if !endsValue[w[n]] {
			s.badFollow(w[n], n)
		}
		s.br.release(n)
		return w[:n]
	}
	return s.literalSlow(lit)
}

// literalSlow checks a literal byte by byte, reading more input as needed, and
// words errors as encoding/json does.
func (s *Scanner) literalSlow(lit string) []byte {
	n := len(lit)
	w := s.br.window()
	for i := 1; i <= n; i++ {
		for i >= len(w) {
			added := s.br.extend()
			w = s.br.window() // extend may have moved the window
			if added == 0 {
				if i < n {
					s.truncated(i, invalidChar(' ', "in literal "+lit+" (expecting '"+lit[i:i+1]+"')"))
					return nil
				}
				if s.br.err != io.EOF {
					s.end()
					return nil
				}
				s.br.release(n)
				return w[:n]
			}
		}
		if i == n {
			if !endsValue[w[n]] {
				s.badFollow(w[n], n)
			}
			break
		}
		if w[i] != lit[i] {
			s.fail(errLexical, w[i], i, "in literal "+lit+" (expecting '"+lit[i:i+1]+"')")
			return nil
		}
	}
	s.br.release(n)
	return w[:n]
}
