package linalg

import (
	"sync"
	"sync/atomic"
)

// Engine runs the kernels of this package. Its zero value is ready to use
// and runs everything on the calling goroutine.
//
// An Engine holds no state besides its configuration, so values can be
// copied freely and used concurrently.
type Engine struct {
	// Threads is the number of goroutines a kernel may use. Values < 1
	// mean 1. Results are bit-identical for every value of Threads.
	Threads int

	// kern overrides the micro-kernel chosen from CPUID (tests use it to
	// exercise the portable one and every assembly one); nil means best.
	kern *microKernel
}

// threads returns the effective worker count.
func (e Engine) threads() int {
	if e.Threads < 1 {
		return 1
	}
	return e.Threads
}

// KernelName reports which micro-kernel this Engine uses on this machine,
// e.g. "avx512-8x24", "avx2-6x8" or "generic-4x4".
func (e Engine) KernelName() string { return e.kernel().name }

func (e Engine) kernel() *microKernel {
	if e.kern != nil {
		return e.kern
	}
	return bestKernel
}

// parallelFor runs fn(worker, task) for task = 0..ntasks-1 on up to
// workers goroutines; tasks are handed out in increasing order. With one
// worker (or one task) it runs inline.
func parallelFor(workers, ntasks int, fn func(worker, task int)) {
	if workers > ntasks {
		workers = ntasks
	}
	if workers <= 1 {
		for t := 0; t < ntasks; t++ {
			fn(0, t)
		}
		return
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	wg.Add(workers)
	for w := 0; w < workers; w++ {
		go func(w int) {
			defer wg.Done()
			for {
				t := int(next.Add(1) - 1)
				if t >= ntasks {
					return
				}
				fn(w, t)
			}
		}(w)
	}
	wg.Wait()
}
