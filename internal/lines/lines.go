// Package lines cuts a stream of newline-terminated records into chunks of
// whole lines and processes the chunks on several goroutines, handing the
// results back in input order. It knows nothing of what a line holds: the
// root package decodes NDJSON with it, and the database loaders can feed
// rows with it.
//
// A [Splitter] reads large blocks and cuts them after their last '\n'; each
// [Chunk] knows the number of its first line and the offset of its first
// byte. [Process] runs a function on every chunk on N goroutines and yields
// the results, in order, on the caller's goroutine.
package lines

import (
	"bytes"
	"errors"
	"io"
	"iter"
	"math"
	"runtime"
	"strconv"
	"sync"
	"sync/atomic"
)

// DefaultBlockSize is the block size of a Splitter made with a size of 0 or
// less: about what a worker needs to make the hand-over cost nothing.
const DefaultBlockSize = 1 << 20

// firstBlock is the size of a Splitter's first block, at most: the size
// doubles from chunk to chunk up to the block size, so that a short input
// does not cost a block's worth of memory.
const firstBlock = 64 << 10

// A Chunk is a run of whole lines of the input.
type Chunk struct {
	// Data holds whole lines, each with its '\n', but for the input's last
	// line, which may lack one. It is never empty.
	Data []byte
	// Line is the number of the first line in Data, counting from 1.
	Line int64
	// Offset is the offset in the input of Data[0].
	Offset int64
}

// A TooLongError reports a line longer than the limit set with
// [Splitter.SetMaxLineSize]. It is returned once more than Max bytes of the
// line have been read (and at most a block), without reading the rest of it.
type TooLongError struct {
	Line   int64 // the line's number, from 1
	Offset int64 // the offset in the input of its first byte
	Max    int   // the limit, in bytes
	// Data is a copy of the bytes read from the line's first byte on (its
	// start, or the whole line and some after it), which no chunk holds:
	// the input goes on with Data and then what the reader has not yet
	// returned. A caller able to take such a line another way reads it
	// from there.
	Data []byte
}

func (e *TooLongError) Error() string {
	return "lines: line " + strconv.FormatInt(e.Line, 10) + " at byte " +
		strconv.FormatInt(e.Offset, 10) + " is longer than " + strconv.Itoa(e.Max) + " bytes"
}

var errInvalidRead = errors.New("lines: reader returned an invalid count")

// A Splitter cuts what it reads from an io.Reader into chunks of whole lines.
// It is not safe for concurrent use.
type Splitter struct {
	r     io.Reader
	block int
	size  int    // the next buffer's size: firstBlock doubling up to block
	max   int    // longest line, '\n' excluded; 0: no limit
	line  int64  // number of the next chunk's first line
	off   int64  // offset of the next chunk's first byte
	carry []byte // the start of the line the last chunk stopped before
	err   error  // to return from the next call: io.EOF, a read error, a *TooLongError
}

// NewSplitter returns a Splitter that reads r in blocks of blockSize bytes
// (DefaultBlockSize if blockSize <= 0).
func NewSplitter(r io.Reader, blockSize int) *Splitter {
	if blockSize <= 0 {
		blockSize = DefaultBlockSize
	}
	return &Splitter{r: r, block: blockSize, size: min(blockSize, firstBlock), line: 1}
}

// SetMaxLineSize limits lines to n bytes, their '\n' excluded; n <= 0 means
// no limit (the default). Next returns a *TooLongError for a longer line,
// after the lines before it.
func (s *Splitter) SetMaxLineSize(n int) { s.max = max(n, 0) }

