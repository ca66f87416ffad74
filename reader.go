package json

import (
	"errors"
	"io"
	"math/bits"
	"runtime"
	"sync"
	"unsafe"
)

const (
	defaultBufSize      = 32 << 10  // the window a stream grows to before it only slides
	minBufSize          = 512       // the first window, when the reader's length is unknown
	defaultMaxTokenSize = 512 << 20 // default cap on window growth
	maxEmptyReads       = 100       // (0, nil) reads in a row before io.ErrNoProgress
)

// byteReader is a sliding window over an io.Reader. The window is
// data[offset:]; bytes before offset have been consumed and may be
// discarded by the next extend, unless pinned.
//
// The invariant, which every method keeps and every reader of the fields
// (the scanner, the fast paths in fastpath.go) may rely on:
//
//	0 <= offset <= len(data) <= cap(data)
//	pin == -1, or 0 <= pin <= offset   (data[pin:] survives extend)
//	base + offset is the absolute input offset of data[offset]
//
// Only extend moves bytes (down to index 0) and grows data; everything else
// only advances offset, within len(data).
//
// A byteReader over a byte slice (r == nil) uses the slice itself as its
// window and never writes to it.
type byteReader struct {
	data   []byte    // buffered input; data[:len(data)] holds valid bytes
	offset int       // start of the unconsumed window in data
	r      io.Reader // nil when data is the whole input
	err    error     // sticky read error (io.EOF at the end)
	base   int64     // absolute input offset of data[0]
	pin    int       // index in data that extend must keep, or -1
	max    int       // window growth limit (max token size)
	filled bool      // the last Read filled all the room it was given
	growTo int       // a window smaller than this grows when a Read fills it
	// own: data is a window of the reader's own (newWindow's, or grow's),
	// which nothing outside the package refers to: it may go back to the
	// pool when its input has ended (Decoder.recycleWindow). Never a
	// caller's buffer, nor Unmarshal's input.
	own bool
	// streams: long strings go to a sink (StreamLongStrings), which needs
	// the window to stay shorter than them; the window never jumps to
	// the reader's length (see extend). Kept by reset, as max is.
	streams bool
}

func (b *byteReader) reset(r io.Reader, buf []byte, growTo int, own bool) {
	*b = byteReader{data: buf[:0], r: r, pin: -1, max: b.max, growTo: growTo, own: own, streams: b.streams}
	if b.max == 0 {
		b.max = defaultMaxTokenSize
	}
}

// resetBytes makes data the whole input: no copy, no reads, no writes.
// Field by field: a composite literal is built on the stack and copied
// over b with a write-barrier call, which cost Unmarshal of a small
// document a tenth of its time (TestResetBytes checks that every field
// is set).
func (b *byteReader) resetBytes(data []byte) {
	if b.max == 0 {
		b.max = defaultMaxTokenSize
	}
	b.data, b.offset, b.err = data, 0, io.EOF
	// A pointer is stored only where it changes: while the collector
	// marks, every store of one is a write barrier's (see endCall). (Not
	// err: comparing it with io.EOF is a call.)
	if b.r != nil {
		b.r = nil
	}
	b.base, b.pin, b.filled, b.growTo, b.own = 0, -1, false, 0, false
}

// window returns the unconsumed bytes.
func (b *byteReader) window() []byte { return b.data[b.offset:] }

// release consumes n bytes of the window.
func (b *byteReader) release(n int) { b.offset += n }

// pos is the absolute input offset of the window's first byte.
func (b *byteReader) pos() int64 { return b.base + int64(b.offset) }

// bigWindow is the window size past which it grows by a quarter rather
// than double, and the old window is collected at once: for one huge token
// (a 300 MB string) the old and the new window held together while one is
// copied into the other, plus the garbage of every earlier step left for
// the next collection, came to two and a half times the token; now the
// window ends near the token's size and the steps' garbage is gone. A
// token that long is rare, and one collection costs less than copying it.
const bigWindow = 64 << 20

