// Command baseline serves a tasks table as JSON the way a Go programmer
// writes it today, for benchmarks/serve.sh to hold jsonpipe serve against:
// database/sql (go-sqlite3, or pgx's stdlib driver for a postgres:// URL),
// rows scanned into []Task, written with encoding/json. No tricks.
//
//	baseline [-addr 127.0.0.1:8081] DB
//
//	GET /tasks?_limit=N   the first N tasks (100 by default)
//	GET /tasks/{id}       one task, or 404
package main

import (
	"database/sql"
	"encoding/json"
	"errors"
	"flag"
	"log"
	"net/http"
	"strconv"
	"strings"

	_ "github.com/jackc/pgx/v5/stdlib"
	_ "github.com/mattn/go-sqlite3"
)

type Task struct {
	ID    int64  `json:"id"`
	Title string `json:"title"`
	Done  bool   `json:"done"`
}

func main() {
	addr := flag.String("addr", "127.0.0.1:8081", "listen `address`")
	flag.Parse()
	if flag.NArg() != 1 {
		log.Fatal("usage: baseline [-addr host:port] DB")
	}
	driver, list, one := "sqlite3", "SELECT id, title, done FROM tasks LIMIT ?", "SELECT id, title, done FROM tasks WHERE id = ?"
	if dsn := flag.Arg(0); strings.HasPrefix(dsn, "postgres://") || strings.HasPrefix(dsn, "postgresql://") {
		driver, list, one = "pgx", "SELECT id, title, done FROM tasks LIMIT $1", "SELECT id, title, done FROM tasks WHERE id = $1"
	}
	db, err := sql.Open(driver, flag.Arg(0))
	if err != nil {
		log.Fatal(err)
	}
	// Keep as many connections idle as may be open, so that a busy server
	// does not close and reopen them (database/sql keeps two by default).
	db.SetMaxOpenConns(16)
	db.SetMaxIdleConns(16)

	http.HandleFunc("GET /tasks", func(w http.ResponseWriter, r *http.Request) {
		limit := 100
		if s := r.URL.Query().Get("_limit"); s != "" {
			if limit, err = strconv.Atoi(s); err != nil {
				http.Error(w, "bad _limit", http.StatusBadRequest)
				return
			}
		}
		rows, err := db.QueryContext(r.Context(), list, limit)
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		defer rows.Close()
		tasks := []Task{}
		for rows.Next() {
			var t Task
			if err := rows.Scan(&t.ID, &t.Title, &t.Done); err != nil {
				http.Error(w, err.Error(), http.StatusInternalServerError)
				return
			}
			tasks = append(tasks, t)
		}
		if err := rows.Err(); err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(tasks)
	})

	http.HandleFunc("GET /tasks/{id}", func(w http.ResponseWriter, r *http.Request) {
		var t Task
		err := db.QueryRowContext(r.Context(), one, r.PathValue("id")).Scan(&t.ID, &t.Title, &t.Done)
		if errors.Is(err, sql.ErrNoRows) {
			http.NotFound(w, r)
			return
		} else if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(t)
	})

	log.Fatal(http.ListenAndServe(*addr, nil))
}
