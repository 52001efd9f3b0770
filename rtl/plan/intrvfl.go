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

func (intrvflLayer) Primitives() []string {
	return []string{"hdlgen_level_offset.v", "hdlgen_intrvfl_hidden.v"}
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
	k, n := pl.K, pl.N
	pl.Kappa = net.(*model.IntNet).Kappa
	pl.ClipBound = min(pl.Kappa, k)
	pl.LW = bits.Len(uint(n))
	pl.DW = pl.LW + 1
	pl.PcW = bits.Len(uint(k))
	pl.SW = pl.PcW + 1
	pl.HW = bits.Len(uint(pl.ClipBound)) + 1
	pl.ScoreBound = int64(n) * int64(pl.Kappa) * int64(pl.ReadoutBound)
	return Tree{Leaves: k, Depth: Clog2(k), Copies: pl.P}
}

func (intrvflLayer) stages(pl *Plan) []Stage {
	return []Stage{
		{stageA, 1, "W_in ROM word (P·K sign bits) and d_i = v_i − g·P per feature"},
		{stageHiddenTree, pl.HiddenTree.Stages, fmt.Sprintf("popcount tree registers (depth %d, a register every %d levels)", pl.HiddenTree.Depth, pl.AdderLevelsPerStage)},
		{stageHidden, 1, "h = clip(K − 2·popcount((d_i > p) XOR sign), ±κ) per lane; readout ROM word"},
	}
}

func (intrvflLayer) winROM(pl *Plan) (int, string) {
	return pl.P * pl.K, "W_in sign bits, feature-major: word g, bit i·P+p is 1 when W_in[g·P+p][i] = −1"
}

func (intrvflLayer) extraROMs(*Plan) []ROM { return nil }

func (intrvflLayer) registers(pl *Plan, tag int, r *Resources) int {
	regs := pl.LW                // group base
	regs += pl.K * pl.DW         // d_i
	regs += 1 + tag              // stage A valid + tag
	regs += pl.ROM(ROMWin).Width // W_in ROM read register
	r.PopcountInputs = pl.P * pl.K
	r.Comparators = pl.P * pl.K
	regs += pl.HiddenTree.Stages * (1 + tag) // tag alongside the tree
	regs += pl.P * pl.treeRegBits(pl.HiddenTree.Leaves, pl.PcW, pl.HiddenTree.Depth)
	return regs
}

func (intrvflLayer) hiddenRegW(pl *Plan) int { return pl.HW }
