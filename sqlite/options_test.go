package sqlite

import (
	"context"
	"errors"
	"strings"
	"testing"
)

func TestPrimaryKey(t *testing.T) {
	t.Run("single text key", func(t *testing.T) {
		db := openDB(t)
		load(t, db, "t", ndjson(`{"k":"a","v":1}`, `{"k":"b","v":2}`), &Options{PrimaryKey: []string{"k"}})
		if s := schema(t, db, "t"); !strings.Contains(s, `"k" TEXT PRIMARY KEY`) {
			t.Errorf("schema %s", s)
		}
	})
	t.Run("composite", func(t *testing.T) {
		db := openDB(t)
		load(t, db, "t", ndjson(`{"a":1,"b":"x","v":1}`, `{"a":1,"b":"y","v":2}`), &Options{PrimaryKey: []string{"a", "b"}})
		if s := schema(t, db, "t"); !strings.Contains(s, `PRIMARY KEY ("a", "b")`) {
			t.Errorf("schema %s", s)
		}
		_, err := Insert(context.Background(), db, "t", strings.NewReader(`{"a":1,"b":"x","v":3}`), nil)
		var re *RowError
		if !errors.As(err, &re) || re.Row != 1 || !strings.Contains(err.Error(), "UNIQUE") {
			t.Errorf("duplicate composite key: %v", err)
		}
	})
}

func TestConflict(t *testing.T) {
	first := ndjson(`{"id":1,"a":"x","b":10}`, `{"id":2,"a":"y","b":20}`)
	second := ndjson(`{"id":2,"a":"Y"}`, `{"id":3,"a":"z","b":30}`)
	tests := []struct {
		conflict Conflict
		want     string
		rows     int64
		changes  int64
		err      string
	}{
		{Fail, ndjson(`{"id":1,"a":"x","b":10}`, `{"id":2,"a":"y","b":20}`), 0, 0, "row 1 at byte 0: UNIQUE constraint failed"},
		{Ignore, ndjson(`{"id":1,"a":"x","b":10}`, `{"id":2,"a":"y","b":20}`, `{"id":3,"a":"z","b":30}`), 2, 1, ""},
		{Replace, ndjson(`{"id":1,"a":"x","b":10}`, `{"id":2,"a":"Y","b":null}`, `{"id":3,"a":"z","b":30}`), 2, 2, ""},
		{Upsert, ndjson(`{"id":1,"a":"x","b":10}`, `{"id":2,"a":"Y","b":20}`, `{"id":3,"a":"z","b":30}`), 2, 2, ""},
	}
	for _, tc := range tests {
		t.Run(tc.conflict.String(), func(t *testing.T) {
			for _, per := range []int{1, 128} {
				db := openDB(t)
				load(t, db, "t", first, &Options{PrimaryKey: []string{"id"}})
				res, err := Insert(context.Background(), db, "t", strings.NewReader(second), &Options{Conflict: tc.conflict, RowsPerStatement: per})
				if tc.err != "" {
					if err == nil || !strings.Contains(err.Error(), tc.err) {
						t.Errorf("per=%d: error %v, want %q", per, err, tc.err)
					}
				} else if err != nil {
					t.Fatalf("per=%d: %v", per, err)
				}
				if res.Rows != tc.rows || res.Changes != tc.changes {
					t.Errorf("per=%d: Rows %d Changes %d, want %d %d", per, res.Rows, res.Changes, tc.rows, tc.changes)
				}
				if got := dump(t, db, "SELECT * FROM t ORDER BY id"); got != tc.want {
					t.Errorf("per=%d:\n got: %s\nwant: %s", per, got, tc.want)
				}
			}
		})
	}
}

