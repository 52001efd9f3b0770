package plan

import (
	"fmt"

	"github.com/hdlgen/hdlgen/model"
)

// IntConjPlan is the mixed network's layout (docs/semantics.md §3d). The
// design's N hidden units are both kinds, j < N1 the intRVFL's neurons and
// j ≥ N1 the conjunctions, issued as one sequence of G = ⌈N/P⌉ groups. Every
// lane computes both a neuron (hdlgen_intrvfl_hidden) and a unit
// (hdlgen_conj_hidden) from one W_in ROM word that holds the neuron's signs,
// the unit's terms and a flag per lane; the flag picks the lane's value at
// stage H. The conjunctions test the levels, so their codes and thresholds
// are LW bits.
type IntConjPlan struct {
	N1       int `json:"n1"`        // intRVFL neurons (levels in [0, N1])
	N2       int `json:"n2"`        // conjunctions, the last the constant unit
	Depth    int `json:"depth"`     // terms per unit (model.IntConjDepth)
	FeatureW int `json:"feature_w"` // a term's feature index, max(1, clog2(K))
	TermW    int `json:"term_w"`    // a term in the ROM word: FeatureW + LW + 1
	// PreH is the register stages between stage A and H: the popcount
	// tree's cuts, or the conjunctions' select register when the tree has
	// none, max(1, cuts). The shorter kind's values wait in a delay line.
	PreH int `json:"pre_h"`
}

// intconjLayer is the mixed network: the intRVFL's lanes and the
// conjunctions' lanes side by side over one level input.
type intconjLayer struct{ intrvflLayer }

func init() { register(intconjLayer{}) }

func (intconjLayer) Arch() model.Arch { return model.IntConj }

// MaxInput is N1: the levels are the neurons'.
func (intconjLayer) MaxInput(pl *Plan) int { return pl.IntConj.N1 }

func (intconjLayer) InputScale(pl *Plan) int { return pl.IntConj.N1 }

func (intconjLayer) EncodeRule() string { return "§3d: v = floor(x'·N1 + 0.5)" }

func (intconjLayer) ArchCode() int { return 6 }

func (intconjLayer) Primitives(*Plan) []Primitive {
	return []Primitive{Same("hdlgen_level_offset.v"), Same("hdlgen_intrvfl_hidden.v"), Same("hdlgen_conj_hidden.v")}
}

func (intconjLayer) CoreTemplate() string { return "core_intconj.v.tmpl" }

// IntConjTermW is the width of one conjunction term in the intconj's ROM
// word for K features and LW-bit levels.
func IntConjTermW(k, lw int) int { return ConjFeatureW(k) + lw + 1 }

// WinLane writes lane `lane` of unit j: for a neuron (j < N1) its K sign
// bits at i·P + lane; for a conjunction (j ≥ N1) its D terms from bit P·K,
// term d at (lane·D + d)·TermW (feature index, threshold, polarity), and its
// flag at P·K + P·D·TermW + lane. A neuron's terms are zero: a ≥ 0, which
// holds, and its flag 0 keeps the neuron's value.
func (l intconjLayer) WinLane(pl *Plan, net model.Network, j, lane int, set func(lsb, width int, v int64)) {
	n := net.(*model.IntConjNet)
	d := pl.IntConj
	if j < d.N1 {
		l.intrvflLayer.WinLane(pl, n.L1, j, lane, set)
		return
	}
	c, u := n.Units, j-d.N1
	terms := pl.P * pl.K
	for t := 0; t < d.Depth; t++ {
		i := u*d.Depth + t
		base := terms + (lane*d.Depth+t)*d.TermW
		set(base, d.FeatureW, int64(c.Feature[i]))
		set(base+d.FeatureW, pl.LW, int64(c.Threshold[i]))
		if c.Negate[i] {
			set(base+d.FeatureW+pl.LW, 1, 1)
		}
	}
	set(terms+pl.P*d.Depth*d.TermW+lane, 1, 1)
}

