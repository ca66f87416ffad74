package postgres

import (
	"errors"
	"strings"
	"testing"

	"github.com/jsonpipe/json/internal/csvin"
	"github.com/jsonpipe/json/internal/pgtest"
)

// CSV and TSV input (Options.Delimiter) into a real PostgreSQL, through
// binary COPY as JSON is.

func TestCSVTypesAndOptions(t *testing.T) {
	c := pgtest.Conn(t)
	o := &Options{Delimiter: ',', PrimaryKey: []string{"id"}}
	in := "id,score,name,note\r\n1,1.5,\"Smith, J\",\r\n007,2,\"say \"\"hi\"\"\nthere\",x\r\n+3,1e3,7,"
	res := mustLoad(t, c, "t", in, o)
	if res.Rows != 3 || !res.Created {
		t.Fatalf("result %+v", res)
	}
	if got, want := columnTypes(t, c, "t"),
		"id bigint\nscore double precision\nname text\nnote text\n"; got != want {
		t.Errorf("columns:\n%s want\n%s", got, want)
	}
	if got, want := dump(t, c, "SELECT * FROM t ORDER BY id"), "1|1.5|Smith, J|NULL\n3|1000|7|NULL\n7|2|say \"hi\"\nthere|x\n"; got != want {
		t.Errorf("rows:\n%s want\n%s", got, want)
	}
	_, err := load(t, c, "t", "id,score,name,note\n9,1,a,b\n1,1,a,b\n", o)
	var re *RowError
	if !errors.As(err, &re) || re.Row != 2 || re.Offset != 27 || !strings.Contains(err.Error(), "line 3:") {
		t.Errorf("error %v, want row 2 at byte 27, line 3", err)
	}
	o.Conflict = Upsert
	mustLoad(t, c, "t", "id,name\n1,Jones\n", o)
	o.Conflict = Fail
	o.Alter = true
	mustLoad(t, c, "t", "id,extra\n10,5\n", o)
	if got, want := dump(t, c, "SELECT id, name, extra FROM t ORDER BY id"), "1|Jones|NULL\n3|7|NULL\n7|say \"hi\"\nthere|NULL\n10|NULL|5\n"; got != want {
		t.Errorf("rows:\n%s want\n%s", got, want)
	}
}

func TestCSVErrorsAndHostile(t *testing.T) {
	c := pgtest.Conn(t)
	_, err := load(t, c, "t", "a\tb\n1\t2\n3\t\"x\n", &Options{Delimiter: '\t'})
	var re *RowError
	var se *csvin.SyntaxError
	if !errors.As(err, &re) || !errors.As(err, &se) || re.Row != 2 || re.Offset != 10 || se.Line != 3 || !strings.HasPrefix(se.Error(), "tsv: line 3: quoted field still open") {
		t.Errorf("error %v, want row 2 at byte 10, tsv: line 3", err)
	}
	for _, tc := range []struct{ in, msg string }{
		{"", "csv: the input is empty"},
		{"a,b,a\n", `columns 1 and 3 are both named "a"`},
		{"a,\n", "column 2 has no name"},
		{"a,b\n1,2\n\xff,3\n", "not valid UTF-8"},
		{"a,b\n1\n", "1 fields, but the header names 2 columns"},
	} {
		if _, err := load(t, c, "t2", tc.in, &Options{Delimiter: ','}); err == nil || !strings.Contains(err.Error(), tc.msg) {
			t.Errorf("%q: error %v, want %q", tc.in, err, tc.msg)
		}
	}
	mustLoad(t, c, "header_only", "a,b\n", &Options{Delimiter: ','})
	if got, want := columnTypes(t, c, "header_only"), "a text\nb text\n"; got != want {
		t.Errorf("header only: %s, want %s", got, want)
	}
	mustLoad(t, c, "one", "n\n1\n\n\n2\n", &Options{Delimiter: ',', EmptyStrings: true})
	if got, want := dump(t, c, "SELECT n FROM one"), "1\n2\n"; got != want {
		t.Errorf("one column: %s, want %s", got, want)
	}
	mustLoad(t, c, "es", "s,n\nx,1\n,\n", &Options{Delimiter: ',', EmptyStrings: true})
	if got, want := dump(t, c, "SELECT s = '', n FROM es WHERE n IS NULL"), "t|NULL\n"; got != want {
		t.Errorf("empty strings: %s, want %s", got, want)
	}
}

// TestCSVBooleanColumn: CSV has no booleans, so a field of a boolean
// column in a table the user made is read as COPY reads one; anything else
// is a row error. JSON stays strict: a string is not a boolean.
func TestCSVBooleanColumn(t *testing.T) {
	c := pgtest.Conn(t)
	if _, err := c.Exec(bg, `CREATE TABLE b (id bigint, ok boolean)`); err != nil {
		t.Fatal(err)
	}
	o := &Options{Delimiter: ','}
	mustLoad(t, c, "b", "id,ok\n1,true\n2,f\n3, YES \n4,0\n5,\n6,On\n", o)
	if got, want := dump(t, c, "SELECT * FROM b ORDER BY id"), "1|t\n2|f\n3|t\n4|f\n5|NULL\n6|t\n"; got != want {
		t.Errorf("rows:\n%s want\n%s", got, want)
	}
	_, err := load(t, c, "b", "id,ok\n7,true\n8,maybe\n", o)
	var re *RowError
	if !errors.As(err, &re) || re.Row != 2 || !strings.Contains(err.Error(), `column "ok" is boolean; the value is a string`) {
		t.Errorf("error %v, want row 2: not a boolean", err)
	}
	if _, err := load(t, c, "b", `{"id":9,"ok":"true"}`, nil); err == nil || !strings.Contains(err.Error(), "is boolean; the value is a string") {
		t.Errorf("JSON string into a boolean column: %v, want the type error", err)
	}
}
