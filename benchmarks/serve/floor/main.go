// Command floor is the HTTP ceiling benchmarks/serve.sh holds jsonpipe
// serve and the baseline against: it answers each target with the bytes
// jsonpipe serve returned for it, fetched once at startup, so that no
// database and no JSON is involved.
//
//	floor -mode fixed|raw -addr 127.0.0.1:8082 -from http://127.0.0.1:8080 PATH...
//
// Each PATH (e.g. /tasks?_limit=128, /tasks/50000) is fetched from -from;
// a request for it is answered with that response's status, Content-Type,
// Link and body. A PATH of the form /table/key also answers every
// /table/X (the by-id target asks for a random key each request, and is
// answered with the one row fetched).
//
//   - fixed: a net/http server and handler, setting the same headers and
//     writing the body in one Write (net/http frames it as it framed
//     jsonpipe serve's: Content-Length when it fits its buffer, else
//     chunked): the ceiling of net/http for that response.
//   - raw: a TCP loop reading HTTP/1.1 keep-alive requests (request line
//     and headers, no body) and writing one precomputed response with a
//     Content-Length and the startup's Date: the machine's ceiling for
//     that response, with wrk beside it.
package main

import (
	"bufio"
	"bytes"
	"flag"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"strconv"
	"strings"
	"time"
)

type answer struct {
	status int
	header http.Header // Content-Type, Link
	body   []byte
	chunk  bool // jsonpipe serve sent it chunked
	raw    []byte
}

func main() {
	mode := flag.String("mode", "fixed", "fixed (net/http) or raw (a TCP loop)")
	addr := flag.String("addr", "127.0.0.1:8082", "listen `address`")
	from := flag.String("from", "", "jsonpipe serve's `URL` (http://host:port) to fetch the responses from")
	flag.Parse()
	if *from == "" || flag.NArg() == 0 {
		log.Fatal("usage: floor -mode fixed|raw -addr host:port -from http://host:port PATH...")
	}
	answers := map[string]*answer{}
	for _, p := range flag.Args() {
		a, err := fetch(*from + p)
		if err != nil {
			log.Fatal(err)
		}
		answers[p] = a
		if dir, key, ok := byKey(p); ok && key != "" {
			answers[dir+"*"] = a
		}
	}
	find := func(uri string) *answer {
		if a := answers[uri]; a != nil {
			return a
		}
		if dir, _, ok := byKey(uri); ok {
			return answers[dir+"*"]
		}
		return nil
	}
	switch *mode {
	case "fixed":
		log.Fatal(http.ListenAndServe(*addr, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			a := find(r.RequestURI)
			if a == nil {
				http.NotFound(w, r)
				return
			}
			h := w.Header()
			for k, v := range a.header {
				h[k] = v
			}
			if !a.chunk {
				h["Content-Length"] = []string{strconv.Itoa(len(a.body))}
			}
			w.WriteHeader(a.status)
			w.Write(a.body)
		})))
	case "raw":
		l, err := net.Listen("tcp", *addr)
		if err != nil {
			log.Fatal(err)
		}
		notFound := []byte("HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n")
		for {
			c, err := l.Accept()
			if err != nil {
				log.Fatal(err)
			}
			go serveRaw(c, func(uri string) []byte {
				if a := find(uri); a != nil {
					return a.raw
				}
				return notFound
			})
		}
	default:
		log.Fatalf("unknown -mode %q (fixed, raw)", *mode)
	}
}

// byKey splits a path without a query, /table/key, into "/table/" and key.
func byKey(p string) (dir, key string, ok bool) {
	if strings.Contains(p, "?") || strings.Count(p, "/") != 2 {
		return "", "", false
	}
	i := strings.LastIndexByte(p, '/')
	return p[:i+1], p[i+1:], true
}

func fetch(url string) (*answer, error) {
	resp, err := http.Get(url)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, fmt.Errorf("GET %s: %w", url, err)
	}
	a := &answer{status: resp.StatusCode, header: http.Header{}, body: body}
	for _, k := range []string{"Content-Type", "Link"} {
		if v := resp.Header.Values(k); len(v) > 0 {
			a.header[k] = v
		}
	}
	a.chunk = len(resp.TransferEncoding) > 0
	var b bytes.Buffer
	fmt.Fprintf(&b, "HTTP/1.1 %d %s\r\n", a.status, http.StatusText(a.status))
	a.header.Write(&b)
	fmt.Fprintf(&b, "Date: %s\r\nContent-Length: %d\r\n\r\n", time.Now().UTC().Format(http.TimeFormat), len(body))
	b.Write(body)
	a.raw = b.Bytes()
	return a, nil
}

// serveRaw answers c's requests, one at a time, until it closes.
func serveRaw(c net.Conn, answer func(uri string) []byte) {
	defer c.Close()
	r := bufio.NewReaderSize(c, 4096)
	for {
		line, err := r.ReadSlice('\n')
		if err != nil {
			return
		}
		// GET /path HTTP/1.1
		f := bytes.Fields(line)
		if len(f) != 3 {
			return
		}
		resp := answer(string(f[1]))
		for { // the headers, up to the blank line
			h, err := r.ReadSlice('\n')
			if err != nil {
				return
			}
			if len(bytes.TrimRight(h, "\r\n")) == 0 {
				break
			}
		}
		if _, err := c.Write(resp); err != nil {
			return
		}
	}
}
