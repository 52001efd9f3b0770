//go:build unix

package campaign

import "syscall"

// cpuSeconds is the CPU time (user + system) of this process and of its
// waited-for children so far, in seconds; ok is false when it is unknown.
func cpuSeconds() (float64, bool) {
	var self, kids syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &self) != nil || syscall.Getrusage(syscall.RUSAGE_CHILDREN, &kids) != nil {
		return 0, false
	}
	sec := func(t syscall.Timeval) float64 { return float64(t.Sec) + float64(t.Usec)/1e6 }
	return sec(self.Utime) + sec(self.Stime) + sec(kids.Utime) + sec(kids.Stime), true
}
