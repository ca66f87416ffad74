package json

import (
	"testing"
	"time"
)

// time.Time's own encoder against encoding/json, which calls MarshalJSON:
// zones, fractions, and the times MarshalJSON refuses; in every marshal mode,
// under the contract of stdjson_marshal_contract_test.go.
func TestMarshalTime(t *testing.T) {
	zones := []*time.Location{
		time.UTC, time.FixedZone("", 0), time.FixedZone("", 5*3600+30*60), time.FixedZone("", -(9*3600 + 59)),
		time.FixedZone("", 23*3600+59*60), time.FixedZone("", 24*3600), time.FixedZone("", -24*3600), time.FixedZone("", 99*3600),
	}
	times := []time.Time{
		{}, time.Date(2009, 11, 10, 23, 0, 0, 0, time.UTC), time.Date(2024, 2, 29, 1, 2, 3, 123456789, time.UTC),
		time.Date(1, 1, 1, 0, 0, 0, 1000, time.UTC), time.Date(9999, 12, 31, 23, 59, 59, 999999999, time.UTC),
		time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC), time.Date(-1, 1, 1, 0, 0, 0, 0, time.UTC), time.Date(0, 1, 1, 0, 0, 0, 0, time.UTC),
		time.Now(),
	}
	for _, tm := range times {
		for _, z := range zones {
			tz := tm.In(z)
			for _, v := range []any{tz, &tz, []time.Time{tz}, struct{ T time.Time }{tz}, map[string]any{"t": tz}, struct {
				T *time.Time `json:",omitempty"`
			}{&tz}} {
				if d := diffMarshalForm(v, "time"); d != "" {
					t.Errorf("Marshal(%v): %s", v, d)
				}
			}
		}
	}
}