func TestIgnoreTwiceChangesNothing(t *testing.T) {
	db := openDB(t)
	in := string(tasksJSON(1000, false))
	// Ids are assigned by position so the same input has the same keys.
	in = rowsOf(1000, func(i int) string {
		return `{"id":` + itoa(i) + `,"title":"t` + itoa(i) + `","done":` + [2]string{"false", "true"}[i&1] + `}`
	})
	opts := &Options{PrimaryKey: []string{"id"}, Conflict: Ignore, BatchSize: 300}
	r1 := load(t, db, "t", in, opts)
	before := dump(t, db, "SELECT * FROM t ORDER BY id")
	r2 := load(t, db, "t", in, opts)
	if r1.Changes != 1000 || r2.Changes != 0 || r2.Rows != 1000 {
		t.Errorf("first %+v, second %+v", r1, r2)
	}
	if after := dump(t, db, "SELECT * FROM t ORDER BY id"); after != before {
		t.Error("second load with Ignore changed the table")
	}
}

func itoa(i int) string { return strings.TrimSpace(strings.Repeat(" ", 0)) + fmtInt(i) }

func fmtInt(i int) string {
	if i == 0 {
		return "0"
	}
	var b [20]byte
	n := len(b)
	for ; i > 0; i /= 10 {
		n--
		b[n] = byte('0' + i%10)
	}
	return string(b[n:])
}

func TestAlter(t *testing.T) {
	in := ndjson(`{"a":1}`, `{"a":2,"b":"x"}`, `{"c":1.5,"a":3}`, `{"a":4,"b":"y","d":{"n":1}}`)
	t.Run("without alter", func(t *testing.T) {
		db := openDB(t)
		res, err := Insert(context.Background(), db, "t", strings.NewReader(in), &Options{InferRows: 1})
		var re *RowError
		if !errors.As(err, &re) || re.Row != 2 || !strings.Contains(err.Error(), `key "b" is not a column of table "t"`) {
			t.Fatalf("error %v, want row 2 naming key b", err)
		}
		if res.Rows != 0 || count(t, db, "t") != 0 {
			t.Errorf("committed %d rows (%d in table), want 0", res.Rows, count(t, db, "t"))
		}
	})
	t.Run("with alter", func(t *testing.T) {
		for _, per := range []int{1, 3, 128} {
			db := openDB(t)
			res := load(t, db, "t", in, &Options{InferRows: 1, Alter: true, RowsPerStatement: per})
			if got, want := strings.Join(res.Added, ","), "b,c,d"; got != want {
				t.Errorf("Added %q, want %q", got, want)
			}
			if got, want := strings.Join(columnTypes(t, db, "t"), ","), "a INTEGER,b TEXT,c REAL,d JSON TEXT"; got != want {
				t.Errorf("columns %s, want %s", got, want)
			}
			want := ndjson(`{"a":1,"b":null,"c":null,"d":null}`, `{"a":2,"b":"x","c":null,"d":null}`,
				`{"a":3,"b":null,"c":1.5,"d":null}`, `{"a":4,"b":"y","c":null,"d":{"n":1}}`)
			if got := dump(t, db, "SELECT * FROM t"); got != want {
				t.Errorf("per=%d\n got: %s\nwant: %s", per, got, want)
			}
		}
	})
	t.Run("existing table", func(t *testing.T) {
		db := openDB(t)
		load(t, db, "t", `{"a":1}`, nil)
		if _, err := Insert(context.Background(), db, "t", strings.NewReader(`{"a":2,"z":null}`), nil); err == nil {
			t.Fatal("new key accepted without Alter")
		}
		res := load(t, db, "t", `{"a":2,"z":null}`, &Options{Alter: true})
		if len(res.Added) != 1 || res.Added[0] != "z" {
			t.Errorf("Added %q", res.Added)
		}
		if got := strings.Join(columnTypes(t, db, "t"), ","); got != "a INTEGER,z TEXT" {
			t.Errorf("columns %s", got)
		}
	})
}

