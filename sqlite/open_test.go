package sqlite

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	sqlite3 "github.com/mattn/go-sqlite3"
)

// TestOpenErrors: InsertPath and WriteQueryPath on a database they cannot
// open, or a file that is not an SQLite database, fail with a *DBError
// that names the database's path and what is wrong with it (the cause
// kept for errors.Is and errors.As), and change nothing on disk.
func TestOpenErrors(t *testing.T) {
	dir := t.TempDir()
	jsonFile := filepath.Join(dir, "arr.json")
	textFile := filepath.Join(dir, "notes.txt")
	os.WriteFile(jsonFile, []byte(`[{"Group":"a","id":1}]`), 0o644)
	os.WriteFile(textFile, []byte(strings.Repeat("not a database at all\n", 40)), 0o644)
	os.Mkdir(filepath.Join(dir, "sub"), 0o755)
	cases := []struct {
		name, path, why string
		queryStat       bool // WriteQueryPath's error holds os.Stat's, not go-sqlite3's
	}{
		{"missing directory", filepath.Join(dir, "nodir", "x.db"), "directory " + filepath.Join(dir, "nodir") + " does not exist", true},
		{"a file for a directory", filepath.Join(jsonFile, "x.db"), jsonFile + " is not a directory", true},
		{"a directory", filepath.Join(dir, "sub"), "it is a directory, not a file", false},
		{"JSON", jsonFile, "the file is not an SQLite database (it holds JSON)", false},
		{"text", textFile, "the file is not an SQLite database", false},
		{"a DSN", jsonFile + "?_busy_timeout=10", "the file is not an SQLite database (it holds JSON)", false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			before := snapshot(t, dir)
			_, ierr := InsertPath(context.Background(), tc.path, "t", strings.NewReader(`{"a":1}`), nil)
			var out bytes.Buffer
			_, qerr := WriteQueryPath(context.Background(), tc.path, &out, Array, "SELECT 1")
			for what, err := range map[string]error{"InsertPath": ierr, "WriteQueryPath": qerr} {
				var de *DBError
				if !errors.As(err, &de) || de.Path != tc.path {
					t.Errorf("%s: error %v, want a *DBError for %s", what, err, tc.path)
					continue
				}
				if want := "sqlite: database " + tc.path + ": " + tc.why; err.Error() != want {
					t.Errorf("%s: %q, want %q", what, err, want)
				}
				if what == "WriteQueryPath" && tc.queryStat {
					if !errors.As(err, new(*fs.PathError)) {
						t.Errorf("%s: %v does not hold os.Stat's error", what, err)
					}
				} else if !errors.As(err, new(sqlite3.Error)) {
					t.Errorf("%s: %v does not hold go-sqlite3's error", what, err)
				}
			}
			if out.Len() != 0 {
				t.Errorf("query output %q", out.String())
			}
			if after := snapshot(t, dir); after != before {
				t.Errorf("the directory changed:\n%s\nto\n%s", before, after)
			}
		})
	}
}

// snapshot lists the files under dir with their sizes and contents.
func snapshot(t *testing.T, dir string) string {
	t.Helper()
	var b strings.Builder
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		b.WriteString(p)
		if !d.IsDir() {
			data, _ := os.ReadFile(p)
			b.WriteString(" " + string(data))
		}
		b.WriteByte('\n')
		return nil
	})
	return b.String()
}
