//go:build !amd64

package linalg

// bestKernel is the fastest micro-kernel available on this machine.
var bestKernel = &genericKernel

// availableKernels lists every micro-kernel this CPU can run.
func availableKernels() []*microKernel { return []*microKernel{&genericKernel} }
