package plan

import (
	"fmt"
	"math/bits"

	"github.com/hdlgen/hdlgen/model"
)

// Int2Plan is the two-layer intRVFL's second layer in hardware
// (docs/semantics.md §3b). The design's N hidden neurons are both layers,
// j < N1 the first and j ≥ N1 the second, issued as one sequence of G =
// ⌈N/P⌉ groups; group Split holds the first second-layer lane (SplitLane).
// The first layer's clipped values are written into a register file of N1
// entries as they leave the first layer's stage; a second-layer group reads
// it one clock after the last first-layer group wrote it (and its own
// group's first-layer lanes straight from the stage, when it is group
// Split), so one register file serves every vector.
type Int2Plan struct {
	N1     int `json:"n1"`     // first-layer neurons (levels in [0, N1])
	N2     int `json:"n2"`     // second-layer neurons
	Kappa2 int `json:"kappa2"` // κ2 of the model
	// Clip2 is κ2' = min(κ2, N1·κ1'): |s2| ≤ N1·κ1'.
	Clip2     int  `json:"clip2"`
	HW1       int  `json:"hw1"`        // signed width of h1 (±κ1')
	S2W       int  `json:"s2w"`        // signed width of s2 (±N1·κ1')
	HW2       int  `json:"hw2"`        // signed width of h2 (±κ2')
	Split     int  `json:"split"`      // S = ⌊N1/P⌋, the first group with a second-layer lane
	SplitLane int  `json:"split_lane"` // N1 − S·P, that group's first second-layer lane
	Tree      Tree `json:"tree"`       // per lane the sum of N1 sign-flipped h1 values
	// The W2 generator (hdlgen_win_lfsr, N1 sign bits per lane): W2Seed is
	// the model's x_0 … x_30; the generator's window for group g ≥ S is
	// x_{g·P−N1} … x_{g·P−N1+W2Window−1}, and W2SeedWindow (hex, bit m is
	// x_{m−SplitLane}) is group S's, the sequence stepped back SplitLane bits.
	W2Seed       uint32 `json:"w2_prbs_seed"`
	W2Window     int    `json:"w2_window"` // max(31, N1+P−1)
	W2SeedWindow string `json:"w2_seed_window"`
}

// Stage names of the second layer.
const (
	stageHidden1    = "hidden1"
	stageLayer2Tree = "layer2_tree"
)

// intrvfl2Layer is the two-layer intRVFL: the intRVFL's first layer, then
// per lane a sign-flip adder tree over the N1 held first-layer values and a
// clip.
type intrvfl2Layer struct{ intrvflLayer }

func init() { register(intrvfl2Layer{}) }

func (intrvfl2Layer) Arch() model.Arch { return model.IntRVFL2 }

// MaxInput is N1: the levels are the first layer's.
func (intrvfl2Layer) MaxInput(pl *Plan) int { return pl.Int2.N1 }

func (intrvfl2Layer) InputScale(pl *Plan) int { return pl.Int2.N1 }

func (intrvfl2Layer) EncodeRule() string { return "§3b: v = floor(x'·N1 + 0.5)" }

func (intrvfl2Layer) ArchCode() int { return 4 }

func (intrvfl2Layer) Primitives(*Plan) []Primitive {
	return []Primitive{Same("hdlgen_level_offset.v"), Same("hdlgen_intrvfl_hidden.v"),
		Same("hdlgen_win_lfsr.v"), Same("hdlgen_intrvfl2_layer2.v")}
}

func (intrvfl2Layer) CoreTemplate() string { return "core_intrvfl2.v.tmpl" }

// WinLane writes the W_in signs of a first-layer neuron; second-layer lanes
// hold zeros (their W2 signs come from the generator).
func (l intrvfl2Layer) WinLane(pl *Plan, net model.Network, j, lane int, set func(lsb, width int, v int64)) {
	n := net.(*model.Int2Net)
	if j < n.N1() {
		l.intrvflLayer.WinLane(pl, n.L1, j, lane, set)
	}
}

func (l intrvfl2Layer) derive(pl *Plan, net model.Network) Tree {
	in := net.(*model.Int2Net)
	tree := l.intrvflLayer.derive(pl, in.L1) // κ, κ1', PcW, SW, and the first layer's tree over K
	n1, p := in.N1(), pl.P
	// Levels lie in [0, N1], but the issue stage's group base g·P reaches N−1:
	// the element width holds N.
	pl.LW = bits.Len(uint(pl.N))
	pl.DW = pl.LW + 1
	d := &Int2Plan{N1: n1, N2: in.N2, Kappa2: in.Kappa2, Clip2: in.Clip2(), W2Seed: in.W2Seed}
	d.HW1 = pl.HW
	d.S2W = bits.Len(uint(n1*pl.ClipBound)) + 1
	d.HW2 = bits.Len(uint(d.Clip2)) + 1
	d.Split, d.SplitLane = n1/p, n1-(n1/p)*p
	depth := Clog2(n1)
	d.Tree = Tree{Leaves: n1, Depth: depth, Stages: Cuts(depth, pl.AdderLevelsPerStage), Copies: p}
	d.W2Window = max(model.PRBSLen, n1+p-1)
	d.W2SeedWindow = prbsHexFrom(in.W2Seed, -d.SplitLane, d.W2Window)
	pl.Int2 = d
	pl.HW = max(d.HW1, d.HW2)
	pl.ScoreBound = int64(pl.N) * in.HiddenMax() * int64(pl.ReadoutBound)
	return tree
}

