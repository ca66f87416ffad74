module github.com/jsonpipe/json

go 1.26

require github.com/mattn/go-sqlite3 v1.14.53
