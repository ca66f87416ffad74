package json

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestBenchmarksReport keeps BENCHMARKS.md and README's speed table what
// benchmarks/run.sh -report writes from the raw outputs in benchmarks/:
// a figure edited by hand, a raw output changed without the report, or a
// report written from files that are not committed all fail it.
func TestBenchmarksReport(t *testing.T) {
	if testing.Short() {
		t.Skip("runs benchmarks/report.py, benchstat over every raw output")
	}
	python, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 not found: benchmarks/report.py cannot run")
	}
	dir := t.TempDir()
	cmd := exec.Command(python, "benchmarks/report.py", "--out", dir)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("benchmarks/report.py: %v\n%s", err, out)
	}
	for _, name := range []string{"BENCHMARKS.md", "README.md"} {
		want, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s differs from what benchmarks/run.sh -report writes, from line %d: run it and commit the result", name, firstDiffLine(got, want))
		}
	}
}

// firstDiffLine is the number of the first line where a and b differ.
func firstDiffLine(a, b []byte) int {
	la, lb := bytes.Split(a, []byte("\n")), bytes.Split(b, []byte("\n"))
	for i := range min(len(la), len(lb)) {
		if !bytes.Equal(la[i], lb[i]) {
			return i + 1
		}
	}
	return min(len(la), len(lb)) + 1
}
