//go:build linux

package proc

import (
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"syscall"
)

// reaperArg, as the first argument of hdlgen's own executable, makes the
// process the reaper of the program named by the arguments after it
// (reaperMain; the init below recognises it before main runs).
const reaperArg = "--hdlgen-internal-reaper"

// selfExe runs the executable of the process that starts it (in the
// child between fork and exec, /proc/self is still hdlgen).
const selfExe = "/proc/self/exe"

// reaperDeathSig is the signal the kernel sends the reaper when hdlgen dies
// (prctl PR_SET_PDEATHSIG): one it catches, so that it kills the group.
const reaperDeathSig = syscall.SIGTERM

func init() {
	if len(os.Args) >= 4 && os.Args[1] == reaperArg {
		os.Exit(reaperMain(os.Args[2], os.Args[3:]))
	}
}

func setup(cmd *exec.Cmd) {
	sig := syscall.SIGKILL
	if cmd.Err == nil && cmd.Process == nil {
		// hdlgen's own executable starts first, as the reaper of the group.
		cmd.Args = append([]string{"hdlgen-reaper", reaperArg, cmd.Path}, cmd.Args...)
		cmd.Path = selfExe
		sig = reaperDeathSig
	}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: sig}
	if cmd.Cancel != nil { // made by exec.CommandContext
		cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	}
}

// reaperMain is the reaper: the leader of the program's process group, which
// runs the program (path with argv) in that group, passes on its exit status,
// and kills the whole group — the program and everything it started — when
// hdlgen dies (reaperDeathSig) or someone asks it to end.
func reaperMain(path string, argv []string) int {
	sigs := make(chan os.Signal, 1)
	// Installed before the program starts: a death signal that arrives
	// earlier ends the reaper by its default action, with nothing started.
	// (Between fork and exec, Go's runtime sends the death signal itself
	// when hdlgen has already died.)
	signal.Notify(sigs, reaperDeathSig, syscall.SIGINT, syscall.SIGHUP)
	child := &exec.Cmd{Path: path, Args: argv, Env: os.Environ(), Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr,
		// The program dies with the reaper too (a kill of the reaper alone).
		SysProcAttr: &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}}
	if err := child.Start(); err != nil {
		fmt.Fprintf(os.Stderr, "hdlgen: start %s: %v\n", path, err)
		return 127
	}
	done := make(chan struct{})
	go func() {
		_ = child.Wait()
		close(done)
	}()
	select {
	case <-done:
	case <-sigs:
		// The group is the reaper's own (hdlgen made it with Setpgid): the
		// program, its compilers and simulators, and the reaper.
		_ = syscall.Kill(0, syscall.SIGKILL)
		<-done
	}
	ws, ok := child.ProcessState.Sys().(syscall.WaitStatus)
	switch {
	case !ok:
		return 1
	case ws.Signaled():
		// End the same way, so that hdlgen sees the program's own signal.
		signal.Reset(ws.Signal())
		_ = syscall.Kill(os.Getpid(), ws.Signal())
		return 128 + int(ws.Signal())
	}
	return ws.ExitStatus()
}
