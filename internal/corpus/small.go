package corpus

// The small values the compare module's per-call benchmarks decode and
// encode one at a time (BenchmarkUnmarshalSmall, BenchmarkMarshalSmall), as
// a service reads its requests and writes its responses.

// SmallRecord is a record of three members: an id, a name, a flag.
type SmallRecord struct {
	ID     int64  `json:"id"`
	Name   string `json:"name"`
	Active bool   `json:"active"`
}

// SmallArrays is a record of small arrays, as emoji data holds them.
type SmallArrays struct {
	Emoji   string    `json:"emoji"`
	Aliases []string  `json:"aliases"`
	Tags    []string  `json:"tags"`
	Pos     []float64 `json:"pos"`
}
