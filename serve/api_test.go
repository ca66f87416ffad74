package serve

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// forEachDB runs f on a fresh SQLite database and on a fresh PostgreSQL
// schema (run with JSONPIPE_REQUIRE_POSTGRES=1 so that it cannot skip).
func forEachDB(t *testing.T, f func(t *testing.T, d db)) {
	t.Run("sqlite", func(t *testing.T) { f(t, sqliteDB(t)) })
	t.Run("postgres", func(t *testing.T) { f(t, postgresDB(t)) })
}

func TestIndex(t *testing.T) {
	forEachDB(t, func(t *testing.T, d db) {
		_, hs := start(t, fixtureDB(t, d), Options{})
		r := do(t, nil, "GET", hs.URL+"/", "")
		want := `[{"table":"items","rows":25},` + "\n" + `{"table":"notes","rows":2}]` + "\n"
		if r.status != 200 || r.body != want || r.header.Get("Content-Type") != "application/json" {
			t.Fatalf("GET / = %v %q", r, r.header.Get("Content-Type"))
		}
		_, hs = start(t, d, Options{Tables: []string{"notes"}})
		if r := do(t, nil, "GET", hs.URL+"/", ""); r.body != `[{"table":"notes","rows":2}]`+"\n" {
			t.Fatalf("GET / with Tables = %v", r)
		}
		wantError(t, do(t, nil, "GET", hs.URL+"/items", ""), 404, "items")
		wantError(t, do(t, nil, "POST", hs.URL+"/", "x"), 405)
		if _, err := Open(t.Context(), d.url, Options{Tables: []string{"nope"}}); err == nil || !strings.Contains(err.Error(), "nope") {
			t.Fatalf("Open with an unknown table: %v", err)
		}
	})
}

