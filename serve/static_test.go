package serve

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestStatic(t *testing.T) {
	d := fixtureDB(t, sqliteDB(t))
	dir := t.TempDir()
	static := filepath.Join(dir, "static")
	for name, body := range map[string]string{
		"static/index.html":  "<h1>tasks</h1>",
		"static/app.js":      "console.log(1)",
		"static/sub/x.css":   "b{}",
		"static/items":       "a file named like a table",
		"secret.txt":         "outside",
		"static/sub/.hidden": "dot",
	} {
		p := filepath.Join(dir, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(filepath.Join(dir, "secret.txt"), filepath.Join(static, "link.txt")); err != nil {
		t.Fatal(err)
	}
	_, hs := start(t, d, Options{Static: static})

	r := do(t, nil, "GET", hs.URL+"/", "", "Accept: text/html,application/xhtml+xml,*/*;q=0.8")
	if r.status != 200 || r.body != "<h1>tasks</h1>" || !strings.HasPrefix(r.header.Get("Content-Type"), "text/html") {
		t.Fatalf("GET / from a browser = %v", r)
	}
	if r := do(t, nil, "GET", hs.URL+"/", "", "Accept: */*"); !strings.HasPrefix(r.body, `[{"table":"items"`) {
		t.Fatalf("GET / from fetch = %v", r)
	}
	if r := do(t, nil, "GET", hs.URL+"/app.js", ""); r.status != 200 || r.body != "console.log(1)" {
		t.Fatalf("GET /app.js = %v", r)
	}
	if r := do(t, nil, "GET", hs.URL+"/sub/x.css", ""); r.status != 200 || r.body != "b{}" {
		t.Fatalf("GET /sub/x.css = %v", r)
	}
	// A table wins over a file of its name.
	if r := do(t, nil, "GET", hs.URL+"/items?_limit=1", ""); !strings.HasPrefix(r.body, `[{"id":1`) {
		t.Fatalf("GET /items = %v", r)
	}
	for _, p := range []string{
		"/../secret.txt", "/..%2Fsecret.txt", "/sub/../../secret.txt", "/link.txt", "/sub", "/sub/", "/nope.js",
		"/%2e%2e/secret.txt", "/sub%2F..%2F..%2Fsecret.txt", "/app.js%00", "/./app.js", "//app.js", "/sub//x.css",
	} {
		r := do(t, nil, "GET", hs.URL+p, "")
		if r.status != 404 || strings.Contains(r.body, "outside") {
			t.Errorf("GET %s = %v, want a 404", p, r)
		}
	}
	wantError(t, do(t, nil, "POST", hs.URL+"/app.js", "x"), 404)
	if _, err := Open(t.Context(), d.url, Options{Static: filepath.Join(dir, "none")}); err == nil {
		t.Fatal("Open with a missing static directory")
	}
}
