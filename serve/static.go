package serve

import (
	"io/fs"
	"net/http"
	"strings"
)

// notTable answers a path that names no served table: with
// Options.Static, a GET for a file of the directory gets the file; all
// else is a JSON 404.
func (s *Server) notTable(w http.ResponseWriter, r *http.Request, msg string) {
	if s.root != nil && isRead(r.Method) && s.serveFile(w, r, strings.TrimPrefix(r.URL.Path, "/")) {
		return
	}
	writeError(w, http.StatusNotFound, msg)
}

// serveFile serves the regular file name of the static directory and
// reports whether there was one. name must be a clean relative path (no
// "..", no empty or "." element: fs.ValidPath), and os.Root keeps it and
// any symbolic link it follows inside the directory.
func (s *Server) serveFile(w http.ResponseWriter, r *http.Request, name string) bool {
	if !fs.ValidPath(name) || name == "." || strings.ContainsAny(name, "\\\x00") {
		return false
	}
	fsys := s.root.FS()
	fi, err := fs.Stat(fsys, name)
	if err != nil || !fi.Mode().IsRegular() {
		return false
	}
	http.ServeFileFS(w, r, fsys, name)
	return true
}
