package power

import (
	"math"

	"github.com/hdlgen/hdlgen/model"
)

// The analytic resource model: each block of the micro-architecture (rtl/plan,
// rtl/templates) has a structural count — adder bits, comparator leaves, ROM
// bits per address width, register bits — and a mapping factor that says how
// many LUT6 sites (or FFs, CARRY4s) Yosys's synth_xilinx spends per unit of
// that count. The structural counts are derived here; the factors are
// calibrated against Yosys 0.23 over hwstudy.CalibrationMatrix (weighted
// least squares on relative error; `hdlgen power --calibrate` reruns the
// comparison and writes results/hardware/calibration.md).

// Component is one block's structural counts and its calibrated resources.
type Component struct {
	Name string `json:"name"`
	// Raw structural counts (units documented per block in componentsOf).
	RawLUT   float64 `json:"raw_lut"`
	RawFF    float64 `json:"raw_ff"`
	RawCarry float64 `json:"raw_carry"`
	// Calibrated estimates: raw × the block's mapping factor.
	LUT   float64 `json:"lut"`
	FF    float64 `json:"ff"`
	Carry float64 `json:"carry"`
}

// factors are the mapping factors of one block (LUT sites, FFs and CARRY4 per
// unit of the raw count).
type factors struct{ lut, ff, carry float64 }

// Blocks of the model.
const (
	cROM = iota
	cFront
	cLanes
	cPreact // rvfl8 only
	cMAC
	cLaneTree
	cAcc
	cArgmax
	nComp
)

var compNames = [nComp]string{"rom", "front", "lanes", "preact", "mac", "lanetree", "acc", "argmax"}

// Calibrated mapping factors, per architecture and block: LUT6 sites, FFs and
// CARRY4 per unit of the raw count. Fitted by weighted least squares (relative
// error, non-negative, with a weak pull (μ = 0.01) towards 1, the structural
// count itself) to Yosys 0.23 on hwstudy.CalibrationMatrix plus two more seeds
// of three shapes. Blocks whose raw counts scale alike over the matrix (e.g. the
// rvfl8 per-lane sigmoid ROM and pre-activation adders, both ∝ P) cannot be
// told apart, so their individual factors mean little; their sum is what is
// calibrated. Tolerances reached: docs/energy-model.md.
var calib = map[model.Arch]*[nComp]factors{
	model.IntRVFL: {
		cROM:      {0.837, 1.006, 1.000},
		cFront:    {0.826, 0.982, 1.439},
		cLanes:    {0.913, 0.953, 0.636},
		cMAC:      {1.920, 1.001, 1.000},
		cLaneTree: {1.314, 0.996, 2.289},
		cAcc:      {0.794, 0.914, 0.874},
		cArgmax:   {1.197, 0.990, 0.215},
	},
	model.RVFL8: {
		cROM:      {0.867, 1.111, 1.000},
		cFront:    {0.829, 0.461, 0.865},
		cLanes:    {0.019, 0.747, 0.181},
		cPreact:   {1.872, 0.000, 0.942},
		cMAC:      {1.000, 1.000, 1.000},
		cLaneTree: {1.310, 0.592, 1.755},
		cAcc:      {0.184, 0.367, 0.009},
		cArgmax:   {0.766, 0.869, 0.330},
	},
}

// muxfPerLUT is the number of MUXF7/MUXF8 per LUT6 site in the calibration
// designs (median over the matrix; charged only for their small dynamic power).
var muxfPerLUT = map[model.Arch]float64{model.IntRVFL: 0.25, model.RVFL8: 0.12}

// dspMinProductW is the product width from which Yosys maps a multiplier to a
// DSP48E1 (synth_xilinx's mul2dsp: -D DSP_Y_MINWIDTH=9, both operands ≥ 2 bits).
const dspMinProductW = 9

// macInDSP reports whether the readout products go to DSP48E1s.
func macInDSP(st structure) bool { return st.QW+st.HW >= dspMinProductW && st.QW >= 2 && st.HW >= 2 }

func ceilDiv(a, b int) int { return (a + b - 1) / b }