func TestList(t *testing.T) {
	forEachDB(t, func(t *testing.T, d db) {
		_, hs := start(t, fixtureDB(t, d), Options{})
		u := hs.URL + "/items"
		r := do(t, nil, "GET", u, "")
		if r.status != 200 || r.header.Get("Content-Type") != "application/json" {
			t.Fatalf("GET /items = %v", r)
		}
		rs := rows(t, r.body)
		if len(rs) != 25 || rs[0]["title"] != "item 1" {
			t.Fatalf("got %d rows, first %v", len(rs), rs[0])
		}
		// A JSON column comes back as JSON.
		if tags, ok := rs[0]["tags"].([]any); !ok || tags[0] != "t1" {
			t.Errorf("tags = %#v, want the array", rs[0]["tags"])
		}
		for _, q := range []string{"?_nl=1", "?_nl"} {
			r := do(t, nil, "GET", u+q, "")
			if r.header.Get("Content-Type") != "application/x-ndjson" || strings.Count(r.body, "\n") != 25 || r.body[0] != '{' {
				t.Fatalf("GET %s = %v", q, r)
			}
		}
		r = do(t, nil, "GET", u, "", "Accept: application/x-ndjson")
		if r.header.Get("Content-Type") != "application/x-ndjson" || len(rows(t, r.body)) != 25 {
			t.Fatalf("Accept NDJSON = %v", r)
		}
		for _, c := range []struct{ query, ids string }{
			{"?kind=odd&_limit=3", "1,3,5"},
			{"?kind=even&title=item+4", "4"},
			{"?title=nothing", ""},
			{"?id=7", "7"},
			{"?_limit=2&_order=-id", "25,24"},
			{"?_order=title&_limit=3", "1,10,11"},
			{"?_after=20", "21,22,23,24,25"},
			{"?_after=20&_order=id&_limit=2", "21,22"},
			{"?_limit=0", ""},
			{"?kind=odd&_after=20", "21,23,25"},
		} {
			rs := rows(t, do(t, nil, "GET", u+c.query, "").body)
			if got := ids(t, rs); got != c.ids {
				t.Errorf("GET %s: ids %s, want %s", c.query, got, c.ids)
			}
		}
		r = do(t, nil, "GET", u+"?_fields=title,id&_limit=1", "")
		if r.body != `[{"title":"item 1","id":1}]`+"\n" {
			t.Errorf("_fields: %v", r)
		}
		r = do(t, nil, "GET", u+"?title=nothing", "")
		if r.status != 200 || r.body != "[]\n" {
			t.Errorf("no rows: %v", r)
		}
		r = do(t, nil, "GET", u+"?title=nothing&_nl=1", "")
		if r.status != 200 || r.body != "" {
			t.Errorf("no rows, NDJSON: %v", r)
		}
		for _, c := range []struct{ query, word string }{
			{"?nope=1", `"nope"`},
			{"?_nope=1", `"_nope"`},
			{"?_limit=-1", "_limit"},
			{"?_limit=x", "_limit"},
			{"?_order=nope", `"nope"`},
			{"?_fields=id,nope", `"nope"`},
			{"?_fields=id,id", "twice"},
			{"?_after=3&_order=-id", "_after"},
			{"?id=1&id=2", "2 times"},
			{"?_nl=maybe", "_nl"},
			{"?a%zz=1", "malformed"},
		} {
			wantError(t, do(t, nil, "GET", u+c.query, ""), 400, c.word)
		}
		wantError(t, do(t, nil, "GET", u+"?_after=x", ""), 400, "_after")
		if d.pg() {
			// A value PostgreSQL cannot read as the column's type.
			wantError(t, do(t, nil, "GET", u+"?n=abc", ""), 400, "double precision")
		} else if r := do(t, nil, "GET", u+"?n=abc", ""); r.body != "[]\n" {
			t.Errorf("n=abc: %v", r)
		}
		// No key in PostgreSQL; the rowid in SQLite.
		r = do(t, nil, "GET", hs.URL+"/notes", "")
		if d.pg() {
			if r.body != `[{"body":"first"},`+"\n"+`{"body":"second"}]`+"\n" {
				t.Errorf("notes: %v", r)
			}
			wantError(t, do(t, nil, "GET", hs.URL+"/notes?_after=1", ""), 400, "primary key")
			wantError(t, do(t, nil, "GET", hs.URL+"/notes/1", ""), 404, "primary key")
		} else {
			if r.body != `[{"rowid":1,"body":"first"},`+"\n"+`{"rowid":2,"body":"second"}]`+"\n" {
				t.Errorf("notes: %v", r)
			}
			if r := do(t, nil, "GET", hs.URL+"/notes?_after=1", ""); r.body != `[{"rowid":2,"body":"second"}]`+"\n" {
				t.Errorf("notes?_after=1: %v", r)
			}
			if r := do(t, nil, "GET", hs.URL+"/notes/2?_fields=body", ""); r.body != `{"body":"second"}`+"\n" {
				t.Errorf("notes/2: %v", r)
			}
		}
	})
}

// TestPaging follows the Link headers through the table.
func TestPaging(t *testing.T) {
	forEachDB(t, func(t *testing.T, d db) {
		_, hs := start(t, fixtureDB(t, d), Options{})
		next := "/items?_limit=7&kind=even"
		var got []string
		pages := 0
		for next != "" {
			r := do(t, nil, "GET", hs.URL+next, "")
			if r.status != 200 {
				t.Fatalf("GET %s = %v", next, r)
			}
			pages++
			if s := ids(t, rows(t, r.body)); s != "" {
				got = append(got, s)
			}
			next = ""
			if l := r.header.Get("Link"); l != "" {
				link, ok := strings.CutSuffix(l, `>; rel="next"`)
				if !ok || link[0] != '<' {
					t.Fatalf("Link %q", l)
				}
				next = link[1:]
			}
		}
		// 12 even-numbered rows: pages of 7 and 5; the second not full,
		// so no third.
		if want := "2,4,6,8,10,12,14;16,18,20,22,24"; strings.Join(got, ";") != want || pages != 2 {
			t.Fatalf("pages %d: %s, want %s", pages, strings.Join(got, ";"), want)
		}
		// A page exactly full links to an empty one.
		r := do(t, nil, "GET", hs.URL+"/items?_limit=5&_after=20", "")
		if l := r.header.Get("Link"); l != `</items?_after=25&_limit=5>; rel="next"` {
			t.Fatalf("Link of the last full page: %q", l)
		}
		if r := do(t, nil, "GET", hs.URL+"/items?_limit=5&_after=25", ""); r.body != "[]\n" || r.header.Get("Link") != "" {
			t.Fatalf("after the end: %v %q", r, r.header.Get("Link"))
		}
		// No Link in another order, nor without _limit.
		for _, q := range []string{"?_limit=2&_order=-id", "?_after=2"} {
			if l := do(t, nil, "GET", hs.URL+"/items"+q, "").header.Get("Link"); l != "" {
				t.Errorf("%s: Link %q", q, l)
			}
		}
	})
}

