//go:build unix

package output

import "syscall"

// Modes of access(2).
const (
	accessWrite = 0x2 // W_OK
	accessEnter = 0x1 // X_OK: search the folder
)

// canWrite asks the kernel whether this process may create files in dir
// (access(2): the permissions and a read-only file system answer, and
// nothing is written, so a refused command leaves the folder as it was).
func canWrite(dir string) error {
	return syscall.Access(dir, accessWrite|accessEnter)
}
