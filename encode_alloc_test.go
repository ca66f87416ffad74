package json

import (
	"io"
	"testing"
)

// The encoder's allocation claims (README, "Speed"): a value without user
// methods costs Marshal one allocation, the result, and a steady
// Encoder.Encode none.

type allocRow struct {
	ID     int64             `json:"id"`
	Name   string            `json:"name"`
	Score  float64           `json:"score,omitempty"`
	OK     bool              `json:"ok"`
	Tags   []string          `json:"tags"`
	Next   *allocRow         `json:"next,omitempty"`
	Attrs  map[string]string `json:"attrs"`
	Counts map[int]int32     `json:"counts"`
	Extra  any               `json:"extra"`
	Bytes  []byte            `json:"bytes"`
	Fixed  [2]uint16         `json:"fixed"`
	Quoted int               `json:"quoted,string"`
}

func allocValues() map[string]any {
	row := &allocRow{
		ID: 7, Name: "<row>", Score: 1.5e-7, OK: true, Tags: []string{"a", "b"},
		Next:   &allocRow{ID: 8},
		Attrs:  map[string]string{"z": "1", "a": "2"},
		Counts: map[int]int32{10: 1, 9: 2, -1: 3},
		Extra:  map[string]any{"k": []any{1.0, "x", nil, true}},
		Bytes:  []byte("bytes"),
		Quoted: 42,
	}
	return map[string]any{
		"struct":  row,
		"slice":   &[]allocRow{*row, *row},
		"any":     map[string]any{"a": []any{"x", 2.5, map[string]any{"b": false}}},
		"strings": &[]string{"tab\t", "quote\"", "é", "\u2028"},
	}
}

func TestMarshalAllocs(t *testing.T) {
	for name, v := range allocValues() {
		t.Run(name, func(t *testing.T) {
			if _, err := Marshal(v); err != nil {
				t.Fatal(err)
			}
			if n := testing.AllocsPerRun(100, func() { Marshal(v) }); n != 1 {
				t.Errorf("Marshal: %v allocations, want 1 (the result)", n)
			}
		})
	}
}

func TestEncoderEncodeAllocs(t *testing.T) {
	for name, v := range allocValues() {
		t.Run(name, func(t *testing.T) {
			enc := NewEncoder(io.Discard)
			if err := enc.Encode(v); err != nil {
				t.Fatal(err)
			}
			if n := testing.AllocsPerRun(100, func() { enc.Encode(v) }); n != 0 {
				t.Errorf("Encoder.Encode: %v allocations, want 0", n)
			}
			enc.SetEscapeHTML(false)
			enc.SetIndent("", "\t")
			enc.Encode(v)
			if n := testing.AllocsPerRun(100, func() { enc.Encode(v) }); n != 0 {
				t.Errorf("Encoder.Encode, indented: %v allocations, want 0", n)
			}
		})
	}
}
