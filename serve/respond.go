package serve

import (
	"errors"
	"net/http"
	"net/url"
	"strconv"
	"time"

	json "github.com/jsonpipe/json"
)

const (
	contentJSON   = "application/json"
	contentNDJSON = "application/x-ndjson"
)

// headerJSON and headerNDJSON are Content-Type header values set as
// they are, without the slice Header.Set makes each time; full slices, so
// that an append (Header.Add) copies them rather than writing into them.
var (
	headerJSON   = []string{contentJSON}[:1:1]
	headerNDJSON = []string{contentNDJSON}[:1:1]
)

// quote is s as a JSON string, for messages.
func quote(s string) string { return string(json.AppendQuote(nil, s)) }

func pathUnescape(s string) (string, error) { return url.PathUnescape(s) }

// writeError answers status with {"error": msg}.
func writeError(w http.ResponseWriter, status int, msg string) {
	writeErrorAt(w, status, msg, -1, -1)
}

// writeErrorAt answers status with {"error": msg, "row": row, "offset":
// offset}, row and offset left out when negative.
func writeErrorAt(w http.ResponseWriter, status int, msg string, row, offset int64) {
	b := json.AppendQuote([]byte(`{"error":`), msg)
	if row >= 0 {
		b = strconv.AppendInt(append(b, `,"row":`...), row, 10)
	}
	if offset >= 0 {
		b = strconv.AppendInt(append(b, `,"offset":`...), offset, 10)
	}
	b = append(b, "}\n"...)
	h := w.Header()
	h.Del("Link")
	h.Set("Content-Type", contentJSON)
	h.Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(status)
	w.Write(b)
}

func methodNotAllowed(w http.ResponseWriter, allow string) {
	w.Header().Set("Allow", allow)
	writeError(w, http.StatusMethodNotAllowed, "method not allowed here (allowed: "+allow+")")
}

// streamWriter writes a response as the rows come, giving each write
// its own deadline: a client that stops reading is dropped after
// timeout, however long the whole response.
type streamWriter struct {
	w       http.ResponseWriter
	rc      http.ResponseController // held, not pointed to: one allocation
	timeout time.Duration
	n       int64 // bytes written
}

func newStreamWriter(w http.ResponseWriter, timeout time.Duration) *streamWriter {
	return &streamWriter{w: w, rc: *http.NewResponseController(w), timeout: timeout}
}

func (sw *streamWriter) Write(p []byte) (int, error) {
	if sw.timeout > 0 {
		sw.rc.SetWriteDeadline(time.Now().Add(sw.timeout)) // not supported: no deadline
	}
	n, err := sw.w.Write(p)
	sw.n += int64(n)
	return n, err
}

// fail answers a query's error: as JSON when nothing was written yet;
// else by breaking the connection, so that the client sees a response
// cut short (the writers leave an array unclosed, too) rather than an
// ending.
func (s *Server) fail(w http.ResponseWriter, r *http.Request, sw *streamWriter, err error) {
	if r.Context().Err() != nil {
		return // the client went away; no one to tell
	}
	if sw != nil && sw.n > 0 {
		panic(http.ErrAbortHandler)
	}
	var bad badRequest
	switch {
	case errors.As(err, &bad):
		writeError(w, http.StatusBadRequest, bad.Error())
	case s.db.badInput(err):
		writeError(w, http.StatusBadRequest, err.Error())
	default:
		writeError(w, http.StatusInternalServerError, err.Error())
	}
}
