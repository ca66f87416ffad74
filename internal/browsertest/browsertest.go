// Package browsertest gives tests a real browser page: Debian's headless
// Chromium (/usr/bin/chromium, or chromium on PATH), started with a fresh
// profile in a temporary directory and driven through the DevTools
// protocol over a WebSocket that this package speaks itself (no
// dependency). A test loads its page, then clicks and types by evaluating
// JavaScript that dispatches DOM events, and reads the DOM back the same
// way. When there is no Chromium, tests that need one skip and say why,
// or fail when JSONPIPE_REQUIRE_CHROMIUM is set (CI sets it).
package browsertest

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// EnvRequire names the environment variable that, when set, makes a
// missing Chromium a test failure instead of a skip.
const EnvRequire = "JSONPIPE_REQUIRE_CHROMIUM"

// Timeout bounds every wait: Chromium's start, a protocol call, a page
// load, a WaitFor.
const Timeout = 30 * time.Second

// Page is one browser tab, in a browser of its own.
type Page struct {
	ws     *wsConn
	nextID int64
	mu     sync.Mutex
}

// chromiumPath finds Chromium.
func chromiumPath() (string, error) {
	if _, err := os.Stat("/usr/bin/chromium"); err == nil {
		return "/usr/bin/chromium", nil
	}
	if p, err := exec.LookPath("chromium"); err == nil {
		return p, nil
	}
	return "", errors.New("no /usr/bin/chromium (install Debian's chromium package: apt-get install -y chromium)")
}

// Need starts a headless Chromium for t, stopped when t ends, and returns
// its page (showing about:blank); it skips t saying why when there is no
// Chromium, or fails it when EnvRequire is set.
func Need(t testing.TB) *Page {
	t.Helper()
	bin, err := chromiumPath()
	if err != nil {
		if os.Getenv(EnvRequire) != "" {
			t.Fatalf("%s is set: %v", EnvRequire, err)
		}
		t.Skipf("no browser for this test: %v", err)
	}
	profile := t.TempDir() // removed after the Cleanup below has stopped Chromium
	cmd := exec.Command(bin,
		"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--remote-debugging-port=0", "--user-data-dir="+profile, "about:blank")
	var log bytes.Buffer
	cmd.Stdout, cmd.Stderr = &log, &log
	// Its own process group, so that stopping it stops its renderer and
	// helper processes too.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatalf("browsertest: start %s: %v", bin, err)
	}
	exited := make(chan struct{})
	go func() { cmd.Wait(); close(exited) }()
	t.Cleanup(func() {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM)
		select {
		case <-exited:
		case <-time.After(5 * time.Second):
			syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
			<-exited
		}
	})
	fail := func(format string, args ...any) {
		t.Helper()
		t.Fatalf("browsertest: "+format+"\nChromium's output:\n%s", append(args, log.String())...)
	}

	// Chromium writes the port it chose, then the browser's WebSocket
	// path, to DevToolsActivePort in the profile.
	var port string
	for deadline := time.Now().Add(Timeout); port == ""; {
		b, err := os.ReadFile(filepath.Join(profile, "DevToolsActivePort"))
		if err == nil && bytes.Count(b, []byte("\n")) >= 1 {
			port = strings.TrimSpace(strings.SplitN(string(b), "\n", 2)[0])
			break
		}
		select {
		case <-exited:
			fail("Chromium exited before it listened")
		case <-time.After(50 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			fail("no DevToolsActivePort after %v", Timeout)
		}
	}
	wsURL, err := pageTarget(port)
	if err != nil {
		fail("%v", err)
	}
	ws, err := dialWS(wsURL)
	if err != nil {
		fail("%v", err)
	}
	t.Cleanup(func() { ws.Close() })
	return &Page{ws: ws}
}

