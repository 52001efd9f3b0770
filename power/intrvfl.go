package power

import (
	"fmt"
	"math/bits"

	"github.com/hdlgen/hdlgen/model"
	"github.com/hdlgen/hdlgen/quant"
)

// intrvflNet is the intRVFL's part of the power model.
type intrvflNet struct{}

func init() { register(intrvflNet{}) }

func (intrvflNet) arch() model.Arch { return model.IntRVFL }

func (intrvflNet) check(d Design) error {
	if d.Kappa < 1 {
		return fmt.Errorf("power: κ=%d, want ≥ 1", d.Kappa)
	}
	if d.Bits < quant.MinBits || d.Bits > quant.MaxBits {
		return fmt.Errorf("power: readout bits %d outside [%d, %d]", d.Bits, quant.MinBits, quant.MaxBits)
	}
	return nil
}

func (intrvflNet) name(d Design) string {
	return fmt.Sprintf("intrvfl K=%d N=%d L=%d κ=%d b=%d P=%d", d.K, d.N, d.L, d.Kappa, d.Bits, d.P())
}

func (intrvflNet) extraFlight() int { return 0 }

func (intrvflNet) blocks(d Design, st structure, tag int, _ *hardCounts) hiddenBlocks {
	P, K := float64(d.P()), float64(d.K)
	var front Component
	thermoW := st.DW // inputs of one lane's thermometer bit
	if sh := bits.TrailingZeros(uint(d.P())); d.P() == 1<<sh {
		// Front, P = 2^S (hdlgen_level_offset's flags): the stage-A tag and
		// per feature an equality q_i == g of max(LW − S, GroupW) bits (≈ a
		// LUT per 3 bit pairs and one to combine, no carry chain), the flag
		// logic, and the registers ge_i, full_i and, for P > 1, part_i and
		// r_i. The issue stage's group base is unused and removed.
		cmpW := max(st.LW-sh, st.GroupW)
		ffs := 2.0
		if sh > 0 {
			ffs += float64(1 + sh)
		}
		front = raw(K*(float64(cmpW)/3+2), float64(tag)+K*ffs, 0)
		thermoW = 2*sh + 2 // full_i, part_i, r_i (a compare of r_i with the lane)
	} else {
		// Front, other P: the stage-A tag, the base counter g·P (an adder of
		// LW − tz(P) bits: the low bits of a multiple of P are constant) and the
		// K level offsets d_i = v_i − g·P (DW-bit subtractors, registered).
		tz := bits.TrailingZeros(uint(d.P()))
		front = raw(K*float64(st.DW)+float64(st.LW),
			float64(tag)+float64(st.LW-tz+min(tz, 1))+K*float64(st.DW), // base: its constant low bits share one FF
			carryChain(st.LW-tz)+d.K*carryChain(st.DW))
	}
	if d.Win != model.WinStored {
		// The W_in generator (hdlgen_win_lfsr) in place of the ROM: a window
		// register of M = max(31, K+P−1) FFs, and per window bit one LUT
		// (first ? seed bit : shifted bit; the P new bits fold their XOR of
		// two, or when chained a few, window bits into the same LUT). No
		// carry chain.
		m := float64(max(model.PRBSLen, d.K+d.P()-1))
		front.RawLUT += m
		front.RawFF += m
	}
	// Lanes: per lane and feature the thermometer bit from thermoW inputs
	// (≈ thermoW/5 LUTs), the XOR with the sign bit and a popcount leaf; the
	// popcount tree (K−1 narrow adders, written as bit-level logic: no
	// carry chains), s = K − 2·popcount (hiddenSubWidth) and the clip (two
	// SW-bit comparisons with constants); h register and tree cuts.
	lanes := raw(P*(K*(1+float64(thermoW)/5)+float64(st.SW())),
		P*float64(st.HW)+P*float64(popcountCutBits(d.K, d.adderLevels()))+float64(st.HiddenCut*(1+tag))+2, // and the flags at stage H
		d.P()*(carryChain(hiddenSubWidth(d.K, st.PcW))+2*cmpConstChain(st.SW())))
	return hiddenBlocks{front: front, lanes: lanes}
}

func (intrvflNet) hasPreact() bool { return false }

// intrvflLUTFactor: see lutFactors in analytic.go for how they are fitted.
var intrvflLUTFactor = [nComp]float64{
	cROM:      1.023,
	cFront:    1.248,
	cLanes:    1.011,
	cMAC:      1.229,
	cLaneTree: 1.207,
	cAcc:      0.634,
	cArgmax:   1.742,
}

// intrvflLUTGroupAlpha is α of LUTGroupScale (analytic.go), fitted with the LUT factors.
var intrvflLUTGroupAlpha = 0.23

func (intrvflNet) lutGroupAlpha() float64 { return intrvflLUTGroupAlpha }

func (intrvflNet) lutFactors() *[nComp]float64 { return &intrvflLUTFactor }

func (intrvflNet) fmaxBase() float64 { return 0.726 }

func (intrvflNet) fmaxLead() int { return 1 }

