package loader

import "context"

// The load loop, written once: what is asked of a database in which
// order. The backends (sqlite/, postgres/) answer in their own terms.

// Reader is the part of a Backend that reads rows: what Steps asks of
// it.
type Reader[R any] interface {
	// Input is the load's input, the backend's Source.
	Input() *Source
	// StartWorkers starts the decoding workers on the input the Source
	// has not read (Source.Rest), with the columns as they are.
	StartWorkers() *Parallel[R]
	// ReadRow reads the members of the row whose '{' the Source has
	// consumed. newKeys says the row holds keys the table (or the COPY)
	// lacks.
	ReadRow() (newKeys bool, err error)
}

// Backend is what the load loop (Run) asks of a database. Its row reader
// reads the Source it embeds (Input) straight from the decoder; the loop
// makes one or two calls of Backend per row, never one per value. R is
// the backend's form of a worker's rows (Chunk.Rows).
type Backend[R any] interface {
	Reader[R]
	// LoadTable reads the table, if it exists, and reports whether it does.
	LoadTable() (exists bool, err error)
	// Truncate says that the table's rows are to be deleted, in the first
	// batch's transaction (Options.Truncate).
	Truncate()
	// Begin opens the transaction that holds the whole load
	// (Options.AllOrNothing).
	Begin() error
	// CreateTable creates the table from Options.Columns.
	CreateTable() error
	// Sample reads the first rows (Options.InferRows) the backend wants
	// to see before it adds any, and adds them. It is called on every
	// load, once the table is found or created from Options.Columns:
	// SQLite reads rows only to create a missing table from them;
	// PostgreSQL reads them on every load, to learn which columns the
	// rows hold (its COPY names them) and, for a missing table, their
	// types. An error in them is returned after the rows before it have
	// been added.
	Sample() error
	// AddWorkerRow adds row i of c, numbered Source.Row, at input offset
	// off.
	AddWorkerRow(c *Chunk[R], i int, off int64) error
	// Alter adds the columns of the new keys of the row just read,
	// numbered Source.Row, at input offset off.
	Alter(off int64) error
	// AddRow adds the row just read, numbered Source.Row, at input
	// offset off.
	AddRow(off int64) error
	// Finish stores the rows still pending and commits.
	Finish() error
}

// Run loads b's input into its table: it finds the table (or creates it,
// from Options.Columns or from the first rows, which the backend reads
// and adds first: Sample), starts the decoding
// workers when o asks for them, then reads each row (from the workers
// while they take the rows, from the Source once they hand over) and
// adds it, adding columns first for a row with new keys. The workers are
// stopped when it returns. What stays to be done on an error (flushing,
// rolling back) is the backend's.
func Run[R any](ctx context.Context, b Backend[R], o *Options) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	exists, err := b.LoadTable()
	if err != nil {
		return err
	}
	if exists && o.Truncate {
		b.Truncate()
	}
	if o.AllOrNothing {
		if err := b.Begin(); err != nil {
			return err
		}
	}
	if !exists && len(o.Columns) > 0 {
		if err := b.CreateTable(); err != nil {
			return err
		}
	}
	if err := b.Sample(); err != nil {
		return err
	}
	// The workers start with the first row after the sampled ones, when
	// the table and its columns are settled.
	steps := NewSteps(b, WantWorkers(o, &b.Input().Rows))
	defer steps.Stop()
	for {
		more, err := steps.Next()
		if err != nil {
			return err
		}
		if !more {
			return b.Finish()
		}
		if steps.Chunk != nil {
			err = b.AddWorkerRow(steps.Chunk, steps.I, steps.Off)
		} else {
			if steps.NewKeys {
				if err := b.Alter(steps.Off); err != nil {
					return err
				}
			}
			err = b.AddRow(steps.Off)
		}
		if err != nil {
			return err
		}
	}
}

// Steps hands out a load's rows one at a time, whoever decoded them: the
// workers while they take the rows, then the Source, from the row they
// hand over at (see parallel.go). After each Next, the row is numbered
// Source.Row and starts at input offset Off; it is row I of Chunk when a
// worker decoded it, else (Chunk nil) the backend's ReadRow has read it,
// and NewKeys is what ReadRow said.
type Steps[R any] struct {
	Chunk   *Chunk[R]
	I       int
	Off     int64
	NewKeys bool

	b     Reader[R]
	src   *Source
	par   *Parallel[R]
	start bool // start the workers at the first Next
	done  bool // the input has ended
}

// NewSteps returns the rows of b's input from where its Source is;
// workers says to start the decoding workers at the first Next (see
// WantWorkers), once the backend's columns are settled.
func NewSteps[R any](b Reader[R], workers bool) *Steps[R] {
	return &Steps[R]{b: b, src: b.Input(), start: workers}
}

// Next steps to the next row; it reports false at the end of the input.
// An error is placed at its row (a RowError), or is the context's.
func (s *Steps[R]) Next() (bool, error) {
	if s.done {
		return false, nil
	}
	if s.start {
		s.start = false
		s.par = s.b.StartWorkers()
	}
	if s.par.Running() {
		c, i, err := WorkerRow(s.src, s.par)
		if err != nil {
			return false, err
		}
		if c != nil {
			s.Chunk, s.I, s.Off = c, i, s.par.Off
			return true, nil
		}
		if !s.par.Serial {
			s.done = true
			return false, nil
		}
		// The workers handed the rest of the input over to the Source.
	}
	more, start, err := s.src.Next()
	if err != nil || !more {
		s.done = err == nil
		return false, err
	}
	s.Chunk, s.Off = nil, start
	if s.NewKeys, err = s.b.ReadRow(); err != nil {
		return false, s.src.RowError(err, s.src.Row, -1)
	}
	return true, nil
}

// Stop stops the workers, if they started; it returns once they have.
// s may be nil.
func (s *Steps[R]) Stop() {
	if s != nil {
		s.par.Stop()
	}
}
