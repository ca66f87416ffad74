module github.com/jsonpipe/json

go 1.26.0

require (
	github.com/mattn/go-sqlite3 v1.14.53
	golang.org/x/sys v0.48.0
)

require (
	github.com/aclements/go-moremath v0.0.0-20210112150236-f10218a38794 // indirect
	golang.org/x/perf v0.0.0-20260908200009-22c9c6c9d4da // indirect
)

tool golang.org/x/perf/cmd/benchstat
