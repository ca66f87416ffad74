//go:build !race

package json

// raceEnabled: the tests run under the race detector.
const raceEnabled = false
