package loader

import (
	"bytes"
	"errors"
	"io"

	json "github.com/jsonpipe/json"
	"github.com/jsonpipe/json/internal/rowsrc"
)

// Source is a load's input as the loading goroutine reads it: the serial
// decoder, what it reads, and where it is in the whole input. Each
// backend's loader embeds one, and its row reader reads D directly (the
// hot path has no call between it and the decoder); a worker's row reader
// has only D, reset onto each chunk (DecodeChunk).
type Source struct {
	R     io.Reader     // the whole input, for the workers (Opened.R)
	D     *json.Decoder // the serial decoder
	Lines *LineReader   // what D reads: lines counted for errors
	Base  int64         // the input offset D starts at (after the workers hand over)
	Rows  rowsrc.Rows   // stepping from row to row
	Bigs  rowsrc.Chunks // a string being streamed (StreamLongStrings)
	Row   int64         // the number of the last row read (1-based), by the workers or D

	db       string // the backend, for its row errors
	maxValue int
	format   rowsrc.Format
}

// Init makes r, the whole input, s's to decode from its start: values
// capped at maxValue bytes, rows stepped as o.Format says, row errors of
// backend db ("sqlite", "postgres").
func (s *Source) Init(db string, r io.Reader, o *Options, maxValue int) {
	s.db, s.R, s.maxValue, s.format = db, r, maxValue, o.Format
	s.From(0, Start, r)
}

// From makes r, the input from offset off on (at position at), the
// serial decoder's: the workers have handed the rest of the input over.
func (s *Source) From(off int64, at Pos, r io.Reader) {
	s.Base = off
	s.Lines = NewLineReader(r, at)
	s.D = NewDecoder(s.Lines, s.maxValue, &s.Bigs)
	s.Rows = rowsrc.Rows{D: s.D, Format: s.format}
}

// Offset is the decoder's offset in the whole input.
func (s *Source) Offset() int64 { return s.Base + s.D.InputOffset() }

// Next consumes the '{' that opens the next row, stepping into and out
// of top-level arrays, and numbers the row (Row); start is its input
// offset. It reports false at a clean end of input; an error is placed at
// the row it was to be.
func (s *Source) Next() (more bool, start int64, err error) {
	more, off, err := s.Rows.Next()
	if err != nil {
		if off >= 0 {
			off += s.Base
		}
		return false, 0, s.RowError(err, s.Row+1, off)
	}
	if !more {
		return false, 0, nil
	}
	s.Row++
	return true, s.Offset() - 1, nil
}

// WorkerRow is the next row the workers decoded, from p: row i of c,
// numbered (Row), at input offset p.Off. It returns a nil c at the end of
// the input, or when the workers have handed the rest of the input over
// (p.Serial): then it is s's to decode (From). A read error is placed at
// the row after the last one read.
func WorkerRow[R any](s *Source, p *Parallel[R]) (c *Chunk[R], i int, err error) {
	c, i, off, err := p.Next()
	if err != nil {
		return nil, 0, NewRowError(s.db, s.Row+1, off, err)
	}
	if c == nil {
		if p.Serial {
			s.From(p.From, p.At, p.Rest)
		}
		return nil, 0, nil
	}
	s.Row++
	return c, i, nil
}

// RowError wraps err with the row number and a byte offset: the syntax
// error's own, else off, else the decoder's current offset, with the line
// and column when the error is about the JSON text. A row error and
// context cancellation are returned as they are.
func (s *Source) RowError(err error, row, off int64) error {
	var re *RowError
	if errors.As(err, &re) || Unwrapped(err) {
		return err
	}
	off, err = Locate(err, off, s.Base, s.Offset())
	re = NewRowError(s.db, row, off, err)
	re.Line, re.Column = LineOf(s.Lines, s.D, err, off)
	return re
}

// Rest is the input after what the serial decoder has read, and where it
// starts: what the workers decode (StartParallel).
func (s *Source) Rest() (io.Reader, Pos) {
	window, _ := io.ReadAll(s.D.Buffered())
	at := s.Lines.PosAt(s.Offset(), window)
	return io.MultiReader(bytes.NewReader(window), s.R), at
}

// ReadBy is how far the input has been read, for progress reports: by
// the workers while they run (p), else by the serial decoder.
func ReadBy[R any](s *Source, p *Parallel[R]) int64 {
	if p.Running() {
		return p.Sent()
	}
	return s.Offset()
}
