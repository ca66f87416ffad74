package postgres

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/jsonpipe/json/internal/loader"
	"github.com/jsonpipe/json/internal/pgtest"
)

// CSV columns widen past the sampled rows as JSON ones do: a column
// detected as integer from the first InferRows rows that later holds 1.5,
// then abc, goes bigint → double precision → text in a table the load
// creates, every row stored with its value.

// csvWidenInput: column n is an integer in rows 1 to 22 (the first two
// sampled), 1.5 in row 23, abc in row 24, integers again after; column e
// is always empty, column s always text.
func csvWidenInput() (in, want string) {
	var b, w strings.Builder
	b.WriteString("i,n,e,s\n")
	for i := 1; i <= 30; i++ {
		n := fmt.Sprint(i * 10)
		switch i {
		case 23:
			n = "1.5"
		case 24:
			n = "abc"
		}
		fmt.Fprintf(&b, "%d,%s,,s%d\n", i, n, i)
		fmt.Fprintf(&w, "%d|%s|NULL|s%d\n", i, n, i)
	}
	return b.String(), w.String()
}

func TestCSVWiden(t *testing.T) {
	in, want := csvWidenInput()
	for _, m := range []struct {
		name           string
		workers, conns int
	}{{"serial", 1, 1}, {"workers", 2, 1}, {"2 connections", 1, 2}, {"workers/2 connections", 2, 2}} {
		t.Run(m.name, func(t *testing.T) {
			c := connect(t)
			o := loader.Tune(&Options{Delimiter: ',', InferRows: 2, BatchSize: 5, Workers: m.workers, Connections: m.conns},
				loader.Tuning{Serial: m.workers == 1, BlockSize: 64})
			res, err := load(t, c, "t", in, o)
			if err != nil {
				t.Fatalf("Insert: %v", err)
			}
			wantWidened := []string{"n: bigint → double precision", "n: double precision → text"}
			if res.Rows != 30 || !res.Created || !slices.Equal(res.Widened, wantWidened) {
				t.Errorf("result %+v, want 30 rows, widened %q", res, wantWidened)
			}
			if got, want := columnTypes(t, c, "t"), "i bigint\nn text\ne text\ns text\n"; got != want {
				t.Errorf("columns:\n%s want\n%s", got, want)
			}
			if got := dump(t, c, "SELECT i, n, e, s FROM t ORDER BY i"); got != want {
				t.Errorf("rows:\n%s want\n%s", got, want)
			}
		})
	}
}

// TestCSVWidenOnce: a column that only needs double precision stops there.
func TestCSVWidenOnce(t *testing.T) {
	c := pgtest.Conn(t)
	res := mustLoad(t, c, "t", "i,n\n1,1\n2,2\n3,2.5\n4,4\n", &Options{Delimiter: ',', InferRows: 2})
	if !slices.Equal(res.Widened, []string{"n: bigint → double precision"}) {
		t.Errorf("result %+v", res)
	}
	if got, want := dump(t, c, "SELECT i, n, pg_typeof(n) FROM t ORDER BY i"), "1|1|double precision\n2|2|double precision\n3|2.5|double precision\n4|4|double precision\n"; got != want {
		t.Errorf("rows:\n%s want\n%s", got, want)
	}
}

// TestCSVWidenStrict: with StrictTypes the load stops at the first value
// that does not fit, its row and CSV line named, the batches before it
// committed.
func TestCSVWidenStrict(t *testing.T) {
	c := pgtest.Conn(t)
	in, _ := csvWidenInput()
	res, err := load(t, c, "t", in, &Options{Delimiter: ',', InferRows: 2, BatchSize: 5, StrictTypes: true})
	var re *RowError
	var te *TypeError
	if !errors.As(err, &re) || !errors.As(err, &te) || re.Row != 23 || !strings.Contains(err.Error(), "line 24:") ||
		!strings.Contains(err.Error(), `column "n" is bigint; the value is number 1.5`) {
		t.Fatalf("error %v, want a TypeError in row 23, line 24", err)
	}
	if wantOff := int64(strings.Index(in, "23,1.5")); re.Offset != wantOff {
		t.Errorf("offset %d, want %d", re.Offset, wantOff)
	}
	if res.Rows != 20 || count(t, c, "t") != 20 || len(res.Widened) != 0 {
		t.Errorf("%+v", res)
	}
}

