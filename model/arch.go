package model

import (
	"fmt"
	"slices"
	"strings"
)

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

// netTypes lists every network type, sorted by name. Adding a network type is
// one file: its hidden layer implementing Network, its model.json section and
// its training hook, gathered in a netType that the file's init registers.
var netTypes []*netType

// register adds a network type; each network's file calls it from init.
func register(t *netType) {
	if typeOf(t.arch) != nil {
		panic("model: network type " + string(t.arch) + " registered twice")
	}
	netTypes = append(netTypes, t)
	slices.SortFunc(netTypes, func(a, b *netType) int { return strings.Compare(string(a.arch), string(b.arch)) })
}

// typeOf returns the network type named arch, or nil.
func typeOf(arch Arch) *netType {
	for _, t := range netTypes {
		if t.arch == arch {
			return t
		}
	}
	return nil
}

// Archs returns the architecture names in their documented order.
func Archs() []Arch {
	out := make([]Arch, len(netTypes))
	for i, t := range netTypes {
		out[i] = t.arch
	}
	return out
}

// ParseArch validates an architecture name.
func ParseArch(s string) (Arch, error) {
	if t := typeOf(Arch(s)); t != nil {
		return t.arch, nil
	}
	names := make([]string, len(netTypes))
	for i, t := range netTypes {
		names[i] = string(t.arch)
	}
	return "", fmt.Errorf("unknown architecture %q (want %s or %s)", s,
		strings.Join(names[:len(names)-1], ", "), names[len(names)-1])
}
