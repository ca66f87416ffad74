package rowsrc

// Long strings. Both loaders have their decoder stream a string past
// StreamMin (json.Decoder.StreamLongStrings) rather than hold it whole in
// its window, into chunks of ChunkSize bytes kept here.
const (
	StreamMin = 1 << 20
	ChunkSize = 1 << 20
)

// Chunks holds the strings streamed to Add, each from a chunk of its own
// on: every chunk of a string but its last is full.
type Chunks struct {
	List [][]byte
	open bool // a string is being added
	from int  // its first chunk
	n    int  // its length so far
}

// Add is the decoder's piece function: it appends p to the string being
// streamed, starting a new one after Take.
func (c *Chunks) Add(p []byte) error {
	if !c.open {
		c.open, c.from, c.n = true, len(c.List), 0
	}
	for len(p) > 0 {
		if len(c.List) == c.from || len(c.List[len(c.List)-1]) == ChunkSize {
			c.List = append(c.List, make([]byte, 0, ChunkSize))
		}
		last := &c.List[len(c.List)-1]
		k := min(len(p), ChunkSize-len(*last))
		*last = append(*last, p[:k]...)
		p, c.n = p[k:], c.n+k
	}
	return nil
}

// Open reports whether a string was streamed and not yet taken.
func (c *Chunks) Open() bool { return c.open }

// Take ends the string just streamed and returns its first chunk's index
// and its length; the next Add starts another.
func (c *Chunks) Take() (from, n int) {
	c.open = false
	return c.from, c.n
}

// Of returns the chunks of the string Take returned as from and n.
func (c *Chunks) Of(from, n int) [][]byte {
	return c.List[from : from+(n+ChunkSize-1)/ChunkSize]
}

// Reset drops every string.
func (c *Chunks) Reset() {
	clear(c.List)
	c.List, c.open = c.List[:0], false
}
