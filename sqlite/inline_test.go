package sqlite

import (
	"os/exec"
	"strings"
	"testing"
)

// The per-key and per-value helpers of the hot path must stay inlinable:
// readRow calls the keys' Lookup (internal/rowsrc, shared with the
// PostgreSQL loader) for every key, addRow calls driverValue for every
// column of every row.
func TestInlining(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the compiler")
	}
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command in PATH")
	}
	out, err := exec.Command(goTool, "build", "-gcflags=-m", ".", "../internal/rowsrc").CombinedOutput()
	if err != nil {
		t.Fatalf("go build -gcflags=-m: %v\n%s", err, out)
	}
	for _, fn := range []string{"(*Keys).Lookup", "(*value).driverValue", "isIntegerLiteral", "asciiEqualFold"} {
		if !strings.Contains(string(out), "can inline "+fn) {
			t.Errorf("%s is not inlinable any more", fn)
		}
	}
}
