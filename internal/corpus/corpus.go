// Package corpus finds the test data that lives outside this repository at
// run time: the standard JSON benchmark files (the classic corpus), ten real
// published documents (the wide corpus) and JSONTestSuite, in the shared
// folder beside the project's checkout. Nothing is ever copied in.
package corpus

import (
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
)

// A File is one benchmark document.
type File struct {
	Name string // e.g. "twitter"
	Data []byte // uncompressed
}

// SharedDir returns the shared folder ($JSONPIPE_SHARED, or "shared" beside
// the module root), or "" when there is none.
func SharedDir() string {
	if d := os.Getenv("JSONPIPE_SHARED"); d != "" {
		return d
	}
	dir, err := os.Getwd()
	if err != nil {
		return ""
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			if s := filepath.Join(dir, "..", "shared"); isDir(s) {
				return s
			}
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}

func isDir(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.IsDir()
}

// A set is one folder of *.json.gz documents under the shared folder,
// loaded once.
type set struct {
	dir   string // under the shared folder
	once  sync.Once
	files []File
	err   string // why there are none
}

var (
	classic = &set{dir: "corpus"}
	wide    = &set{dir: "corpus-wide"}
)

// Files returns the classic corpus (canada, citm_catalog, code, example,
// sample, twitter), sorted by name, or skips tb saying why it cannot.
func Files(tb testing.TB) []File {
	tb.Helper()
	return classic.get(tb)
}

// Wide returns the wide corpus (../shared/corpus-wide: ten real published
// documents, rows, GeoJSON, long texts, API specs; its SOURCES.md says where
// each comes from), sorted by name, or skips tb saying why it cannot.
func Wide(tb testing.TB) []File {
	tb.Helper()
	return wide.get(tb)
}

// All returns the classic corpus and then the wide one; it skips tb only
// when the classic corpus is missing, and logs it when the wide one is.
func All(tb testing.TB) []File {
	tb.Helper()
	all := append([]File(nil), classic.get(tb)...)
	if w := wide.load(); w.err != "" {
		tb.Log(w.err)
	} else {
		all = append(all, w.files...)
	}
	return all
}

func (s *set) get(tb testing.TB) []File {
	tb.Helper()
	if s.load(); s.err != "" {
		tb.Skip(s.err)
	}
	return s.files
}

func (s *set) load() *set {
	s.once.Do(func() {
		shared := SharedDir()
		if shared == "" {
			s.err = s.dir + " not found: no ../shared beside the module (set JSONPIPE_SHARED)"
			return
		}
		dir := filepath.Join(shared, s.dir)
		paths, _ := filepath.Glob(filepath.Join(dir, "*.json.gz"))
		if len(paths) == 0 {
			s.err = s.dir + " not found: no *.json.gz in " + dir
			return
		}
		sort.Strings(paths)
		for _, p := range paths {
			data, err := gunzip(p)
			if err != nil {
				s.err, s.files = s.dir+" unreadable: "+err.Error(), nil
				return
			}
			s.files = append(s.files, File{Name: strings.TrimSuffix(filepath.Base(p), ".json.gz"), Data: data})
		}
	})
	return s
}

func gunzip(path string) ([]byte, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	zr, err := gzip.NewReader(bytes.NewReader(raw))
	if err != nil {
		return nil, err
	}
	return io.ReadAll(zr)
}

// ConformanceDir returns JSONTestSuite's test_parsing folder, or skips tb.
func ConformanceDir(tb testing.TB) string {
	tb.Helper()
	shared := SharedDir()
	dir := filepath.Join(shared, "conformance", "JSONTestSuite", "test_parsing")
	if shared == "" || !isDir(dir) {
		tb.Skip("JSONTestSuite not found: no ../shared/conformance beside the module (set JSONPIPE_SHARED)")
	}
	return dir
}

// StdBaseline returns encoding/json's verdict per JSONTestSuite file name
// ("accept" or "reject", from Unmarshal), or skips tb.
func StdBaseline(tb testing.TB) map[string]string {
	tb.Helper()
	shared := SharedDir()
	data, err := os.ReadFile(filepath.Join(shared, "conformance", "encoding_json_baseline.txt"))
	if shared == "" || err != nil {
		tb.Skip("encoding_json_baseline.txt not found in ../shared/conformance")
	}
	m := make(map[string]string)
	for _, line := range strings.Split(string(data), "\n") {
		f := strings.Fields(line)
		if len(f) >= 2 && !strings.HasPrefix(line, "#") {
			m[f[0]] = f[1]
		}
	}
	return m
}
