//go:build unix

package cli

import (
	"bufio"
	"bytes"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/hdlgen/hdlgen/examples"
)

// TestBuildReadsAPipe: build --data /dev/stdin fed by a pipe gets past its
// split (issue 36, item 5: build read its input twice, and the second read
// of the pipe found an "empty file"). The build is interrupted once its
// second step starts, and the split it wrote holds every row.
func TestBuildReadsAPipe(t *testing.T) {
	iris, err := fs.ReadFile(examples.FS, examples.Iris)
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "b")
	lines, reached := buildUntil(t, "", iris, "[2/", "--data", "/dev/stdin", "--name", "iris", "-o", dir, "--n", "20", "--lambda", "1", "--kappa", "3")
	if !reached {
		t.Fatalf("the build did not reach its second step:\n%s", strings.Join(lines, "\n"))
	}
	rows := 0
	for _, part := range []string{"train", "holdout"} {
		b, err := os.ReadFile(filepath.Join(dir, "data", part, "iris.csv"))
		if err != nil {
			t.Fatal(err)
		}
		rows += strings.Count(string(b), "\n") - 1 // less the header
	}
	if want := strings.Count(strings.TrimSpace(string(iris)), "\n"); rows != want {
		t.Errorf("the split holds %d rows, want the pipe's %d", rows, want)
	}
}

// buildUntil runs hdlgen build with args (stdin, when not nil, through a
// pipe) until a progress line starts with step, then interrupts it; it
// returns the lines of stderr and whether the step was reached. It runs in
// dir ("" for the current folder).
func buildUntil(t *testing.T, dir string, stdin []byte, step string, args ...string) ([]string, bool) {
	t.Helper()
	cmd := exec.Command(os.Args[0], append([]string{"build"}, args...)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), asHdlgenEnv+"=1")
	if stdin != nil {
		cmd.Stdin = bytes.NewReader(stdin) // through a pipe: not an *os.File
	}
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var lines []string
	sc := bufio.NewScanner(stderr)
	reached := false
	for !reached && sc.Scan() {
		lines = append(lines, sc.Text())
		reached = strings.HasPrefix(sc.Text(), step)
	}
	cmd.Process.Signal(syscall.SIGINT)
	done := make(chan struct{})
	go func() {
		for sc.Scan() {
		}
		cmd.Wait()
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(hangLimit):
		cmd.Process.Kill()
		<-done
	}
	return lines, reached
}

// TestBuildOneRowClass: a class with too few rows to hold any out goes to
// training only, with a warning at the start, and the build gets past its
// baseline (issue 36, item 10: it failed at step 3, the baseline refusing a
// held-out class its training rows lacked).
func TestBuildOneRowClass(t *testing.T) {
	iris, err := fs.ReadFile(examples.FS, examples.Iris)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	data := filepath.Join(dir, "rare.csv")
	if err := os.WriteFile(data, append(iris, "5.0,3.0,1.0,0.1,rare\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	lines, reached := buildUntil(t, "", nil, "[3/13] baseline: done", "--data", data, "-o", filepath.Join(dir, "b"), "--holdout", "0.5", "--n", "20", "--lambda", "1", "--kappa", "3")
	if !reached {
		t.Fatalf("the build did not get past its baseline:\n%s", strings.Join(lines, "\n"))
	}
	if want := "holds out no row of rare (1 row): the class goes to training only"; !strings.Contains(lines[0], want) {
		t.Errorf("first line %q, want a warning with %q", lines[0], want)
	}
}
