package power

import (
	"math"

	"github.com/hdlgen/hdlgen/model"
)

// The analytic resource model: each block of the micro-architecture (rtl/plan,
// rtl/templates) has structural counts derived here from the design's widths
// and pipeline (section 6 of docs/energy-model.md):
//
//   - FF: the register bits Yosys keeps, block by block, including what it
//     merges or moves elsewhere (equal ROM columns, DSP48E1 input and
//     accumulator registers, constant bits): a count, not fitted;
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

// The calibrated LUT mapping factors (network.lutFactors, one table per
// network type in intrvfl.go and rvfl8.go): LUT6 sites per unit of the
// block's raw LUT count. Fitted by hwstudy.FitLUTFactors to Yosys 0.23 on
// hwstudy.CalibrationMatrix (seed 1 of each shape): the factors ≥ 0 that
// minimise the largest relative LUT error plus a weak pull (μ = 0.01 per unit
// of |f − 1|) towards 1, the structural count itself; hwstudy's
// TestLUTFactorsAreTheFit refits the committed calibration and compares.
// Blocks whose raw counts scale alike over the matrix (e.g. the rvfl8 per-lane
// sigmoid ROM and pre-activation adders, both ∝ P; the rvfl8 accumulators and
// argmax, both ∝ L·AW) cannot be told apart, so their individual factors mean
// little; their sum is what is calibrated. Tolerances reached:
// docs/energy-model.md.

// LUTFactors returns the calibrated LUT factor of every block of arch's
// model by block name (Component.Name); nil for an architecture without RTL.
func LUTFactors(arch model.Arch) map[string]float64 {
	n := netOf(arch)
	if n == nil {
		return nil
	}
	out := map[string]float64{}
	for i, name := range compNames {
		if i == cPreact && !n.hasPreact() {
			continue
		}
		out[name] = n.lutFactors()[i]
	}
	return out
}

// LUTGroupAlpha returns α of arch's LUTGroupScale (0 for an architecture
// without RTL).
func LUTGroupAlpha(arch model.Arch) float64 {
	if n := netOf(arch); n != nil {
		return n.lutGroupAlpha()
	}
	return 0
}

// dspMinProductW is the product width from which Yosys maps a multiplier to a
// DSP48E1 (synth_xilinx's mul2dsp: -D DSP_Y_MINWIDTH=9, both operands ≥ 2 bits).
const dspMinProductW = 9

// macInDSP reports whether the readout products go to DSP48E1s.
func macInDSP(st structure) bool { return st.QW+st.HW >= dspMinProductW && st.QW >= 2 && st.HW >= 2 }

func ceilDiv(a, b int) int { return (a + b - 1) / b }

