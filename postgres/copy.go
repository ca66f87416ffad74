package postgres

import (
	"encoding/binary"
	"io"

	"github.com/jackc/pgx/v5/pgconn"
)

// copier writes the rows of one COPY in COPY's format, so rows go from
// the input to the connection without a Go value per row. The loader
// writes each row into out (send); a long value is sent from the arena or
// its chunks as it is, a piece of its own. Every outTarget bytes, after a
// row with a long value, and at the end of the COPY, the loader hands
// what it wrote over (flush): to pgx, which pulls COPY data from the
// copier as an io.Reader (Read) on a goroutine of its own while it
// watches the server, or, over several connections, into the batch's
// memory (multi.go). The loader waits until pgx has read it all, so out,
// the arena and the chunks are never written while they are read.
type copier struct {
	l *copyLoader // the loader whose rows it sends (nil for a worker's)
	r *rowReader  // the columns, values and arena of the rows it writes

	binary bool
	cols   []int // the copied columns, indexes in l.cols, in COPY order
	rowNum bool  // the first field is the row's number (the staging table)

	out     []byte  // COPY data not yet handed over
	pieces  []piece // what is handed over: parts of out, of the arena and of chunks
	scratch []byte
	inline  bool // long values are copied into out too (a parallel decoder's)

	first int64
	offs  []int64 // each row's input offset, from row first on

	// How the COPY ends: its rows move from the staging table with
	// moveSQL(rowCol, names).
	staging bool
	rowCol  string
	names   []string

	// The hand-over to pgx's goroutine (one connection). The loader gives
	// it out and pieces (give) and waits for it to have read them all
	// (took), or for the COPY to have ended (done: PostgreSQL refused it,
	// with tag and err). ended says the hand-over is the COPY's last.
	// abort ends the COPY with abortErr, the load's own error, and lets
	// go of pgx's goroutine when pgx has returned without waiting for
	// it (a failed connection).
	give, took, done, abort chan struct{}
	ended                   bool
	aborted                 bool
	abortErr                error
	tag                     pgconn.CommandTag
	err                     error
	// pgx's goroutine's own: what it is reading.
	have      bool // it holds a hand-over
	eof       bool // it has read the last
	next      int  // first piece not yet read whole
	sentBytes int  // bytes of pieces[next] already read

	// Over several connections: the COPY's step, and the chunk of its
	// data being filled.
	step *step
	buf  []byte
}

const outTarget = 64 << 10 // COPY data gathered before it is handed over

// Read is pgx's: it reads the hand-overs of the COPY's data, waiting for
// each, and returns io.EOF after the last (or the load's error, which
// makes pgx end the COPY with CopyFail).
func (cp *copier) Read(p []byte) (int, error) {
	n := 0
	for {
		if !cp.have {
			if cp.eof {
				return 0, io.EOF
			}
			select {
			case <-cp.give:
				cp.have, cp.next, cp.sentBytes = true, 0, 0
			case <-cp.abort:
				return 0, cp.abortErr
			}
		}
		for n < len(p) && cp.next < len(cp.pieces) {
			pc := cp.pieces[cp.next]
			src := cp.out
			if pc.arena {
				src = cp.r.arena
			} else if pc.data != nil {
				src = pc.data
			}
			k := copy(p[n:], src[pc.from+cp.sentBytes:pc.to])
			n += k
			cp.sentBytes += k
			if pc.from+cp.sentBytes == pc.to {
				cp.next++
				cp.sentBytes = 0
			}
		}
		if cp.next == len(cp.pieces) {
			// All read: the loader's again (nothing of it is read after
			// took).
			cp.have, cp.eof = false, cp.ended
			select {
			case cp.took <- struct{}{}:
			case <-cp.abort:
				return 0, cp.abortErr
			}
		}
		if n > 0 {
			return n, nil
		}
	}
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
