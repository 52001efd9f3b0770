package plan

import (
	"fmt"

	"github.com/hdlgen/hdlgen/model"
)

// Widths of the conjunction network's datapath (docs/semantics.md §3c).
const (
	// conjCodeW is the width of an input code and of a threshold.
	conjCodeW = 8
	// conjHiddenW is a unit's 0/1 value as the MAC's operand: one bit, which
	// hdlgen_mac takes as a gate (the product is Q or 0, no multiplier).
	conjHiddenW = 1
)

// conjLayer is the random-conjunction network's hidden layer: 8-bit codes
// in, per lane and term the code of the term's feature selected (a K:1
// multiplexer) and registered with its threshold and polarity, then the
// unit: the AND of the D tests (a ≥ t) XOR negate.
type conjLayer struct{}

func init() { register(conjLayer{}) }

func (conjLayer) Arch() model.Arch { return model.Conj }

func (conjLayer) MaxInput(*Plan) int { return model.ConjCodeMax }

func (conjLayer) InputScale(*Plan) int { return 1 << model.InputFracBits }

func (conjLayer) EncodeRule() string { return "§7: a = min(255, floor(256·x' + 0.5))" }

func (conjLayer) ArchCode() int { return 5 }

func (conjLayer) Primitives(*Plan) []Primitive { return []Primitive{Same("hdlgen_conj_hidden.v")} }

func (conjLayer) CoreTemplate() string { return "core_conj.v.tmpl" }

func (conjLayer) GroupBase() bool { return false }

// ConjFeatureW is the width of a term's feature index: max(1, clog2(K)).
func ConjFeatureW(k int) int { return max(1, Clog2(k)) }

// ConjTermW is the width of one term in the W_in ROM word: the feature
// index, the threshold and the polarity bit.
func ConjTermW(k int) int { return ConjFeatureW(k) + conjCodeW + 1 }

// WinLane writes unit j's D terms at lane `lane`: term d at bit
// (lane·D + d)·TermW, the feature index in its low FeatureW bits, then the
// threshold, then the polarity (1: negated).
func (conjLayer) WinLane(pl *Plan, net model.Network, j, lane int, set func(lsb, width int, v int64)) {
	c := net.(*model.ConjNet)
	fw, tw := ConjFeatureW(pl.K), ConjTermW(pl.K)
	for d := 0; d < c.Depth; d++ {
		i := j*c.Depth + d
		base := (lane*c.Depth + d) * tw
		set(base, fw, int64(c.Feature[i]))
		set(base+fw, conjCodeW, int64(c.Threshold[i]))
		if c.Negate[i] {
			set(base+fw+conjCodeW, 1, 1)
		}
	}
}

func (conjLayer) ExtraROMWords(*Plan, model.Network) map[string][]int64 { return nil }

func (l conjLayer) derive(pl *Plan, net model.Network) Tree {
	pl.Kappa = net.(*model.ConjNet).Depth
	return pl.setWidths(l.widths(pl.dims()))
}

// widths: Dims.Kappa is D. The hidden "tree" is the D-input AND of a unit's
// tests, which takes no adder and no register: one leaf.
func (conjLayer) widths(d Dims) Widths {
	return Widths{
		LW:         conjCodeW,
		HW:         conjHiddenW,
		Leaves:     1,
		WinW:       d.P * d.Kappa * ConjTermW(d.K),
		ScoreBound: int64(d.N) * int64(d.ReadoutBound), // |h| ≤ 1
	}
}

// Stage names of the conj.
const stageConjSelect = "conj_select"

func (conjLayer) stages(pl *Plan) []Stage {
	return []Stage{
		{stageA, 1, "W_in ROM word (P·D terms: feature index, threshold, polarity) and a copy of the input codes"},
		{stageConjSelect, 1, "per lane and term the selected code a_f (a K:1 multiplexer), its threshold and polarity"},
		{stageHidden, 1, "h = AND over the D terms of (a_f ≥ t) XOR negate, per lane; readout ROM word"},
	}
}

func (l conjLayer) winROM(pl *Plan) (int, string) {
	fw := ConjFeatureW(pl.K)
	return l.widths(pl.dims()).WinW, fmt.Sprintf("conjunction terms: word g, bits (p·D+d)·%d +: %d hold unit g·P+p's term d: feature index [%d:0], threshold [%d:%d], negate [%d]",
		ConjTermW(pl.K), ConjTermW(pl.K), fw-1, fw+conjCodeW-1, fw, fw+conjCodeW)
}

func (conjLayer) extraROMs(*Plan) []ROM { return nil }

func (conjLayer) registers(pl *Plan, tag int, _ *Resources) int {
	regs := pl.IW + 1 + tag                     // stage A: input copy, valid, tag
	regs += pl.ROM(ROMWin).Width                // W_in ROM read register
	regs += 1 + tag                             // tag at the select register
	regs += pl.P * pl.Kappa * (2*conjCodeW + 1) // selected codes, thresholds, polarities
	return regs
}

func (conjLayer) hiddenRegW(*Plan) int { return 1 }
