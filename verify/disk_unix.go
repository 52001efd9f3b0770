//go:build unix

package verify

import (
	"syscall"
)

// freeBytes returns the free space of the file system holding dir.
func freeBytes(dir string) (uint64, bool) {
	var st syscall.Statfs_t
	if syscall.Statfs(dir, &st) != nil {
		return 0, false
	}
	return uint64(st.Bavail) * uint64(st.Bsize), true
}
