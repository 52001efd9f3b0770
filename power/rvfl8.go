package power

import (
	"fmt"
	"math"

	"github.com/hdlgen/hdlgen/model"
)

// rvfl8Net is the 8-bit RVFL's part of the power model.
type rvfl8Net struct{}

func init() { register(rvfl8Net{}) }

func (rvfl8Net) arch() model.Arch { return model.RVFL8 }

func (rvfl8Net) check(Design) error { return nil }

func (rvfl8Net) name(d Design) string {
	return fmt.Sprintf("rvfl8 K=%d N=%d L=%d P=%d", d.K, d.N, d.L, d.P())
}

// extraFlight is the product register before the pre-activation tree.
func (rvfl8Net) extraFlight() int { return 1 }

func (rvfl8Net) blocks(d Design, st structure, tag int, hw *hardCounts) hiddenBlocks {
	P, K := float64(d.P()), float64(d.K)
	ra := d.adderLevels()
	var hb hiddenBlocks
	// The bias byte of each lane goes from the W_in ROM's read register
	// through the bias "product" register and, when the pre-activation tree
	// has a register cut at which the bias is a node of its own (K even,
	// K ≥ 16), through that cut register too: flip-flops all of them, since
	// the synthesis script maps no shift registers (synth/script: Yosys 0.23's
	// SRL16E mapping drops the clock enable).
	biasBits := P * 8 // distinct bias bits of all lanes
	if win := hw.rom[0]; !win.BRAM {
		biasBits *= win.Columns / float64(st.WinW) // shallow ROMs merge equal columns
	}
	// Front: the stage-A tag (first, last, group); the stage-A copy of the
	// input codes is absorbed into the DSP48E1s' A input registers.
	hb.front = raw(0, float64(tag), 0)

	// Lanes: the K products a_i·w_ji go into DSP48E1s with their product
	// register; per lane in the fabric: the bias leaf (8 distinct bits),
	// the saturating shift of z to the LUT address (ZW bits), the 256×8
	// sigmoid ROM in logic (one copy per lane, ≈ 4 LUT6 per output bit)
	// and its read register h; the bias register; the tags: a valid bit and
	// the whole tag at the product stage and each pre-activation cut, a
	// valid bit and the first/last flags at stage H.
	hw.dsp += d.P() * d.K
	preStages := float64(1 + st.HiddenCut)
	laneFF := P*8 + preStages*float64(1+tag) + 1 + 2 + biasBits
	sigmoidLUT := 8 * 4.0
	if d.BlockROMs() {
		// With --rom-style block the sigmoid tables are block RAM, two lanes
		// per RAMB18 (one per port), which hold the read register h too.
		sigmoidLUT = 0
		laneFF -= P * 8
		hw.sigmoidRAMB18 = (d.P() + 1) / 2
	}
	hb.lanes = raw(P*(sigmoidLUT+float64(st.ZW)), laneFF, 0)
	// Pre-activation adders: of the K adders of each lane's tree the
	// first-level ones become DSP post-adders; the other ⌊K/2⌋ stay in the
	// fabric, one ZW-bit sum per segment node (eachTreeSum). The tree's cut
	// registers hold ZW-bit partial sums (the DSP48E1 outputs show Yosys
	// no sign copies to trim) and the bias byte (cutNodes).
	var preFF float64
	for _, c := range cutNodes(d.K+1, ra) {
		switch {
		case c.loneLast:
			preFF += 8
		case c.beforeLoneSum:
			preFF += float64(st.ZW - biasShift) // its low bits pass to z's unused LSBs
		default:
			preFF += float64(st.ZW)
		}
	}
	preCarry := 0
	eachTreeSum(d.K+1, ra, 1, func(s treeSum) {
		w := st.ZW
		if s.operands == 2 && s.loneLast {
			w -= biasShift // the bias's zero LSBs pass through
		}
		preCarry += carryChain(w)
	})
	pre := raw(P*math.Floor(K/2)*float64(st.ZW), P*preFF, d.P()*preCarry)
	hb.preact = &pre
	return hb
}

func (rvfl8Net) hasPreact() bool { return true }

// rvfl8LUTFactor: see lutFactors in analytic.go for how they are fitted.
var rvfl8LUTFactor = [nComp]float64{
	cROM:      1.145,
	cFront:    1.000,
	cLanes:    0.106,
	cPreact:   1.719,
	cMAC:      1.000,
	cLaneTree: 1.540,
	cAcc:      0.285,
	cArgmax:   0.663,
}

// rvfl8LUTGroupAlpha is α of LUTGroupScale (analytic.go), fitted with the LUT factors.
var rvfl8LUTGroupAlpha = 0.0

func (rvfl8Net) lutGroupAlpha() float64 { return rvfl8LUTGroupAlpha }

func (rvfl8Net) lutFactors() *[nComp]float64 { return &rvfl8LUTFactor }

func (rvfl8Net) fmaxBase() float64 { return 2.870 }

func (rvfl8Net) fmaxLead() int { return 0 }

func (rvfl8Net) calibration() Calibration {
	return Calibration{
		Sections: [CalibrationSections][]CalShape{
			CalBase: {
				{K: 4, N: 32, L: 2, P: 1},
				{K: 4, N: 64, L: 3, P: 8},
				{K: 8, N: 128, L: 3, P: 1},
				{K: 8, N: 128, L: 3, P: 8},
				{K: 8, N: 100, L: 3, P: 32, AdderLevels: legacyAdderLevels},
				{K: 16, N: 512, L: 4, P: 1},
				{K: 16, N: 512, L: 4, P: 8},
				{K: 16, N: 512, L: 4, P: 32, AdderLevels: legacyAdderLevels},
				{K: 16, N: 256, L: 4, P: 4},
				{K: 32, N: 256, L: 2, P: 2},
				{K: 10, N: 300, L: 7, P: 8},
			},
			CalLargeN: {
				{K: 16, N: 2048, L: 4, P: 8},
				{K: 16, N: 4096, L: 4, P: 4},
			},
			CalOddP: {
				{K: 8, N: 128, L: 3, P: 6},
				{K: 12, N: 200, L: 5, P: 3},
				{K: 20, N: 1500, L: 3, P: 6},
			},
			CalRange: {
				{K: 4, N: 50, L: 3, P: 1},
				{K: 30, N: 900, L: 2, P: 1},
				{K: 13, N: 300, L: 3, P: 2},
			},
		},
		Seeds: []CalShape{{K: 16, N: 512, L: 4, P: 8}},
	}
}

func (rvfl8Net) muxfPerLUT() float64 { return 0.12 }