// extend reads more input onto the end of the window (slow path), keeping
// the unconsumed bytes (and anything pinned). It returns the number of bytes
// added; 0 means no more input, with b.err saying why (io.EOF at the end).
// A Read returning (0, nil) is retried; too many in a row is io.ErrNoProgress.
func (b *byteReader) extend() int {
	if b.err != nil {
		return 0
	}
	keep := b.offset
	if b.pin >= 0 && b.pin < keep {
		keep = b.pin
	}
	if keep > 0 {
		// Slide the kept bytes down to the front of the buffer.
		n := copy(b.data, b.data[keep:])
		b.data = b.data[:n]
		b.offset -= keep
		if b.pin >= 0 {
			b.pin -= keep
		}
		b.base += int64(keep)
	}
	switch {
	case len(b.data) == cap(b.data):
		// The window is full of one token: grow, up to the limit.
		if cap(b.data) >= b.max {
			b.err = &tokenTooLongError{offset: b.base + int64(b.tokenStart()), limit: b.max}
			return 0
		}
		newCap := 2 * cap(b.data)
		if cap(b.data) >= bigWindow {
			newCap = cap(b.data) + cap(b.data)/4
		}
		if rest := b.restLen(); rest > 0 && cap(b.data) < bigWindow {
			// At least a quarter more, so that a Len that says less
			// than the reader holds still grows it geometrically.
			newCap = max(min(rest, 16*cap(b.data), bigWindow), cap(b.data)+cap(b.data)/4)
		}
		b.grow(min(max(newCap, minBufSize), b.max))
	case cap(b.data) < min(b.growTo, b.max) && (b.filled || b.base+int64(len(b.data)) >= 2*int64(cap(b.data)) || cap(b.data) < minBufSize):
		// The window is still small, and the reader filled it last time
		// or has given twice its size already: a stream longer than the
		// window. Double it, up to growTo. (A window under minBufSize,
		// the decoder's tail after recycleWindow, grows to it at once.)
		b.grow(min(max(2*cap(b.data), minBufSize), b.growTo, b.max))
	}
	for empty := 0; empty < maxEmptyReads; empty++ {
		room := cap(b.data) - len(b.data)
		n, err := b.r.Read(b.data[len(b.data):cap(b.data)])
		if n < 0 || n > room {
			b.err = errors.New("json: reader returned invalid count")
			return 0
		}
		b.filled = n == room
		b.data = b.data[:len(b.data)+n]
		if err != nil {
			b.err = err
		}
		if n > 0 || err != nil {
			return n
		}
	}
	b.err = io.ErrNoProgress
	return 0
}

// restLen is the window's size that holds all the reader's input that is
// left (and one byte more, so that the Read which fills it is not taken
// for a reader with more to give), when the reader says how much it holds
// (a Len method: bytes.Reader, strings.Reader, bytes.Buffer); 0 when it
// does not say, or when the window is not the decoder's to size: a
// caller's buffer (NewDecoderBuffer) or a window that must stay shorter
// than long strings (StreamLongStrings).
//
// A token longer than the window (a value Decode captures whole, a long
// string) grows it by doubling, clearing and copying at each step: a
// 1 MB value read from a bytes.Reader took windows of 64 KiB to 2 MiB,
// 4 MB allocated for it. When the reader tells its rest, extend grows
// the window to hold it, by at most 16 times a step (32 KiB, 512 KiB,
// then the 1 MB: 1.6 MB allocated), and past it only by the quarter a
// step always adds (a Len that says less than the reader holds still
// grows the window): the window does not outgrow the input, which the
// caller holds in memory anyway, by more than that, and a token a little
// longer than the window (a long line in a long NDJSON stream) costs a
// window at most 16 times the old one, not one of the whole stream. Past
// bigWindow it grows as before.
func (b *byteReader) restLen() int {
	if b.growTo == 0 || b.streams {
		return 0
	}
	if l, ok := b.r.(interface{ Len() int }); ok {
		return len(b.data) + l.Len() + 1
	}
	return 0
}

// wholeWindow is the most input Decode reads into one window at once,
// when the reader says how much it holds (holdRest).
const wholeWindow = 8 << 20

