package postgres

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/jsonpipe/json/internal/pgtest"
)

func TestWriteQuery(t *testing.T) {
	c := pgtest.Conn(t)
	q := `SELECT 1::int2 AS a, '-9223372036854775808'::int8 AS "b""q", 1.5::float8 AS f, 'NaN'::float8 AS nan, '-Infinity'::float4 AS inf,
		123456789012345678901234567890.000100::numeric AS n, 'NaN'::numeric AS nn, true AS t, false AS ff, NULL::text AS z,
		'{"k": [1, "x"], "a": null}'::jsonb AS jb, '[1,  2]'::json AS j, '\x00ff10'::bytea AS by,
		E'tab\t"q" <&> \u2028 é' AS s, '2024-01-02'::date AS d, ARRAY[1,2] AS arr, '1e100'::float8 AS e`
	var out bytes.Buffer
	n, err := WriteQuery(bg, c, &out, Array, q)
	if err != nil || n != 1 {
		t.Fatalf("%d rows, %v", n, err)
	}
	want := `[{"a":1,"b\"q":-9223372036854775808,"f":1.5,"nan":null,"inf":null,"n":123456789012345678901234567890.000100,"nn":null,"t":true,"ff":false,"z":null,` +
		`"jb":{"a": null, "k": [1, "x"]},"j":[1,  2],"by":"AP8Q","s":"tab\t\"q\" <&> \u2028 é","d":"2024-01-02","arr":"{1,2}","e":1e+100}]` + "\n"
	if out.String() != want {
		t.Errorf("got\n%s\nwant\n%s", out.String(), want)
	}
	if !json.Valid(out.Bytes()) {
		t.Error("not valid JSON")
	}
}

func TestWriteQueryRoundTrip(t *testing.T) {
	c := pgtest.Conn(t)
	in := "{\"id\":1,\"s\":\"a\\nb\",\"x\":1.5,\"j\":{\"k\":[true]}}\n{\"id\":2,\"s\":null,\"x\":2,\"j\":null}\n"
	mustLoad(t, c, "r", in, nil)
	for _, format := range []Format{Lines, Array} {
		var out bytes.Buffer
		n, err := WriteQuery(bg, c, &out, format, "SELECT * FROM r WHERE id >= $1 ORDER BY id", 1)
		if err != nil || n != 2 {
			t.Fatalf("%d rows, %v", n, err)
		}
		want := "{\"id\":1,\"s\":\"a\\nb\",\"x\":1.5,\"j\":{\"k\": [true]}}\n{\"id\":2,\"s\":null,\"x\":2,\"j\":null}\n"
		if format == Array {
			want = "[" + strings.ReplaceAll(strings.TrimSuffix(want, "\n"), "\n", ",\n") + "]\n"
		}
		if out.String() != want {
			t.Errorf("format %v: got\n%s\nwant\n%s", format, out.String(), want)
		}
	}
	// Many rows: constant memory, written in pieces.
	var out bytes.Buffer
	n, err := WriteQuery(bg, c, &out, Lines, "SELECT g AS i, repeat('x', 100) AS s FROM generate_series(1, 5000) g")
	if err != nil || n != 5000 || strings.Count(out.String(), "\n") != 5000 {
		t.Errorf("%d rows, %v", n, err)
	}
	if _, err := WriteQuery(bg, c, &out, Lines, "SELECT * FROM nosuchtable"); err == nil {
		t.Error("no error for a bad query")
	}
}
