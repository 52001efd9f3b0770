package power

import (
	"fmt"

	"github.com/hdlgen/hdlgen/model"
)

// conjNet is the random-conjunction network's part of the power model
// (hdlgen_conj_hidden): per lane and term a K:1 multiplexer of 8-bit codes
// and its register, an 8-bit comparison of two registered values, and per
// lane the AND of its D tests; its 0/1 units gate the readout weights
// (hdlgen_mac's HiddenW = 1: no multiplier). κ is D (model.Traits.KappaName).
type conjNet struct{}

func init() { register(conjNet{}) }

func (conjNet) arch() model.Arch { return model.Conj }

func (conjNet) check(d Design) error {
	if d.Kappa < 1 || d.Kappa > model.ConjMaxDepth {
		return fmt.Errorf("power: conj depth D=%d outside [1, %d]", d.Kappa, model.ConjMaxDepth)
	}
	return nil
}

func (conjNet) name(d Design) string {
	return fmt.Sprintf("conj K=%d N=%d L=%d D=%d P=%d", d.K, d.N, d.L, d.Kappa, d.P())
}

// extraFlight is the select register between stage A and H.
func (conjNet) extraFlight() int { return 1 }

// conjCodeW is the width of an input code and of a threshold.
const conjCodeW = 8

// muxLUTs is the LUT6 sites of one bit of a k:1 multiplexer: a LUT6 selects
// among 4 inputs, MUXF7/MUXF8 combine 2 and 4 of them within a slice, and
// wider multiplexers add a LUT level per 4 slices' outputs.
func muxLUTs(k int) float64 {
	if k <= 1 {
		return 0
	}
	luts := 0
	for n := k; n > 1; n = ceilDiv(n, 4) {
		luts += ceilDiv(n, 4)
	}
	return float64(luts)
}

func (conjNet) blocks(d Design, st structure, tag int, _ *hardCounts) hiddenBlocks {
	var hb hiddenBlocks
	// Front: the stage-A copy of the input codes and the stage-A tag.
	hb.front = raw(0, float64(st.IW+tag), 0)
	// Lanes: conjLanes over the 8-bit codes; the tags: at the select
	// register the valid bit and the whole tag, at stage H a valid bit and
	// the first/last flags.
	hb.lanes = conjLanes(d.P(), d.K, d.Kappa, conjCodeW)
	hb.lanes.RawFF += float64(1+tag) + 3
	return hb
}

// conjLanes is hdlgen_conj_hidden's p lanes of depth terms over k features
// with codeW-bit codes (conjTerms).
func conjLanes(p, k, depth, codeW int) Component {
	return conjTerms(p*depth, p, p*ceilDiv(2*depth, 6), k, codeW)
}

// conjTerms is terms terms of hdlgen_conj_hidden over k features with
// codeW-bit codes and its lanes' unit logic: per term the k:1 multiplexer
// (muxLUTs per bit), its register with the threshold and polarity, and a
// codeW-bit comparison of two registered values (3 bit pairs per LUT6, one
// carry chain); per lane the AND of its tests, each XOR its polarity (2
// inputs per test, 6 per LUT6: andLUTs in all), and the unit register.
func conjTerms(terms, lanes, andLUTs, k, codeW int) Component {
	t := float64(terms)
	lut := t*float64(codeW)*muxLUTs(k) + t*float64(ceilDiv(codeW, 3)) + float64(andLUTs)
	ff := t*float64(2*codeW+1) + float64(lanes)
	return raw(lut, ff, terms*cmpChain(codeW))
}

func (conjNet) hasPreact() bool { return false }

// conjLUTFactor: the structural counts times one factor, the median ratio
// of Yosys's LUT6 sites to the counts over six conj designs (K = 4 … 72,
// N = 64 … 1,500, D = 1 … 3, P = 1 … 8; ratios 1.03 … 1.19), set by hand;
// the calibration's section range-conj measures it (−13.1 … +5.8 % up to
// P = 16, +24.1 % at K = 6, P = 32: muxLUTs ignores MUXF7/MUXF8;
// docs/semantics.md §3c) without refitting it.
var conjLUTFactor = [nComp]float64{
	cROM: conjLUTScale, cFront: conjLUTScale, cLanes: conjLUTScale, cPreact: conjLUTScale,
	cMAC: conjLUTScale, cLaneTree: conjLUTScale, cAcc: conjLUTScale, cArgmax: conjLUTScale,
}

// conjLUTScale is conjLUTFactor's one factor.
const conjLUTScale = 1.09

// conjLUTGroupAlpha is the intRVFL's α of LUTGroupScale (analytic.go).
var conjLUTGroupAlpha = intrvflLUTGroupAlpha

func (conjNet) lutGroupAlpha() float64 { return conjLUTGroupAlpha }

func (conjNet) lutFactors() *[nComp]float64 { return &conjLUTFactor }

// fmaxBase and fmaxLead: the rvfl8's (a front of codes, no tree lead).
func (conjNet) fmaxBase() float64 { return rvfl8Net{}.fmaxBase() }

func (conjNet) fmaxLead() int { return 0 }

// calibration holds the conj's designs of the build's range (CalRangeConj):
// the iris-like K = 4 at the smallest N, and K, L, D and P spread over the
// range, up to N = 3000 with the 26 classes of letter; and the shapes of the
// two conj designs `hdlgen build` chose in results/family-build (car: K = 6,
// L = 4, N = 1250, D = 4 at P = 32; glyphs: K = 64, L = 10, N = 1000, D = 2
// at P = 16), where the first five left the band without designs.
func (conjNet) calibration() Calibration {
	return Calibration{
		Sections: [CalibrationSections][]CalShape{
			CalRangeConj: {
				{K: 4, N: 50, L: 3, Kappa: 2, P: 1},
				{K: 30, N: 300, L: 2, Kappa: 3, P: 4},
				{K: 13, N: 1500, L: 3, Kappa: 4, P: 1},
				{K: 64, N: 800, L: 10, Kappa: 1, P: 8},
				{K: 16, N: 3000, L: 26, Kappa: 2, P: 2},
				{K: 6, N: 1250, L: 4, Kappa: 4, P: 32},
				{K: 64, N: 1000, L: 10, Kappa: 2, P: 16},
			},
		},
	}
}

func (conjNet) muxfPerLUT() float64 { return 0.12 }
