package browsertest

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
)

// A page whose button counts its clicks in the page and on the server,
// so that a reload shows whether the server kept them.
func TestClickAndReload(t *testing.T) {
	var clicks atomic.Int64
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, `<!doctype html><title>t</title>
<p id=n>%d</p><button id=b>+</button>
<script>
document.getElementById("b").addEventListener("click", async () => {
  const r = await fetch("/click", {method: "POST"});
  document.getElementById("n").textContent = await r.text();
});
</script>`, clicks.Load())
	})
	mux.HandleFunc("POST /click", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, clicks.Add(1))
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()

	p := Need(t)
	if err := p.Navigate(srv.URL + "/"); err != nil {
		t.Fatal(err)
	}
	// One click at a time: two clicks at once send two requests whose
	// answers may come back in either order, and the page shows the last.
	for i := 1; i <= 2; i++ {
		if err := p.Eval(`document.getElementById("b").click()`, nil); err != nil {
			t.Fatal(err)
		}
		if err := p.WaitFor(fmt.Sprintf(`document.getElementById("n").textContent === "%d"`, i)); err != nil {
			t.Fatal(err)
		}
	}
	if err := p.Reload(); err != nil {
		t.Fatal(err)
	}
	var text string
	if err := p.Eval(`document.getElementById("n").textContent`, &text); err != nil {
		t.Fatal(err)
	}
	if text != "2" {
		t.Errorf("after the reload the page shows %q clicks, want 2", text)
	}
}

// Messages of every WebSocket length encoding come back whole: 7-bit,
// 16-bit and 64-bit payload lengths, in both directions.
func TestEvalLengths(t *testing.T) {
	p := Need(t)
	for _, n := range []int{0, 100, 125, 126, 1000, 65535, 65536, 300000} {
		var s string
		if err := p.Eval(fmt.Sprintf(`"%s".length + ":" + "x".repeat(%d)`, strings.Repeat("y", n), n), &s); err != nil {
			t.Fatalf("%d: %v", n, err)
		}
		if want := fmt.Sprintf("%d:%s", n, strings.Repeat("x", n)); s != want {
			t.Errorf("%d: got %d bytes back, want %d", n, len(s), len(want))
		}
	}
}

func TestEvalException(t *testing.T) {
	p := Need(t)
	err := p.Eval(`(() => { throw new Error("boom") })()`, nil)
	if err == nil || !strings.Contains(err.Error(), "boom") {
		t.Errorf("Eval of a throw: %v, want an error saying boom", err)
	}
	err = p.Eval(`Promise.reject(new Error("later"))`, nil)
	if err == nil || !strings.Contains(err.Error(), "later") {
		t.Errorf("Eval of a rejected promise: %v, want an error saying later", err)
	}
}