// componentsOf returns the blocks of design d with their raw counts.
func componentsOf(d Design, st structure) (comps [nComp]Component, dsp int, rom [2]romMapping) {
	tag := 2 + st.GroupW
	add := func(c int, lut, ff, carry float64) {
		comps[c] = Component{Name: compNames[c], RawLUT: lut, RawFF: ff, RawCarry: carry}
	}
	P, K, L := float64(d.P), float64(d.K), float64(d.L)
	mac := macInDSP(st)
	rvfl8 := d.Arch == model.RVFL8

	// ROMs (rom.go): a logic ROM costs LUT sites per distinct non-constant
	// column (Yosys merges equal columns, which are frequent when the ROM has
	// few words) and keeps its read register; a block-RAM ROM keeps the
	// register inside the RAM.
	rom[0] = mapROM(st.G, st.WinW)
	rom[1] = mapROM(st.G, st.WoutW)
	if !rom[1].BRAM && st.QWEff < st.QW {
		// Only QWEff of each code's QW bit columns differ (the rest copy the sign).
		eff := mapROM(st.G, d.P*d.L*st.QWEff)
		if !eff.BRAM {
			rom[1].LUTs, rom[1].Columns = eff.LUTs, eff.Columns
		}
	}
	var romLUT, romFF float64
	for _, m := range rom {
		romLUT += m.LUTs
		romFF += m.Columns
	}
	add(cROM, romLUT, romFF, 0)

	// Front: input register, busy, group counter, stage-A tag; intrvfl: the
	// base counter and the K level offsets d_i = v_i − g·P (DW-bit subtractors,
	// registered); rvfl8: stage A's copy of the input codes.
	frontFF := float64(st.IW + 1 + st.GroupW + 1 + tag)
	frontLUT := float64(st.GroupW + 2)
	frontCarry := float64(ceilDiv(st.GroupW, 4))
	if rvfl8 {
		frontFF += float64(st.IW)
	} else {
		frontFF += float64(st.LW) + K*float64(st.DW)
		frontLUT += K*float64(st.DW) + float64(st.LW)
		frontCarry += K*float64(ceilDiv(st.DW, 4)) + float64(ceilDiv(st.LW, 4))
	}
	add(cFront, frontLUT, frontFF, frontCarry)

	if rvfl8 {
		// Lanes: the K products a_i·w_ji go into DSP48E1s with their product
		// register; per lane in the fabric: the bias leaf (8 distinct bits), the
		// saturating shift of z to the LUT address (ZW bits), the 256×8 sigmoid
		// ROM in logic (one copy per lane, ≈ 4 LUT6 per output bit) and the
		// activation register.
		dsp += d.P * d.K
		add(cLanes, P*(8*4+float64(st.ZW)), P*(8+8)+float64((1+st.HiddenCut)*(1+tag)), P*float64(ceilDiv(st.ZW, 4)))
		// Pre-activation adders: of the K adders of each lane's tree the
		// first-level ones (⌊(K+1)/2⌋) become DSP post-adders; the other
		// ⌊K/2⌋ stay in the fabric as ZW-bit compressor trees; the tree's cut
		// registers.
		add(cPreact, P*math.Floor(K/2)*float64(st.ZW), P*float64(treeRegBits(d.K+1, st.ZW, st.HiddenDepth)),
			P*float64((st.HiddenCut+1)*ceilDiv(st.ZW, 4)))
	} else {
		// Lanes: per lane and feature a DW-bit comparison with a constant
		// (≈ DW/5 LUTs), the XOR with the sign bit and a popcount leaf; the
		// popcount tree (K−1 narrow adders), clip; h register and tree cuts.
		add(cLanes, P*(K*(1+float64(st.DW)/5)+float64(st.SW())),
			P*float64(st.HW)+P*float64(treeRegBits(d.K, st.PcW, st.HiddenDepth))+float64(st.HiddenCut*(1+tag)),
			P*float64((st.HiddenCut+1)*ceilDiv(st.SW(), 4)))
	}

	// Readout products Q·h: LUT multipliers of QW×HW bits (≈ QW·HW/2 LUTs) and
	// their product register, or DSP48E1s that take the product register in.
	laneAdds := P - 1
	if mac {
		dsp += d.P * d.L
		add(cMAC, 0, 0, 0)
		laneAdds = P - 1 - math.Floor(P/2) // first-level adders become DSP post-adders
	} else {
		add(cMAC, P*L*float64(st.QWEff*st.HW)/2, P*L*float64(st.PWEff), 0)
	}
	// Lane-sum trees: L trees of adders of TW bits in the fabric, cut registers,
	// tags. Yosys turns each cut-to-cut segment of an adder tree into one
	// multi-operand sum ($macc): a LUT compressor tree and one final carry-chain
	// adder, so the CARRY4 count is per segment, not per adder.
	tw := st.TW
	if !mac {
		tw = st.TWEff // LUT products: narrower codes give narrower sums
	}
	laneTreeFF := L*float64(treeRegBits(d.P, tw, st.LaneDepth)) + float64((1+st.LaneCut)*3)
	laneCarry := 0.0
	if laneAdds > 0 {
		laneCarry = L * float64((st.LaneCut+1)*ceilDiv(tw, 4))
	}
	add(cLaneTree, L*laneAdds*float64(tw), laneTreeFF, laneCarry)
	// Accumulators: L adders of AW bits (the first-group clear folds into them).
	add(cAcc, L*float64(st.AW), L*float64(st.AW)+1+3, L*float64(ceilDiv(st.AW, 4)))
	// Argmax tree: L−1 AW-bit comparisons and (AW+CW)-bit selections; output register.
	add(cArgmax, (L-1)*float64(st.AW+st.CW), float64(argmaxRegBits(d, st)+st.OW+1), (L-1)*float64(ceilDiv(st.AW, 4)))
	return comps, dsp, rom
}

