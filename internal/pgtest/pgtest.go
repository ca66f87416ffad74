// Package pgtest gives tests a real PostgreSQL server: the one named by the
// environment variable JSONPIPE_POSTGRES_URL, or else a throwaway cluster
// started from Debian's postgresql package (initdb and pg_ctl from
// /usr/lib/postgresql/*/bin, or from PATH) in a temporary directory, with
// its Unix socket in that directory only, no TCP, fsync off. When the tests
// run as root, the cluster runs as the user postgres (PostgreSQL refuses to
// run as root). When neither is possible, tests that need a server skip and
// say why, or fail when JSONPIPE_REQUIRE_POSTGRES is set.
//
// Each test gets its own schema, dropped at its end, so tests may run in
// parallel and name their tables freely.
package pgtest

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// EnvURL names the environment variable that points the tests at an
// existing server instead of a throwaway cluster.
const EnvURL = "JSONPIPE_POSTGRES_URL"

// Server is a running PostgreSQL server.
type Server struct {
	// URL connects to the server's postgres database.
	URL string

	dir      string // the throwaway cluster's directory, "" for EnvURL's server
	bin      string
	cred     *syscall.Credential
	watchdog int // the PID of the watchdog that stops the cluster if the tests die (watch)
}

var (
	startOnce sync.Once
	server    *Server
	startErr  error
	schemas   atomic.Int64
)

// Start returns the package's server, starting the throwaway cluster on
// first use. Main should Stop it when the tests are done.
func Start() (*Server, error) {
	startOnce.Do(func() { server, startErr = start() })
	return server, startErr
}

// Main runs the tests and stops the throwaway cluster, if one was started;
// call it from TestMain.
func Main(m *testing.M) {
	code := m.Run()
	if server != nil {
		server.Stop()
	}
	os.Exit(code)
}

func start() (*Server, error) {
	if u := os.Getenv(EnvURL); u != "" {
		return &Server{URL: u}, nil
	}
	bin, err := binDir()
	if err != nil {
		return nil, err
	}
	s := &Server{bin: bin}
	if os.Geteuid() == 0 {
		u, err := user.Lookup("postgres")
		if err != nil {
			return nil, fmt.Errorf("running as root, and there is no user postgres to run the cluster as: %v", err)
		}
		uid, _ := strconv.ParseUint(u.Uid, 10, 32)
		gid, _ := strconv.ParseUint(u.Gid, 10, 32)
		s.cred = &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}
	}
	// A short path: a Unix socket's path is limited to about 100 bytes.
	if s.dir, err = os.MkdirTemp("", "jsonpipe-pg"); err != nil {
		return nil, err
	}
	if s.cred != nil {
		if err := os.Chown(s.dir, int(s.cred.Uid), int(s.cred.Gid)); err != nil {
			os.RemoveAll(s.dir)
			return nil, err
		}
	}
	data := filepath.Join(s.dir, "data")
	if out, err := s.run("initdb", "-D", data, "-U", "postgres", "-A", "trust", "-E", "UTF8", "--locale=C", "--no-sync"); err != nil {
		os.RemoveAll(s.dir)
		return nil, fmt.Errorf("initdb: %v\n%s", err, out)
	}
	opts := fmt.Sprintf("-k %s -c listen_addresses='' -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=50", s.dir)
	if out, err := s.run("pg_ctl", "-D", data, "-l", filepath.Join(s.dir, "log"), "-o", opts, "-w", "-t", "60", "start"); err != nil {
		log, _ := os.ReadFile(filepath.Join(s.dir, "log"))
		os.RemoveAll(s.dir)
		return nil, fmt.Errorf("pg_ctl start: %v\n%s\n%s", err, out, log)
	}
	if err := s.watch(os.Getpid()); err != nil {
		s.Stop()
		return nil, fmt.Errorf("pgtest: the cluster's watchdog: %v", err)
	}
	s.URL = "postgres:///postgres?host=" + url.QueryEscape(s.dir) + "&user=postgres&sslmode=disable"
	return s, nil
}

// watch starts the cluster's watchdog: a shell, in a session of its own,
// that stops the cluster and removes its directory once the process pid
// (the test binary) is gone, and leaves within a second of Main's Stop
// (the directory is gone then). So a test binary that dies without
// returning to Main (a panic in a test, go test's timeout, a SIGKILL, a
// closed pipe) leaves no cluster running. It holds none of the test's
// output, so that go test does not wait for it. Its PID is
// Server.watchdog.
func (s *Server) watch(pid int) error {
	script := `while [ -d "/proc/$1" ] && [ -d "$2" ]; do sleep 1; done
if [ -d "$2" ]; then "$3" -D "$2/data" -m immediate -w stop; rm -rf "$2"; fi`
	cmd := exec.Command("/bin/sh", "-c", script, "pgtest-watchdog", strconv.Itoa(pid), s.dir, filepath.Join(s.bin, "pg_ctl"))
	cmd.Dir = "/"
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Credential: s.cred}
	if s.cred != nil {
		cmd.Env = append(os.Environ(), "HOME="+s.dir)
	}
	if err := cmd.Start(); err != nil {
		return err
	}
	s.watchdog = cmd.Process.Pid
	// Reaped when it ends, so that it is no zombie of a long test run.
	go cmd.Wait()
	return nil
}