// holdRest makes the window big enough for all the input the reader has
// left, when the reader says how much that is (restLen), the window has
// no room for it even with its unread bytes moved to the front, and it is
// at most limit (and max) bytes: a window of that size rounded up to a
// power of two, from its pool (newWindow), the unread bytes moved to its
// front; the next extend reads the rest into it. The window it replaces
// goes back to its pool, so no pinned bytes, and nothing outside the
// package, may refer to it: Decode calls it between top-level values
// (Decoder.holdInput). It reports whether it replaced the window.
//
// A reader that says how much it holds (bytes.Reader) holds it in memory
// already: the copy costs as much memory again, as encoding/json's
// Decoder holds the whole value it decodes, and a stream longer than
// limit (a long NDJSON stream) keeps the window that grows as before.
// Made new each time, the window cost more than the pass saved on 1 MB
// NDJSON streams (AMD EPYC, 6 rounds: str-len16-ascii -31%): a window of
// a megabyte or more is allocated, cleared and collected. A pooled one is
// kept by its pool until two collections have passed without a use.
func (b *byteReader) holdRest(limit int) bool {
	n := b.restLen() - b.offset
	if n <= cap(b.data) || n > min(limit, b.max) || b.pin >= 0 {
		return false
	}
	nb := newWindow(n)[:len(b.data)-b.offset]
	copy(nb, b.data[b.offset:])
	if b.own {
		putWindow(b.data)
	}
	b.base += int64(b.offset)
	b.data, b.offset, b.own = nb, 0, true
	return true
}

// grow moves the window's bytes to a new buffer of capacity newCap, from
// its pool when it is one of the pooled sizes. The old window is not
// recycled here: a caller may still be reading a token in it. A big old
// window is collected at once (see bigWindow).
func (b *byteReader) grow(newCap int) {
	var nb []byte
	if newCap >= minBufSize && newCap <= defaultBufSize && newCap&(newCap-1) == 0 {
		nb = newWindow(newCap)[:len(b.data)] // a pooled size
	} else {
		nb = make([]byte, len(b.data), newCap)
	}
	copy(nb, b.data)
	old := cap(b.data)
	b.data, b.own = nb, true
	if old >= bigWindow {
		runtime.GC()
	}
}

// Windows are recycled: a decoder made for one document (a request body,
// a message) allocated and cleared a window of the document's size, and
// that allocation, more than its bytes, cost as much again as decoding a
// small document. A decoder whose input has ended gives its window back
// (Decoder.recycleWindow), and newWindow takes one of the size it needs,
// rounded up to a power of two from minBufSize to defaultBufSize, or to
// wholeWindow for a window that holds all the input (holdRest); a pool
// per size. A window in a pool is referred to by nothing else: only a
// window that was the decoder's own goes back, once it is no longer read.
var windowPools [windowSizes]sync.Pool // of unsafe.Pointers to the arrays

const windowSizes = 15 // 512 B to 8 MiB (wholeWindow)

// newWindow returns an empty window with room for at least n bytes (n at
// most wholeWindow): from its size's pool, or new.
func newWindow(n int) []byte {
	i := max(bits.Len(uint(n-1)), 9) - 9 // minBufSize<<i >= n
	if p, ok := windowPools[i].Get().(unsafe.Pointer); ok {
		return unsafe.Slice((*byte)(p), minBufSize<<i)[:0]
	}
	return make([]byte, 0, minBufSize<<i)
}

// putWindow gives w, a window no longer read, to its size's pool, when it
// has one of the sizes newWindow gives.
func putWindow(w []byte) {
	c := cap(w)
	if c < minBufSize || c > wholeWindow || c&(c-1) != 0 {
		return
	}
	windowPools[bits.Len(uint(c))-10].Put(unsafe.Pointer(unsafe.SliceData(w[:c])))
}

// tokenStart is where the token being read starts: the pin, or the window.
func (b *byteReader) tokenStart() int {
	if b.pin >= 0 {
		return b.pin
	}
	return b.offset
}

// pinAt keeps the window's bytes from data index i on, however far the
// window moves or grows, until unpin.
func (b *byteReader) pinAt(i int) { b.pin = i }

// unpin ends pinAt and returns the bytes from the pin to the window's start:
// a value captured whole, valid until the next extend. It returns nil when
// the window never reached the pin (the capture failed before its value: a
// pin may be set past a separator not yet consumed).
func (b *byteReader) unpin() []byte {
	start := b.pin
	b.pin = -1
	if start > b.offset {
		return nil
	}
	return b.data[start:b.offset]
}