func TestBatches(t *testing.T) {
	// 10 rows, batches of 3: the error in row 8 keeps rows 1-6.
	in := rowsOf(10, func(i int) string {
		if i == 8 {
			return `{"a":` // truncated: syntax error
		}
		return `{"a":` + itoa(i) + `}`
	})
	for _, per := range []int{1, 2, 128} {
		db := openDB(t)
		res, err := Insert(context.Background(), db, "t", strings.NewReader(in), &Options{BatchSize: 3, RowsPerStatement: per})
		var re *RowError
		if !errors.As(err, &re) || re.Row != 8 {
			t.Fatalf("per=%d: error %v, want row 8", per, err)
		}
		if res.Rows != 6 || res.Changes != 6 || count(t, db, "t") != 6 {
			t.Errorf("per=%d: Rows %d Changes %d, table has %d, want 6", per, res.Rows, res.Changes, count(t, db, "t"))
		}
	}
	t.Run("all or nothing", func(t *testing.T) {
		db := openDB(t)
		res, err := Insert(context.Background(), db, "t", strings.NewReader(in), &Options{BatchSize: 3, AllOrNothing: true})
		if err == nil || res.Rows != 0 || res.Created || count(t, db, "t") != 0 {
			t.Errorf("err %v, %+v, table has %d rows", err, res, count(t, db, "t"))
		}
		good := rowsOf(10, func(i int) string { return `{"a":` + itoa(i) + `}` })
		res = load(t, db, "t", good, &Options{BatchSize: 3, AllOrNothing: true})
		if res.Rows != 10 || count(t, db, "t") != 10 || !res.Created {
			t.Errorf("%+v", res)
		}
	})
}

func TestNotNullAndDefaults(t *testing.T) {
	db := openDB(t)
	opts := &Options{
		NotNull:  []string{"title"},
		Defaults: map[string]any{"done": false, "prio": 3, "note": "it's", "w": 0.5, "bin": []byte{1, 0xab}},
		Columns: []Column{{Name: "title", Type: "TEXT"}, {Name: "done", Type: "INTEGER"}, {Name: "prio", Type: "INTEGER"},
			{Name: "note", Type: "TEXT"}, {Name: "w", Type: "REAL"}, {Name: "bin", Type: "BLOB"}, {Name: "at", Type: "TEXT", Default: "now"}},
	}
	load(t, db, "t", ndjson(`{"title":"a"}`, `{"title":"b","done":true,"prio":null,"note":"n"}`), opts)
	want := ndjson(`{"title":"a","done":0,"prio":3,"note":"it's","w":0.5,"bin":"Aas=","at":"now"}`,
		`{"title":"b","done":1,"prio":3,"note":"n","w":0.5,"bin":"Aas=","at":"now"}`)
	if got := dump(t, db, "SELECT * FROM t"); got != want {
		t.Errorf("\n got: %s\nwant: %s", got, want)
	}
	_, err := Insert(context.Background(), db, "t", strings.NewReader(ndjson(`{"title":"c"}`, `{"note":"no title"}`)), nil)
	var re *RowError
	if !errors.As(err, &re) || re.Row != 2 || !strings.Contains(err.Error(), "NOT NULL constraint failed") {
		t.Errorf("error %v, want NOT NULL in row 2", err)
	}
	// Unknown names and unsupported defaults are errors before anything happens.
	for _, o := range []*Options{{NotNull: []string{"nope"}}, {Defaults: map[string]any{"a": struct{}{}}}, {Defaults: map[string]any{"b\x00": 1}}} {
		db := openDB(t)
		if _, err := Insert(context.Background(), db, "t", strings.NewReader(`{"a":1}`), o); err == nil {
			t.Errorf("%+v accepted", o)
		}
	}
}

type task struct {
	ID      int64    `json:"id"`
	Title   string   `json:"title"`
	Done    bool     `json:"done"`
	Score   *float64 `json:"score,omitempty"`
	Tags    []string `json:"tags"`
	private int
	Skip    string `json:"-"`
	Embedded
}

type Embedded struct {
	Owner string
}

