package loader

import "testing"

// TestAt: how a row error says where it is.
func TestAt(t *testing.T) {
	for _, c := range []struct {
		off, line, col int64
		want           string
	}{
		{40, 0, 0, "at byte 40"},
		{40, 3, 0, "at byte 40 (line 3)"},
		{40, 3, 12, "at byte 40 (line 3, column 12)"},
		{-1, 0, 0, "at an unknown byte"},
	} {
		if got := At(c.off, c.line, c.col); got != c.want {
			t.Errorf("At(%d, %d, %d) = %q, want %q", c.off, c.line, c.col, got, c.want)
		}
	}
}
