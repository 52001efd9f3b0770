//go:build unix

package verify

import (
	"os/exec"
	"syscall"
	"time"
)

// setProcessGroup runs cmd in its own process group and, when the context
// ends, kills the whole group: make, verilator's own make, g++ and the
// simulation, not only the direct child.
func setProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error {
		return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
	cmd.WaitDelay = 5 * time.Second
}

// freeBytes returns the free space of the file system holding dir.
func freeBytes(dir string) (uint64, bool) {
	var st syscall.Statfs_t
	if syscall.Statfs(dir, &st) != nil {
		return 0, false
	}
	return uint64(st.Bavail) * uint64(st.Bsize), true
}