func TestColumnsOf(t *testing.T) {
	cols, err := ColumnsOf[task]()
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range cols {
		got = append(got, c.Name+" "+c.Type)
	}
	if want := "id INTEGER,title TEXT,done INTEGER,score REAL,tags TEXT,Owner TEXT"; strings.Join(got, ",") != want {
		t.Errorf("ColumnsOf = %s, want %s", strings.Join(got, ","), want)
	}
	if _, err := ColumnsOf[int](); err == nil {
		t.Error("ColumnsOf[int] succeeded")
	}
	db := openDB(t)
	cols[1].NotNull = true
	load(t, db, "tasks", `[{"id":1,"title":"x","done":true,"tags":["a"],"Owner":"me"}]`, &Options{Columns: cols, PrimaryKey: []string{"id"}})
	if s := schema(t, db, "tasks"); !strings.Contains(s, `"id" INTEGER PRIMARY KEY`) || !strings.Contains(s, `"title" TEXT NOT NULL`) {
		t.Errorf("schema %s", s)
	}
	// A key outside the struct's columns is an error, as for any table.
	if _, err := Insert(context.Background(), db, "tasks", strings.NewReader(`{"id":2,"extra":1}`), nil); err == nil {
		t.Error("unknown key accepted")
	}
}

func TestExplicitColumnsValidation(t *testing.T) {
	bad := [][]Column{
		{{Name: "a", Type: "TEXT); DROP TABLE x; --"}},
		{{Name: "a", Type: "TEXT, b INTEGER"}},
		{{Name: "a"}, {Name: "A"}},
		{{Name: "a\x00b"}},
	}
	for _, cols := range bad {
		db := openDB(t)
		if _, err := Insert(context.Background(), db, "t", strings.NewReader(`{"a":1}`), &Options{Columns: cols}); err == nil {
			t.Errorf("columns %+v accepted", cols)
		}
	}
	for _, typ := range []string{"", "INTEGER", "VARCHAR(20)", "DECIMAL(10, 2)", "UNSIGNED BIG INT", "double precision"} {
		if err := validType(typ); err != nil {
			t.Errorf("validType(%q): %v", typ, err)
		}
	}
}

func TestFormat(t *testing.T) {
	db := openDB(t)
	if _, err := Insert(context.Background(), db, "t", strings.NewReader(`[{"a":1}]`), &Options{Format: Lines}); err == nil || !strings.Contains(err.Error(), "want newline-delimited") {
		t.Errorf("Lines with an array: %v", err)
	}
	if _, err := Insert(context.Background(), db, "t", strings.NewReader(`{"a":1}`), &Options{Format: Array}); err == nil || !strings.Contains(err.Error(), "want an array") {
		t.Errorf("Array with objects: %v", err)
	}
	load(t, db, "t", ndjson(`{"a":1}`, `{"a":2}`), &Options{Format: Lines})
	load(t, db, "t", `[{"a":3}]`, &Options{Format: Array})
	if n := count(t, db, "t"); n != 3 {
		t.Errorf("%d rows", n)
	}
}

func TestRowsPerStatementCap(t *testing.T) {
	// 300 columns: at most 109 rows fit in 32,766 parameters.
	var b strings.Builder
	b.WriteByte('{')
	for i := 0; i < 300; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`"c` + itoa(i) + `":` + itoa(i))
	}
	b.WriteString("}\n")
	in := strings.Repeat(b.String(), 250)
	db := openDB(t)
	res := load(t, db, "t", in, &Options{RowsPerStatement: 1000})
	if res.Rows != 250 || count(t, db, "t") != 250 {
		t.Errorf("%+v", res)
	}
}

func TestBulkPragmasRestored(t *testing.T) {
	db := openDB(t)
	db.SetMaxOpenConns(1)
	if _, err := db.Exec("PRAGMA synchronous=FULL"); err != nil {
		t.Fatal(err)
	}
	res := load(t, db, "t", string(tasksJSON(100, true)), &Options{BulkPragmas: true, BatchSize: 10})
	if res.Rows != 100 {
		t.Errorf("%+v", res)
	}
	var sync int
	var mode string
	db.QueryRow("PRAGMA synchronous").Scan(&sync)
	db.QueryRow("PRAGMA journal_mode").Scan(&mode)
	if sync != 2 || mode != "delete" {
		t.Errorf("after load: synchronous=%d journal_mode=%s, want 2 (FULL) and delete", sync, mode)
	}
	// WAL stays WAL.
	db.Exec("PRAGMA journal_mode=WAL")
	load(t, db, "t", string(tasksJSON(10, true)), &Options{BulkPragmas: true})
	db.QueryRow("PRAGMA journal_mode").Scan(&mode)
	if mode != "wal" {
		t.Errorf("journal_mode %s after load, want wal", mode)
	}
}

