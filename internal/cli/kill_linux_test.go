//go:build linux

package cli

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/hdlgen/hdlgen/internal/hwtest"
)

// procInfo is what /proc/PID/stat says of a process.
type procInfo struct {
	pid, ppid, pgid int
	comm, state     string
}

// processes lists the processes of the machine.
func processes() []procInfo {
	entries, _ := os.ReadDir("/proc")
	var ps []procInfo
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		i, j := bytes.IndexByte(b, '('), bytes.LastIndexByte(b, ')')
		if i < 0 || j < i {
			continue
		}
		f := strings.Fields(string(b[j+1:]))
		if len(f) < 3 {
			continue
		}
		ppid, _ := strconv.Atoi(f[1])
		pgid, _ := strconv.Atoi(f[2])
		ps = append(ps, procInfo{pid: pid, ppid: ppid, pgid: pgid, comm: string(b[i+1 : j]), state: f[0]})
	}
	return ps
}

// descendants are the live processes below pid.
func descendants(pid int) []procInfo {
	ps := processes()
	below := map[int]bool{pid: true}
	var out []procInfo
	for grew := true; grew; {
		grew = false
		for _, p := range ps {
			if below[p.ppid] && !below[p.pid] {
				below[p.pid] = true
				out = append(out, p)
				grew = true
			}
		}
	}
	return out
}

// inGroups are the live (not zombie) processes of the process groups.
func inGroups(groups map[int]bool) []procInfo {
	var out []procInfo
	for _, p := range processes() {
		if groups[p.pgid] && p.state != "Z" && p.state != "X" {
			out = append(out, p)
		}
	}
	return out
}

// TestKilledVerifyLeavesNoProcess: SIGKILL of hdlgen while Verilator builds
// a design (make → verilator → make → g++ → cc1plus) leaves none of them
// running (issue 36, item 4: the parent-death signal reached make only, and
// Verilator, make and the compilers ran on).
func TestKilledVerifyLeavesNoProcess(t *testing.T) {
	hwtest.Require(t, hwtest.Slow("builds a Verilator model and kills hdlgen during it"), hwtest.Make, hwtest.Verilator)
	f := newFixture(t)
	seen, left, err := killMidCompile("", "verify", f.hw, "--steps", "verilator", "--targets", "stream")
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("processes below hdlgen at the kill: %v; left 5 s after it: %d", seen, len(left))
	if len(left) > 0 {
		t.Errorf("SIGKILL of hdlgen verify left %d processes running: %s", len(left), strings.Join(left, ", "))
	}
}

// killMidCompile runs hdlgen with args in dir, SIGKILLs it once a C++
// compiler runs below it, and returns the programs that ran below it then
// and those of their process groups still running 5 s after the kill
// (which it then kills).
func killMidCompile(dir string, args ...string) (seen, left []string, err error) {
	cmd := exec.Command(os.Args[0], args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), asHdlgenEnv+"=1")
	var errb bytes.Buffer
	cmd.Stderr = &errb
	if err := cmd.Start(); err != nil {
		return nil, nil, err
	}
	done := make(chan struct{})
	go func() { cmd.Wait(); close(done) }()
	// Wait for the C++ compiler: the deepest part of the tree, and one that
	// writes no output (an earlier program may end by SIGPIPE on its output
	// to the killed hdlgen, which would hide the fault).
	groups := map[int]bool{}
	deep := false
	for end := time.Now().Add(2 * time.Minute); !deep && time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
		select {
		case <-done:
			return seen, nil, fmt.Errorf("%v ended before the compiler started: %s", args, errb.String())
		default:
		}
		seen = seen[:0]
		for _, p := range descendants(cmd.Process.Pid) {
			groups[p.pgid] = true
			seen = append(seen, p.comm)
			deep = deep || p.comm == "cc1plus"
		}
	}
	if !deep {
		cmd.Process.Kill()
		<-done
		return seen, nil, fmt.Errorf("no C++ compiler below hdlgen within 2 minutes (saw %v)", seen)
	}
	delete(groups, syscall.Getpgrp())
	if err := cmd.Process.Kill(); err != nil {
		return seen, nil, err
	}
	<-done
	var running []procInfo
	for end := time.Now().Add(5 * time.Second); time.Now().Before(end); time.Sleep(50 * time.Millisecond) {
		if running = inGroups(groups); len(running) == 0 {
			break
		}
	}
	for _, p := range running {
		left = append(left, fmt.Sprintf("%s (pid %d)", p.comm, p.pid))
		syscall.Kill(p.pid, syscall.SIGKILL)
	}
	return seen, left, nil
}

// killRow is the robustness table's row of issue 36, item 4.
func killRow(w workspace) robustRow {
	w.copyDir("hw", "hw-kill")
	args := []string{"verify", "hw-kill", "--steps", "verilator", "--targets", "stream"}
	row := robustRow{item: "36.4", class: "SIGKILL of hdlgen while Verilator's C++ compiles", cmd: "hdlgen " + strings.Join(args, " ") + "  (SIGKILL once cc1plus runs)",
		want: "no process of hdlgen's left running", o: outcome{code: 128 + int(syscall.SIGKILL)}} // as a shell reports a SIGKILL
	_, left, err := killMidCompile(w.dir, args...)
	if err != nil {
		row.msg = err.Error()
		return row
	}
	row.msg = fmt.Sprintf("processes of its groups running 5 s after the kill: %d", len(left))
	row.held = len(left) == 0
	return row
}
