//go:build unix

package jobs

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/hdlgen/hdlgen/internal/atomicfile"
)

// LockFile is the advisory lock of a study folder; a run of one shard locks
// LockFile + ".shard-i-of-n" as well (Lock).
const LockFile = ".hdlgen.lock"

// Lock is a held advisory lock on a study folder.
type Lock struct{ files []*os.File }

// LockedError says who holds the lock of a study folder.
type LockedError struct {
	Dir    string
	Holder string // "pid P on host H since T: command", as the holder wrote it
}

func (e *LockedError) Error() string {
	return fmt.Sprintf("%s is in use by another run (%s); wait for it or choose another --out", e.Dir, e.Holder)
}

// LockDir takes the advisory lock (flock) of the study folder dir for a run of
// the given shard and command, creating dir if needed; it fails at once, with
// a LockedError that says who holds it, when another run holds it. A whole run
// locks the folder exclusively; a shard's run locks it shared (the shards of a
// study may share one folder) and locks its own shard file exclusively, so two
// runs of the same shard, or a whole run and a shard's, never overlap. The
// lock ends with Unlock or with the process. The exclusive lock removes the
// temporary files a killed run's writes left (atomicfile.RemoveStray); a
// shard's, beside other shards that may be writing, leaves them.
func LockDir(dir string, shard Shard, command string) (*Lock, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	holder := fmt.Sprintf("pid %d on host %s since %s: %s", os.Getpid(), hostname(), time.Now().UTC().Format(time.RFC3339), command)
	l := &Lock{}
	main := filepath.Join(dir, LockFile)
	if shard.Count <= 1 {
		if err := l.take(main, syscall.LOCK_EX, holder); err != nil {
			l.Unlock()
			return nil, lockedBy(dir, main, err)
		}
		// Alone in the folder: what a killed run was writing is litter.
		if _, err := atomicfile.RemoveStray(dir); err != nil {
			l.Unlock()
			return nil, err
		}
		return l, nil
	}
	own := fmt.Sprintf("%s.shard-%d-of-%d", main, shard.Index, shard.Count)
	if err := l.take(own, syscall.LOCK_EX, holder); err != nil {
		l.Unlock()
		return nil, lockedBy(dir, own, err)
	}
	if err := l.take(main, syscall.LOCK_SH, ""); err != nil {
		l.Unlock()
		return nil, lockedBy(dir, main, err)
	}
	return l, nil
}

// take locks path (how: LOCK_EX or LOCK_SH, never waiting) and, when holder is
// not empty, writes it into the file.
func (l *Lock) take(path string, how int, holder string) error {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return err
	}
	if err := syscall.Flock(int(f.Fd()), how|syscall.LOCK_NB); err != nil {
		f.Close()
		return err
	}
	l.files = append(l.files, f)
	if holder == "" {
		return nil
	}
	if err := f.Truncate(0); err != nil {
		return err
	}
	_, err = f.WriteAt([]byte(holder+"\n"), 0)
	return err
}

// Unlock releases the lock.
func (l *Lock) Unlock() {
	for _, f := range l.files {
		_ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		f.Close()
	}
	l.files = nil
}

// lockedBy turns a failed flock on path into a LockedError naming the holder:
// the text of path, or, for the folder's lock held shared by shard runs, the
// texts of the shard locks that are held.
func lockedBy(dir, path string, err error) error {
	if !errors.Is(err, syscall.EWOULDBLOCK) {
		return fmt.Errorf("lock %s: %w", path, err)
	}
	// Shard runs hold the folder's lock shared and write who they are into
	// their own lock file only; the folder's file then names an earlier run.
	var who []string
	if path == filepath.Join(dir, LockFile) {
		shards, _ := filepath.Glob(path + ".shard-*")
		for _, s := range shards {
			if held(s) {
				who = append(who, "shard "+strings.TrimPrefix(s, path+".shard-")+": "+readHolder(s))
			}
		}
	}
	if len(who) == 0 {
		who = append(who, readHolder(path))
	}
	if who[0] == "" {
		who[0] = "holder unknown"
	}
	return &LockedError{Dir: dir, Holder: strings.Join(who, "; ")}
}

// held reports whether another process holds a lock on path.
func held(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_SH|syscall.LOCK_NB); err != nil {
		return true
	}
	_ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
	return false
}

func readHolder(path string) string {
	data, err := os.ReadFile(path)
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(data))
}

func hostname() string {
	h, err := os.Hostname()
	if err != nil {
		return "unknown"
	}
	return h
}

// withFileLock runs fn holding an exclusive flock on path, waiting for it.
func withFileLock(path string, fn func() error) error {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return err
	}
	defer f.Close()
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		return fmt.Errorf("lock %s: %w", path, err)
	}
	defer syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
	return fn()
}
