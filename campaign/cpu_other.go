//go:build !unix

package campaign

func cpuSeconds() (float64, bool) { return 0, false }
