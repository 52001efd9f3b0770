//go:build linux

package proc

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The test binary plays the parent (starts a child and waits) and the child
// (sleeps) when HDLGEN_PROC_TEST says so.
const roleEnv = "HDLGEN_PROC_TEST"

func TestMain(m *testing.M) {
	switch os.Getenv(roleEnv) {
	case "child":
		time.Sleep(time.Minute)
		os.Exit(0)
	case "parent", "parent-plain", "parent-nogroup":
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), roleEnv+"=child")
		switch os.Getenv(roleEnv) {
		case "parent":
			Setup(cmd)
		case "parent-plain":
			cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} // the old setup: a group, no parent-death signal
		}
		if err := cmd.Start(); err != nil {
			fmt.Println("start:", err)
			os.Exit(1)
		}
		fmt.Println(cmd.Process.Pid)
		time.Sleep(time.Minute)
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// alive reports whether pid runs (a zombie, never reaped by an init that
// does not reap, counts as ended).
func alive(pid int) bool {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	// pid (comm) state …: the state follows the last ')'.
	s := string(b)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	return len(f) > 0 && f[0] != "Z" && f[0] != "X"
}

// TestChildDiesWithParent: SIGKILL of a parent whose child was started with
// Setup ends the child; the control (a process group alone, as before Setup
// existed) leaves it running, adopted by init.
func TestChildDiesWithParent(t *testing.T) {
	for _, tc := range []struct {
		role     string
		wantDead bool
	}{{"parent", true}, {"parent-plain", false}} {
		t.Run(tc.role, func(t *testing.T) {
			parent := exec.Command(os.Args[0], "-test.run=^$")
			parent.Env = append(os.Environ(), roleEnv+"="+tc.role)
			out, err := parent.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			if err := parent.Start(); err != nil {
				t.Fatal(err)
			}
			line, err := bufio.NewReader(out).ReadString('\n')
			pid, perr := strconv.Atoi(strings.TrimSpace(line))
			if err != nil || perr != nil {
				parent.Process.Kill()
				t.Fatalf("parent said %q: %v %v", line, err, perr)
			}
			t.Cleanup(func() { syscall.Kill(pid, syscall.SIGKILL) })
			if err := parent.Process.Kill(); err != nil {
				t.Fatal(err)
			}
			parent.Wait()
			dead := false
			limit := 3 * time.Second // a signalled child ends at once; the control gets a second to show it survives
			if !tc.wantDead {
				limit = time.Second
			}
			for end := time.Now().Add(limit); time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
				if !alive(pid) {
					dead = true
					break
				}
			}
			if dead != tc.wantDead {
				t.Errorf("child %d of a killed parent: ended %v, want %v", pid, dead, tc.wantDead)
			}
		})
	}
}

// TestCancelKillsTheGroup: cancelling the context of a command started with
// Setup kills its own children too (the group), and Wait returns promptly.
func TestCancelKillsTheGroup(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	parent := exec.CommandContext(ctx, os.Args[0], "-test.run=^$")
	parent.Env = append(os.Environ(), roleEnv+"=parent-nogroup") // the grandchild stays in the group
	Setup(parent)
	out, err := parent.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := parent.Start(); err != nil {
		t.Fatal(err)
	}
	line, _ := bufio.NewReader(out).ReadString('\n')
	pid, err := strconv.Atoi(strings.TrimSpace(line))
	if err != nil {
		cancel()
		t.Fatalf("parent said %q", line)
	}
	t.Cleanup(func() { syscall.Kill(pid, syscall.SIGKILL) })
	cancel()
	done := make(chan struct{})
	go func() { parent.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(2 * WaitDelay):
		t.Fatal("Wait did not return after the cancellation")
	}
	for end := time.Now().Add(3 * time.Second); alive(pid) && time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
	}
	if alive(pid) {
		t.Errorf("grandchild %d survived the cancellation", pid)
	}
}