func TestProgress(t *testing.T) {
	db := openDB(t)
	var ps []Progress
	in := tasksJSON(25, true)
	load(t, db, "t", string(in), &Options{BatchSize: 10, Progress: func(p Progress) { ps = append(ps, p) }})
	if len(ps) != 3 {
		t.Fatalf("progress %+v, want 3 reports", ps)
	}
	// Rows counts rows read, which runs ahead of Committed while the first
	// rows are read to infer the columns.
	if ps[0].Rows < 10 || ps[0].Committed != 10 || ps[1].Committed != 20 || ps[2].Committed != 25 || ps[2].Rows != 25 || ps[2].Bytes < int64(len(in))-1 {
		t.Errorf("progress %+v (input %d bytes)", ps, len(in))
	}
}

func TestMaxValueSize(t *testing.T) {
	db := openDB(t)
	big := `{"a":"` + strings.Repeat("x", 100<<10) + `"}`
	_, err := Insert(context.Background(), db, "t", strings.NewReader(ndjson(`{"a":"ok"}`, big)), &Options{MaxValueSize: 64 << 10})
	var re *RowError
	if !errors.As(err, &re) || re.Row != 2 {
		t.Errorf("error %v, want row 2 too long", err)
	}
	// A value shorter than the decoder's window is held to the cap too.
	db = openDB(t)
	_, err = Insert(context.Background(), db, "t", strings.NewReader(ndjson(`{"a":"ok"}`, `{"a":[1,2,3]}`, `{"a":"123456789"}`)), &Options{MaxValueSize: 8})
	var te *TypeError
	if !errors.As(err, &re) || re.Row != 3 || !errors.As(err, &te) {
		t.Errorf("error %v, want row 3 too long", err)
	}
	// Without the cap the window grows to hold it.
	db = openDB(t)
	load(t, db, "t", ndjson(`{"a":"ok"}`, big, `{"a":[`+strings.Repeat(`"y",`, 50<<10)+`1]}`), nil)
	var n int
	db.QueryRow("SELECT sum(length(a)) FROM t").Scan(&n)
	if n != 2+100<<10+(4*50<<10)+3 {
		t.Errorf("stored %d bytes", n)
	}
}

func TestDefaultsAddColumnsWithPrimaryKey(t *testing.T) {
	db := openDB(t)
	load(t, db, "t", ndjson(`{"a":"x"}`, `{"a":"y","b":2}`), &Options{PrimaryKey: []string{"id"}, Defaults: map[string]any{"z": 1.5, "b": 7}})
	want := ndjson(`{"id":1,"a":"x","b":7,"z":1.5}`, `{"id":2,"a":"y","b":2,"z":1.5}`)
	if got := dump(t, db, "SELECT * FROM t"); got != want {
		t.Errorf("\n got: %s\nwant: %s", got, want)
	}
}

// An existing table's own defaults, expressions included, fill missing keys.
func TestExistingTableDefaults(t *testing.T) {
	db := openDB(t)
	if _, err := db.Exec(`CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT NOT NULL DEFAULT 'anon', at TEXT DEFAULT (datetime('now')), n INTEGER DEFAULT (6*7))`); err != nil {
		t.Fatal(err)
	}
	load(t, db, "t", ndjson(`{"name":"x","n":1}`, `{}`, `{"name":null,"at":"then"}`), nil)
	got := dump(t, db, "SELECT id, name, at IS NOT NULL AND at != '' AS has_at, n FROM t")
	want := ndjson(`{"id":1,"name":"x","has_at":1,"n":1}`, `{"id":2,"name":"anon","has_at":1,"n":42}`, `{"id":3,"name":"anon","has_at":1,"n":42}`)
	if got != want {
		t.Errorf("\n got: %s\nwant: %s", got, want)
	}
}