// SW is the width of s = K − 2·popcount (intrvfl).
func (st structure) SW() int { return st.PcW + 1 }

func argmaxRegBits(d Design, st structure) int {
	n := 0
	for lv := 1; lv < st.ArgDepth; lv++ {
		if lv%2 == 0 { // plan.DefaultArgmaxLevelsPerStage
			nodes := (d.L + 1<<lv - 1) >> lv
			n += nodes*(st.AW+st.CW) + d.L*st.AW + 1
		}
	}
	return n
}

// Breakdown returns the calibrated resources of design d block by block.
func Breakdown(d Design) ([]Component, error) {
	if err := d.Check(); err != nil {
		return nil, err
	}
	all, _, _ := componentsOf(d, newStructure(d))
	f := calib[d.Arch]
	var comps []Component
	for i, c := range all {
		if i == cPreact && d.Arch != model.RVFL8 {
			continue
		}
		k := f[i]
		c.LUT, c.FF, c.Carry = c.RawLUT*k.lut, c.RawFF*k.ff, c.RawCarry*k.carry
		comps = append(comps, c)
	}
	return comps, nil
}

// Analytic returns the resources of design d predicted by the analytic model.
func Analytic(d Design) (Resources, error) {
	if err := d.Check(); err != nil {
		return Resources{}, err
	}
	return analytic(d), nil
}

func analytic(d Design) Resources {
	st := newStructure(d)
	comps, dsp, rom := componentsOf(d, st)
	f := calib[d.Arch]
	var lut, ff, carry float64
	for i := range comps {
		c, k := &comps[i], &f[i]
		lut += c.RawLUT * k.lut
		ff += c.RawFF * k.ff
		carry += c.RawCarry * k.carry
	}
	r := Resources{LUTs: int(math.Round(lut)), FFs: int(math.Round(ff)), CARRY4: int(math.Round(carry)),
		DSP48E1: dsp, Source: "analytic"}
	r.MUXF = int(math.Round(muxfPerLUT[d.Arch] * lut))
	for _, m := range rom {
		r.BRAM36 += float64(m.RAMB36) + 0.5*float64(m.RAMB18)
	}
	return r
}