func (l intconjLayer) derive(pl *Plan, net model.Network) Tree {
	in := net.(*model.IntConjNet)
	tree := l.intrvflLayer.derive(pl, in.L1) // κ, κ', PcW, SW, HW; LW and the bound from the plan's N
	d := &IntConjPlan{N1: in.N1(), N2: in.Units.N, Depth: in.Units.Depth, FeatureW: ConjFeatureW(pl.K)}
	d.TermW = IntConjTermW(pl.K, pl.LW)
	d.PreH = IntConjPreH(Cuts(tree.Depth, pl.AdderLevelsPerStage))
	pl.IntConj = d
	return tree
}

// IntConjPreH is the register stages between A and H for a popcount tree
// with cuts internal registers: the conjunctions' select register needs one
// (the rule of the plan and of the power model).
func IntConjPreH(cuts int) int { return max(1, cuts) }

// widths are the intRVFL's (LW holds N, as the group base reaches N − 1,
// and the bound N·κ·B holds the units' 0/1 too), with the W_in word that
// also holds the terms and flags (model.IntConjDepth terms per unit).
func (intconjLayer) widths(d Dims) Widths {
	w := intrvflLayer{}.widths(d)
	w.WinW = d.P*d.K + d.P*model.IntConjDepth*IntConjTermW(d.K, w.LW) + d.P
	return w
}

func (l intconjLayer) stages(pl *Plan) []Stage {
	d := pl.IntConj
	return []Stage{
		{stageA, 1, "W_in ROM word (P·K sign bits, P·D terms, P flags), per feature the level flags (P a power of two) or d_i = v_i − g·P, and a copy of the levels"},
		{stageHiddenTree, d.PreH, fmt.Sprintf("popcount tree registers (depth %d, a register every %d levels: %d) beside the conjunctions' select register and their delay; at least 1",
			pl.HiddenTree.Depth, pl.AdderLevelsPerStage, pl.HiddenTree.Stages)},
		{stageHidden, 1, "per lane h = flag ? unit (AND over D terms of (v_f ≥ t) XOR negate) : clip(K − 2·popcount((g·P+p < v_i) XOR sign), ±κ'); readout ROM word"},
	}
}

func (l intconjLayer) winROM(pl *Plan) (int, string) {
	d := pl.IntConj
	fw := d.FeatureW
	return l.widths(pl.dims()).WinW, fmt.Sprintf("word g: bit i·P+p is 1 when W_in[g·P+p][i] = −1 (neurons, g·P+p < N1); from bit P·K, bits (p·D+d)·%d +: %d hold unit g·P+p−N1's term d: feature index [%d:0], threshold [%d:%d], negate [%d]; bit P·K+P·D·%d+p is 1 when lane p is a unit",
		d.TermW, d.TermW, fw-1, fw+pl.LW-1, fw, fw+pl.LW, d.TermW)
}

func (l intconjLayer) registers(pl *Plan, tag int, r *Resources) int {
	d := pl.IntConj
	regs := l.intrvflLayer.registers(pl, tag, r)               // stage A's flags, tag, W_in read register, popcount cuts and their tags
	regs += pl.IW                                              // the stage-A copy of the levels (with the tag)
	regs += (d.PreH - pl.HiddenTree.Stages) * (1 + tag)        // the tag's extra stage when the tree has no cut
	regs += pl.P * d.Depth * (2*pl.LW + 1)                     // selected levels, thresholds, polarities
	regs += pl.P                                               // the units' register
	regs += (d.PreH - pl.HiddenTree.Stages) * (1 + pl.P*pl.HW) // the neurons' delay when the tree has no cut
	regs += (d.PreH - 1) * (1 + pl.P)                          // the units' delay
	regs += (d.PreH + 1) * (1 + pl.P)                          // the flags' delay
	return regs
}
