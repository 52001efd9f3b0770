//go:build linux

package proc

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The test binary plays the parent (starts a child and waits) and the child
// (sleeps) when HDLGEN_PROC_TEST says so.
const roleEnv = "HDLGEN_PROC_TEST"

// pidsEnv names the file where the tree role writes its pid and its
// children's.
const pidsEnv = "HDLGEN_PROC_TEST_PIDS"

func TestMain(m *testing.M) {
	switch os.Getenv(roleEnv) {
	case "child":
		time.Sleep(time.Minute)
		os.Exit(0)
	case "tree":
		// A program that starts programs (make and its compilers): two
		// grandchildren in its group, every pid written to the pids file.
		pids := []int{os.Getpid()}
		for i := 0; i < 2; i++ {
			c := exec.Command(os.Args[0], "-test.run=^$")
			c.Env = append(os.Environ(), roleEnv+"=child")
			if err := c.Start(); err != nil {
				fmt.Println("start:", err)
				os.Exit(1)
			}
			pids = append(pids, c.Process.Pid)
		}
		var b strings.Builder
		for _, p := range pids {
			fmt.Fprintln(&b, p)
		}
		if err := os.WriteFile(os.Getenv(pidsEnv), []byte(b.String()), 0o644); err != nil {
			fmt.Println("write:", err)
			os.Exit(1)
		}
		time.Sleep(time.Minute)
		os.Exit(0)
	case "parent-tree", "parent-tree-pdeathsig":
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), roleEnv+"=tree")
		if os.Getenv(roleEnv) == "parent-tree" {
			Setup(cmd)
		} else { // the setup before the reaper: a group and the parent-death signal
			cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
		}
		if err := cmd.Start(); err != nil {
			fmt.Println("start:", err)
			os.Exit(1)
		}
		fmt.Println(cmd.Process.Pid)
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

// TestTreeDiesWithParent: SIGKILL of hdlgen while a program it started with
// Setup runs programs of its own (make running Verilator and the compiler)
// ends all of them, not only the direct child (issue 36, item 4: the
// parent-death signal alone reached make only). The control, the setup
// before the reaper, leaves the grandchildren running.
func TestTreeDiesWithParent(t *testing.T) {
	for _, tc := range []struct {
		role      string
		wantAlive int // of the tree's 3 processes, a second after the kill
	}{{"parent-tree", 0}, {"parent-tree-pdeathsig", 2}} {
		t.Run(tc.role, func(t *testing.T) {
			pidsFile := filepath.Join(t.TempDir(), "pids")
			parent := exec.Command(os.Args[0], "-test.run=^$")
			parent.Env = append(os.Environ(), roleEnv+"="+tc.role, pidsEnv+"="+pidsFile)
			if err := parent.Start(); err != nil {
				t.Fatal(err)
			}
			var pids []int
			for end := time.Now().Add(30 * time.Second); len(pids) < 3 && time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
				b, _ := os.ReadFile(pidsFile)
				if !strings.HasSuffix(string(b), "\n") {
					continue
				}
				pids = pids[:0]
				for _, f := range strings.Fields(string(b)) {
					if p, err := strconv.Atoi(f); err == nil {
						pids = append(pids, p)
					}
				}
			}
			t.Cleanup(func() {
				for _, p := range pids {
					syscall.Kill(p, syscall.SIGKILL)
				}
			})
			if len(pids) < 3 {
				parent.Process.Kill()
				parent.Wait()
				t.Fatalf("the tree did not start: pids %v", pids)
			}
			if err := parent.Process.Kill(); err != nil {
				t.Fatal(err)
			}
			parent.Wait()
			limit := 3 * time.Second // killed processes end at once; the control gets a second to show it survives
			if tc.wantAlive > 0 {
				limit = time.Second
			}
			var left []int
			for end := time.Now().Add(limit); time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
				left = left[:0]
				for _, p := range pids {
					if alive(p) {
						left = append(left, p)
					}
				}
				if len(left) == 0 {
					break
				}
			}
			t.Logf("%s: %d of %d processes left after the kill", tc.role, len(left), len(pids))
			if len(left) != tc.wantAlive {
				t.Errorf("%d of the tree's processes %v left running after SIGKILL of hdlgen (%v), want %d", len(left), pids, left, tc.wantAlive)
			}
		})
	}
}

// TestReaperPassesStatus: a program started through Setup's reaper exits
// with its own code, or by its own signal, and reads and writes the streams
// it was given.
func TestReaperPassesStatus(t *testing.T) {
	for _, tc := range []struct {
		script string
		want   string // the error of Run, "" for success
		out    string
	}{
		{"read x; echo got $x", "", "got in\n"},
		{"exit 3", "exit status 3", ""},
		{"kill -TERM $$", "signal: terminated", ""},
	} {
		cmd := exec.Command("/bin/sh", "-c", tc.script)
		Setup(cmd)
		cmd.Stdin = strings.NewReader("in\n")
		out, err := cmd.Output()
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != tc.want || string(out) != tc.out {
			t.Errorf("sh -c %q: error %q, output %q; want %q, %q", tc.script, got, out, tc.want, tc.out)
		}
	}
}
