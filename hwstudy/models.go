package hwstudy

import (
	"fmt"
	"math/rand/v2"

	"github.com/hdlgen/hdlgen/internal/randmodel"
	"github.com/hdlgen/hdlgen/model"
)

// Shape is one design of the calibration matrix: a network shape and P.
type Shape struct {
	Arch  model.Arch `json:"arch"`
	K     int        `json:"k"`
	N     int        `json:"n"`
	L     int        `json:"l"`
	Kappa int        `json:"kappa,omitempty"` // intrvfl
	Bits  int        `json:"bits,omitempty"`  // intrvfl readout bits (rvfl8: 8)
	P     int        `json:"p"`
	// AdderLevels pins the adder levels per pipeline stage (hdlgen emit
	// --adder-levels); 0 takes plan's default rule.
	AdderLevels int `json:"adder_levels,omitempty"`
}

// Name is a file-system and Verilog friendly name of the shape.
func (s Shape) Name() string {
	if s.Arch == model.RVFL8 {
		return fmt.Sprintf("cal_rvfl8_k%d_n%d_l%d_p%d", s.K, s.N, s.L, s.P)
	}
	return fmt.Sprintf("cal_intrvfl_k%d_n%d_l%d_kappa%d_b%d_p%d", s.K, s.N, s.L, s.Kappa, s.Bits, s.P)
}

// RandomModel returns a valid model of shape s with weights drawn from seed:
// random bipolar (intrvfl) or quantised uniform (rvfl8) input weights and
// readout codes uniform over the whole integer range, so that the ROMs carry
// incompressible contents like a trained network's. The normaliser is the
// identity on [0, 1].
func RandomModel(s Shape, seed uint64) *model.Model {
	rng := rand.New(rand.NewPCG(seed, 0x6877737475647901))
	return randmodel.New(randmodel.Shape{Arch: s.Arch, K: s.K, N: s.N, L: s.L, Kappa: s.Kappa, Bits: s.Bits},
		s.Name(), seed, func(bound int) int32 { return int32(rng.IntN(2*bound+1) - bound) })
}

// legacyAdderLevels is the adder levels per stage of every design before
// plan.DefaultAdderLevels cut the trees at P ≥ 16 every 3 levels.
const legacyAdderLevels = 4

// CalibrationMatrix is the set of designs the analytic resource model is
// calibrated and checked against: both networks, small to the paper's median
// network (K=16, N=512, L=4), P ∈ {1, 8, 32} and a few others, κ and readout
// widths that do and do not put the readout products into DSP48E1s.
//
// Its designs at P ≥ 16 keep the 4 adder levels per stage they were
// synthesised with before the default rule became 3 from P = 16 on
// (docs/timing.md, "Pipeline rule"), so that results/hardware/calibration.md
// stays reproducible; the default-rule designs at P = 16 and 32 are compared
// with the analytic model in results/hardware/median.md (+13 % and +6 % LC).
var CalibrationMatrix = []Shape{
	{Arch: model.IntRVFL, K: 4, N: 32, L: 2, Kappa: 1, Bits: 3, P: 1},
	{Arch: model.IntRVFL, K: 4, N: 64, L: 3, Kappa: 3, Bits: 5, P: 8},
	{Arch: model.IntRVFL, K: 8, N: 128, L: 3, Kappa: 3, Bits: 5, P: 1},
	{Arch: model.IntRVFL, K: 8, N: 128, L: 3, Kappa: 3, Bits: 5, P: 8},
	{Arch: model.IntRVFL, K: 8, N: 128, L: 3, Kappa: 7, Bits: 8, P: 32, AdderLevels: legacyAdderLevels},
	{Arch: model.IntRVFL, K: 16, N: 256, L: 4, Kappa: 3, Bits: 5, P: 32, AdderLevels: legacyAdderLevels},
	{Arch: model.IntRVFL, K: 16, N: 512, L: 4, Kappa: 3, Bits: 5, P: 1},
	{Arch: model.IntRVFL, K: 16, N: 512, L: 4, Kappa: 3, Bits: 5, P: 8},
	{Arch: model.IntRVFL, K: 16, N: 512, L: 4, Kappa: 3, Bits: 5, P: 32, AdderLevels: legacyAdderLevels},
	{Arch: model.IntRVFL, K: 32, N: 512, L: 2, Kappa: 15, Bits: 4, P: 8},
	{Arch: model.IntRVFL, K: 16, N: 1024, L: 10, Kappa: 1, Bits: 5, P: 8},
	{Arch: model.IntRVFL, K: 6, N: 1000, L: 6, Kappa: 3, Bits: 6, P: 16, AdderLevels: legacyAdderLevels},
	{Arch: model.RVFL8, K: 4, N: 32, L: 2, P: 1},
	{Arch: model.RVFL8, K: 4, N: 64, L: 3, P: 8},
	{Arch: model.RVFL8, K: 8, N: 128, L: 3, P: 1},
	{Arch: model.RVFL8, K: 8, N: 128, L: 3, P: 8},
	{Arch: model.RVFL8, K: 8, N: 100, L: 3, P: 32, AdderLevels: legacyAdderLevels},
	{Arch: model.RVFL8, K: 16, N: 512, L: 4, P: 1},
	{Arch: model.RVFL8, K: 16, N: 512, L: 4, P: 8},
	{Arch: model.RVFL8, K: 16, N: 512, L: 4, P: 32, AdderLevels: legacyAdderLevels},
	{Arch: model.RVFL8, K: 16, N: 256, L: 4, P: 4},
	{Arch: model.RVFL8, K: 32, N: 256, L: 2, P: 2},
	{Arch: model.RVFL8, K: 10, N: 300, L: 7, P: 8},
	// Large N, where the sizer's answers live: ROMs in block RAM.
	{Arch: model.IntRVFL, K: 16, N: 2048, L: 4, Kappa: 3, Bits: 5, P: 8},
	{Arch: model.IntRVFL, K: 16, N: 4096, L: 4, Kappa: 3, Bits: 5, P: 64, AdderLevels: legacyAdderLevels},
	{Arch: model.RVFL8, K: 16, N: 2048, L: 4, P: 8},
	{Arch: model.RVFL8, K: 16, N: 4096, L: 4, P: 4},
	// Parallelisms that are not powers of two (the sizer's candidates 3, 6,
	// 12, 24: odd lane-tree nodes, a lone product at P = 3), K and L between
	// the shapes above (K = 12, 20: other pre-activation and popcount trees;
	// L = 5: an argmax register cut), κ = 7 with a 6-bit readout.
	{Arch: model.IntRVFL, K: 8, N: 128, L: 3, Kappa: 3, Bits: 5, P: 6},
	{Arch: model.IntRVFL, K: 16, N: 300, L: 4, Kappa: 3, Bits: 5, P: 12},
	{Arch: model.IntRVFL, K: 20, N: 256, L: 3, Kappa: 7, Bits: 6, P: 24, AdderLevels: legacyAdderLevels},
	{Arch: model.RVFL8, K: 8, N: 128, L: 3, P: 6},
	{Arch: model.RVFL8, K: 12, N: 200, L: 5, P: 3},
	{Arch: model.RVFL8, K: 20, N: 1500, L: 3, P: 6},
}
