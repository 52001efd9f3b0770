package power

import (
	"math"
	"math/bits"

	"github.com/hdlgen/hdlgen/model"
	"github.com/hdlgen/hdlgen/rtl/plan"
)

// The analytic resource model: each block of the micro-architecture (rtl/plan,
// rtl/templates) has structural counts derived here from the design's widths
// and pipeline (section 6 of docs/energy-model.md):
//
//   - FF: the register bits Yosys keeps, block by block, including what it
//     merges or moves elsewhere (equal ROM columns, DSP48E1 input and
//     accumulator registers, SRL16E chains, constant bits): a count, not fitted;
//   - CARRY4: the carry chains of the adders, sums and comparisons Yosys builds
//     (arith.go): a count, not fitted;
//   - LUT: a structural count (adder bits, comparator leaves, ROM bits per
//     address width) times a per-block mapping factor, the LUT6 sites Yosys's
//     synth_xilinx (ABC) spends per unit of that count, calibrated against
//     Yosys 0.23 over hwstudy.CalibrationMatrix.
//
// `hdlgen power --calibrate` compares all of them with Yosys and writes
// results/hardware/calibration.md.

// Component is one block's structural counts and its estimated resources.
type Component struct {
	Name string `json:"name"`
	// Raw structural counts (units documented per block in componentsOf).
	RawLUT   float64 `json:"raw_lut"`
	RawFF    float64 `json:"raw_ff"`
	RawCarry float64 `json:"raw_carry"`
	// Estimates: LUT = RawLUT × the block's LUT factor; FF and Carry are the
	// raw counts.
	LUT   float64 `json:"lut"`
	FF    float64 `json:"ff"`
	Carry float64 `json:"carry"`
}

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

// lutFactor holds the calibrated LUT mapping factors, per architecture and
// block: LUT6 sites per unit of the block's raw LUT count. Fitted by
// hwstudy.FitLUTFactors to Yosys 0.23 on hwstudy.CalibrationMatrix (seed 1 of
// each shape): the factors ≥ 0 that minimise the largest relative LUT error
// plus a weak pull (μ = 0.01 per unit of |f − 1|) towards 1, the structural
// count itself; hwstudy's TestLUTFactorsAreTheFit refits the committed
// calibration and compares. Blocks whose raw counts scale alike over the
// matrix (e.g. the rvfl8 per-lane sigmoid ROM and pre-activation adders, both
// ∝ P; the rvfl8 accumulators and argmax, both ∝ L·AW) cannot be told apart,
// so their individual factors mean little; their sum is what is calibrated.
// Tolerances reached: docs/energy-model.md.
var lutFactor = map[model.Arch]*[nComp]float64{
	model.IntRVFL: {
		cROM:      0.945,
		cFront:    0.762,
		cLanes:    0.975,
		cMAC:      1.795,
		cLaneTree: 1.233,
		cAcc:      1.000,
		cArgmax:   1.000,
	},
	model.RVFL8: {
		cROM:      1.124,
		cFront:    1.000,
		cLanes:    0.160,
		cPreact:   1.672,
		cMAC:      1.000,
		cLaneTree: 1.717,
		cAcc:      0.000,
		cArgmax:   0.748,
	},
}

