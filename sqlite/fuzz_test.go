package sqlite

import (
	"bytes"
	"context"
	"database/sql"
	stdjson "encoding/json"
	"errors"
	"io"
	"testing"

	sqlite3 "github.com/mattn/go-sqlite3"
)

// FuzzInsert loads arbitrary bytes. It must never panic; when it succeeds,
// the table holds exactly Result.Rows rows, and encoding/json agrees that
// the input was a stream of that many objects (or arrays of objects); when
// encoding/json reads the input as such a stream, Insert must not report a
// JSON syntax error.
//
//	go test ./sqlite -run='^$' -fuzz=FuzzInsert -fuzztime=1m
func FuzzInsert(f *testing.F) {
	for _, s := range []string{
		`{"a":1}`, `[{"a":1},{"b":"x"}]`, "{\"a\":1}\n{\"a\":2.5}\n", `{"a":{"b":[1,2]}}`, `[]`, ``,
		`{"a\"; DROP TABLE x; --":1}`, `{"":null}`, `{"A":1,"a":2}`, `[{"a":1},2]`, `{"a":1e400}`,
		`{"a":"\ud800"}`, `{"a":18446744073709551616}`, `[[{"a":1}]]`, `{"a":1}{"b":2}[{"c":3}]`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		db, err := sql.Open("sqlite3", ":memory:")
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		db.SetMaxOpenConns(1)
		res, err := Insert(context.Background(), db, "t", bytes.NewReader(in), &Options{Alter: true, BatchSize: 3, RowsPerStatement: 2})
		want, stdOK := stdObjects(in)
		if err == nil {
			var n int64
			if res.Rows > 0 {
				if qerr := db.QueryRow(`SELECT count(*) FROM t`).Scan(&n); qerr != nil {
					t.Fatal(qerr)
				}
			}
			if n != res.Rows {
				t.Fatalf("Result.Rows %d, table has %d", res.Rows, n)
			}
			if !stdOK || want != res.Rows {
				t.Fatalf("loaded %d rows; encoding/json: ok=%v, %d objects", res.Rows, stdOK, want)
			}
		} else if stdOK && !acceptableFailure(err) {
			t.Fatalf("encoding/json reads %d objects, Insert fails: %v", want, err)
		}
	})
}

// stdObjects reads in with encoding/json as Insert's Auto format does: a
// stream of objects and arrays of objects. It reports the object count and
// whether the whole input is such a stream.
func stdObjects(in []byte) (int64, bool) {
	dec := stdjson.NewDecoder(bytes.NewReader(in))
	var n int64
	for {
		var v any
		err := dec.Decode(&v)
		if err == io.EOF {
			return n, true
		}
		if err != nil {
			return n, false
		}
		switch v := v.(type) {
		case map[string]any:
			n++
		case []any:
			for _, e := range v {
				if _, ok := e.(map[string]any); !ok {
					return n, false
				}
				n++
			}
		default:
			return n, false
		}
	}
}

// acceptableFailure reports errors that valid JSON can still cause: a
// name SQLite cannot hold, a table with no columns, two keys of a row that
// name one column, or an error SQLite raises (too many columns, say).
func acceptableFailure(err error) bool {
	var se sqlite3.Error
	var sc *sameColumnError
	return errors.Is(err, errNULName) || errors.Is(err, errNoColumns) || errors.As(err, &sc) || errors.As(err, &se)
}
