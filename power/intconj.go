package power

import (
	"fmt"
	"math/bits"

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
// has no cut to stand beside (plan.IntConjPreH; structure's HiddenCut is
// not yet set when this is asked).
func (intconjNet) hiddenFlight(d Design) int {
	cuts := plan.Cuts(clog2(d.K), d.adderLevels())
	return plan.IntConjPreH(cuts) - cuts
}

func (n intconjNet) blocks(d Design, st structure, tag int, hw *hardCounts) hiddenBlocks {
	hb := n.intrvflNet.blocks(d, st, tag, hw)
	cuts := st.HiddenCut
	pre := plan.IntConjPreH(cuts)
	p := d.P()
	P := float64(p)
	// Front: the stage-A copy of the levels (it travels with the tag).
	hb.front.RawFF += float64(st.IW)
	// Lanes: the conjunctions over LW-bit levels (the live terms); the delay
	// lines (hdlgen_delay; their valid bits are constant, so synthesis drops
	// them): the tag (with its valid bit) and the neurons' values for
	// pre − cuts stages, the units' for pre − 1, the flags for pre + 1; per
	// lane the pick of the unit or the neuron (HW LUTs).
	terms, and := intconjLiveTerms(p)
	c := conjTerms(terms, p, and, d.K, st.LW)
	// Every term keeps its comparison's carry chain: Yosys maps the
	// comparisons (alumacc) before the ROM's constant columns are known.
	c.RawCarry = float64(p * model.IntConjDepth * cmpChain(st.LW))
	hb.lanes.RawLUT += c.RawLUT + P*float64(st.HW)
	hb.lanes.RawCarry += c.RawCarry
	hb.lanes.RawFF += c.RawFF + float64((pre-cuts)*(1+tag+p*st.HW)+(pre-1)*p+(pre+1)*p)
	return hb
}

// intconjLiveTerms is the terms of p lanes that synthesis keeps: unit u has
// 1 + (u mod 4) terms (model.IntConjDepth = 4) and lane p of group g holds
// unit g·P + p − N1, so over the groups a lane sees the residues u mod 4 of
// one class modulo gcd(P, 4): every depth when P is odd (4 terms a lane),
// two residues 2 apart when P ≡ 2 (mod 4) (lanes of 3 and of 4 terms), one
// when 4 divides P (lanes of 1, 2, 3 and 4 terms). A term that no unit of
// its lane uses is a constant zero column of the W_in ROM, and its select,
// registers and comparison are removed.
// It returns the live terms and the lanes' AND LUTs (one for up to 3
// terms, two for 4).
func intconjLiveTerms(p int) (terms, andLUTs int) {
	switch {
	case p%4 == 0:
		return p / 4 * (1 + 2 + 3 + 4), p / 4 * (1 + 1 + 1 + 2)
	case p%2 == 0:
		return p / 2 * (3 + 4), p / 2 * (1 + 2)
	}
	return p * model.IntConjDepth, p * 2
}

// liveWinW is the W_in ROM's width without its constant zero columns: the
// dead terms of intconjLiveTerms, and in every live term the threshold's
// bits above N1's (thresholds lie in 1 … N1, the level field holds N).
func (intconjNet) liveWinW(d Design, st structure) int {
	terms, _ := intconjLiveTerms(d.P())
	n1, _ := model.IntConjSplit(d.N)
	return d.P()*d.K + terms*plan.IntConjTermW(d.K, bits.Len(uint(n1))) + d.P()
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
