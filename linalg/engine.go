package linalg

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