// componentsOf returns the blocks of design d with their raw counts: register
// bits and carry chains as Yosys keeps them (the FF and CARRY4 estimates), and
// the structural LUT counts that the LUT factors scale.
func componentsOf(d Design, st structure) (comps [nComp]Component, hw *hardCounts) {
	hw = &hardCounts{}
	tag := 2 + st.GroupW
	add := func(c int, lut, ff float64, carry int) {
		comps[c] = Component{Name: compNames[c], RawLUT: lut, RawFF: ff, RawCarry: float64(carry)}
	}
	P, L := float64(d.P()), float64(d.L)
	mac := macInDSP(st)
	ra := d.adderLevels()

	// ROMs (rom.go): a logic ROM costs LUT sites per distinct non-constant
	// column (Yosys merges equal columns, which are frequent when the ROM has
	// few words) and keeps its read register in the fabric (one FF per
	// distinct column); a block-RAM ROM keeps the register inside the RAM.
	rom := &hw.rom
	if d.Win == model.WinStored {
		winW := st.WinW
		if f, ok := d.net().(interface{ liveWinW(Design, structure) int }); ok {
			winW = f.liveWinW(d, st) // the columns that are not constant zero (the intconj's)
		}
		rom[0] = mapROM(st.G, winW, d.BlockROMs())
	} // else no W_in ROM: the generator is counted in the front (intrvfl.go)
	rom[1] = mapROM(st.G, st.WoutW, d.BlockROMs())
	if !rom[1].BRAM && st.QWEff < st.QW {
		// Only QWEff of each code's QW bit columns differ (the rest copy the sign).
		eff := mapROM(st.G, d.P()*d.L*st.QWEff, false)
		if !eff.BRAM {
			rom[1].LUTs, rom[1].Columns = eff.LUTs, eff.Columns
		}
	}
	var romLUT, romFF float64
	for _, m := range rom {
		romLUT += m.LUTs
		romFF += m.Columns
	}
	hb := d.net().blocks(d, st, tag, hw)
	add(cROM, romLUT, romFF, 0)

	// Front: input register, busy, group counter (GroupW-bit incrementer),
	// stage-A valid, and the network's own part (hb.front). Without the input
	// register (HoldInput) the vector and the busy flag are gone.
	inputFF := float64(st.IW + 1)
	if d.HoldInput {
		inputFF = 0
	}
	add(cFront, float64(st.GroupW+2)+hb.front.RawLUT, inputFF+float64(st.GroupW+1)+hb.front.RawFF,
		carryChain(st.GroupW)+int(hb.front.RawCarry))
	add(cLanes, hb.lanes.RawLUT, hb.lanes.RawFF, int(hb.lanes.RawCarry))
	if hb.preact != nil {
		add(cPreact, hb.preact.RawLUT, hb.preact.RawFF, int(hb.preact.RawCarry))
	}

	// Readout products Q·h: LUT multipliers of QW×HW bits (≈ QW·HW/2 LUTs;
	// Yosys makes each a $macc of its partial products: one PW-bit carry
	// chain) and their product register, or DSP48E1s that take the product
	// register in. With RegisterSums the register holds the L lane sums of
	// TW bits instead, after the lane-sum tree (counted with the products).
	laneAdds := P - 1
	from := 0 // first lane-tree level in the fabric
	sumsFF := 0.0
	if d.RegisterSums {
		sumsFF = L * float64(st.TW)
	}
	if mac {
		hw.dsp += d.P() * d.L
		add(cMAC, 0, sumsFF, 0)
		// First-level adders become DSP post-adders, and so does the adder the
		// lone last product of an odd P first meets (productTreeSums).
		laneAdds = P - 1 - math.Floor(P/2)
		eachTreeSum(d.P(), ra, 1, func(s treeSum) {
			if s.loneLast && s.first {
				laneAdds--
			}
		})
		from = 1
	} else {
		// The product register keeps the declared PW bits even when the codes
		// use fewer (Yosys cannot see their range).
		productFF := P * L * float64(st.PW)
		if d.RegisterSums {
			productFF = sumsFF
		}
		if st.HW == 1 {
			// A 1-bit activation gates the weights (hdlgen_mac's g_gate, the
			// conj): the product register's synchronous reset, no LUT and no
			// carry chain.
			add(cMAC, 0, productFF, 0)
		} else {
			add(cMAC, P*L*float64(st.QWEff*st.HW)/2, productFF, d.P()*d.L*carryChain(st.PW))
		}
	}
	// Lane-sum trees: L trees of adders of TW bits in the fabric, cut registers
	// of the declared width TW, tags. Yosys turns each cut-to-cut segment of
	// an adder tree into multi-operand sums ($macc, eachTreeSum): a LUT
	// compressor tree and one final carry chain of the declared width TW each.
	// The LUT count uses the effective width: ABC maps narrower logic when
	// the readout ROM's high bit columns copy the sign.
	tw := st.TW
	if !mac {
		tw = st.TWEff // LUT products: narrower codes give narrower sums
	}
	laneTreeFF := L*float64(treeRegBits(d.P(), st.TW, st.LaneDepth, ra)) + float64(3*(1+st.LaneCut)) // and the tags (valid, first, last)
	add(cLaneTree, L*laneAdds*float64(tw), laneTreeFF, d.L*productTreeSums(d.P(), ra, from)*carryChain(st.TW))
	// Accumulators: L adders of AW bits (the first-group clear folds into
	// them), or, with DSP48E1 products and P = 1, the DSP48E1s' accumulators
	// (the product goes straight into acc + product).
	const accCtl = 1 // the done flag
	if mac && d.P() == 1 {
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
	rom [2]romMapping // W_in and readout ROMs: logic or block RAM
	// sigmoidRAMB18 is the rvfl8's sigmoid tables in block RAM (BlockROMs):
	// one true-dual-port RAMB18 per two lanes.
	sigmoidRAMB18 int
}

// popcountCutBits is the register bits of one lane's popcount-tree cuts
// (intrvfl): a node over n features counts to n and, built from ripple-carry
// planes whose top planes are constant zero, keeps 1 + ⌈log2 n⌉ of its PcW
// planes.
func popcountCutBits(k, ra int) int {
	depth := clog2(k)
	n := 0
	for lv := ra; lv < depth; lv += ra {
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
// every d.argmaxLevels() levels): the L scores and valid, and
// per candidate node over n classes its score (AW) and the clog2(n) index
// bits that vary (the higher ones are constant); a class alone copies its
// score register and has a constant index, so Yosys merges or drops both.
func argmaxRegBits(d Design, st structure) int {
	n := 0
	for lv := 1; lv < st.ArgDepth; lv++ {
		if lv%d.argmaxLevels() != 0 {
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
		if i == cPreact && !d.net().hasPreact() {
			continue
		}
		comps = append(comps, estimated(d, i, c))
	}
	return comps, nil
}

// estimated fills in block i's estimates from its raw counts.
func estimated(d Design, i int, c Component) Component {
	n := d.net()
	c.LUT, c.FF, c.Carry = c.RawLUT*n.lutFactors()[i]*lutGroupScale(n, d.N, d.P()), c.RawFF, c.RawCarry
	return c
}

// FewGroupsLog2: below G = 2^FewGroupsLog2 = 8 groups (G = ⌈N/P⌉) the LUT
// counts shrink (LUTGroupScale).
const FewGroupsLog2 = 3

// LUTGroupScale is the factor on every block's LUT count of a design of arch
// with N neurons at parallelism P: 1 / (1 + α·max(0, 3 − log2 G)), G = ⌈N/P⌉,
// with α the network's lutGroupAlpha. With few groups the readout and W_in
// ROMs hold few words, so the readout products are products by nearly
// constant codes and the W_in signs nearly constant, which ABC simplifies
// far below the structural counts of a general multiplier, adder tree and
// XOR (measured: the intRVFL at K = 4, N = P = 128, 5,271 LUTs
// by Yosys against 9,694 by the counts alone; results/hardware/calibration.md,
// section range). α is fitted with the LUT factors (hwstudy.FitLUTFactors).
func LUTGroupScale(arch model.Arch, n, p int) float64 {
	nw := netOf(arch)
	if nw == nil || p < 1 {
		return 1
	}
	return lutGroupScale(nw, n, p)
}

// lutGroupScale is LUTGroupScale for network nw (p ≥ 1). At G ≥ 8 groups
// the factor is 1 without a logarithm (the sizer's table evaluates it for
// every N and P).
func lutGroupScale(nw network, n, p int) float64 {
	g := (n + p - 1) / p
	if g >= 1<<FewGroupsLog2 {
		return 1
	}
	return 1 / (1 + nw.lutGroupAlpha()*math.Max(0, FewGroupsLog2-math.Log2(float64(g))))
}

// Analytic returns the resources of design d predicted by the analytic model.
func Analytic(d Design) (Resources, error) {
	if err := d.Check(); err != nil {
		return Resources{}, err
	}
	return analytic(d), nil
}

func analytic(d Design) Resources { return analyticOf(d, newStructure(d)) }

// analyticOf is analytic with d's structure st already built.
func analyticOf(d Design, st structure) Resources {
	comps, hw := componentsOf(d, st)
	var lut, ff, carry float64
	nw := d.net()
	factors, scale := nw.lutFactors(), lutGroupScale(nw, d.N, d.P())
	for i, c := range comps {
		lut += c.RawLUT * factors[i] * scale // as estimated computes it
		ff += c.RawFF
		carry += c.RawCarry
	}
	r := Resources{LUTs: int(math.Round(lut)), FFs: int(math.Round(ff)), CARRY4: int(math.Round(carry)),
		DSP48E1: hw.dsp, Source: "analytic"}
	r.MUXF = int(math.Round(d.net().muxfPerLUT() * lut))
	for _, m := range hw.rom {
		r.BRAM36 += float64(m.RAMB36) + 0.5*float64(m.RAMB18)
	}
	r.BRAM36 += 0.5 * float64(hw.sigmoidRAMB18)
	return r
}
