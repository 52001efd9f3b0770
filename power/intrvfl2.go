package power

import (
	"fmt"
	"math/bits"

	"github.com/hdlgen/hdlgen/model"
	"github.com/hdlgen/hdlgen/quant"
	"github.com/hdlgen/hdlgen/rtl/plan"
)

// intrvfl2Net is the two-layer intRVFL's part of the power model: the
// intRVFL's first layer over N1 = ⌈N/2⌉ neurons' levels, and the second
// layer (hdlgen_intrvfl2_layer2): the h1 register file, the W2 generator,
// per lane a sign-flip adder tree over N1 values and a clip. κ2 follows the
// training rule (model.Int2Kappa2).
type intrvfl2Net struct{ intrvflNet }

func init() { register(intrvfl2Net{}) }

func (intrvfl2Net) arch() model.Arch { return model.IntRVFL2 }

func (intrvfl2Net) check(d Design) error {
	if d.Kappa < 1 {
		return fmt.Errorf("power: κ=%d, want ≥ 1", d.Kappa)
	}
	if d.N < 2 {
		return fmt.Errorf("power: intrvfl2 with N=%d, want ≥ 2 (one neuron per layer)", d.N)
	}
	if d.Bits < quant.MinBits || d.Bits > quant.MaxBits {
		return fmt.Errorf("power: readout bits %d outside [%d, %d]", d.Bits, quant.MinBits, quant.MaxBits)
	}
	return nil
}

func (intrvfl2Net) name(d Design) string {
	return fmt.Sprintf("intrvfl2 K=%d N=%d L=%d κ=%d b=%d P=%d", d.K, d.N, d.L, d.Kappa, d.Bits, d.P())
}

// int2Widths are the second layer's widths of a design (rtl/plan's Int2Plan).
type int2Widths struct {
	n1, clip1, clip2    int
	hw1, s2w, hw2       int
	split, splitLane    int
	depth, cuts, window int
}

func int2Of(d Design) int2Widths {
	n1, _ := model.Int2Split(d.N)
	var w int2Widths
	w.n1 = n1
	w.clip1 = min(d.Kappa, d.K)
	w.clip2 = min(model.Int2Kappa2(w.clip1, n1), n1*w.clip1)
	w.hw1 = bits.Len(uint(w.clip1)) + 1
	w.s2w = bits.Len(uint(n1*w.clip1)) + 1
	w.hw2 = bits.Len(uint(w.clip2)) + 1
	w.split = n1 / d.P()
	w.splitLane = n1 - w.split*d.P()
	w.depth = clog2(n1)
	w.cuts = plan.Cuts(w.depth, d.adderLevels())
	w.window = max(model.PRBSLen, n1+d.P()-1)
	return w
}

// hiddenFlight is the flight stages the second layer adds: the H1 register
// and the second-layer tree's cuts (its widths come from rtl/plan's rule,
// plan.HiddenWidths).
func (intrvfl2Net) hiddenFlight(d Design) int { return 1 + int2Of(d).cuts }

func (n intrvfl2Net) blocks(d Design, st structure, tag int, hw *hardCounts) hiddenBlocks {
	hb := n.intrvflNet.blocks(d, st, tag, hw) // the first layer; its h register is the final H
	w := int2Of(d)
	P, N1 := float64(d.P()), float64(w.n1)
	// The second layer (hdlgen_intrvfl2_layer2):
	//   - the H1 register (P·HW1) and its tag; the register file (N1·HW1 FFs
	//     with clock enables) and per written group an equality of GroupW
	//     bits with a constant (≈ GroupW/6 + 1 LUTs);
	//   - the W2 generator: a window of M = max(31, N1+P−1) FFs and a LUT per
	//     window bit (as the intRVFL's W_in generator);
	//   - per first-layer value its negation −h1, shared by the lanes (one
	//     HW1-bit carry chain), and per lane and value the select ±h1 (HW1
	//     LUTs) and the group-S bypass (HW1 LUTs per bypassed value and lane);
	//   - per lane an adder tree over N1 values, level lv's ⌈N1/2^lv⌉ adders
	//     HW1+lv bits wide (at most S2W) as LUTs; Yosys makes each
	//     cut-to-cut segment one multi-operand sum with one S2W-bit carry
	//     chain (eachTreeSum, as the lane-sum trees); its cut registers and the
	//     group, valid and h1 carried alongside;
	//   - per lane the clip (two S2W-bit comparisons with constants) and the
	//     layer select (HiddenW LUTs).
	// Checked against Yosys on K = 8, N = 64, L = 3, κ = 3 at P = 1 and 4
	// (docs/semantics.md §3b.2).
	groupsW := float64(ceilDiv(w.n1, d.P()))
	lut := groupsW*(float64(st.GroupW)/6+1) + float64(w.window)
	ff := P*float64(w.hw1) + float64(1+tag) + N1*float64(w.hw1) + float64(w.window)
	lut += P * N1 * float64(w.hw1)
	lut += P * float64(w.splitLane*w.hw1)
	for lv := 1; lv <= w.depth; lv++ {
		adders := (w.n1 + 1<<lv - 1) >> lv
		if prev := (w.n1 + 1<<(lv-1) - 1) >> (lv - 1); prev%2 == 1 {
			adders-- // an odd last node passes through
		}
		lut += P * float64(adders*min(w.hw1+lv, w.s2w))
	}
	carry := w.n1*carryChain(w.hw1) + d.P()*productTreeSums(w.n1, d.adderLevels(), 0)*carryChain(w.s2w)
	ff += P * float64(treeRegBits(w.n1, w.s2w, w.depth, d.adderLevels()))
	ff += float64(w.cuts * (1 + tag + 1 + st.GroupW + d.P()*w.hw1))
	lut += P * float64(w.s2w+st.HW)
	carry += d.P() * 2 * cmpConstChain(w.s2w)
	hb.lanes.RawLUT += lut
	hb.lanes.RawFF += ff
	hb.lanes.RawCarry += float64(carry)
	return hb
}

// intrvfl2LUTFactor: the intRVFL's (lutFactors in analytic.go); the second
// layer is not yet in the calibration's fit.
var intrvfl2LUTFactor = intrvflLUTFactor

// intrvfl2LUTGroupAlpha is the intRVFL's α of LUTGroupScale (analytic.go), as
// its LUT factors are the intRVFL's.
var intrvfl2LUTGroupAlpha = intrvflLUTGroupAlpha

func (intrvfl2Net) lutGroupAlpha() float64 { return intrvfl2LUTGroupAlpha }

func (intrvfl2Net) lutFactors() *[nComp]float64 { return &intrvfl2LUTFactor }

// calibration holds the intrvfl2's designs of the build's range only
// (CalRange); its resources at K = 8, N = 64 are also checked against Yosys
// in docs/semantics.md §3b.
func (intrvfl2Net) calibration() Calibration {
	return Calibration{
		Sections: [CalibrationSections][]CalShape{
			CalRange: {
				{K: 4, N: 50, L: 3, Kappa: 3, Bits: 5, P: 1},
				{K: 30, N: 50, L: 2, Kappa: 3, Bits: 5, P: 4},
				{K: 13, N: 150, L: 3, Kappa: 7, Bits: 5, P: 2},
			},
		},
	}
}
