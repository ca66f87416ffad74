package pgtest

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"testing"
	"time"
)

// TestWatchdog: a test binary that dies without running Main's Stop (here
// by SIGKILL, as a timeout, a panic or a closed pipe would also end it)
// leaves no cluster behind: the watchdog stops it and removes its
// directory.
func TestWatchdog(t *testing.T) {
	if os.Getenv("PGTEST_WATCHDOG_CHILD") != "" {
		s, err := Start()
		if err != nil {
			fmt.Println("error:", err)
			os.Exit(1)
		}
		fmt.Printf("started %s %d\n", s.dir, s.watchdog)
		time.Sleep(time.Hour) // until killed
		return
	}
	if os.Getenv(EnvURL) != "" {
		t.Skipf("the server is %s's, not a throwaway cluster", EnvURL)
	}
	if _, err := binDir(); err != nil {
		if os.Getenv(EnvRequire) != "" {
			t.Fatal(err)
		}
		t.Skip(err)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestWatchdog$")
	cmd.Env = append(os.Environ(), "PGTEST_WATCHDOG_CHILD=1")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	r := bufio.NewReader(out)
	line, err := r.ReadString('\n')
	var dir string
	var pid int
	if _, serr := fmt.Sscanf(line, "started %s %d", &dir, &pid); err != nil || serr != nil {
		cmd.Process.Kill()
		cmd.Wait()
		t.Fatalf("the child test binary wrote %q (%v)", line, err)
	}
	if _, err := os.Stat(dir + "/data/postmaster.pid"); err != nil {
		t.Errorf("the cluster is not running in %s: %v", dir, err)
	}
	cmd.Process.Kill()
	cmd.Wait()
	// The watchdog sees the child gone within a second, stops the
	// cluster and ends.
	for {
		if _, err := os.Stat(fmt.Sprintf("/proc/%d", pid)); err != nil {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Fatalf("the killed test binary's cluster directory %s is still there (%v)", dir, err)
	}
}