func TestOne(t *testing.T) {
	forEachDB(t, func(t *testing.T, d db) {
		_, hs := start(t, fixtureDB(t, d), Options{})
		r := do(t, nil, "GET", hs.URL+"/items/3", "")
		if r.status != 200 || r.header.Get("Content-Type") != "application/json" || !strings.HasPrefix(r.body, `{"id":3,"title":"item 3"`) {
			t.Fatalf("GET /items/3 = %v", r)
		}
		if r := do(t, nil, "GET", hs.URL+"/items/3?_fields=tags", ""); r.body != `{"tags":["t3"]}`+"\n" {
			t.Fatalf("_fields: %v", r)
		}
		wantError(t, do(t, nil, "GET", hs.URL+"/items/99", ""), 404, "99")
		wantError(t, do(t, nil, "GET", hs.URL+"/items/x'", ""), 404)
		wantError(t, do(t, nil, "GET", hs.URL+"/items/3?_limit=1", ""), 400, "_limit")
		wantError(t, do(t, nil, "GET", hs.URL+"/items/3?title=x", ""), 400, "title")
		wantError(t, do(t, nil, "GET", hs.URL+"/items/3/4", ""), 404)
		wantError(t, do(t, nil, "GET", hs.URL+"/items/", ""), 404)
	})
}

func TestHostile(t *testing.T) {
	forEachDB(t, func(t *testing.T, d db) {
		_, hs := start(t, fixtureDB(t, d), Options{Write: true})
		for _, p := range []string{
			"/sqlite_master", "/sqlite_schema", "/sqlite_sequence", "/pg_class", "/pg_catalog.pg_class",
			"/information_schema.tables", "/pg_tables", "/%22items%22", "/items%00", "/items%22%3B%20DROP%20TABLE%20items%3B--",
			"/..%2Fitems", "/items%2F..", "/%2E%2E", "/..", "/../etc/passwd", "/ITEMS", "/items%2F3", "/a/b/c",
		} {
			for _, m := range []string{"GET", "POST", "DELETE"} {
				r := do(t, nil, m, hs.URL+p, "")
				if r.status != 404 {
					t.Errorf("%s %s = %v, want 404", m, p, r)
				}
			}
		}
		for _, q := range []string{"?a%22b=1", "?id%00=1", "?%22id%22=1", "?id%3D1%20OR%201=1", "?_fields=id%2C%22title%22", "?_order=id%20DESC", "?_order=--id"} {
			r := do(t, nil, "GET", hs.URL+"/items"+q, "")
			wantError(t, r, 400)
			name, _ := url.QueryUnescape(strings.SplitN(strings.TrimPrefix(q, "?"), "=", 2)[0])
			if !strings.HasPrefix(name, "_") && !strings.Contains(r.body, "no column") {
				t.Errorf("%s: %v does not name the column", q, r)
			}
		}
		// Values are bound, never SQL.
		for _, v := range []string{"' OR '1'='1", `" OR 1=1 --`, "item 1'; DROP TABLE items; --", "%00", "item%001"} {
			r := do(t, nil, "GET", hs.URL+"/items?title="+url.QueryEscape(v), "")
			if r.status != 200 || r.body != "[]\n" {
				t.Errorf("title=%q: %v", v, r)
			}
		}
		if r := do(t, nil, "GET", hs.URL+"/", ""); !strings.Contains(r.body, `"rows":25`) {
			t.Fatalf("items damaged: %v", r)
		}
	})
}

