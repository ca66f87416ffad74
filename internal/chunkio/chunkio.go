// Package chunkio holds a reader for tests that feeds its input in small
// pieces, so that every refill path of a streaming decoder runs.
package chunkio

import "io"

// Reader returns at most N bytes per Read from R.
type Reader struct {
	R io.Reader
	N int
}

func (c *Reader) Read(p []byte) (int, error) {
	if len(p) > c.N {
		p = p[:c.N]
	}
	return c.R.Read(p)
}