// pageTarget returns the WebSocket URL of the browser's first page.
func pageTarget(port string) (string, error) {
	c := http.Client{Timeout: Timeout}
	for deadline := time.Now().Add(Timeout); ; {
		resp, err := c.Get("http://127.0.0.1:" + port + "/json/list")
		if err == nil {
			var targets []struct{ Type, WebSocketDebuggerURL string }
			err = json.NewDecoder(bufio.NewReader(resp.Body)).Decode(&targets)
			resp.Body.Close()
			for _, tg := range targets {
				if tg.Type == "page" && tg.WebSocketDebuggerURL != "" {
					return tg.WebSocketDebuggerURL, nil
				}
			}
		}
		if time.Now().After(deadline) {
			return "", fmt.Errorf("no page target on port %s: %v", port, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// Call sends one DevTools protocol command and returns its result,
// skipping the events that arrive meanwhile.
func (p *Page) Call(method string, params any) (json.RawMessage, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.nextID++
	id := p.nextID
	msg, err := json.Marshal(struct {
		ID     int64  `json:"id"`
		Method string `json:"method"`
		Params any    `json:"params,omitempty"`
	}{id, method, params})
	if err != nil {
		return nil, err
	}
	p.ws.c.SetDeadline(time.Now().Add(Timeout))
	defer p.ws.c.SetDeadline(time.Time{})
	if err := p.ws.WriteText(msg); err != nil {
		return nil, fmt.Errorf("%s: %v", method, err)
	}
	for {
		b, err := p.ws.ReadMessage()
		if err != nil {
			return nil, fmt.Errorf("%s: %v", method, err)
		}
		var reply struct {
			ID     int64           `json:"id"`
			Result json.RawMessage `json:"result"`
			Error  *struct {
				Code    int    `json:"code"`
				Message string `json:"message"`
			} `json:"error"`
		}
		if err := json.Unmarshal(b, &reply); err != nil {
			return nil, fmt.Errorf("%s: %v", method, err)
		}
		if reply.ID != id {
			continue // an event, or a reply to an abandoned call
		}
		if reply.Error != nil {
			return nil, fmt.Errorf("%s: %s (%d)", method, reply.Error.Message, reply.Error.Code)
		}
		return reply.Result, nil
	}
}

// Eval evaluates a JavaScript expression in the page, awaiting it when it
// is a promise, and stores its value, as JSON, in out (unless out is nil).
// A thrown exception is the error.
func (p *Page) Eval(expr string, out any) error {
	res, err := p.Call("Runtime.evaluate", map[string]any{
		"expression": expr, "awaitPromise": true, "returnByValue": true,
	})
	if err != nil {
		return err
	}
	var r struct {
		Result struct {
			Value json.RawMessage `json:"value"`
		} `json:"result"`
		ExceptionDetails *struct {
			Text      string `json:"text"`
			Exception struct {
				Description string `json:"description"`
			} `json:"exception"`
		} `json:"exceptionDetails"`
	}
	if err := json.Unmarshal(res, &r); err != nil {
		return err
	}
	if e := r.ExceptionDetails; e != nil {
		if e.Exception.Description != "" {
			return fmt.Errorf("javascript: %s", e.Exception.Description)
		}
		return fmt.Errorf("javascript: %s", e.Text)
	}
	if out == nil || r.Result.Value == nil {
		return nil
	}
	return json.Unmarshal(r.Result.Value, out)
}

// WaitFor evaluates expr until it is true, for at most Timeout; an error
// (such as a context destroyed by a navigation) counts as false. On
// timeout it returns the last error, if any.
func (p *Page) WaitFor(expr string) error {
	var last error
	for deadline := time.Now().Add(Timeout); ; {
		var ok bool
		last = p.Eval(expr, &ok)
		if last == nil && ok {
			return nil
		}
		if time.Now().After(deadline) {
			if last != nil {
				return fmt.Errorf("waiting for %s: %v", expr, last)
			}
			return fmt.Errorf("waiting for %s: still false after %v", expr, Timeout)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// Navigate loads url and waits until its document has loaded.
func (p *Page) Navigate(url string) error {
	return p.load(func() error {
		res, err := p.Call("Page.navigate", map[string]any{"url": url})
		if err != nil {
			return err
		}
		var r struct{ ErrorText string }
		json.Unmarshal(res, &r)
		if r.ErrorText != "" {
			return fmt.Errorf("Page.navigate %s: %s", url, r.ErrorText)
		}
		return nil
	})
}

// Reload reloads the page, bypassing the cache, and waits until the new
// document has loaded.
func (p *Page) Reload() error {
	return p.load(func() error {
		_, err := p.Call("Page.reload", map[string]any{"ignoreCache": true})
		return err
	})
}

// load marks the current document, starts a navigation, and waits for a
// loaded document without the mark: the old document's readyState is
// "complete" too, until the new one replaces it.
func (p *Page) load(start func() error) error {
	if err := p.Eval("window.__browsertestOld = true", nil); err != nil {
		return err
	}
	if err := start(); err != nil {
		return err
	}
	return p.WaitFor(`window.__browsertestOld === undefined && document.readyState === "complete"`)
}
