package postgres

import (
	"bytes"
	"testing"

	"github.com/jsonpipe/json/internal/pgtest"
)

// TestWriteQueryLast: the last column is written by no row; its value in
// the first row (text, or nil for NULL) reaches first before any byte is
// written; with no row, first is not called.
func TestWriteQueryLast(t *testing.T) {
	c := pgtest.Conn(t)
	if _, err := c.Exec(bg, `CREATE TABLE n (i bigint PRIMARY KEY, s text);
		INSERT INTO n VALUES (1, 'a'), (2, 'b'), (3, 'c')`); err != nil {
		t.Fatal(err)
	}
	three := "3"
	for _, tc := range []struct {
		query, want string
		first       *string
		called      bool
	}{
		{"SELECT i, s, (SELECT max(i)::text FROM n) FROM n ORDER BY i", `[{"i":1,"s":"a"},` + "\n" + `{"i":2,"s":"b"},` + "\n" + `{"i":3,"s":"c"}]` + "\n", &three, true},
		{"SELECT i, NULL::text FROM n WHERE i = 2", `[{"i":2}]` + "\n", nil, true},
		{"SELECT i, 7 FROM n WHERE i = 9", "[]\n", nil, false},
	} {
		var b bytes.Buffer
		called := false
		var got *string
		n, err := WriteQueryLast(bg, c, &b, Array, func(v *string) {
			if b.Len() != 0 {
				t.Errorf("%s: first called after %d bytes were written", tc.query, b.Len())
			}
			called, got = true, v
		}, tc.query)
		if err != nil || b.String() != tc.want {
			t.Errorf("%s: %d rows, %v:\n%s\nwant\n%s", tc.query, n, err, b.String(), tc.want)
		}
		if called != tc.called || (got == nil) != (tc.first == nil) || got != nil && *got != *tc.first {
			t.Errorf("%s: first called %v with %v, want %v with %v", tc.query, called, got, tc.called, tc.first)
		}
	}
}
