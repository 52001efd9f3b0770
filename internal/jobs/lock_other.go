//go:build !unix

package jobs

import (
	"fmt"
	"os"
)

// LockFile is the advisory lock of a study folder (unix only).
const LockFile = ".hdlgen.lock"

// Lock is a held advisory lock on a study folder; without flock (not unix) it
// locks nothing.
type Lock struct{}

// LockedError says who holds the lock of a study folder.
type LockedError struct{ Dir, Holder string }

func (e *LockedError) Error() string {
	return fmt.Sprintf("%s is in use by another run (%s)", e.Dir, e.Holder)
}

// LockDir creates dir; without flock it cannot lock it.
func LockDir(dir string, _ Shard, _ string) (*Lock, error) { return &Lock{}, os.MkdirAll(dir, 0o755) }

// Unlock releases the lock.
func (l *Lock) Unlock() {}

func withFileLock(_ string, fn func() error) error { return fn() }
