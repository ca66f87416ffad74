// Package tasks_test drives the tasks app (index.html beside this file)
// in headless Chromium against jsonpipe serve, end to end: the page is
// served by serve's --static, and every change it makes goes through
// serve's HTTP API into an SQLite table.
package tasks_test

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strconv"
	"testing"

	_ "github.com/mattn/go-sqlite3"

	"github.com/jsonpipe/json/internal/browsertest"
	"github.com/jsonpipe/json/serve"
)

// shownTask is a task as the page shows it.
type shownTask struct {
	ID      string `json:"id"`
	Title   string `json:"title"`
	Done    bool   `json:"done"`    // the row's class
	Checked bool   `json:"checked"` // its checkbox
}

// readList is the page's list, read from the DOM.
const readList = `[...document.querySelectorAll("#tasks li")].map(li => ({
	id: li.dataset.id,
	title: li.querySelector(".title").textContent,
	done: li.classList.contains("done"),
	checked: li.querySelector(".toggle").checked,
}))`

// row is the li of the task titled title, as a JavaScript expression.
func row(title string) string {
	q, _ := json.Marshal(title)
	return fmt.Sprintf(`[...document.querySelectorAll("#tasks li")].find(li => li.querySelector(".title").textContent === %s)`, q)
}

func TestTasksApp(t *testing.T) {
	page := browsertest.Need(t)

	// The table as "jsonpipe insert --pk id tasks.db tasks testdata/tasks.json"
	// creates it (the README's recipe), empty.
	dbPath := filepath.Join(t.TempDir(), "tasks.db")
	db, err := sql.Open("sqlite3", dbPath)
	if err != nil {
		t.Fatal(err)
	}
	_, err = db.Exec(`CREATE TABLE "tasks" ("id" INTEGER PRIMARY KEY, "title" TEXT, "done" INTEGER)`)
	db.Close()
	if err != nil {
		t.Fatal(err)
	}

	static, err := filepath.Abs(".") // this directory: index.html
	if err != nil {
		t.Fatal(err)
	}
	s, err := serve.Open(context.Background(), dbPath, serve.Options{Write: true, Static: static})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	srv := httptest.NewServer(s)
	defer srv.Close()

	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	noError := func() {
		t.Helper()
		var msg string
		must(page.Eval(`document.getElementById("error").hidden ? "" : document.getElementById("error").textContent`, &msg))
		if msg != "" {
			t.Fatalf("the page shows an error: %s", msg)
		}
	}
	count := func(n int) {
		t.Helper()
		must(page.WaitFor(`document.querySelectorAll("#tasks li").length === ` + strconv.Itoa(n)))
		noError()
	}

	must(page.Navigate(srv.URL + "/"))
	must(page.WaitFor(`document.getElementById("tasks").dataset.loads >= 1`))
	count(0)

	// Add two tasks through the form: type a title, click Add.
	titles := []string{"Buy milk", `Write the <report> & "notes"`}
	for i, title := range titles {
		q, _ := json.Marshal(title)
		must(page.Eval(`document.querySelector("#add input[name=title]").value = `+string(q), nil))
		must(page.Eval(`document.querySelector("#add button[type=submit]").click()`, nil))
		count(i + 1)
		must(page.WaitFor(`document.querySelector("#add input[name=title]").value === ""`))
	}

	// Mark the first done: click its checkbox.
	must(page.Eval(row(titles[0])+`.querySelector(".toggle").click()`, nil))
	must(page.WaitFor(row(titles[0]) + `.classList.contains("done")`))
	noError()

	// Reload: what the page shows now comes from the table alone.
	must(page.Reload())
	must(page.WaitFor(`document.getElementById("tasks").dataset.loads >= 1`))
	count(2)
	var shown []shownTask
	must(page.Eval(readList, &shown))
	for i, want := range []shownTask{{Title: titles[0], Done: true, Checked: true}, {Title: titles[1]}} {
		got := shown[i]
		if got.Title != want.Title || got.Done != want.Done || got.Checked != want.Checked {
			t.Errorf("after the reload, task %d shows %+v, want title %q done %v", i, got, want.Title, want.Done)
		}
	}

	// The API agrees.
	rows := getTasks(t, srv.URL)
	if len(rows) != 2 {
		t.Fatalf("GET /tasks: %d rows, want 2: %+v", len(rows), rows)
	}
	for i, r := range rows {
		if r.Title != titles[i] || r.Done != (i == 0) {
			t.Errorf("GET /tasks row %d: %+v, want title %q done %v", i, r, titles[i], i == 0)
		}
		if strconv.FormatInt(r.ID, 10) != shown[i].ID {
			t.Errorf("GET /tasks row %d has id %d, the page shows %s", i, r.ID, shown[i].ID)
		}
	}

	// Delete the second: click its Delete button.
	must(page.Eval(row(titles[1])+`.querySelector(".delete").click()`, nil))
	count(1)
	if rows := getTasks(t, srv.URL); len(rows) != 1 || rows[0].Title != titles[0] {
		t.Errorf("after the delete, GET /tasks gives %+v, want only %q", rows, titles[0])
	}
}

// apiTask is a row of GET /tasks; done is 0/1 from SQLite, true/false
// from PostgreSQL.
type apiTask struct {
	ID    int64
	Title string
	Done  bool
}

func (a *apiTask) UnmarshalJSON(b []byte) error {
	var r struct {
		ID    int64           `json:"id"`
		Title string          `json:"title"`
		Done  json.RawMessage `json:"done"`
	}
	if err := json.Unmarshal(b, &r); err != nil {
		return err
	}
	a.ID, a.Title = r.ID, r.Title
	switch string(r.Done) {
	case "1", "true":
		a.Done = true
	case "0", "false":
		a.Done = false
	default:
		return fmt.Errorf("done is %s, want 0, 1, true or false", r.Done)
	}
	return nil
}

func getTasks(t *testing.T, base string) []apiTask {
	t.Helper()
	resp, err := http.Get(base + "/tasks?_order=id")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET /tasks: %s", resp.Status)
	}
	var rows []apiTask
	if err := json.NewDecoder(resp.Body).Decode(&rows); err != nil {
		t.Fatalf("GET /tasks: %v", err)
	}
	return rows
}
