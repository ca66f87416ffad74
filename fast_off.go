//go:build jsonpipe_nofast

package json

// fastPaths is false under the jsonpipe_nofast build tag: every fast path
// listed in fast_on.go compiles away and the general path does all the
// work.
const fastPaths = false
