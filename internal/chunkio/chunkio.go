// Package chunkio holds a reader for tests that feeds its input in small
// pieces, so that every refill path of a streaming decoder runs.
package chunkio

import "io"

// Reader returns at most N bytes per Read from R or, where Sizes is set, at
// most Sizes[i%len(Sizes)] bytes on its i-th Read.
type Reader struct {
	R     io.Reader
	N     int
	Sizes []int
	i     int
}

func (c *Reader) Read(p []byte) (int, error) {
	n := c.N
	if len(c.Sizes) > 0 {
		n = c.Sizes[c.i%len(c.Sizes)]
		c.i++
	}
	if len(p) > n {
		p = p[:n]
	}
	return c.R.Read(p)
}
