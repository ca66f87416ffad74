package main

import (
	"bufio"
	"context"
	"io"
	"net/http"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/jsonpipe/json/internal/pgtest"
)

// tasksDB is a fresh SQLite file holding the repository's tasks.
func tasksDB(t *testing.T) string {
	db := filepath.Join(t.TempDir(), "tasks.db")
	jsonpipe(t, "", "insert", db, "tasks", filepath.Join("..", "..", "testdata", "tasks.json")).must(t, 0)
	return db
}

func httpGet(t *testing.T, url string) (int, string) {
	t.Helper()
	res, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return res.StatusCode, string(b)
}

// serveBinary runs the binary's serve on a free port and returns the
// address it prints, and a function that stops it with SIGTERM and checks
// that it exits cleanly.
func serveBinary(t *testing.T, args ...string) (string, func()) {
	t.Helper()
	cmd := exec.Command(bin, append([]string{"serve", "--addr", "127.0.0.1:0"}, args...)...)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill() })
	lines := bufio.NewScanner(stderr)
	if !lines.Scan() {
		t.Fatalf("no line on stderr: %v", lines.Err())
	}
	first := lines.Text()
	_, url, ok := strings.Cut(first, " on ")
	if !ok || !strings.HasPrefix(url, "http://127.0.0.1:") || strings.HasSuffix(url, ":0") {
		t.Fatalf("first line %q names no address", first)
	}
	return url, func() {
		t.Helper()
		cmd.Process.Signal(syscall.SIGTERM)
		rest, _ := io.ReadAll(stderr)
		if err := cmd.Wait(); err != nil {
			t.Fatalf("after SIGTERM: %v; stderr %s", err, rest)
		}
		if !strings.Contains(string(rest), "stopped") {
			t.Errorf("stderr after SIGTERM: %q", rest)
		}
	}
}

// TestServeSignal runs the binary on a free port, reads the address it
// prints, asks for rows, and stops it with SIGTERM.
func TestServeSignal(t *testing.T) {
	url, stop := serveBinary(t, tasksDB(t))
	code, body := httpGet(t, url+"/tasks?_limit=2&done=1")
	if code != 200 || body != `[{"rowid":2,"title":"Check Twitter","done":1},`+"\n"+`{"rowid":4,"title":"Check Twitter","done":1}]`+"\n" {
		t.Fatalf("GET /tasks = %d %s", code, body)
	}
	if code, body := httpGet(t, url+"/"); code != 200 || body != `[{"table":"tasks","rows":1000}]`+"\n" {
		t.Fatalf("GET / = %d %s", code, body)
	}
	stop()
}

// TestServePostgres serves a PostgreSQL URL.
func TestServePostgres(t *testing.T) {
	db := pgtest.Schema(t)
	jsonpipe(t, `[{"id":1,"title":"a","done":false,"tags":["x"]},{"id":2,"title":"b","done":true,"tags":[]}]`, "insert", "--pk", "id", db, "tasks").must(t, 0)
	url, stop := serveBinary(t, db)
	if code, body := httpGet(t, url+"/tasks/2"); code != 200 || body != `{"id":2,"title":"b","done":true,"tags":[]}`+"\n" {
		t.Fatalf("GET /tasks/2 = %d %s", code, body)
	}
	if code, body := httpGet(t, url+"/tasks?done=false&_nl=1"); code != 200 || body != `{"id":1,"title":"a","done":false,"tags":["x"]}`+"\n" {
		t.Fatalf("GET /tasks?done=false = %d %s", code, body)
	}
	stop()
}

// lockedBuffer is a stderr that the test reads while run writes it.
type lockedBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// TestServeContext runs the command in-process, writes through it with a
// token, and stops it by cancelling its context.
func TestServeContext(t *testing.T) {
	db := tasksDB(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var stderr lockedBuffer
	code := make(chan int, 1)
	go func() {
		code <- run(ctx, []string{"serve", "--addr=127.0.0.1:0", "--write", "--token", "T", "--tables", "tasks", "--max-body", "100", db}, nil, io.Discard, &stderr)
	}()
	var url string
	for end := time.Now().Add(10 * time.Second); url == ""; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(end) {
			t.Fatalf("no address printed: %q", stderr.String())
		}
		if _, u, ok := strings.Cut(stderr.String(), "(read-write) on "); ok {
			url = strings.TrimSpace(u)
		}
	}
	post := func(body, token string) (int, string) {
		req, _ := http.NewRequest("POST", url+"/tasks", strings.NewReader(body))
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return res.StatusCode, string(b)
	}
	if c, b := post(`[{"title":"new","done":false}]`, ""); c != 401 {
		t.Fatalf("POST without the token: %d %s", c, b)
	}
	if c, b := post(`[{"title":"new","done":false}]`, "T"); c != 201 || b != `{"inserted":1}`+"\n" {
		t.Fatalf("POST: %d %s", c, b)
	}
	if c, b := post(`[`+strings.Repeat(`{"title":"x"},`, 20)+`{}]`, "T"); c != 413 {
		t.Fatalf("POST over --max-body: %d %s", c, b)
	}
	if c, b := httpGet(t, url+"/tasks/1001"); c != 200 || b != `{"rowid":1001,"title":"new","done":0}`+"\n" {
		t.Fatalf("GET the new row: %d %s", c, b)
	}
	cancel()
	select {
	case c := <-code:
		if c != 0 {
			t.Fatalf("exit %d: %s", c, stderr.String())
		}
	case <-time.After(15 * time.Second):
		t.Fatal("serve did not stop when its context was cancelled")
	}
}

func TestServeUsage(t *testing.T) {
	jsonpipe(t, "", "serve").must(t, 2, "serve needs DB")
	jsonpipe(t, "", "serve", "--token", "x", "db").must(t, 2, "--token needs --write")
	jsonpipe(t, "", "serve", "--max-body", "0", "db").must(t, 2, "--max-body")
	jsonpipe(t, "", "serve", "--addr", "127.0.0.1:0", filepath.Join(t.TempDir(), "none.db")).must(t, 1, "none.db")
	db := tasksDB(t)
	jsonpipe(t, "", "serve", "--addr", "127.0.0.1:0", "--tables", "nope", db).must(t, 1, `"nope"`)
	jsonpipe(t, "", "serve", "--addr", "nonsense", db).must(t, 1)
}