// Next returns the next chunk of the input, read into buf if it is large
// enough, else into new memory: pass the Data of a chunk you are done with
// to reuse its memory (nil at first). A chunk's Data stays valid until it
// is passed to Next.
//
// Next fills its block before cutting it after its last '\n', but it hands
// on the whole lines it holds as soon as a Read returns less than asked,
// so the lines of a slow stream are not held back waiting for a full block.
// A line longer than the block grows the chunk to hold it.
//
// At the end of the input Next returns io.EOF. A read error other than
// io.EOF is returned as it is, after a last chunk with the whole lines read
// before it; the start of a line it cut short is dropped. Errors are sticky.
func (s *Splitter) Next(buf []byte) (Chunk, error) {
	if s.err != nil {
		return Chunk{}, s.err
	}
	buf = s.buffer(buf)
	n := copy(buf, s.carry)
	s.carry = s.carry[:0]
	if cap(s.carry) > 4*s.block {
		s.carry = nil // after a long line
	}
	last := -1 // index of the last '\n' in buf[:n]; the carry has none
	empty := 0 // Reads in a row that returned nothing
	for {
		if n == len(buf) {
			if last >= 0 {
				break
			}
			// One line fills buf.
			if s.max > 0 && n > s.max {
				return s.emit(buf[:n], 0, nil)
			}
			buf = s.grow(buf)
		}
		m, err := s.r.Read(buf[n:])
		if m < 0 || m > len(buf)-n {
			m, err = 0, errInvalidRead
		}
		if i := bytes.LastIndexByte(buf[n:n+m], '\n'); i >= 0 {
			last = n + i
		}
		short := m < len(buf)-n
		n += m
		switch {
		case err == io.EOF:
			return s.emit(buf[:n], n, err)
		case err != nil:
			return s.emit(buf[:n], last+1, err)
		case m == 0:
			if empty++; empty == 100 {
				return s.emit(buf[:n], last+1, io.ErrNoProgress)
			}
		default:
			empty = 0
		}
		if short && last >= 0 {
			break
		}
	}
	return s.emit(buf[:n], last+1, nil)
}

// buffer returns buf, or a new buffer when buf is too small for a block
// and the carry, or much larger than a block (after a long line), at its
// full length.
func (s *Splitter) buffer(buf []byte) []byte {
	need := s.size
	s.size = min(2*s.size, s.block)
	if c := 2 * len(s.carry); c > need {
		if s.max > 0 {
			c = min(c, s.max+1) // > len(s.carry): emit keeps no longer carry
		}
		need = max(need, c)
	}
	if c := cap(buf); c < need || c > max(4*s.block, need) {
		return make([]byte, need)
	}
	return buf[:cap(buf)]
}

// grow returns a buffer twice as large as the full buf (at most one line
// of the longest size and its '\n'), holding its bytes.
func (s *Splitter) grow(buf []byte) []byte {
	n := 2 * len(buf)
	if s.max > 0 && n > s.max+1 {
		n = s.max + 1 // > len(buf): Next checked len(buf) <= s.max
	}
	nb := make([]byte, n)
	copy(nb, buf)
	return nb
}

// emit makes the whole lines buf[:end] the next chunk, keeps buf[end:] (the
// start of the next line) for the next call unless err is set, and makes
// err, if any, the error of the next call.
func (s *Splitter) emit(buf []byte, end int, err error) (Chunk, error) {
	if s.max > 0 && len(buf) > s.max {
		// The first line too long, whole or cut short, ends the input.
		if p := longLine(buf, s.max); p >= 0 {
			err = &TooLongError{Line: s.line + int64(bytes.Count(buf[:p], newline)), Offset: s.off + int64(p), Max: s.max,
				Data: bytes.Clone(buf[p:])}
			end = min(end, p)
		}
	}
	if err == nil {
		s.carry = append(s.carry[:0], buf[end:]...)
	}
	s.err = err
	if end == 0 {
		return Chunk{}, err
	}
	c := Chunk{Data: buf[:end], Line: s.line, Offset: s.off}
	s.line += int64(bytes.Count(c.Data, newline))
	s.off += int64(end)
	return c, nil
}

var newline = []byte{'\n'}

// longLine returns the offset of the first line of buf longer than max
// bytes, '\n' excluded (the last line may lack its '\n'), or -1.
func longLine(buf []byte, max int) int {
	for start := 0; start < len(buf); {
		i := bytes.IndexByte(buf[start:], '\n')
		if i < 0 {
			i = len(buf) - start
		}
		if i > max {
			return start
		}
		start += i + 1
	}
	return -1
}

// Options configure [Process].
type Options struct {
	// Workers is the number of goroutines that run the function;
	// 0 or less means runtime.GOMAXPROCS(0). With 1, everything runs on the
	// caller's goroutine.
	Workers int
	// BlockSize is the Splitter's block size; 0 or less means
	// DefaultBlockSize.
	BlockSize int
	// MaxLineSize is the Splitter's line limit; 0 or less means none.
	MaxLineSize int
}

