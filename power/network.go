package power

import (
	"fmt"
	"sync/atomic"

	"github.com/hdlgen/hdlgen/internal/registry"

	"github.com/hdlgen/hdlgen/model"
)

// network is one network type's part of the power model: its checks, the
// widths of its hidden layer, the blocks that differ (the hidden layer and
// what it adds to the ROM and front blocks), its calibrated factors and the
// designs they are calibrated on. One file per network type (intrvfl.go,
// rvfl8.go); the readout, lane sums, accumulators and argmax are shared
// (analytic.go). Which Shape fields are parameters (κ, the readout width, a
// generated W_in) the network type's model.Traits say.
type network interface {
	arch() model.Arch
	// check validates the network's own Shape fields.
	check(d Design) error
	// name is the design's one-line description.
	name(d Design) string
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
	// fmaxLead is the adder levels the hidden tree's first register-to-register
	// segment holds before the tree (the intRVFL's thermometer XOR leaves: 1).
	fmaxLead() int
	// calibration is the network's part of the calibration matrix
	// (CalibrationMatrix): the designs its LUT factors are fitted on.
	calibration() Calibration
	// lutFactors are the calibrated LUT factors per block (analytic.go).
	lutFactors() *[nComp]float64
	// lutGroupAlpha is α of LUTGroupScale, fitted with the LUT factors.
	lutGroupAlpha() float64
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

// Networks returns the network types of the power model, in order.
func Networks() []model.Arch {
	var out []model.Arch
	for _, n := range networks.Values() {
		out = append(out, n.arch())
	}
	return out
}

// traitsOf returns the model traits of arch (zero for an unknown one, which
// Check refuses).
func traitsOf(arch model.Arch) model.Traits {
	t, _ := model.TraitsOf(arch)
	return t
}

// register adds a network type.
func register(n network) { networks.Add(string(n.arch()), n) }

// netOf returns the network of arch, or nil.
func netOf(arch model.Arch) network {
	if e := lastNet.Load(); e != nil && e.arch == arch {
		return e.net
	}
	n, _ := networks.Get(string(arch))
	if n != nil {
		lastNet.Store(&netEntry{arch: arch, net: n})
	}
	return n
}

// lastNet is netOf's last answer: a design's methods ask for its network
// several times per estimate and the sizer's table estimates hundreds of
// thousands of designs of one network type, while a registry lookup hashes
// the name each time.
var lastNet atomic.Pointer[netEntry]

type netEntry struct {
	arch model.Arch
	net  network
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
	t := traitsOf(arch)
	if t.Kappa {
		s.Kappa = kappa
	}
	if t.Readout.Bits == 0 {
		s.Bits = bits
	}
	return s, nil
}
