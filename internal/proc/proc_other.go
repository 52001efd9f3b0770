//go:build !unix

package proc

import "os/exec"

// setup leaves the default (kill the direct child on cancellation) here.
func setup(*exec.Cmd) {}