func TestReadOnly(t *testing.T) {
	forEachDB(t, func(t *testing.T, d db) {
		_, hs := start(t, fixtureDB(t, d), Options{})
		for _, c := range []struct{ method, path, body string }{
			{"POST", "/items", `[{"id":100}]`},
			{"PATCH", "/items/1", `{"title":"x"}`},
			{"DELETE", "/items/1", ""},
			{"PUT", "/items/1", `{}`},
		} {
			r := do(t, nil, c.method, hs.URL+c.path, c.body)
			wantError(t, r, http.StatusMethodNotAllowed)
			if r.header.Get("Allow") != "GET, HEAD" {
				t.Errorf("%s: Allow %q", c.method, r.header.Get("Allow"))
			}
		}
		if r := do(t, nil, "GET", hs.URL+"/", ""); !strings.Contains(r.body, `"rows":25`) {
			t.Fatalf("rows changed: %v", r)
		}
	})
}

// TestPagingLong follows the Link headers through pages around pageRows,
// the longest page whose next key comes from its own last row (longer
// ones select it in a subquery), as arrays and as NDJSON, and checks
// that every row comes once, in order.
func TestPagingLong(t *testing.T) {
	const total = 2*pageRows + 50
	var b strings.Builder
	for i := 1; i <= total; i++ {
		fmt.Fprintf(&b, "{\"id\":%d,\"v\":\"row %d\"}\n", i, i)
	}
	forEachDB(t, func(t *testing.T, d db) {
		d.load(t, "long", b.String(), "id")
		_, hs := start(t, d, Options{})
		for _, limit := range []int{pageRows - 1, pageRows, pageRows + 1, total, total + 1} {
			for _, nl := range []string{"", "&_nl=1"} {
				next := fmt.Sprintf("/long?_limit=%d%s", limit, nl)
				seen, pages := 0, 0
				for next != "" {
					r := do(t, nil, "GET", hs.URL+next, "")
					if r.status != 200 {
						t.Fatalf("GET %s = %v", next, r)
					}
					pages++
					body := r.body
					if nl == "" {
						body = strings.ReplaceAll(strings.Trim(strings.TrimSpace(body), "[]"), ",\n", "\n")
					}
					n := 0
					for line := range strings.Lines(body) {
						if strings.TrimSpace(line) == "" {
							continue
						}
						seen++
						n++
						if want := fmt.Sprintf(`{"id":%d,"v":"row %d"}`, seen, seen); strings.TrimSpace(line) != want {
							t.Fatalf("GET %s: row %q, want %s", next, line, want)
						}
					}
					next = ""
					if l := r.header.Get("Link"); l != "" {
						if n != limit {
							t.Fatalf("GET %s: %d rows and a Link %q", next, n, l)
						}
						want := fmt.Sprintf("</long?_after=%d&_limit=%d%s>; rel=\"next\"", seen, limit, nl)
						if l != want {
							t.Fatalf("Link %q, want %q", l, want)
						}
						next = l[1:strings.Index(l, ">")]
					} else if n == limit {
						t.Fatalf("a full page of %d rows without a Link", n)
					}
				}
				// A last page exactly full links to an empty one.
				wantPages := (total+limit-1)/limit + 1 - min(1, total%limit)
				if seen != total || pages != wantPages {
					t.Errorf("_limit=%d%s: %d rows in %d pages, want %d in %d", limit, nl, seen, pages, total, wantPages)
				}
			}
		}
	})
}
