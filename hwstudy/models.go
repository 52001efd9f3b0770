package hwstudy

import (
	"fmt"
	"math/rand/v2"

	"github.com/hdlgen/hdlgen/internal/randmodel"
	"github.com/hdlgen/hdlgen/model"
	"github.com/hdlgen/hdlgen/power"
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

// Name is a file-system and Verilog friendly name of the shape: κ and the
// readout bits appear where the network type has them (model.Traits).
func (s Shape) Name() string {
	return fmt.Sprintf("cal_%s_p%d", s.network(), s.P)
}

// network is the shape without P.
func (s Shape) network() randmodel.Shape {
	return randmodel.Shape{Arch: s.Arch, K: s.K, N: s.N, L: s.L, Kappa: s.Kappa, Bits: s.Bits}
}

// RandomModel returns a valid model of shape s with weights drawn from seed:
// random bipolar (intrvfl) or quantised uniform (rvfl8) input weights and
// readout codes uniform over the whole integer range, so that the ROMs carry
// incompressible contents like a trained network's. The normaliser is the
// identity on [0, 1].
func RandomModel(s Shape, seed uint64) *model.Model {
	rng := rand.New(rand.NewPCG(seed, 0x6877737475647901))
	return randmodel.New(s.network(), s.Name(), seed, func(bound int) int32 { return int32(rng.IntN(2*bound+1) - bound) })
}

// CalibrationMatrix is the set of designs the analytic resource model is
// calibrated and checked against (power.CalibrationMatrix: each network
// type's part, section by section): both networks, small to the paper's
// median network (K=16, N=512, L=4), P ∈ {1, 8, 32} and a few others, κ and
// readout widths that do and do not put the readout products into DSP48E1s,
// large N, and parallelisms that are not powers of two.
//
// Its designs at P ≥ 16 keep the 4 adder levels per stage they were
// synthesised with before the default rule became 3 from P = 16 on
// (docs/timing.md, "Pipeline rule"), so that results/hardware/calibration.md
// stays reproducible; the default-rule designs at P = 16 and 32 are compared
// with the analytic model in results/hardware/median.md (+13 % and +6 % LC).
var CalibrationMatrix = shapesOf(power.CalibrationMatrix())

// shapesOf returns the shapes of calibration designs.
func shapesOf(ds []power.Design) []Shape {
	out := make([]Shape, len(ds))
	for i, d := range ds {
		out[i] = Shape{Arch: d.Arch, K: d.K, N: d.N, L: d.L, Kappa: d.Kappa, Bits: d.Bits, P: d.P(), AdderLevels: d.AdderLevelsPerStage}
	}
	return out
}
