package postgres

import (
	"bytes"
	stdjson "encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/jsonpipe/json/internal/pgtest"
)

// TestWriteQueryFailsMidway: a query whose row k+1 fails (a division by
// zero PostgreSQL meets only there) leaves in w exactly its first k rows,
// complete, and no output that passes for a complete result: an array is
// not closed, NDJSON simply stops, and without a row there is no output
// at all. The count returned is k.
func TestWriteQueryFailsMidway(t *testing.T) {
	c := pgtest.Conn(t)
	const q = `SELECT g AS i, g / (g - $1::int) AS d FROM generate_series(1, $2::int) g`
	for _, k := range []int{0, 1, 1000, 100_000} {
		want := make([]string, k)
		for i := range want {
			g := i + 1
			want[i] = fmt.Sprintf(`{"i":%d,"d":%d}`, g, g/(g-(k+1)))
		}
		for _, format := range []Format{Array, Lines} {
			t.Run(fmt.Sprintf("after %d/%v", k, format), func(t *testing.T) {
				var out bytes.Buffer
				n, err := WriteQuery(bg, c, &out, format, q, k+1, k+5000)
				if err == nil || !strings.Contains(err.Error(), "division by zero") {
					t.Fatalf("error %v, want division by zero", err)
				}
				if n != int64(k) {
					t.Errorf("n = %d, want %d", n, k)
				}
				var exp string
				switch {
				case k == 0:
				case format == Lines:
					exp = strings.Join(want, "\n") + "\n"
				default:
					exp = "[" + strings.Join(want, ",\n") + "\n"
					var v any
					if stdjson.Unmarshal(out.Bytes(), &v) == nil {
						t.Errorf("the output parses as complete JSON")
					}
				}
				if got := out.String(); got != exp {
					t.Errorf("output (%d bytes) ends %q, want %d bytes ending %q", len(got), tail(got), len(exp), tail(exp))
				}
			})
		}
	}
}

func tail(s string) string {
	if len(s) > 60 {
		return s[len(s)-60:]
	}
	return s
}
