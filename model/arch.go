package model

import (
	"fmt"

	"github.com/hdlgen/hdlgen/internal/registry"
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

// netTypes holds every network type by name. Adding a network type is one
// file: its hidden layer implementing Network, its model.json section and its
// training hook, gathered in a netType that the file's init adds here.
var netTypes = registry.New[*netType]("model: network type")

// register adds a network type; each network's file calls it from init.
func register(t *netType) {
	if t.traits.Selects != (t.fit != nil) {
		panic("model: " + string(t.arch) + ": a type that selects its units needs fit, and only it")
	}
	netTypes.Add(string(t.arch), t)
}

// typeOf returns the network type named arch, or nil.
func typeOf(arch Arch) *netType {
	t, _ := netTypes.Get(string(arch))
	return t
}

// Archs returns the architecture names in order.
func Archs() []Arch {
	var out []Arch
	for _, n := range netTypes.Names() {
		out = append(out, Arch(n))
	}
	return out
}

// TraitsOf returns the traits of network type arch.
func TraitsOf(arch Arch) (Traits, error) {
	if t := typeOf(arch); t != nil {
		return t.traits, nil
	}
	_, err := ParseArch(string(arch))
	return Traits{}, err
}

// ArchsWith returns, in order, the architectures whose traits satisfy has.
func ArchsWith(has func(Traits) bool) []Arch {
	var out []Arch
	for _, t := range netTypes.Values() {
		if has(t.traits) {
			out = append(out, t.arch)
		}
	}
	return out
}

// Alternatives lists archs for a message or a help text: "a, b or c".
func Alternatives(archs []Arch) string {
	names := make([]string, len(archs))
	for i, a := range archs {
		names[i] = string(a)
	}
	return registry.Join(names)
}

// ParseArch validates an architecture name.
func ParseArch(s string) (Arch, error) {
	if t := typeOf(Arch(s)); t != nil {
		return t.arch, nil
	}
	return "", fmt.Errorf("unknown architecture %q (want %s)", s, netTypes.Alternatives())
}
