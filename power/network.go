package power

import (
	"fmt"

	"github.com/hdlgen/hdlgen/internal/registry"

	"github.com/hdlgen/hdlgen/model"
)

// network is one network type's part of the power model: its checks, the
// widths of its hidden layer, the blocks that differ (the hidden layer and
// what it adds to the ROM and front blocks) and its calibrated factors. One
// file per network type (intrvfl.go, rvfl8.go); the readout, lane sums,
// accumulators and argmax are shared (analytic.go).
type network interface {
	arch() model.Arch
	// fixedBits is the readout width the network type fixes, or 0 when the
	// Shape's Bits say it.
	fixedBits() int
	// hasKappa reports whether the Shape's Kappa is a parameter of the network.
	hasKappa() bool
	// check validates the network's own Shape fields.
	check(d Design) error
	// name is the design's one-line description.
	name(d Design) string
	// hidden sets the hidden layer's widths in st (LW, the hidden tree, the
	// W_in word) and returns the score bound.
	hidden(d Design, st *structure) int64
	// extraFlight is the number of flight stages the hidden layer adds to the
	// shared ones (stage A, hidden-tree cuts, H, MAC product, lane-tree cuts).
	extraFlight() int
	// blocks returns the network's raw counts; hw holds the ROM mappings and
	// takes the network's DSP48E1s.
	blocks(d Design, st structure, tag int, hw *hardCounts) hiddenBlocks
	// hasPreact reports whether the design has a pre-activation block.
	hasPreact() bool
	// fmaxBase is the intercept of the analytic clock period in ns
	// (size_fmax.go), fitted with the others by TestFmaxFit.
	fmaxBase() float64
	// lutFactors are the calibrated LUT factors per block (analytic.go).
	lutFactors() *[nComp]float64
	// muxfPerLUT is the number of MUXF7/MUXF8 per LUT6 site in the
	// calibration designs (median over the matrix; charged only for their
	// small dynamic power).
	muxfPerLUT() float64
}

// hiddenBlocks are a network's raw counts: what it adds to the front block,
// its lanes and its pre-activation block (nil when none).
type hiddenBlocks struct {
	front  Component
	lanes  Component
	preact *Component
}

// raw is a Component holding raw counts only.
func raw(lut, ff float64, carry int) Component {
	return Component{RawLUT: lut, RawFF: ff, RawCarry: float64(carry)}
}

// networks holds the network types with RTL by name; each network's file
// adds it from init.
var networks = registry.New[network]("power: network")

// register adds a network type.
func register(n network) { networks.Add(string(n.arch()), n) }

// netOf returns the network of arch, or nil.
func netOf(arch model.Arch) network {
	n, _ := networks.Get(string(arch))
	return n
}

// net returns d's network; d must have passed Check.
func (d Design) net() network {
	n := netOf(d.Arch)
	if n == nil {
		panic(fmt.Sprintf("power: architecture %q has no RTL", d.Arch))
	}
	return n
}

// ShapeOf returns the Shape of network type arch with k features and l
// classes, keeping κ and the readout width only where the network type has
// them; it fails for a network type without RTL.
func ShapeOf(arch model.Arch, k, l, kappa, bits int) (Shape, error) {
	n := netOf(arch)
	if n == nil {
		return Shape{}, fmt.Errorf("power: architecture %q has no RTL (want %s)", arch, networks.Alternatives())
	}
	s := Shape{Arch: arch, K: k, L: l}
	if n.hasKappa() {
		s.Kappa = kappa
	}
	if n.fixedBits() == 0 {
		s.Bits = bits
	}
	return s, nil
}
