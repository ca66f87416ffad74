package postgres

import (
	"testing"

	"github.com/jsonpipe/json/internal/pgtest"
)

func TestInferAndRoundTrip(t *testing.T) {
	c := pgtest.Conn(t)
	in := `[
	{"id": 1, "name": "a\tb\\c\n", "score": 1.5, "ok": true, "tags": ["x", {"y": null}], "big": 123456789012345678901234567890, "none": null, "mixed": 1},
	{"id": 2, "name": "é\u00e9😀", "score": 2, "ok": false, "tags": {"k": "v"}, "big": 1, "mixed": "two"},
	{"id": -9223372036854775808, "score": -0.0, "big": -1.5e-3, "mixed": true}
]`
	res := mustLoad(t, c, "t", in, nil)
	if res.Rows != 3 || !res.Created || res.Changes != 3 {
		t.Fatalf("result %+v", res)
	}
	if got, want := columnTypes(t, c, "t"), "id bigint\nname text\nscore double precision\nok boolean\ntags jsonb\nbig numeric\nnone text\nmixed text\n"; got != want {
		t.Errorf("columns:\n%s\nwant:\n%s", got, want)
	}
	got := dump(t, c, "SELECT * FROM t ORDER BY id")
	want := "-9223372036854775808|NULL|-0|NULL|NULL|-0.0015|NULL|true\n" +
		"1|a\tb\\c\n|1.5|t|[\"x\", {\"y\": null}]|123456789012345678901234567890|NULL|1\n" +
		"2|éé😀|2|f|{\"k\": \"v\"}|1|NULL|two\n"
	if got != want {
		t.Errorf("rows:\n%q\nwant:\n%q", got, want)
	}
}
