module github.com/jsonpipe/json/compare

go 1.26

replace github.com/jsonpipe/json => ../

require (
	github.com/goccy/go-json v0.12.0
	github.com/jsonpipe/json v0.0.0-00010101000000-000000000000
	github.com/segmentio/encoding v0.5.4
)

require (
	github.com/segmentio/asm v1.1.3 // indirect
	golang.org/x/sys v0.0.0-20211110154304-99a53858aa08 // indirect
)
