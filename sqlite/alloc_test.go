package sqlite

import (
	"bytes"
	"context"
	"fmt"
	"testing"
)

// perRowAllocs measures the allocations of loading rows row(0), row(1), ...,
// by difference between loading n and 2n rows, so the fixed cost of a load
// (connection, statements, buffers) cancels out.
func perRowAllocs(t *testing.T, row func(int) string, n int) float64 {
	t.Helper()
	mk := func(k int) []byte {
		var b bytes.Buffer
		for i := range k {
			b.WriteString(row(i) + "\n")
		}
		return b.Bytes()
	}
	small, big := mk(n), mk(2*n)
	db := openDB(t)
	db.SetMaxOpenConns(1)
	load(t, db, "t", row(0), nil) // create the table
	run := func(in []byte) float64 {
		return testing.AllocsPerRun(5, func() {
			if _, err := Insert(context.Background(), db, "t", bytes.NewReader(in), nil); err != nil {
				t.Fatal(err)
			}
		})
	}
	return (run(big) - run(small)) / float64(n)
}

// The hot path allocates nothing per row but the driver.Value boxing that
// go-sqlite3's API requires: 16 bytes per text value that does not repeat
// (texts that do are boxed once), 8 per float and per integer above 255 (Go
// keeps small integers boxed in a static table), plus go-sqlite3's
// per-statement result, shared by the rows of a 128-row statement.
func TestAllocsPerRow(t *testing.T) {
	if testing.Short() {
		t.Skip("loads 30,000 rows a few times")
	}
	tests := []struct {
		name string
		row  func(i int) string
		max  float64
	}{
		{"small ints and booleans", same(`{"a":1,"b":true,"c":null,"d":255}`), 0.05},
		{"tasks row: a repeated text", same(`{"title":"Check Twitter","done":true}`), 0.05},
		{"tasks row: a new text", func(i int) string { return fmt.Sprintf(`{"title":"task %d","done":true}`, i) }, 1.05},
		{"a new text too long to keep", func(i int) string { return fmt.Sprintf(`{"title":"%070d","done":true}`, i) }, 1.05},
		{"escaped text", same(`{"title":"Check \"Twitter\"\n","done":true}`), 0.05},
		{"nested value: repeated", same(`{"tags":["a",{"b":[1,2]}],"n":3}`), 0.05},
		{"text, float, big int", same(`{"s":"x","f":1.5,"i":1000}`), 2.05},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := perRowAllocs(t, tc.row, 10000)
			t.Logf("%.3f allocations per row", got)
			if got > tc.max {
				t.Errorf("%.3f allocations per row, want at most %.2f", got, tc.max)
			}
		})
	}
}

func same(row string) func(int) string { return func(int) string { return row } }

// TestBoxes checks the boxed-text cache directly: a text is kept on its
// second miss in a row, then returned without boxing; the kept value is a
// copy, not a view of the caller's buffer; long texts are never kept.
func TestBoxes(t *testing.T) {
	var bx boxes
	buf := []byte("Clean Room")
	for i := range 3 {
		if v := bx.text(buf, 0, len(buf)); v != "Clean Room" {
			t.Fatalf("call %d: %q", i, v)
		}
	}
	sl := &bx.slot[textHash(buf)>>(64-boxBits)]
	if sl.v != "Clean Room" {
		t.Fatalf("not kept after three calls: slot %+v", sl)
	}
	if n := testing.AllocsPerRun(100, func() { _ = bx.text(buf, 0, len(buf)) }); n != 0 {
		t.Errorf("a kept text allocates %v times", n)
	}
	copy(buf, "Dirty")
	if sl.v != "Clean Room" {
		t.Errorf("the kept text changed with the buffer: %q", sl.v)
	}
	if v := bx.text(buf, 0, len(buf)); v != "Dirty Room" {
		t.Errorf("after the buffer changed: %q", v)
	}
	// Alternating texts that share a slot: each misses, none is kept,
	// and each is returned right.
	a, b := []byte("a"), []byte("b")
	for s := 0; ; s++ {
		b = []byte(fmt.Sprint("b", s))
		if textHash(a)>>(64-boxBits) == textHash(b)>>(64-boxBits) {
			break
		}
	}
	var bx2 boxes
	for i := range 4 {
		if v := bx2.text(a, 0, len(a)); v != "a" {
			t.Fatalf("round %d: %q", i, v)
		}
		if v := bx2.text(b, 0, len(b)); v != string(b) {
			t.Fatalf("round %d: %q", i, v)
		}
	}
	if sl := bx2.slot[textHash(a)>>(64-boxBits)]; sl.v != nil {
		t.Errorf("alternating texts kept %q", sl.v)
	}
	long := bytes.Repeat([]byte("x"), maxBoxedText+1)
	for range 3 {
		if v := bx.text(long, 0, len(long)); v != string(long) {
			t.Fatalf("long text: %q", v)
		}
	}
	if sl := bx.slot[textHash(long)>>(64-boxBits)]; sl.v != nil && sl.s == string(long) {
		t.Errorf("a text of %d bytes was kept", len(long))
	}
}
