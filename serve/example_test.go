package serve_test

import (
	"context"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"

	"github.com/jsonpipe/json/serve"
	"github.com/jsonpipe/json/sqlite"
)

func Example() {
	ctx := context.Background()
	dir, _ := os.MkdirTemp("", "serve-example")
	defer os.RemoveAll(dir)
	db := filepath.Join(dir, "tasks.db")
	tasks := `[{"id":1,"title":"Clean Room","done":false},
		{"id":2,"title":"Check Twitter","done":true},
		{"id":3,"title":"Write tests","done":true}]`
	if _, err := sqlite.InsertPath(ctx, db, "tasks", strings.NewReader(tasks), &sqlite.Options{PrimaryKey: []string{"id"}}); err != nil {
		log.Fatal(err)
	}

	s, err := serve.Open(ctx, db, serve.Options{})
	if err != nil {
		log.Fatal(err)
	}
	defer s.Close()
	hs := httptest.NewServer(s) // or http.ListenAndServe(addr, s)
	defer hs.Close()

	for _, path := range []string{"/", "/tasks?done=1&_limit=1", "/tasks/3", "/tasks/4"} {
		res, err := http.Get(hs.URL + path)
		if err != nil {
			log.Fatal(err)
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		fmt.Printf("GET %s: %s\n", path, res.Status)
		if link := res.Header.Get("Link"); link != "" {
			fmt.Println("Link:", link)
		}
		fmt.Print(string(body))
	}
	// Output:
	// GET /: 200 OK
	// [{"table":"tasks","rows":3}]
	// GET /tasks?done=1&_limit=1: 200 OK
	// Link: </tasks?_after=2&_limit=1&done=1>; rel="next"
	// [{"id":2,"title":"Check Twitter","done":1}]
	// GET /tasks/3: 200 OK
	// {"id":3,"title":"Write tests","done":1}
	// GET /tasks/4: 404 Not Found
	// {"error":"no row of \"tasks\" with \"id\" \"4\""}
}
