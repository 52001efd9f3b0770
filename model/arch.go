package model

import "fmt"

// Arch names a network architecture as written in model.json and on the command line.
type Arch string

// The architectures hdlgen trains and emits.
const (
	// IntRVFL is the paper's proposal: density-encoded inputs, bipolar W_in, κ-clipped
	// integer activations, optionally an n-bit integer readout.
	IntRVFL Arch = "intrvfl"
	// RVFL is the conventional float network with sigmoid activations.
	RVFL Arch = "rvfl"
	// RVFL8 is the 8-bit fixed-point RVFL used as the hardware baseline.
	RVFL8 Arch = "rvfl8"
)

// ParseArch validates an architecture name.
func ParseArch(s string) (Arch, error) {
	switch a := Arch(s); a {
	case IntRVFL, RVFL, RVFL8:
		return a, nil
	}
	return "", fmt.Errorf("unknown architecture %q (want %s, %s or %s)", s, IntRVFL, RVFL, RVFL8)
}
