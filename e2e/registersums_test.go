package e2e

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/hdlgen/hdlgen/model"
	"github.com/hdlgen/hdlgen/rtl"
	"github.com/hdlgen/hdlgen/rtl/plan"
)

// registerSumsMatrix are designs emitted with --register-sums: the intRVFL
// with P not dividing N, at P = 1 (where the lane sum is the product), at
// P = N with a register after every lane-tree level (--adder-levels 1), the
// rvfl8 (DSP48E1 products), and the lean intRVFL of the median table
// (block-RAM ROMs, no input register).
var registerSumsMatrix = []struct {
	shape
	romStyle    string
	holdInput   bool
	adderLevels int
	gateLevel   bool // also verify the synthesised netlist
}{
	{shape{arch: model.IntRVFL, k: 5, n: 37, l: 3, kappa: 3, bits: 5, p: 8}, "", false, 0, true},
	{shape{arch: model.IntRVFL, k: 3, n: 9, l: 2, kappa: 1, bits: 3, p: 1}, "", false, 0, false},
	{shape{arch: model.IntRVFL, k: 7, n: 24, l: 5, kappa: 15, bits: 6, p: 0}, "", false, 1, false},
	{shape{arch: model.RVFL8, k: 5, n: 9, l: 3, p: 4}, "", false, 0, false},
	{shape{arch: model.IntRVFL, k: 4, n: 30, l: 3, kappa: 3, bits: 5, p: 4}, plan.ROMStyleBlock, true, 0, true},
}

// TestRegisterSums: designs whose readout registers its lane sums instead of
// its products are verified on both simulators and both tops, two of them at
// gate level on both simulators too; the first one's netlist has at least
// three quarters of the planned saving (P·L·PW − L·TW flip-flops) fewer
// flip-flops than the same design with the product register, and the same
// latency and II.
func TestRegisterSums(t *testing.T) {
	needGateLevel(t)
	root := t.TempDir()
	for i, s := range registerSumsMatrix {
		name := s.String()
		if s.romStyle != "" {
			name += "_" + s.romStyle
		}
		if s.holdInput {
			name += "_hold"
		}
		if s.adderLevels != 0 {
			name += fmt.Sprintf("_adder%d", s.adderLevels)
		}
		t.Run(name, func(t *testing.T) {
			m := trainShape(t, s.shape)
			p := s.p
			if p == 0 {
				p = m.N()
			}
			dir := filepath.Join(root, name)
			opt := rtl.Options{Parallel: p, Axis: true, Vectors: 150, Seed: 6, ROMStyle: s.romStyle, HoldInput: s.holdInput,
				AdderLevelsPerStage: s.adderLevels, RegisterSums: true}
			rep := emitVerified(t, m, opt, dir, s.gateLevel)
			if i != 0 {
				return
			}
			// The same design with the product register.
			opt.RegisterSums = false
			sums, prod, prodRep := synthVariant(t, dir, m, opt, filepath.Join(root, name+"_products"))
			pl := rep.Plan
			planned := pl.P*pl.L*pl.PW - pl.L*pl.TW
			if saved := prod.FFs - sums.FFs; 4*saved < 3*planned {
				t.Errorf("FFs %d with the product register, %d with the lane-sum register: %d saved, want ≥ 3/4 of P·L·PW − L·TW = %d",
					prod.FFs, sums.FFs, saved, planned)
			}
			if pl.Latency != prodRep.Plan.Latency || pl.II != prodRep.Plan.II || pl.AxisII != prodRep.Plan.AxisII {
				t.Errorf("latency %d, II %d, AXI4-Stream II %d with the lane-sum register; %d, %d, %d with the product register",
					pl.Latency, pl.II, pl.AxisII, prodRep.Plan.Latency, prodRep.Plan.II, prodRep.Plan.AxisII)
			}
		})
	}
}
