//go:build race

package json

// raceBuild: under the race detector sync.Pool drops items at random, so
// pooled decoder state is sometimes allocated anew and allocation counts
// are not meaningful.
const raceBuild = true