func (intrvflNet) calibration() Calibration {
	return Calibration{
		Sections: [CalibrationSections][]CalShape{
			CalBase: {
				{K: 4, N: 32, L: 2, Kappa: 1, Bits: 3, P: 1},
				{K: 4, N: 64, L: 3, Kappa: 3, Bits: 5, P: 8},
				{K: 8, N: 128, L: 3, Kappa: 3, Bits: 5, P: 1},
				{K: 8, N: 128, L: 3, Kappa: 3, Bits: 5, P: 8},
				{K: 8, N: 128, L: 3, Kappa: 7, Bits: 8, P: 32, AdderLevels: legacyAdderLevels},
				{K: 16, N: 256, L: 4, Kappa: 3, Bits: 5, P: 32, AdderLevels: legacyAdderLevels},
				{K: 16, N: 512, L: 4, Kappa: 3, Bits: 5, P: 1},
				{K: 16, N: 512, L: 4, Kappa: 3, Bits: 5, P: 8},
				{K: 16, N: 512, L: 4, Kappa: 3, Bits: 5, P: 32, AdderLevels: legacyAdderLevels},
				{K: 32, N: 512, L: 2, Kappa: 15, Bits: 4, P: 8},
				{K: 16, N: 1024, L: 10, Kappa: 1, Bits: 5, P: 8},
				{K: 6, N: 1000, L: 6, Kappa: 3, Bits: 6, P: 16, AdderLevels: legacyAdderLevels},
			},
			CalLargeN: {
				{K: 16, N: 2048, L: 4, Kappa: 3, Bits: 5, P: 8},
				{K: 16, N: 4096, L: 4, Kappa: 3, Bits: 5, P: 64, AdderLevels: legacyAdderLevels},
			},
			CalOddP: {
				{K: 8, N: 128, L: 3, Kappa: 3, Bits: 5, P: 6},
				{K: 16, N: 300, L: 4, Kappa: 3, Bits: 5, P: 12},
				{K: 20, N: 256, L: 3, Kappa: 7, Bits: 6, P: 24, AdderLevels: legacyAdderLevels}, // κ = 7, a 6-bit readout
			},
			CalRange: {
				{K: 4, N: 50, L: 3, Kappa: 1, Bits: 5, P: 1},
				{K: 4, N: 150, L: 3, Kappa: 3, Bits: 5, P: 8},
				{K: 13, N: 50, L: 3, Kappa: 3, Bits: 5, P: 4},
				{K: 30, N: 900, L: 2, Kappa: 3, Bits: 5, P: 1},
				{K: 4, N: 3000, L: 3, Kappa: 3, Bits: 5, P: 1},
				{K: 13, N: 900, L: 3, Kappa: 7, Bits: 5, P: 1},
				{K: 30, N: 1500, L: 2, Kappa: 1, Bits: 5, P: 2},
				{K: 16, N: 50, L: 10, Kappa: 3, Bits: 5, P: 2},
				{K: 64, N: 3000, L: 10, Kappa: 7, Bits: 8, P: 1},
				{K: 30, N: 3000, L: 2, Kappa: 3, Bits: 5, P: 8},
				{K: 64, N: 150, L: 10, Kappa: 3, Bits: 5, P: 1},
				{K: 30, N: 900, L: 2, Kappa: 3, Bits: 5, P: 4},
				{K: 13, N: 900, L: 3, Kappa: 3, Bits: 5, P: 8},
				{K: 16, N: 150, L: 26, Kappa: 3, Bits: 5, P: 1},
				{K: 4, N: 1500, L: 3, Kappa: 7, Bits: 5, P: 16},
				{K: 4, N: 64, L: 2, Kappa: 3, Bits: 5, P: 32},
				{K: 30, N: 150, L: 2, Kappa: 3, Bits: 5, P: 16},
				{K: 4, N: 100, L: 2, Kappa: 3, Bits: 5, P: 64},
				{K: 13, N: 150, L: 3, Kappa: 3, Bits: 5, P: 32},
				{K: 4, N: 128, L: 2, Kappa: 3, Bits: 5, P: 128},
			},
			CalRangeEdges: {
				{K: 4, N: 50, L: 3, Kappa: 3, Bits: 5, P: 8},
				{K: 4, N: 3000, L: 3, Kappa: 3, Bits: 5, P: 64},
				{K: 13, N: 1500, L: 3, Kappa: 3, Bits: 5, P: 128},
				{K: 4, N: 300, L: 3, Kappa: 3, Bits: 5, P: 256},
			},
			CalRangeWide: {
				{K: 4, N: 50, L: 3, Kappa: 3, Bits: 5, P: 50},
				{K: 4, N: 300, L: 3, Kappa: 3, Bits: 5, P: 300},
				{K: 4, N: 512, L: 3, Kappa: 3, Bits: 5, P: 512},
				{K: 4, N: 1500, L: 3, Kappa: 3, Bits: 5, P: 512},
				{K: 4, N: 3000, L: 3, Kappa: 3, Bits: 5, P: 512},
				{K: 4, N: 1024, L: 3, Kappa: 3, Bits: 5, P: 1024},
			},
		},
		Seeds: []CalShape{
			{K: 8, N: 128, L: 3, Kappa: 3, Bits: 5, P: 8},
			{K: 16, N: 512, L: 4, Kappa: 3, Bits: 5, P: 8},
		},
	}
}

func (intrvflNet) muxfPerLUT() float64 { return 0.25 }