// binDir finds initdb: in the newest /usr/lib/postgresql/*/bin, else on PATH.
func binDir() (string, error) {
	dirs, _ := filepath.Glob("/usr/lib/postgresql/*/bin")
	sort.Slice(dirs, func(i, j int) bool { return version(dirs[i]) > version(dirs[j]) })
	for _, d := range dirs {
		if _, err := os.Stat(filepath.Join(d, "initdb")); err == nil {
			return d, nil
		}
	}
	if p, err := exec.LookPath("initdb"); err == nil {
		return filepath.Dir(p), nil
	}
	return "", errors.New("no PostgreSQL server: set " + EnvURL + " or install Debian's postgresql package (apt-get install -y postgresql)")
}

func version(binDir string) int {
	v, _ := strconv.Atoi(filepath.Base(filepath.Dir(binDir)))
	return v
}

func (s *Server) run(name string, args ...string) ([]byte, error) {
	cmd := exec.Command(filepath.Join(s.bin, name), args...)
	cmd.Dir = s.dir
	if s.cred != nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: s.cred}
		cmd.Env = append(os.Environ(), "HOME="+s.dir)
	}
	return cmd.CombinedOutput()
}

// Stop stops a throwaway cluster and removes its directory.
func (s *Server) Stop() {
	if s.dir == "" {
		return
	}
	s.run("pg_ctl", "-D", filepath.Join(s.dir, "data"), "-m", "immediate", "-w", "stop")
	os.RemoveAll(s.dir)
}

// Kill stops the server at once, as a crash would, for tests of a dropped
// connection; the cluster cannot be used after it. Only a throwaway
// cluster can be killed.
func (s *Server) Kill() error {
	if s.dir == "" {
		return errors.New("pgtest: not a throwaway cluster")
	}
	_, err := s.run("pg_ctl", "-D", filepath.Join(s.dir, "data"), "-m", "immediate", "-w", "stop")
	return err
}

// EnvRequire names the environment variable that, when set (as CI sets
// it), makes a missing server a test failure instead of a skip.
const EnvRequire = "JSONPIPE_REQUIRE_POSTGRES"

// Need returns the server, or skips the test saying why there is none
// (fails it, when EnvRequire is set).
func Need(t testing.TB) *Server {
	t.Helper()
	s, err := Start()
	if err != nil {
		if os.Getenv(EnvRequire) != "" {
			t.Fatalf("no PostgreSQL server, and %s is set: %v", EnvRequire, err)
		}
		t.Skipf("no PostgreSQL server for this test: %v", err)
	}
	return s
}

// Schema makes a fresh schema for t, dropped when t ends, and returns the
// URL of a connection whose search_path is that schema.
func Schema(t testing.TB) string {
	t.Helper()
	s := Need(t)
	name := fmt.Sprintf("t%d_%d", os.Getpid(), schemas.Add(1))
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	c, err := pgx.Connect(ctx, s.URL)
	if err != nil {
		t.Fatalf("pgtest: connect: %v", err)
	}
	defer c.Close(ctx)
	if _, err := c.Exec(ctx, "CREATE SCHEMA "+name); err != nil {
		t.Fatalf("pgtest: %v", err)
	}
	t.Cleanup(func() {
		ctx := context.Background()
		if c, err := pgx.Connect(ctx, s.URL); err == nil {
			c.Exec(ctx, "DROP SCHEMA "+name+" CASCADE")
			c.Close(ctx)
		}
	})
	sep := "?"
	if strings.Contains(s.URL, "?") {
		sep = "&"
	}
	// options, not search_path: libpq (psql) takes only the former.
	return s.URL + sep + "options=" + strings.ReplaceAll(url.PathEscape("-c search_path="+name), "=", "%3D")
}

// Conn connects to a fresh schema (see Schema); the connection is closed
// when t ends.
func Conn(t testing.TB) *pgx.Conn {
	t.Helper()
	u := Schema(t)
	ctx := context.Background()
	c, err := pgx.Connect(ctx, u)
	if err != nil {
		t.Fatalf("pgtest: connect: %v", err)
	}
	t.Cleanup(func() { c.Close(context.Background()) })
	return c
}
