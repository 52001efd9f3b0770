package atomicfile

import (
	"os"
	"sync"
)

// pending are the temporary files and folders being written right now
// (WriteFile's, and those Track registers), so that a process that must stop
// at once (an interruption the command did not answer in time) can remove
// them and leave no partial output behind.
var pending = struct {
	sync.Mutex
	paths map[string]bool
}{paths: map[string]bool{}}

// Track registers path (a temporary file or folder about to be written) as
// pending until done is called (after it was renamed into place or removed).
func Track(path string) (done func()) {
	pending.Lock()
	pending.paths[path] = true
	pending.Unlock()
	return func() {
		pending.Lock()
		delete(pending.paths, path)
		pending.Unlock()
	}
}

// RemovePending removes every pending temporary file and folder and returns
// how many there were. It is meant for a process that stops at once.
func RemovePending() int {
	pending.Lock()
	defer pending.Unlock()
	n := len(pending.paths)
	for p := range pending.paths {
		os.RemoveAll(p)
		delete(pending.paths, p)
	}
	return n
}