// Process returns an iterator that splits r into chunks of whole lines (see
// [Splitter]), calls fn on each chunk on opts.Workers goroutines (so on
// several chunks at once), and yields the results in input order, on the
// goroutine ranging over it.
//
// fn stores its result in *res, which holds what fn stored there for an
// earlier chunk (or the zero R): fn may reuse its memory, and must reset
// what it does not overwrite. The yielded *R, and the chunk's bytes it may
// point into, are valid until the loop body returns.
//
// If fn returns an error, its result and error are yielded together, after
// the results of all earlier chunks, and the sequence ends. A read error (or
// a *TooLongError) is yielded with a nil result after the results of every
// chunk before it, and ends the sequence too. Once fn has failed, the
// chunks after the failing one are skipped unless already started, and r
// is read at most 2×Workers+2 chunks past it.
//
// When the loop stops, early or not, Process returns only after every
// goroutine it started has returned, which may wait for a Read in progress:
// nothing reads r once the loop is over. At most 2×Workers+2 chunks are in
// memory at a time. The sequence is single-use.
func Process[R any](r io.Reader, opts Options, fn func(c Chunk, res *R) error) iter.Seq2[*R, error] {
	return func(yield func(*R, error) bool) {
		s := NewSplitter(r, opts.BlockSize)
		s.SetMaxLineSize(opts.MaxLineSize)
		workers := opts.Workers
		if workers <= 0 {
			workers = runtime.GOMAXPROCS(0)
		}
		if workers == 1 {
			inline(s, fn, yield)
			return
		}
		parallel(s, workers, fn, yield)
	}
}

// inline is Process on the caller's goroutine.
func inline[R any](s *Splitter, fn func(Chunk, *R) error, yield func(*R, error) bool) {
	var res R
	var buf []byte
	for {
		c, err := s.Next(buf)
		if err != nil {
			if err != io.EOF {
				yield(nil, err)
			}
			return
		}
		err = fn(c, &res)
		if !yield(&res, err) || err != nil {
			return
		}
		buf = c.Data
	}
}

// A slot is one chunk in flight and its result. The slots circulate: the
// reader takes a free one, fills its chunk and queues it both for the
// workers and for the consumer, which waits on done, yields the result and
// frees it.
type slot[R any] struct {
	chunk   Chunk
	seq     int64 // the chunk's index
	res     R
	err     error         // from fn
	readErr error         // the Splitter's error: no chunk, no result
	done    chan struct{} // one send per use: the result is ready
}

// parallel is Process with workers goroutines. It never blocks on a send:
// every channel can hold all the slots.
func parallel[R any](s *Splitter, workers int, fn func(Chunk, *R) error, yield func(*R, error) bool) {
	n := 2*workers + 2
	free := make(chan *slot[R], n)
	for range n {
		free <- &slot[R]{done: make(chan struct{}, 1)}
	}
	work := make(chan *slot[R], n)  // to the workers
	order := make(chan *slot[R], n) // to the consumer, in input order
	stop := make(chan struct{})     // closed when the consumer is done
	var failed atomic.Int64         // the lowest seq whose fn failed
	failed.Store(math.MaxInt64)

	var wg sync.WaitGroup
	defer wg.Wait()
	defer close(stop)

	// The reader.
	wg.Go(func() {
		defer close(order)
		defer close(work)
		for seq := int64(0); ; seq++ {
			var sl *slot[R]
			select {
			case <-stop:
				return
			default:
			}
			select {
			case sl = <-free:
			case <-stop:
				return
			}
			if seq > failed.Load() {
				return // nobody will look at this chunk
			}
			c, err := s.Next(sl.chunk.Data)
			sl.seq, sl.err, sl.readErr = seq, nil, nil
			if err != nil {
				if err == io.EOF {
					return
				}
				sl.readErr = err
				sl.done <- struct{}{}
				order <- sl
				return
			}
			sl.chunk = c
			order <- sl
			work <- sl
		}
	})

	for range workers {
		wg.Go(func() {
			for sl := range work {
				if sl.seq < failed.Load() && !closed(stop) {
					if sl.err = fn(sl.chunk, &sl.res); sl.err != nil {
						lower(&failed, sl.seq)
					}
				}
				sl.done <- struct{}{}
			}
		})
	}

	for sl := range order {
		<-sl.done
		if sl.readErr != nil {
			yield(nil, sl.readErr)
			return
		}
		if !yield(&sl.res, sl.err) || sl.err != nil {
			return
		}
		free <- sl
	}
}

func closed(c chan struct{}) bool {
	select {
	case <-c:
		return true
	default:
		return false
	}
}

// lower sets a to v if v is lower.
func lower(a *atomic.Int64, v int64) {
	for {
		old := a.Load()
		if v >= old || a.CompareAndSwap(old, v) {
			return
		}
	}
}
