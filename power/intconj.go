package power

import (
	"fmt"

	"github.com/hdlgen/hdlgen/model"
	"github.com/hdlgen/hdlgen/rtl/plan"
)

// intconjNet is the mixed network's part of the power model (core_intconj):
// the intRVFL's front and lanes over N1 neurons' levels, beside them
// hdlgen_conj_hidden's lanes on the same levels (LW-bit codes), the levels'
// stage-A copy, the delay lines that bring both kinds and the lanes' flags
// to stage H together, and per lane the pick of the two. Its readout is 8
// bits (model.ConjReadoutBits).
type intconjNet struct{ intrvflNet }

func init() { register(intconjNet{}) }

func (intconjNet) arch() model.Arch { return model.IntConj }

func (intconjNet) check(d Design) error {
	if d.Kappa < 1 {
		return fmt.Errorf("power: κ=%d, want ≥ 1", d.Kappa)
	}
	if d.N < 2 {
		return fmt.Errorf("power: intconj with N=%d, want ≥ 2 (a neuron and the constant unit)", d.N)
	}
	return nil
}

func (intconjNet) name(d Design) string {
	return fmt.Sprintf("intconj K=%d N=%d L=%d κ=%d P=%d", d.K, d.N, d.L, d.Kappa, d.P())
}

// hiddenFlight is the conjunctions' select register when the popcount tree
// has no cut to stand beside (rtl/plan's PreH = max(1, cuts)).
func (intconjNet) hiddenFlight(d Design) int {
	if intconjCuts(d) == 0 {
		return 1
	}
	return 0
}

// intconjCuts is the popcount tree's internal registers over K.
func intconjCuts(d Design) int { return plan.Cuts(clog2(d.K), d.adderLevels()) }

func (n intconjNet) blocks(d Design, st structure, tag int, hw *hardCounts) hiddenBlocks {
	hb := n.intrvflNet.blocks(d, st, tag, hw)
	cuts := intconjCuts(d)
	pre := max(1, cuts)
	p := d.P()
	P := float64(p)
	// Front: the stage-A copy of the levels (it travels with the tag).
	hb.front.RawFF += float64(st.IW)
	// Lanes: the conjunctions over LW-bit levels; the delay lines (hdlgen_delay,
	// a valid bit per stage): the tag and the neurons' values for pre − cuts
	// stages, the units' for pre − 1, the flags for pre + 1; per lane the
	// pick of the unit or the neuron (HW LUTs).
	c := conjLanes(p, d.K, model.IntConjDepth, st.LW)
	hb.lanes.RawLUT += c.RawLUT + P*float64(st.HW)
	hb.lanes.RawCarry += c.RawCarry
	hb.lanes.RawFF += c.RawFF + float64((pre-cuts)*(1+tag+1+p*st.HW)+(pre-1)*(1+p)+(pre+1)*(1+p))
	return hb
}

// intconjLUTFactor: the intRVFL's (lutFactors in analytic.go); the
// calibration's section range-intconj measures it without refitting.
var intconjLUTFactor = intrvflLUTFactor

func (intconjNet) lutFactors() *[nComp]float64 { return &intconjLUTFactor }

// calibration holds the intconj's designs of the build's range
// (CalRangeIntConj): K, L, N and P spread over it.
func (intconjNet) calibration() Calibration {
	return Calibration{
		Sections: [CalibrationSections][]CalShape{
			CalRangeIntConj: {
				{K: 4, N: 50, L: 3, Kappa: 3, P: 1},
				{K: 30, N: 300, L: 2, Kappa: 1, P: 4},
				{K: 6, N: 2000, L: 4, Kappa: 7, P: 8},
				{K: 64, N: 1000, L: 10, Kappa: 3, P: 2},
				{K: 16, N: 3000, L: 26, Kappa: 3, P: 4},
			},
		},
	}
}
