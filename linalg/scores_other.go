//go:build !amd64

package linalg

// scoreKernel returns the score kernel of this CPU: none off amd64.
func scoreKernel() scoreKern { return nil }

// scoreKernels lists every score kernel this CPU can run (nil: the Go loop).
func scoreKernels() []scoreKern { return []scoreKern{nil} }
