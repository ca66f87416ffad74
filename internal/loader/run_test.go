package loader

import (
	"context"
	"fmt"
	"strings"
	"testing"

	json "github.com/jsonpipe/json"
)

// logBackend is a Backend that logs what Run asks of it. A row is an
// object of number members; a key not seen before is a new column,
// which the workers leave to the serial path.
type logBackend struct {
	Source
	o       *Options
	exists  bool
	created bool
	keys    map[string]bool
	cur     string // the keys of the row ReadRow read
	log     []string
}

// logRows is a worker's rows: each row's keys, space-separated.
type logRows struct {
	rows []string
	d    *json.Decoder
}

func (b *logBackend) logf(format string, args ...any) {
	b.log = append(b.log, fmt.Sprintf(format, args...))
}

// readRow reads a row's members from d, noting keys new to b.keys
// (which it adds when add is set).
func (b *logBackend) readRow(d *json.Decoder, add bool) (keys string, newKey bool, err error) {
	for {
		tok, err := d.NextToken()
		if err != nil {
			return "", false, err
		}
		if tok[0] == '}' {
			return strings.TrimSpace(keys), newKey, nil
		}
		k := string(tok[1 : len(tok)-1])
		if !b.keys[k] {
			newKey = true
			if add {
				b.keys[k] = true
			}
		}
		keys += " " + k
		if _, err := d.NextToken(); err != nil { // the value
			return "", false, err
		}
	}
}

func (b *logBackend) Input() *Source { return &b.Source }
func (b *logBackend) LoadTable() (bool, error) {
	b.logf("load")
	return b.exists, nil
}
func (b *logBackend) Truncate()    { b.logf("truncate") }
func (b *logBackend) Begin() error { b.logf("begin"); return nil }
func (b *logBackend) CreateTable() error {
	for _, c := range b.o.Columns {
		b.keys[c.Name] = true
	}
	b.created = true
	b.logf("create")
	return nil
}

// Sample reads the first row when there is no table, as SQLite does.
func (b *logBackend) Sample() error {
	if b.exists || b.created {
		b.logf("sample none")
		return nil
	}
	more, start, err := b.Next()
	if err != nil || !more {
		return err
	}
	keys, _, err := b.readRow(b.D, true)
	if err != nil {
		return b.RowError(err, b.Row, -1)
	}
	b.logf("sample %d@%d %s", b.Row, start, keys)
	return nil
}
func (b *logBackend) StartWorkers() *Parallel[logRows] {
	rest, at := b.Rest()
	b.logf("workers")
	return StartParallel(b.o, rest, at, 1<<20, func(c *Chunk[logRows]) {
		if c.Rows.d == nil {
			c.Rows.d = WorkerDecoder(1 << 20)
		}
		r := &c.Rows
		r.rows = r.rows[:0]
		DecodeChunk(c, r.d, b.o.Format, func() error {
			keys, newKey, err := b.readRow(r.d, false)
			if err == nil && newKey {
				err = ErrSerial
			}
			if err == nil {
				r.rows = append(r.rows, keys)
			}
			return err
		})
	})
}
func (b *logBackend) AddWorkerRow(c *Chunk[logRows], i int, off int64) error {
	b.logf("worker %d@%d %s", b.Row, off, c.Rows.rows[i])
	return nil
}
func (b *logBackend) ReadRow() (bool, error) {
	keys, newKey, err := b.readRow(b.D, true)
	b.cur = keys
	return newKey, err
}
func (b *logBackend) Alter(off int64) error { b.logf("alter %d@%d", b.Row, off); return nil }
func (b *logBackend) AddRow(off int64) error {
	b.logf("add %d@%d %s", b.Row, off, b.cur)
	return nil
}
func (b *logBackend) Finish() error { b.logf("finish"); return nil }

func TestRun(t *testing.T) {
	tests := []struct {
		name   string
		in     string
		o      Options
		exists bool
		want   string
	}{
		{"sampled", `{"a":1}` + "\n" + `{"a":2,"b":3}` + "\n", Options{}, false,
			"load; sample 1@0 a; alter 2@8; add 2@8 a b; finish"},
		{"existing", `{"a":1} {"a":2}`, Options{}, true,
			"load; sample none; add 1@0 a; add 2@8 a; finish"},
		{"truncate, all or nothing", `{"a":1}`, Options{Truncate: true, AllOrNothing: true}, true,
			"load; truncate; begin; sample none; add 1@0 a; finish"},
		{"truncate, new table", `{"a":1}`, Options{Truncate: true}, false,
			"load; sample 1@0 a; finish"},
		{"columns", `{"a":1}`, Options{Columns: []Column{{Name: "a"}}}, false,
			"load; create; sample none; add 1@0 a; finish"},
		{"existing, then a new key", `{"a":1}` + "\n" + `{"b":2}`, Options{}, true,
			"load; sample none; add 1@0 a; alter 2@8; add 2@8 b; finish"},
		{"array", `[{"a":1},{"a":2}]`, Options{Workers: 2}, false,
			"load; sample 1@1 a; add 2@9 a; finish"},
		{"workers, then a new key", `{"a":1}` + "\n" + `{"a":2}` + "\n" + `{"a":3,"b":4}` + "\n" + `{"a":5}` + "\n", Options{Workers: 2}, false,
			"load; sample 1@0 a; workers; worker 2@8 a; alter 3@16; add 3@16 a b; add 4@30 a; finish"},
		{"error", `{"a":1}` + "\n" + `{"a":}`, Options{}, false,
			"load; sample 1@0 a; test: row 2 at byte 14 (line 2, column 6): invalid character '}' looking for beginning of value"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := &logBackend{o: &tt.o, exists: tt.exists, keys: map[string]bool{}}
			if tt.exists {
				b.keys["a"] = true
			}
			b.Init("test", strings.NewReader(tt.in), &tt.o, 1<<20)
			if err := Run(context.Background(), b, &tt.o); err != nil {
				b.logf("%v", err)
			}
			if got := strings.Join(b.log, "; "); got != tt.want {
				t.Errorf("got  %s\nwant %s", got, tt.want)
			}
		})
	}
}
