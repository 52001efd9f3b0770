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
	cmd := exec.Command(os.Args[0], "build", "--data", "/dev/stdin", "--name", "iris", "-o", dir, "--n", "20", "--lambda", "1", "--kappa", "3")
	cmd.Env = append(os.Environ(), asHdlgenEnv+"=1")
	cmd.Stdin = bytes.NewReader(iris) // through a pipe: not an *os.File
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var lines []string
	sc := bufio.NewScanner(stderr)
	second := false
	for !second && sc.Scan() {
		lines = append(lines, sc.Text())
		second = strings.HasPrefix(sc.Text(), "[2/")
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
	if !second {
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
