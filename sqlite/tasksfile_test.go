package sqlite

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"
)

var update = flag.Bool("update", false, "rewrite testdata/tasks.json")

// tasksFile is the small tasks file the repository ships for the README's
// example (go run ./cmd/jsonpipe insert tasks.db tasks testdata/tasks.json).
// It is generated: go generate ./sqlite (or go test ./sqlite -run
// TestTasksFile -update) rewrites it.
var tasksFile = filepath.Join("..", "testdata", "tasks.json")

const tasksFileRows = 1000

func TestTasksFile(t *testing.T) {
	want := tasksJSON(tasksFileRows, false)
	if *update {
		if err := os.WriteFile(tasksFile, want, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(tasksFile)
	if err != nil {
		t.Fatalf("%v (go generate ./sqlite writes it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("%s is not what writeTasks generates; run go generate ./sqlite", tasksFile)
	}
	db := openDB(t)
	res := load(t, db, "tasks", string(got), &Options{PrimaryKey: []string{"id"}, NotNull: []string{"title"}})
	if res.Rows != tasksFileRows {
		t.Errorf("%+v", res)
	}
}