// TestCSVWidenNotOwnTable: into a table the load did not create, a CSV
// value that does not fit its column is an error naming the row and
// line, as for JSON; the column is not altered.
func TestCSVWidenNotOwnTable(t *testing.T) {
	c := pgtest.Conn(t)
	if _, err := c.Exec(bg, "CREATE TABLE t (i bigint, n bigint)"); err != nil {
		t.Fatal(err)
	}
	res, err := load(t, c, "t", "i,n\n1,1\n2,2\n3,1.5\n", &Options{Delimiter: ',', InferRows: 2, BatchSize: 2})
	var re *RowError
	var te *TypeError
	if !errors.As(err, &re) || !errors.As(err, &te) || re.Row != 3 || !strings.Contains(err.Error(), "line 4:") ||
		!strings.Contains(te.Msg, `column "n" is bigint; the value is number 1.5`) {
		t.Fatalf("error %v, want a TypeError in row 3, line 4", err)
	}
	if res.Rows != 2 || len(res.Widened) != 0 || columnTypes(t, c, "t") != "i bigint\nn bigint\n" {
		t.Errorf("%+v, columns %q", res, columnTypes(t, c, "t"))
	}
}

// TestCSVEmptyFields: an empty field is NULL in every column; with
// EmptyStrings it is "" in a text column only, NULL in numeric ones.
func TestCSVEmptyFields(t *testing.T) {
	c := pgtest.Conn(t)
	in := "n,x,s\n1,1.5,a\n,,\n3,,c\n"
	mustLoad(t, c, "plain", in, &Options{Delimiter: ','})
	mustLoad(t, c, "es", in, &Options{Delimiter: ',', EmptyStrings: true})
	if got, want := columnTypes(t, c, "es"), "n bigint\nx double precision\ns text\n"; got != want {
		t.Errorf("columns:\n%s want\n%s", got, want)
	}
	if got, want := dump(t, c, "SELECT n, x, s FROM plain"), "1|1.5|a\nNULL|NULL|NULL\n3|NULL|c\n"; got != want {
		t.Errorf("rows:\n%s want\n%s", got, want)
	}
	if got, want := dump(t, c, "SELECT n, x, s = '' FROM es"), "1|1.5|f\nNULL|NULL|t\n3|NULL|f\n"; got != want {
		t.Errorf("empty strings:\n%s want\n%s", got, want)
	}
}

// TestCSVBigIntegers: sampled numbers that include an integer past the
// 64-bit range make the column numeric, as for JSON, so it is kept
// exactly; one after the sample widens bigint to numeric.
func TestCSVBigIntegers(t *testing.T) {
	c := pgtest.Conn(t)
	const big = "123456789012345678901234567890"
	mustLoad(t, c, "t", "n\n1.5\n"+big+"\n", &Options{Delimiter: ','})
	if got, want := dump(t, c, "SELECT n, pg_typeof(n) FROM t"), "1.5|numeric\n"+big+"|numeric\n"; got != want {
		t.Errorf("rows:\n%s want\n%s", got, want)
	}
	res := mustLoad(t, c, "t2", "n\n1\n"+big+"\n", &Options{Delimiter: ',', InferRows: 1})
	if !slices.Equal(res.Widened, []string{"n: bigint → numeric"}) {
		t.Errorf("result %+v", res)
	}
	if got, want := dump(t, c, "SELECT n FROM t2"), "1\n"+big+"\n"; got != want {
		t.Errorf("rows:\n%s want\n%s", got, want)
	}
}