// LUTFactors returns the calibrated LUT factor of every block of arch's
// model by block name (Component.Name); nil for an architecture without RTL.
func LUTFactors(arch model.Arch) map[string]float64 {
	f, ok := lutFactor[arch]
	if !ok {
		return nil
	}
	out := map[string]float64{}
	for i, name := range compNames {
		if i == cPreact && arch != model.RVFL8 {
			continue
		}
		out[name] = f[i]
	}
	return out
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

// componentsOf returns the blocks of design d with their raw counts: register
// bits and carry chains as Yosys keeps them (the FF and CARRY4 estimates), and
// the structural LUT counts that lutFactor scales.
func componentsOf(d Design, st structure) (comps [nComp]Component, hw hardCounts) {
	tag := 2 + st.GroupW
	add := func(c int, lut, ff float64, carry int) {
		comps[c] = Component{Name: compNames[c], RawLUT: lut, RawFF: ff, RawCarry: float64(carry)}
	}
	P, K, L := float64(d.P), float64(d.K), float64(d.L)
	mac := macInDSP(st)
	rvfl8 := d.Arch == model.RVFL8
	ra := plan.DefaultAdderLevelsPerStage

	// ROMs (rom.go): a logic ROM costs LUT sites per distinct non-constant
	// column (Yosys merges equal columns, which are frequent when the ROM has
	// few words) and keeps its read register in the fabric (one FF per
	// distinct column); a block-RAM ROM keeps the register inside the RAM.
	rom := &hw.rom
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
	// rvfl8: the bias byte of each lane goes from the W_in ROM's read register
	// through the bias "product" register and, when the pre-activation tree
	// has a register cut at which the bias is a node of its own (K even,
	// K ≥ 16), through that cut register too. A chain of three or more
	// registers with one load each becomes an SRL16E per bit (xilinx_srl
	// -fixed -minlen 3), which leaves the FF count; with the ROM in block RAM
	// the chain is one register shorter and stays in FFs.
	var biasSRL bool
	var biasBits float64 // distinct bias bits of all lanes
	if rvfl8 {
		biasBits = P * 8
		if !rom[0].BRAM {
			biasBits *= rom[0].Columns / float64(st.WinW) // shallow ROMs merge equal columns
			for _, c := range cutNodes(d.K+1, ra) {
				biasSRL = biasSRL || c.loneLast
			}
		}
		if biasSRL {
			romFF -= biasBits
			hw.srl = int(math.Round(biasBits))
		}
	}
	add(cROM, romLUT, romFF, 0)

	// Front: input register, busy, group counter (GroupW-bit incrementer),
	// stage-A valid; intrvfl: the stage-A tag, the base counter g·P (an adder
	// of LW − tz(P) bits: the low bits of a multiple of P are constant) and
	// the K level offsets d_i = v_i − g·P (DW-bit subtractors, registered).
	// The rvfl8's stage-A copy of the input codes is absorbed into the
	// DSP48E1s' A input registers.
	frontFF := float64(st.IW + 1 + st.GroupW + 1)
	frontLUT := float64(st.GroupW + 2)
	frontCarry := carryChain(st.GroupW)
	if !rvfl8 {
		tz := bits.TrailingZeros(uint(d.P))
		frontFF += float64(tag) + float64(st.LW-tz+min(tz, 1)) + K*float64(st.DW) // base: its constant low bits share one FF
		frontLUT += K*float64(st.DW) + float64(st.LW)
		frontCarry += carryChain(st.LW-tz) + d.K*carryChain(st.DW)
	}
	add(cFront, frontLUT, frontFF, frontCarry)

	if rvfl8 {
		// Lanes: the K products a_i·w_ji go into DSP48E1s with their product
		// register; per lane in the fabric: the bias leaf (8 distinct bits),
		// the saturating shift of z to the LUT address (ZW bits), the 256×8
		// sigmoid ROM in logic (one copy per lane, ≈ 4 LUT6 per output bit)
		// and its read register h; the bias register (unless in an SRL); the
		// tags' valid bits (their data bits go to SRLs when three or more
		// stages deep).
		hw.dsp += d.P * d.K
		laneFF := P*8 + float64(2+st.HiddenCut)
		if !biasSRL {
			laneFF += biasBits
		}
		if st.HiddenCut == 0 {
			laneFF += float64(2 * st.GroupW) // the group of the stage-A and product-stage tags
		}
		add(cLanes, P*(8*4+float64(st.ZW)), laneFF, 0)
		// Pre-activation adders: of the K adders of each lane's tree the
		// first-level ones become DSP post-adders; the other ⌊K/2⌋ stay in the
		// fabric, one ZW-bit sum per segment node (treeSums). The tree's cut
		// registers hold ZW-bit partial sums (the DSP48E1 outputs show Yosys
		// no sign copies to trim) and the bias byte (cutNodes).
		var preFF float64
		for _, c := range cutNodes(d.K+1, ra) {
			switch {
			case c.loneLast && biasSRL:
			case c.loneLast:
				preFF += 8
			case c.beforeLoneSum:
				preFF += float64(st.ZW - biasShift) // its low bits pass to z's unused LSBs
			default:
				preFF += float64(st.ZW)
			}
		}
		preCarry := 0
		for _, s := range treeSums(d.K+1, ra, 1) {
			w := st.ZW
			if s.operands == 2 && s.loneLast {
				w -= biasShift // the bias's zero LSBs pass through
			}
			preCarry += carryChain(w)
		}
		add(cPreact, P*math.Floor(K/2)*float64(st.ZW), P*preFF, d.P*preCarry)
	} else {
		// Lanes: per lane and feature a DW-bit comparison with a constant
		// (≈ DW/5 LUTs), the XOR with the sign bit and a popcount leaf; the
		// popcount tree (K−1 narrow adders, written as bit-level logic: no
		// carry chains), s = K − 2·popcount (hiddenSubWidth) and the clip (two
		// SW-bit comparisons with constants); h register and tree cuts.
		add(cLanes, P*(K*(1+float64(st.DW)/5)+float64(st.SW())),
			P*float64(st.HW)+P*float64(popcountCutBits(d.K))+float64(st.HiddenCut*(1+tag)),
			d.P*(carryChain(hiddenSubWidth(d.K, st.PcW))+2*cmpConstChain(st.SW())))
	}

	// Readout products Q·h: LUT multipliers of QW×HW bits (≈ QW·HW/2 LUTs;
	// Yosys makes each a $macc of its partial products: one PW-bit carry
	// chain) and their product register, or DSP48E1s that take the product
	// register in.
	laneAdds := P - 1
	from := 0 // first lane-tree level in the fabric
	if mac {
		hw.dsp += d.P * d.L
		add(cMAC, 0, 0, 0)
		// First-level adders become DSP post-adders, and so does the adder the
		// lone last product of an odd P first meets (productTreeSums).
		laneAdds = P - 1 - math.Floor(P/2)
		for _, s := range treeSums(d.P, ra, 1) {
			if s.loneLast && s.first {
				laneAdds--
			}
		}
		from = 1
	} else {
		// The product register keeps the declared PW bits even when the codes
		// use fewer (Yosys cannot see their range).
		add(cMAC, P*L*float64(st.QWEff*st.HW)/2, P*L*float64(st.PW), d.P*d.L*carryChain(st.PW))
	}
	// Lane-sum trees: L trees of adders of TW bits in the fabric, cut registers
	// of the declared width TW, tags. Yosys turns each cut-to-cut segment of
	// an adder tree into multi-operand sums ($macc, treeSums): a LUT
	// compressor tree and one final carry chain of the declared width TW each.
	// The LUT count uses the effective width: ABC maps narrower logic when
	// the readout ROM's high bit columns copy the sign.
	tw := st.TW
	if !mac {
		tw = st.TWEff // LUT products: narrower codes give narrower sums
	}
	laneTreeFF := L*float64(treeRegBits(d.P, st.TW, st.LaneDepth)) + float64(1+st.LaneCut) // and the tags' valid bits
	add(cLaneTree, L*laneAdds*float64(tw), laneTreeFF, d.L*productTreeSums(d.P, ra, from)*carryChain(st.TW))
	// Accumulators: L adders of AW bits (the first-group clear folds into
	// them), or, with DSP48E1 products and P = 1, the DSP48E1s' accumulators
	// (the product goes straight into acc + product).
	const accCtl = 1 // the done flag
	if mac && d.P == 1 {
		add(cAcc, 0, accCtl, 0)
	} else {
		add(cAcc, L*float64(st.AW), L*float64(st.AW)+accCtl, d.L*carryChain(st.AW))
	}
	// Argmax tree: L−1 AW-bit comparisons and (AW+CW)-bit selections; output register.
	add(cArgmax, (L-1)*float64(st.AW+st.CW), float64(argmaxRegBits(d, st)+st.OW+1), (d.L-1)*cmpChain(st.AW))
	return comps, hw
}

// hardCounts are the exactly counted parts of a design.
type hardCounts struct {
	dsp int           // DSP48E1
	srl int           // SRL16E (rvfl8 bias chains)
	rom [2]romMapping // W_in and readout ROMs: logic or block RAM
}

// popcountCutBits is the register bits of one lane's popcount-tree cuts
// (intrvfl): a node over n features counts to n and, built from ripple-carry
// planes whose top planes are constant zero, keeps 1 + ⌈log2 n⌉ of its PcW
// planes.
func popcountCutBits(k int) int {
	depth := clog2(k)
	n := 0
	for lv := plan.DefaultAdderLevelsPerStage; lv < depth; lv += plan.DefaultAdderLevelsPerStage {
		for first := 0; first < k; first += 1 << lv {
			n += 1 + clog2(min(k-first, 1<<lv))
		}
	}
	return n
}

// biasShift is the rvfl8 bias's alignment: its 5 low bits are zero (2^-10 → 2^-15).
const biasShift = 5

// cutNode is one node of an adder tree at a register cut.
type cutNode struct {
	loneLast      bool // the tree's last leaf alone (the rvfl8 bias)
	beforeLoneSum bool // the other operand of a two-operand sum with a lone last leaf
}

// cutNodes lists the nodes of a balanced adder tree of `leaves` operands
// that are registered at its cuts (levels 0 < lv < depth that are multiples
// of levelsPerStage).
func cutNodes(leaves, levelsPerStage int) []cutNode {
	depth := clog2(leaves)
	nodes := func(lv int) int { return (leaves + 1<<lv - 1) >> lv }
	var out []cutNode
	for lv := levelsPerStage; lv < depth; lv += levelsPerStage {
		next := min(lv+levelsPerStage, depth) // the level the next segment sums up to
		span := 1 << (next - lv)
		lone := leaves-(nodes(lv)-1)<<lv == 1 // the last node holds the last leaf alone
		for n := 0; n < nodes(lv); n++ {
			c := cutNode{loneLast: lone && n == nodes(lv)-1}
			// Operands of the next segment's sum that contains node n.
			first := n / span * span
			end := min(first+span, nodes(lv))
			c.beforeLoneSum = !c.loneLast && lone && end == nodes(lv) && end-first == 2
			out = append(out, c)
		}
	}
	return out
}

// SW is the width of s = K − 2·popcount (intrvfl).
func (st structure) SW() int { return st.PcW + 1 }

// argmaxRegBits counts the argmax tree's cut registers (a register after
// every plan.DefaultArgmaxLevelsPerStage levels): the L scores and valid, and
// per candidate node over n classes its score (AW) and the clog2(n) index
// bits that vary (the higher ones are constant); a class alone copies its
// score register and has a constant index, so Yosys merges or drops both.
func argmaxRegBits(d Design, st structure) int {
	n := 0
	for lv := 1; lv < st.ArgDepth; lv++ {
		if lv%plan.DefaultArgmaxLevelsPerStage != 0 {
			continue
		}
		n += d.L*st.AW + 1
		for first := 0; first < d.L; first += 1 << lv {
			if cnt := min(d.L-first, 1<<lv); cnt > 1 {
				n += st.AW + clog2(cnt)
			}
		}
	}
	return n
}

// Breakdown returns the estimated resources of design d block by block.
func Breakdown(d Design) ([]Component, error) {
	if err := d.Check(); err != nil {
		return nil, err
	}
	all, _ := componentsOf(d, newStructure(d))
	var comps []Component
	for i, c := range all {
		if i == cPreact && d.Arch != model.RVFL8 {
			continue
		}
		comps = append(comps, estimated(d.Arch, i, c))
	}
	return comps, nil
}

// estimated fills in block i's estimates from its raw counts.
func estimated(arch model.Arch, i int, c Component) Component {
	c.LUT, c.FF, c.Carry = c.RawLUT*lutFactor[arch][i], c.RawFF, c.RawCarry
	return c
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
	comps, hw := componentsOf(d, st)
	var lut, ff, carry float64
	for i := range comps {
		c := estimated(d.Arch, i, comps[i])
		lut += c.LUT
		ff += c.FF
		carry += c.Carry
	}
	r := Resources{LUTs: int(math.Round(lut)), FFs: int(math.Round(ff)), CARRY4: int(math.Round(carry)),
		DSP48E1: hw.dsp, LUTRAM: hw.srl, Source: "analytic"}
	r.MUXF = int(math.Round(muxfPerLUT[d.Arch] * lut))
	for _, m := range hw.rom {
		r.BRAM36 += float64(m.RAMB36) + 0.5*float64(m.RAMB18)
	}
	return r
}
