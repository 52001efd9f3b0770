package plan

import (
	"fmt"

	"github.com/hdlgen/hdlgen/model"
)

// Fixed-point constants of the rvfl8 datapath (docs/semantics.md §7).
const (
	// Rvfl8ProductMax is the largest |a·w| of an 8-bit input code a ∈ [0,255] and an
	// int8 weight w ∈ [−128,127]: 255·128.
	Rvfl8ProductMax = 255 * 128
	// Rvfl8BiasMax is the largest |c·2^5| of an int8 bias code c.
	Rvfl8BiasMax = 128 << model.BiasShift
	// Rvfl8ProductW is the signed width that holds every a·w (−32640…32385).
	Rvfl8ProductW = 16
	// Rvfl8HiddenMax is the largest hidden code (uint8).
	Rvfl8HiddenMax = 255
	// Rvfl8ReadoutMax is the readout bound the contract's AW uses (B = 127).
	Rvfl8ReadoutMax = 127
	// rvfl8CodeW is the width of input, weight, bias and hidden codes.
	rvfl8CodeW = 8
)

// rvfl8Layer is the 8-bit RVFL's hidden layer: 8-bit codes in, per lane K
// products and the bias summed by a pre-activation tree, then the sigmoid LUT.
type rvfl8Layer struct{}

func init() { register(rvfl8Layer{}) }

func (rvfl8Layer) Arch() model.Arch { return model.RVFL8 }

func (rvfl8Layer) MaxInput(*Plan) int { return 1<<rvfl8CodeW - 1 }

func (rvfl8Layer) InputScale(*Plan) int { return 1 << model.InputFracBits }

func (rvfl8Layer) EncodeRule() string { return "§7: a = min(255, floor(256·x' + 0.5))" }

func (rvfl8Layer) ArchCode() int { return 2 }

// Primitives: with --rom-style block, the variant whose sigmoid tables are in
// block RAM (their read is registered with the pipeline's enable already, so
// a RAMB18 — two lanes per RAM, one per port — does the same in the same cycle).
func (rvfl8Layer) Primitives(pl *Plan) []Primitive {
	if pl.BlockROMs() {
		return []Primitive{{"hdlgen_rvfl8_hidden.v", "hdlgen_rvfl8_hidden_block.v"}}
	}
	return []Primitive{Same("hdlgen_rvfl8_hidden.v")}
}

func (rvfl8Layer) CoreTemplate() string { return "core_rvfl8.v.tmpl" }

func (rvfl8Layer) GroupBase() bool { return false }

func (rvfl8Layer) WinLane(pl *Plan, net model.Network, j, lane int, set func(lsb, width int, v int64)) {
	q := net.(*model.FixedNet)
	k := pl.K
	base := lane * (k + 1) * rvfl8CodeW
	for i := 0; i < k; i++ {
		set(base+i*rvfl8CodeW, rvfl8CodeW, int64(q.Win[j*k+i]))
	}
	set(base+k*rvfl8CodeW, rvfl8CodeW, int64(q.Bias[j]))
}

func (rvfl8Layer) ExtraROMWords(_ *Plan, net model.Network) map[string][]int64 {
	lut := net.(*model.FixedNet).LUT
	w := make([]int64, len(lut))
	for a, v := range lut {
		w[a] = int64(v)
	}
	return map[string][]int64{ROMLUT: w}
}

func (l rvfl8Layer) derive(pl *Plan, _ model.Network) Tree { return pl.setWidths(l.widths(pl.dims())) }

func (rvfl8Layer) widths(d Dims) Widths {
	return Widths{
		LW:         rvfl8CodeW,
		ZW:         model.AccWidth(int64(d.K)*Rvfl8ProductMax + Rvfl8BiasMax),
		HW:         rvfl8CodeW + 1, // the uint8 hidden code, zero-extended to a signed operand
		Leaves:     d.K + 1,
		WinW:       d.P * (d.K + 1) * rvfl8CodeW,
		ScoreBound: int64(d.N) * Rvfl8HiddenMax * Rvfl8ReadoutMax,
	}
}

func (rvfl8Layer) stages(pl *Plan) []Stage {
	return []Stage{
		{stageA, 1, "W_in/bias ROM word (P·(K+1) bytes) and a copy of the input codes"},
		{stageProducts, 1, "P·K products a_i·w_ji (16 bits) and the bias leaves c_j·2^5"},
		{stageHiddenTree, pl.HiddenTree.Stages, fmt.Sprintf("pre-activation tree registers (depth %d, a register every %d levels)", pl.HiddenTree.Depth, pl.AdderLevelsPerStage)},
		{stageHidden, 1, "h = LUT[clamp(z >>> 11, −128, 127)] per lane (the LUT ROM's read register); readout ROM word"},
	}
}

func (l rvfl8Layer) winROM(pl *Plan) (int, string) {
	return l.widths(pl.dims()).WinW, "W_in and bias codes: word g, byte p·(K+1)+i is w[g·P+p][i] (i < K), byte p·(K+1)+K the bias"
}

func (rvfl8Layer) extraROMs(pl *Plan) []ROM {
	return []ROM{{Name: ROMLUT, File: pl.MemFile(ROMLUT), Depth: model.LUTSize, Width: rvfl8CodeW, AddrW: rvfl8CodeW,
		Instances: pl.P, Block: pl.BlockROMs(), Purpose: "sigmoid LUT: word t+128 = LUT[t] (one copy per lane)"}}
}

func (rvfl8Layer) registers(pl *Plan, tag int, r *Resources) int {
	regs := pl.IW + 1 + tag // stage A: input copy, valid, tag
	regs += pl.ROM(ROMWin).Width
	r.HiddenMults = pl.P * pl.K
	regs += 1 + tag                           // tag at the product register
	regs += pl.P * (pl.K + 1) * Rvfl8ProductW // product register
	regs += pl.HiddenTree.Stages * (1 + tag)  // tag alongside the tree
	regs += pl.P * pl.treeRegBits(pl.HiddenTree.Leaves, pl.ZW, pl.HiddenTree.Depth)
	return regs
}

func (rvfl8Layer) hiddenRegW(*Plan) int { return rvfl8CodeW }
