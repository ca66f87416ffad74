package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/jsonpipe/json/serve"
)

// The serve command: the tables of DB as a JSON HTTP API (package serve).

// serverTimeouts bound what one client can hold: the request's header and
// body, idle keep-alive connections. Responses stream past writeTimeout:
// package serve gives each write of a stream its own deadline.
const (
	readHeaderTimeout = 10 * time.Second
	readTimeout       = 5 * time.Minute // a body of up to --max-body bytes
	writeTimeout      = 5 * time.Minute // a non-streamed response
	idleTimeout       = 2 * time.Minute
	shutdownTimeout   = 10 * time.Second
)

func serveCmd(ctx context.Context, args []string, stderr io.Writer) error {
	fs := flag.NewFlagSet("jsonpipe serve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	addr := fs.String("addr", "127.0.0.1:8080", "listen on this host:port (port 0 picks a free one; the address is printed)")
	write := fs.Bool("write", false, "allow POST, PATCH and DELETE")
	token := fs.String("token", "", "with --write, writes need the header \"Authorization: Bearer TOKEN\" (default $JSONPIPE_TOKEN)")
	tables := fs.String("tables", "", "serve only these tables (comma-separated)")
	static := fs.String("static", "", "serve the files of this directory too: index.html to a browser at /, and paths that are not tables")
	maxBody := fs.Int64("max-body", serve.DefaultMaxBody, "the largest request body in bytes; a larger one is refused (413)")
	pos, err := parseInterleaved(fs, args, "jsonpipe serve [--addr HOST:PORT] [--write] [--token T] [--tables a,b] [--static DIR] [--max-body N] DB\n\n"+
		"Serve the tables of DB as JSON over HTTP: GET / lists the tables, GET /TABLE\n"+
		"streams the rows (?COL=VALUE, ?_limit=N, ?_after=KEY, ?_order=[-]COL,\n"+
		"?_fields=A,B, ?_nl=1 for NDJSON), GET /TABLE/KEY is one row; with --write,\n"+
		"POST /TABLE loads a JSON array or NDJSON, PATCH and DELETE /TABLE/KEY.\n"+
		"Stops on SIGINT or SIGTERM, letting running requests finish.\n")
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return errUsage{"serve needs DB"}
	}
	opts := serve.Options{Write: *write, Token: *token, Static: *static, MaxBody: *maxBody}
	if *token != "" && !*write {
		return errUsage{"--token needs --write: reads need no token"}
	}
	if opts.Token == "" && opts.Write {
		opts.Token = os.Getenv("JSONPIPE_TOKEN")
	}
	if *tables != "" {
		opts.Tables = strings.Split(*tables, ",")
	}
	if *maxBody <= 0 {
		return errUsage{"--max-body must be above 0"}
	}
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()

	s, err := serve.Open(ctx, pos[0], opts)
	if err != nil {
		return err
	}
	defer s.Close()
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return err
	}
	srv := &http.Server{
		Handler:           s,
		ReadHeaderTimeout: readHeaderTimeout,
		ReadTimeout:       readTimeout,
		WriteTimeout:      writeTimeout,
		IdleTimeout:       idleTimeout,
	}
	mode := "read-only"
	if opts.Write {
		mode = "read-write"
	}
	fmt.Fprintf(stderr, "jsonpipe: serving %s (%s) on http://%s\n", pos[0], mode, ln.Addr())
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
	}
	// Stop accepting, and give running requests a while to finish.
	sctx, cancel := context.WithTimeout(context.Background(), shutdownTimeout)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil {
		srv.Close()
	}
	if err := <-done; !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	fmt.Fprintln(stderr, "jsonpipe: stopped")
	return nil
}
