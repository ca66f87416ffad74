package postgres

import (
	"encoding/binary"
	"io"
	"sync"
)

// copier is the io.Reader a COPY reads its data from: it decodes rows as
// pgx asks for data and writes them in COPY's format, so rows go from the
// input to the connection without a Go value per row. pgx calls Read from
// a goroutine of its own while it watches the server; the loader waits
// for it (mu) before touching the decoder again.
type copier struct {
	l      *copyLoader // the loader whose rows it sends (nil for a worker's)
	r      *rowReader  // the columns, values and arena of the rows it writes
	mu     sync.Mutex
	closed bool

	binary bool
	cols   []int // the copied columns, indexes in l.cols, in COPY order
	rowNum bool  // the first field is the row's number (the staging table)

	out     []byte  // COPY data not yet read
	pieces  []piece // what Read sends next: parts of out and of the arena
	next    int     // first piece not yet sent whole
	sent    int     // bytes of pieces[next] already sent
	scratch []byte

	inline  bool // long values are copied into out too (a parallel decoder's)
	started bool // the header is written
	ended   bool // the end is written
	first   int64
	offs    []int64 // each row's input offset, from row first on
	err     error   // the load's own error that ended the COPY
}

const outTarget = 64 << 10 // COPY data gathered before it is handed over

func (cp *copier) Read(p []byte) (int, error) {
	cp.mu.Lock()
	defer cp.mu.Unlock()
	if cp.closed {
		return 0, io.EOF
	}
	n := 0
	for n < len(p) {
		if cp.next < len(cp.pieces) {
			pc := cp.pieces[cp.next]
			src := cp.out
			if pc.arena {
				src = cp.r.arena
			} else if pc.data != nil {
				src = pc.data
			}
			k := copy(p[n:], src[pc.from+cp.sent:pc.to])
			n += k
			cp.sent += k
			if pc.from+cp.sent == pc.to {
				cp.next++
				cp.sent = 0
			}
			continue
		}
		if cp.ended {
			if n == 0 {
				return 0, io.EOF
			}
			return n, nil
		}
		if err := cp.fill(); err != nil {
			cp.err = err
			return n, err
		}
	}
	return n, nil
}

// fill writes the next rows into out, up to about outTarget bytes, or the
// end of the COPY when the rows run out.
func (cp *copier) fill() error {
	l := cp.l
	cp.out, cp.pieces, cp.next, cp.sent = cp.out[:0], cp.pieces[:0], 0, 0
	l.releaseArena()
	if !cp.started {
		cp.started = true
		if cp.binary {
			cp.out = append(cp.out, binaryHeader...)
		}
	}
	// A row with a long value queues an arena piece, and ends the fill:
	// one long value at a time is held.
	for len(cp.out) < outTarget && len(cp.pieces) == 0 {
		ok, err := l.nextForCopy()
		if err != nil {
			return err
		}
		if !ok {
			if cp.binary {
				cp.out = append(cp.out, binaryTrailer...)
			}
			cp.ended = true
			break
		}
		if len(cp.offs) == 0 {
			cp.first = l.row
		}
		cp.offs = append(cp.offs, l.rowOff)
		start := len(cp.out)
		if err := cp.appendRow(); err != nil {
			if !l.misfits() {
				return l.RowError(err, l.row, l.rowOff)
			}
			// A value its column's type does not take, in a column that
			// may widen: the COPY ends before the row, which waits for
			// the column to be altered (prepareColumns). The row wrote
			// into out only (a fill's row starts with no pieces queued).
			cp.out, cp.pieces, cp.offs = cp.out[:start], cp.pieces[:0], cp.offs[:len(cp.offs)-1]
			l.pending, l.misfit = true, true
			if cp.binary {
				cp.out = append(cp.out, binaryTrailer...)
			}
			cp.ended = true
			break
		}
		l.rowSent()
	}
	cp.closePiece()
	return nil
}

// sendArena closes the pieces of out so far and sends arena[from:to] next.
func (cp *copier) sendArena(from, to int) {
	cp.closePiece()
	cp.pieces = append(cp.pieces, piece{arena: true, from: from, to: to})
}

// sendData closes the pieces of out so far and sends data next.
func (cp *copier) sendData(data []byte) {
	cp.closePiece()
	cp.pieces = append(cp.pieces, piece{data: data, to: len(data)})
}

// closePiece makes the bytes of out not yet in a piece the next piece.
func (cp *copier) closePiece() {
	from := 0
	for i := len(cp.pieces) - 1; i >= 0; i-- {
		if pc := &cp.pieces[i]; !pc.arena && pc.data == nil {
			from = pc.to
			break
		}
	}
	if len(cp.out) > from {
		cp.pieces = append(cp.pieces, piece{from: from, to: len(cp.out)})
	}
}

// appendRow writes the row to send as one COPY row: its field count, its
// number when the COPY goes to the staging table, then its fields, from
// l.cur or as a parallel decoder wrote them (l.tuple).
func (cp *copier) appendRow() error {
	l := cp.l
	if cp.binary {
		fields := len(cp.cols)
		if cp.rowNum {
			fields++
		}
		cp.out = binary.BigEndian.AppendUint16(cp.out, uint16(fields))
		if cp.rowNum {
			cp.out = binary.BigEndian.AppendUint64(append(cp.out, 0, 0, 0, 8), uint64(l.row))
		}
	} else if cp.rowNum {
		cp.out = appendInt(cp.out, l.row)
		cp.out = append(cp.out, '\t')
	}
	if l.tuple != nil {
		cp.out = append(cp.out, l.tuple...)
	} else if err := cp.appendFields(); err != nil {
		return err
	}
	if !cp.binary {
		cp.out = append(cp.out, '\n')
	}
	return nil
}

// appendFields writes the fields of r.cur, in the COPY's column order.
func (cp *copier) appendFields() error {
	l := cp.r
	for i, c := range cp.cols {
		var err error
		if cp.binary {
			err = cp.appendBinary(&l.cols[c], &l.cur[c])
		} else {
			if i > 0 {
				cp.out = append(cp.out, '\t')
			}
			err = cp.appendText(&l.cols[c], &l.cur[c])
		}
		if err != nil {
			return err
		}
	}
	return nil
}

func appendInt(b []byte, i int64) []byte {
	var d [20]byte
	k := len(d)
	for {
		k--
		d[k] = byte('0' + i%10)
		i /= 10
		if i == 0 {
			break
		}
	}
	return append(b, d[k:]...)
}

// close waits for a Read in progress and makes later ones return io.EOF.
func (cp *copier) close() {
	cp.mu.Lock()
	cp.closed = true
	cp.mu.Unlock()
}
