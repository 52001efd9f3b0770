package power

import (
	"github.com/hdlgen/hdlgen/model"
	"github.com/hdlgen/hdlgen/rtl/plan"
)

// Calibration is one network type's part of the calibration matrix: the
// designs its LUT factors (lutFactors) are fitted on and checked against
// (hwstudy.Calibrate, results/hardware/calibration.md), random-weight models
// of these shapes.
type Calibration struct {
	// Sections holds the network's designs of each section of the matrix:
	// CalibrationMatrix lists the first section's designs of every network
	// type, in network order, then the second section's, and so on.
	Sections [CalibrationSections][]CalShape
	// Seeds are also synthesised with seeds 2 and 3, to measure how much
	// Yosys's result moves with the ROM contents alone.
	Seeds []CalShape
}

// The sections of the calibration matrix.
const (
	// CalBase: small to the paper's median network (K=16, N=512, L=4), P ∈
	// {1, 8, 32} and a few others, κ and readout widths that do and do not
	// put the readout products into DSP48E1s.
	CalBase = iota
	// CalLargeN: large N, where the sizer's answers live (ROMs in block RAM).
	CalLargeN
	// CalOddP: parallelisms that are not powers of two (the sizer's
	// candidates 3, 6, 12, 24: odd lane-tree nodes, a lone product at P = 3),
	// K and L between the shapes above (other hidden trees, an argmax
	// register cut).
	CalOddP
	// CalRange: the range the build report's estimates are read over
	// (buildflow's accuracy-against-size curve and its table over P): the
	// network as emitted with the default pipeline rule, N from 50 to 3000,
	// P from 1 to 256, and the K and L of real data sets (K 4…64, L 2…26:
	// iris, wine, breast cancer, pendigits, digits, letter). Its rows give
	// the measured error band (Band) the report states beside every estimate.
	CalRange
	// CalRangeEdges: more designs of the build's range, at its edges, where
	// CalRange has none: the curve's P = 8 at N = 50, its P = 64 at N = 3000,
	// and the P table's P ≥ 128 at large N. Its rows join CalRange's in the
	// error bands; a section of its own, so that they are synthesised without
	// synthesising CalRange again.
	CalRangeEdges
	// CalRangeWide: the build report's table over P where CalRange and
	// CalRangeEdges have no design: P = N = 50 (between their P = 32 and
	// 64), and P above 256 (P = 512, 1024 and P = N), where only the
	// smallest networks fit the device: the intRVFL with K = 4 fully
	// parallel at N = 300, 512 and 1024, and at P = 512 with N = 1500 and
	// 3000. Held out of the fit, like CalRangeEdges.
	CalRangeWide
	// CalRangeConj: the random conjunctions (docs/semantics.md §3c) over
	// the build's range — N from 50 to 3000, D from 1 to 4, P from 1 to 32,
	// the K and L of real data sets — in a section of their own, so that
	// they are synthesised without the others. Held out of the fit (the
	// conj's one LUT factor is set by hand, power/conj.go); its rows give
	// the conj's error band.
	CalRangeConj
	// CalRangeIntConj: the mixed network (docs/semantics.md §3d) over the
	// build's range, in a section of its own; held out of the fit (its LUT
	// factors are the intRVFL's, power/intconj.go); its rows give the
	// intconj's error band.
	CalRangeIntConj
	// CalibrationSections is the number of sections.
	CalibrationSections
)

// CalShape is one calibration design of a network type: K, N, L, κ and the
// readout bits where the type has them (model.Traits), P, and the adder levels
// per pipeline stage when pinned (0: plan's default rule).
type CalShape struct {
	K, N, L, Kappa, Bits, P int
	AdderLevels             int
}

// legacyAdderLevels is the adder levels per stage of every design before
// plan.DefaultAdderLevels cut the trees at P ≥ 16 every 3 levels. The
// calibration designs at P ≥ 16 keep the 4 they were synthesised with, so
// that results/hardware/calibration.md stays reproducible; the default-rule
// designs at P = 16 and 32 are compared with the analytic model in
// results/hardware/median.md.
const legacyAdderLevels = 4

// CalSectionNames name the sections of the calibration matrix (hdlgen power
// calibrate --section).
var CalSectionNames = [CalibrationSections]string{CalBase: "base", CalLargeN: "large-n", CalOddP: "odd-p", CalRange: "range", CalRangeEdges: "range-edges", CalRangeWide: "range-wide", CalRangeConj: "range-conj", CalRangeIntConj: "range-intconj"}

// CalibrationSection returns section s of the calibration matrix: each
// network type's designs of it, in network order.
func CalibrationSection(s int) []Design {
	var out []Design
	for _, n := range networks.Values() {
		for _, c := range n.calibration().Sections[s] {
			out = append(out, c.design(n.arch()))
		}
	}
	return out
}

// design is the calibration design of shape c for network type arch.
func (c CalShape) design(arch model.Arch) Design {
	return Design{Shape: Shape{Arch: arch, K: c.K, L: c.L, Kappa: c.Kappa, Bits: c.Bits}, N: c.N, Options: plan.Options{Parallel: c.P, AdderLevelsPerStage: c.AdderLevels}}
}

// CalibrationMatrix returns the designs the analytic resource model is
// calibrated and checked against: section by section, each network type's.
func CalibrationMatrix() []Design {
	var out []Design
	for s := 0; s < CalibrationSections; s++ {
		out = append(out, CalibrationSection(s)...)
	}
	return out
}

// CalibrationSeedDesigns returns the calibration designs also synthesised
// with seeds 2 and 3, network type by network type.
func CalibrationSeedDesigns() []Design {
	var out []Design
	for _, n := range networks.Values() {
		for _, c := range n.calibration().Seeds {
			out = append(out, c.design(n.arch()))
		}
	}
	return out
}
