package postgres

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"strings"
	"testing"

	"github.com/jsonpipe/json/internal/pgtest"
)

const hostileRow = `SELECT 1::int2 AS "a,b", '-9223372036854775808'::int8 AS i, 1.5::float8 AS f, 'NaN'::float8 AS nan, '-Infinity'::float4 AS inf,
	123456789012345678901234567890.000100::numeric AS n, true AS t, false AS ff, NULL::text AS z, ''::text AS e,
	'{"k": [1, "x"], "a": null}'::jsonb AS jb, '\x00ff10'::bytea AS by,
	E'say "hi",\r\nbye\t\x1b' AS s, '2024-01-02'::date AS d, ARRAY[1,2] AS arr`

func TestWriteQueryText(t *testing.T) {
	c := pgtest.Conn(t)
	tests := []struct {
		layout Layout
		want   string
	}{
		{LayoutCSV, "\"a,b\",i,f,nan,inf,n,t,ff,z,e,jb,by,s,d,arr\n" +
			"1,-9223372036854775808,1.5,NaN,-Infinity,123456789012345678901234567890.000100,true,false,,\"\"," +
			"\"{\"\"a\"\": null, \"\"k\"\": [1, \"\"x\"\"]}\",AP8Q,\"say \"\"hi\"\",\r\nbye\t\x1b\",2024-01-02,\"{1,2}\"\n"},
		{LayoutTSV, "a,b\ti\tf\tnan\tinf\tn\tt\tff\tz\te\tjb\tby\ts\td\tarr\n" +
			"1\t-9223372036854775808\t1.5\tNaN\t-Infinity\t123456789012345678901234567890.000100\ttrue\tfalse\t\t\"\"\t" +
			"\"{\"\"a\"\": null, \"\"k\"\": [1, \"\"x\"\"]}\"\tAP8Q\t\"say \"\"hi\"\",\r\nbye\t\x1b\"\t2024-01-02\t{1,2}\n"},
		{LayoutTable, "" +
			"a,b                     i    f  nan        inf                                      n  t     ff     z  e  jb                          by    s                       d           arr\n" +
			"---  --------------------  ---  ---  ---------  -------------------------------------  ----  -----  -  -  --------------------------  ----  ----------------------  ----------  -----\n" +
			"  1  -9223372036854775808  1.5  NaN  -Infinity  123456789012345678901234567890.000100  true  false        {\"a\": null, \"k\": [1, \"x\"]}  AP8Q  say \"hi\",\\r\\nbye\\t\\x1b  2024-01-02  {1,2}\n"},
	}
	for _, tc := range tests {
		var out bytes.Buffer
		n, err := WriteQueryText(bg, c, &out, tc.layout, hostileRow)
		if err != nil || n != 1 {
			t.Fatalf("%v: %d rows, %v", tc.layout, n, err)
		}
		if out.String() != tc.want {
			t.Errorf("%v: got\n%q\nwant\n%q", tc.layout, out.String(), tc.want)
		}
	}
	var out bytes.Buffer
	WriteQueryText(bg, c, &out, LayoutCSV, hostileRow)
	recs, err := csv.NewReader(&out).ReadAll()
	if err != nil || len(recs) != 2 || recs[1][10] != `{"a": null, "k": [1, "x"]}` || recs[1][9] != "" {
		t.Errorf("read back %q, %v", recs, err)
	}
	// No rows: the header alone; a bad query: an error and no output.
	out.Reset()
	if n, err := WriteQueryText(bg, c, &out, LayoutTSV, "SELECT 1 AS a, 2 AS b WHERE false"); err != nil || n != 0 || out.String() != "a\tb\n" {
		t.Errorf("no rows: %d, %v, %q", n, err, out.String())
	}
	out.Reset()
	if _, err := WriteQueryText(bg, c, &out, LayoutCSV, "SELECT * FROM nosuchtable"); err == nil || out.Len() != 0 {
		t.Errorf("bad query: %v, %q", err, out.String())
	}
}

// TestWriteQueryTextFailsMidway: the rows before the error, each whole;
// with none, no output at all, not even the header.
func TestWriteQueryTextFailsMidway(t *testing.T) {
	c := pgtest.Conn(t)
	const q = `SELECT g AS i, g / (g - $1::int) AS d FROM generate_series(1, $2::int) g`
	for _, k := range []int{0, 1, 100_000} {
		for _, layout := range []Layout{LayoutCSV, LayoutTSV, LayoutTable} {
			var out bytes.Buffer
			n, err := WriteQueryText(bg, c, &out, layout, q, k+1, k+5000)
			if err == nil || !strings.Contains(err.Error(), "division by zero") || n != int64(k) {
				t.Fatalf("%v after %d: %d rows, %v", layout, k, n, err)
			}
			lines := strings.Count(out.String(), "\n")
			want := map[bool]int{true: 0, false: k + 1}[k == 0]
			if layout == LayoutTable && k > 0 {
				want++ // the rule under the header
			}
			if lines != want || (k > 0 && !strings.HasSuffix(out.String(), fmt.Sprintf("%d\n", k/(k-(k+1))))) {
				t.Errorf("%v after %d: %d lines, want %d; ends %q", layout, k, lines, want, tail(out.String()))
			}
		}
	}
}

// TestJSONColumnRoundTrip: nested values loaded by Insert (into jsonb)
// come back from WriteQuery as the same JSON, not as strings holding it;
// json's line breaks are taken out so NDJSON stays a row a line.
func TestJSONColumnRoundTrip(t *testing.T) {
	c := pgtest.Conn(t)
	in := "{\"id\":1,\"tags\":[\"a\",\"b\"],\"meta\":{\"n\":1,\"deep\":{\"x\":[null,true,1.5]}}}\n" +
		"{\"id\":2,\"tags\":[],\"meta\":null}\n" +
		"{\"id\":3,\"tags\":[{\"k\":\"\\\"quoted\\\"\\n\"}],\"meta\":{}}\n"
	mustLoad(t, c, "nested", in, nil)
	if got := columnTypes(t, c, "nested"); got != "id bigint\ntags jsonb\nmeta jsonb\n" {
		t.Errorf("columns:\n%s", got)
	}
	var out bytes.Buffer
	if _, err := WriteQuery(bg, c, &out, Lines, "SELECT * FROM nested ORDER BY id"); err != nil {
		t.Fatal(err)
	}
	// jsonb prints with a space after ':' and ',' and orders keys by length.
	want := "{\"id\":1,\"tags\":[\"a\", \"b\"],\"meta\":{\"n\": 1, \"deep\": {\"x\": [null, true, 1.5]}}}\n" +
		"{\"id\":2,\"tags\":[],\"meta\":null}\n" +
		"{\"id\":3,\"tags\":[{\"k\": \"\\\"quoted\\\"\\n\"}],\"meta\":{}}\n"
	if out.String() != want {
		t.Errorf("got\n%s\nwant\n%s", out.String(), want)
	}
	out.Reset()
	if _, err := WriteQuery(bg, c, &out, Lines, "SELECT E'{\"a\":\\n [1,\\r\\n 2], \"s\": \"x\\\\ny\"}'::json AS j, '[1,  2]'::json AS k"); err != nil {
		t.Fatal(err)
	}
	if got := out.String(); got != `{"j":{"a":[1,2],"s":"x\ny"},"k":[1,  2]}`+"\n" {
		t.Errorf("json over lines: %q", got)
	}
}
