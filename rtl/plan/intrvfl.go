package plan

import (
	"fmt"
	"math/bits"

	"github.com/hdlgen/hdlgen/model"
)

// intrvflLayer is the intRVFL's hidden layer: levels in, per lane a
// thermometer comparison and XOR per feature, a popcount tree and a clip.
type intrvflLayer struct{}

func init() { register(intrvflLayer{}) }

func (intrvflLayer) Arch() model.Arch { return model.IntRVFL }

func (intrvflLayer) MaxInput(pl *Plan) int { return pl.N }

func (intrvflLayer) InputScale(pl *Plan) int { return pl.N }

func (intrvflLayer) EncodeRule() string { return "§3: v = floor(x'·N + 0.5)" }

func (intrvflLayer) ArchCode() int { return 1 }

func (intrvflLayer) Primitives(pl *Plan) []Primitive {
	p := []Primitive{Same("hdlgen_level_offset.v"), Same("hdlgen_intrvfl_hidden.v")}
	if pl.WinGenerator != model.WinStored {
		p = append(p, Same("hdlgen_win_lfsr.v"))
	}
	return p
}

func (intrvflLayer) CoreTemplate() string { return "core_intrvfl.v.tmpl" }

func (intrvflLayer) GroupBase() bool { return true }

func (intrvflLayer) WinLane(pl *Plan, net model.Network, j, lane int, set func(lsb, width int, v int64)) {
	signs := net.(*model.IntNet).Signs
	for i := 0; i < pl.K; i++ {
		if signs.Negative(j, i) {
			set(i*pl.P+lane, 1, 1) // feature-major: the hidden layer is bit-sliced
		}
	}
}

func (intrvflLayer) ExtraROMWords(*Plan, model.Network) map[string][]int64 { return nil }

func (intrvflLayer) derive(pl *Plan, net model.Network) Tree {
	k := pl.K
	in := net.(*model.IntNet)
	pl.Kappa = in.Kappa
	if in.Gen == model.WinPRBS31 {
		// The generator's window: lane p of group g needs x_{gP+p+i} for
		// i < K, so P+K−1 bits, and the recurrence reaches 31 bits back.
		pl.WinGenerator, pl.WinPRBSSeed = in.Gen, in.PRBSSeed
		pl.WinWindow = max(model.PRBSLen, k+pl.P-1)
		pl.WinSeedWindow = prbsHex(in.PRBSSeed, pl.WinWindow)
	}
	return pl.setWidths(intrvflLayer{}.widths(pl.dims()))
}

func (intrvflLayer) widths(d Dims) Widths {
	w := Widths{ClipBound: min(d.Kappa, d.K), LW: bits.Len(uint(d.N)), PcW: bits.Len(uint(d.K)), Leaves: d.K, WinW: d.P * d.K}
	w.DW = w.LW + 1
	w.SW = w.PcW + 1
	w.HW = bits.Len(uint(w.ClipBound)) + 1
	w.ScoreBound = int64(d.N) * int64(d.Kappa) * int64(d.ReadoutBound)
	return w
}

func (intrvflLayer) stages(pl *Plan) []Stage {
	a := "W_in ROM word (P·K sign bits) and per feature the level flags (P a power of two) or d_i = v_i − g·P"
	if pl.WinGenerator != model.WinStored {
		a = "W_in generator window (P·K sign bits) and per feature the level flags (P a power of two) or d_i = v_i − g·P"
	}
	return []Stage{
		{stageA, 1, a},
		{stageHiddenTree, pl.HiddenTree.Stages, fmt.Sprintf("popcount tree registers (depth %d, a register every %d levels)", pl.HiddenTree.Depth, pl.AdderLevelsPerStage)},
		{stageHidden, 1, "h = clip(K − 2·popcount((g·P+p < v_i) XOR sign), ±κ) per lane; readout ROM word"},
	}
}

func (l intrvflLayer) winROM(pl *Plan) (int, string) {
	return l.widths(pl.dims()).WinW, "W_in sign bits, feature-major: word g, bit i·P+p is 1 when W_in[g·P+p][i] = −1"
}

func (intrvflLayer) extraROMs(*Plan) []ROM { return nil }

func (intrvflLayer) registers(pl *Plan, tag int, r *Resources) int {
	regs := 0
	if s := Clog2(pl.P); pl.P == 1<<s {
		// hdlgen_level_offset's flags: ge_i, full_i and, for P > 1, part_i and
		// r_i (S bits); the comparisons are K equalities q_i == g. (The issue
		// stage's group base is unused and removed by synthesis.)
		regs += 2 * pl.K
		if s > 0 {
			regs += pl.K * (1 + s)
		}
		r.Comparators = pl.K
	} else {
		regs += pl.LW        // group base
		regs += pl.K * pl.DW // d_i
		r.Comparators = pl.P * pl.K
	}
	regs += 1 + tag // stage A valid + tag
	if pl.WinGenerator != model.WinStored {
		regs += pl.WinWindow // the generator's window register
		r.GeneratorXORs = pl.P
	} else {
		regs += pl.ROM(ROMWin).Width // W_in ROM read register
	}
	r.PopcountInputs = pl.P * pl.K
	regs += pl.HiddenTree.Stages * (1 + tag) // tag alongside the tree
	regs += pl.P * pl.treeRegBits(pl.HiddenTree.Leaves, pl.PcW, pl.HiddenTree.Depth)
	return regs
}

func (intrvflLayer) hiddenRegW(pl *Plan) int { return pl.HW }

// prbsHex renders x_0 … x_{m−1} of seed's PRBS31 sequence as ⌈m/4⌉ hex
// digits, most significant first (bit t is x_t), for a Verilog literal.
func prbsHex(seed uint32, m int) string {
	bits := model.PRBSBits(seed, m)
	digits := (m + 3) / 4
	out := make([]byte, digits)
	for d := 0; d < digits; d++ {
		v := model.PRBSWindow(bits, 4*d, min(4, m-4*d))
		out[digits-1-d] = "0123456789abcdef"[v]
	}
	return string(out)
}