// widths are the intRVFL's over the K features, but for the activation
// width and the score bound, which hold the second layer's κ2' too (κ2 by
// the training rule, model.Int2Kappa2, and N1 by model.Int2Split: the rule
// of a design without a model; derive uses the model's own κ2).
func (intrvfl2Layer) widths(d Dims) Widths {
	w := intrvflLayer{}.widths(d)
	n1, _ := model.Int2Split(d.N)
	clip2 := min(model.Int2Kappa2(w.ClipBound, n1), n1*w.ClipBound)
	w.HW = max(w.HW, bits.Len(uint(clip2))+1)
	w.ScoreBound = int64(d.N) * int64(max(w.ClipBound, clip2)) * int64(d.ReadoutBound)
	return w
}

func (l intrvfl2Layer) stages(pl *Plan) []Stage {
	d := pl.Int2
	return []Stage{
		{stageA, 1, "W_in ROM word (P·K sign bits) and per feature the level flags (P a power of two) or d_i = v_i − g·P"},
		{stageHiddenTree, pl.HiddenTree.Stages, fmt.Sprintf("popcount tree registers (depth %d, a register every %d levels)", pl.HiddenTree.Depth, pl.AdderLevelsPerStage)},
		{stageHidden1, 1, "h1 = clip(K − 2·popcount((g·P+p < v_i) XOR sign), ±κ1') per lane, written to the N1-entry h1 register file; W2 generator window"},
		{stageLayer2Tree, d.Tree.Stages, fmt.Sprintf("second-layer adder tree registers (Σ ±h1 over N1, depth %d, a register every %d levels)", d.Tree.Depth, pl.AdderLevelsPerStage)},
		{stageHidden, 1, "h = first-layer lane ? h1 : clip(Σ_i W2[j−N1][i]·h1_i, ±κ2') per lane; readout ROM word"},
	}
}

func (intrvfl2Layer) winROM(pl *Plan) (int, string) {
	return pl.P * pl.K, "W_in sign bits, feature-major: word g, bit i·P+p is 1 when W_in[g·P+p][i] = −1 (g·P+p < N1; 0 for second-layer lanes)"
}

func (l intrvfl2Layer) registers(pl *Plan, tag int, r *Resources) int {
	d := pl.Int2
	regs := l.intrvflLayer.registers(pl, tag, r)
	regs += pl.P * d.HW1                                              // h1 register
	regs += 1 + tag                                                   // tag at the h1 register
	regs += d.N1 * d.HW1                                              // h1 register file
	regs += d.W2Window                                                // W2 generator window
	regs += d.Tree.Stages * (1 + tag)                                 // tags alongside the second-layer tree
	regs += d.Tree.Stages * (1 + pl.GroupW + pl.P*d.HW1)              // the layer-2 primitive's valid, group and h1 alongside
	regs += pl.P * pl.treeRegBits(d.Tree.Leaves, d.S2W, d.Tree.Depth) // second-layer tree cuts
	r.GeneratorXORs = pl.P
	r.Layer2Inputs = pl.P * d.N1
	return regs
}

// prbsHexFrom renders x_from … x_{from+m−1} of seed's PRBS31 sequence as
// ⌈m/4⌉ hex digits, most significant first (bit t is x_{from+t}); from may
// be negative: the sequence runs backwards by x_u = x_{u+31} XOR x_{u+3}
// (x_{u+31} = x_{u+3} XOR x_u).
func prbsHexFrom(seed uint32, from, m int) string {
	back := max(0, -from)
	fwd := model.PRBSBits(seed, m+model.PRBSLen+max(0, from))
	x := make([]byte, back+max(0, from)+m+model.PRBSLen) // x[back+t] = x_t
	for t := 0; back+t < len(x); t++ {
		x[back+t] = byte(model.PRBSWindow(fwd, t, 1))
	}
	for u := -1; u >= -back; u-- {
		x[back+u] = x[back+u+model.PRBSLen] ^ x[back+u+model.PRBSLen-model.PRBSTap]
	}
	digits := (m + 3) / 4
	out := make([]byte, digits)
	for dg := 0; dg < digits; dg++ {
		v := 0
		for b := 0; b < 4 && 4*dg+b < m; b++ {
			v |= int(x[back+from+4*dg+b]) << b
		}
		out[digits-1-dg] = "0123456789abcdef"[v]
	}
	return string(out)
}
