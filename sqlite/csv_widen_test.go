package sqlite

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/jsonpipe/json/internal/loader"
)

// A CSV column detected as INTEGER from the first InferRows rows that
// later holds 1.5, then abc: SQLite's columns take any value, so the
// column keeps its declared type and each value is stored as it is
// (typeof: integer, real, text), serially or through the workers;
// StrictTypes changes nothing.
func TestCSVPastSampleStoredAsIs(t *testing.T) {
	var in, want strings.Builder
	in.WriteString("i,n\n")
	for i := 1; i <= 30; i++ {
		n, k := fmt.Sprint(i*10), "integer"
		js := n
		switch i {
		case 23:
			n, k, js = "1.5", "real", "1.5"
		case 24:
			n, k, js = "abc", "text", `"abc"`
		}
		fmt.Fprintf(&in, "%d,%s\n", i, n)
		fmt.Fprintf(&want, `{"i":%d,"n":%s,"k":"%s"}`+"\n", i, js, k)
	}
	for _, serial := range []bool{true, false} {
		for _, strict := range []bool{false, true} {
			db := openDB(t)
			o := &Options{Delimiter: ',', InferRows: 2, BatchSize: 5, Workers: 2, StrictTypes: strict}
			loader.Tune(o, loader.Tuning{Serial: serial, BlockSize: 64})
			res := load(t, db, "t", in.String(), o)
			if res.Rows != 30 || len(res.Widened) != 0 {
				t.Errorf("serial %v strict %v: result %+v", serial, strict, res)
			}
			if got, want := flatSchema(t, db, "t"), `CREATE TABLE "t" ("i" INTEGER, "n" INTEGER)`; got != want {
				t.Errorf("schema %s, want %s", got, want)
			}
			if got := dump(t, db, "SELECT i, n, typeof(n) AS k FROM t ORDER BY i"); got != want.String() {
				t.Errorf("serial %v strict %v: rows:\n%s want\n%s", serial, strict, got, want.String())
			}
		}
	}
}

// Into a STRICT table the user made, a CSV value its column does not
// take is SQLite's error, at the row and line of the CSV, as for JSON.
func TestCSVStrictTableMismatch(t *testing.T) {
	db := openDB(t)
	if _, err := db.Exec("CREATE TABLE t (i INTEGER, n INTEGER) STRICT"); err != nil {
		t.Fatal(err)
	}
	in := "i,n\n1,1\n2,2\n3,abc\n"
	res, err := Insert(context.Background(), db, "t", strings.NewReader(in), &Options{Delimiter: ',', BatchSize: 2})
	var re *RowError
	if !errors.As(err, &re) || re.Row != 3 || re.Offset != int64(strings.Index(in, "3,abc")) ||
		!strings.Contains(err.Error(), "line 4: cannot store TEXT value in INTEGER column t.n") {
		t.Fatalf("error %v, want row 3 at the start of line 4, cannot store TEXT", err)
	}
	if res.Rows != 2 || count(t, db, "t") != 2 {
		t.Errorf("%+v, %d rows in t", res, count(t, db, "t"))
	}
	// The same rows as JSON: the same error.
	_, err = Insert(context.Background(), db, "t", strings.NewReader(`{"i":3,"n":"abc"}`), nil)
	if err == nil || !strings.Contains(err.Error(), "cannot store TEXT value in INTEGER column t.n") {
		t.Errorf("JSON: %v", err)
	}
}

// An empty field is NULL in every column; with EmptyStrings it is "" in
// a TEXT column only, NULL in INTEGER and REAL ones.
func TestCSVEmptyFieldsByType(t *testing.T) {
	in := "n,x,s\n1,1.5,a\n,,\n"
	for _, es := range []bool{false, true} {
		db := openDB(t)
		load(t, db, "t", in, &Options{Delimiter: ',', EmptyStrings: es})
		if got, want := flatSchema(t, db, "t"), `CREATE TABLE "t" ("n" INTEGER, "x" REAL, "s" TEXT)`; got != want {
			t.Errorf("schema %s, want %s", got, want)
		}
		s := "null"
		if es {
			s = `""`
		}
		want := `{"n":1,"x":1.5,"s":"a"}` + "\n" + `{"n":null,"x":null,"s":` + s + "}\n"
		if got := dump(t, db, "SELECT n, x, s FROM t"); got != want {
			t.Errorf("EmptyStrings %v: rows %s, want %s", es, got, want)
		}
	}
}
