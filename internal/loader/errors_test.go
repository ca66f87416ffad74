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

func TestSamePlaces(t *testing.T) {
	for _, c := range []struct {
		a, b string
		same bool
	}{
		{"x", "x", true},
		{"row 2 at byte 7 (line 1, column 7): bad", "row 2 at byte 7: bad", true},
		{"row 2 at byte 7 (line 1): bad", "row 2 at byte 7 (line 1, column 7): bad", true},
		{"row 2 at byte 7 (line 1, column 7): bad", "row 2 at byte 7 (line 2, column 7): bad", false},
		{"row 2 at byte 7 (line 1, column 7): bad", "row 2 at byte 7 (line 1, column 6): bad", false},
		{"row 2 at byte 7 (line 1, column 7): bad", "row 2 at byte 8: bad", false},
		{"row 2 at byte 7: bad", "row 3 at byte 7: bad", false},
	} {
		if got := SamePlaces(c.a, c.b); got != c.same {
			t.Errorf("SamePlaces(%q, %q) = %v, want %v", c.a, c.b, got, c.same)
		}
	}
}
