// Package order decides the order in which a benchmark runs its
// libraries, one after the other.
//
// The heap a library runs in is the one its predecessor left, and where
// each call allocates a large result that decides the figure. In the
// shape sweep's form=doc marshal (a 1 MB result a call), str-len4000-ascii,
// medians of 6 interleaved rounds (AMD EPYC): in the listed order
// (jsonpipe first, goccy after encoding_json) goccy was 1.7 times as fast
// as jsonpipe; in the reverse order (jsonpipe after encoding_json)
// jsonpipe was 2.2 times as fast as goccy. Two collections and the heap
// returned to the OS before each library, so that the pools of the one
// before were gone, left the split as it was: 1.6 times, either way. So
// the order is not fixed: with Env set to the round's number (as
// benchmarks/run.sh sets it), Of shuffles the libraries by a seed made of
// the round and the benchmark's name, and over a recording's rounds each
// library runs at every place, after every other.
package order

import (
	"hash/fnv"
	"io"
	"math/rand/v2"
	"os"
	"strconv"
)

// Env is the environment variable that holds the round's number.
const Env = "BENCH_ROUND"

// Of returns xs in the order this round runs them for the benchmark named
// name: as listed when Env is unset (or not a number), else shuffled by
// the round and the name, the same way on every call with both. xs itself
// is left as it is.
func Of[T any](xs []T, name string) []T {
	round, err := strconv.ParseUint(os.Getenv(Env), 10, 64)
	if err != nil {
		return xs
	}
	h := fnv.New64a()
	io.WriteString(h, name)
	out := append([]T(nil), xs...)
	rand.New(rand.NewPCG(round, h.Sum64())).Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
	return out
}
