package loader

import "context"

// The load loop, written once: what is asked of a database in which
// order. The backends (sqlite/, postgres/) answer in their own terms.

// Backend is what the load loop (Run) asks of a database. Its row reader
// reads the Source it embeds (Input) straight from the decoder; the loop
// makes one or two calls of Backend per row, never one per value. R is
// the backend's form of a worker's rows (Chunk.Rows).
type Backend[R any] interface {
	// Input is the load's input, the backend's Source.
	Input() *Source
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
	// Sample reads the first rows (Options.InferRows), creates the table
	// from them and adds them. An error in them is returned after the
	// rows before it have been added.
	Sample() error
	// StartWorkers starts the decoding workers on the input the Source
	// has not read (Source.Rest), with the columns as they are.
	StartWorkers() *Parallel[R]
	// AddWorkerRow adds row i of c, numbered Source.Row, at input offset
	// off.
	AddWorkerRow(c *Chunk[R], i int, off int64) error
	// ReadRow reads the members of the row whose '{' the Source has
	// consumed. newKeys says the row holds keys the table lacks (Alter).
	ReadRow() (newKeys bool, err error)
	// Alter adds the columns of the new keys of the row just read.
	Alter() error
	// AddRow adds the row just read, numbered Source.Row, at input
	// offset off.
	AddRow(off int64) error
	// Finish stores the rows still pending and commits.
	Finish() error
}

// Run loads b's input into its table: it finds the table (or creates it,
// from Options.Columns or from the first rows), starts the decoding
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
	switch {
	case exists:
	case len(o.Columns) > 0:
		if err := b.CreateTable(); err != nil {
			return err
		}
	default:
		if err := b.Sample(); err != nil {
			return err
		}
	}
	src := b.Input()
	// The workers start with the first row after the sampled ones, when
	// the table and its columns are settled (parallel.go).
	var par *Parallel[R]
	if WantWorkers(o, &src.Rows) {
		par = b.StartWorkers()
		defer par.Stop()
	}
	for par.Running() {
		c, i, err := WorkerRow(src, par)
		if err != nil {
			return err
		}
		if c == nil {
			break // the end of the input, or the rest of it is src's
		}
		if err := b.AddWorkerRow(c, i, par.Off); err != nil {
			return err
		}
	}
	if par == nil || par.Serial {
		for {
			more, start, err := src.Next()
			if err != nil {
				return err
			}
			if !more {
				break
			}
			newKeys, err := b.ReadRow()
			if err != nil {
				return src.RowError(err, src.Row, -1)
			}
			if newKeys {
				if err := b.Alter(); err != nil {
					return err
				}
			}
			if err := b.AddRow(start); err != nil {
				return err
			}
		}
	}
	return b.Finish()
}
