package plan

import (
	"fmt"

	"github.com/hdlgen/hdlgen/model"
)

// Dims are what a hidden layer's widths depend on, without its weights: the
// emitter's plan (New) and the power model's designs, which have no model,
// derive the widths from them by one rule, the layer's.
type Dims struct {
	K, N, P int
	// Kappa is κ, for a network type with κ (model.Traits.Kappa).
	Kappa int
	// ReadoutBound bounds the readout's integer codes (2^(bits−1) − 1).
	ReadoutBound int
}

// Widths are a hidden layer's widths in bits and its bounds
// (docs/rtl-interface.md's names); a field a network type does not use is 0.
type Widths struct {
	// ClipBound is min(κ, K), the bound of the intRVFL's activations.
	ClipBound int
	// LW is the input level width, DW the level-offset width, PcW the
	// popcount width, SW the pre-clip sum width, HW the signed activation
	// operand width and ZW the rvfl8's pre-activation width.
	LW, DW, PcW, SW, HW, ZW int
	// Leaves are the hidden reduction tree's leaves per lane.
	Leaves int
	// WinW is the W_in ROM's word width.
	WinW int
	// ScoreBound bounds |score| of every class.
	ScoreBound int64
}

// HiddenWidths returns the widths of network type arch's hidden layer with
// dimensions d: the rule the emitter's plan uses.
func HiddenWidths(arch model.Arch, d Dims) (Widths, error) {
	l := LayerOf(arch)
	if l == nil {
		return Widths{}, fmt.Errorf("plan: network type %q has no RTL (want %s)", arch, Alternatives())
	}
	return l.widths(d), nil
}

// dims are the plan's dimensions, for its layer's widths.
func (pl *Plan) dims() Dims {
	return Dims{K: pl.K, N: pl.N, P: pl.P, Kappa: pl.Kappa, ReadoutBound: pl.ReadoutBound}
}

// setWidths sets the plan's hidden-layer widths and score bound from w and
// returns the hidden reduction tree (without its stages).
func (pl *Plan) setWidths(w Widths) Tree {
	pl.ClipBound, pl.LW, pl.DW, pl.PcW, pl.SW, pl.HW, pl.ZW = w.ClipBound, w.LW, w.DW, w.PcW, w.SW, w.HW, w.ZW
	pl.ScoreBound = w.ScoreBound
	return Tree{Leaves: w.Leaves, Depth: Clog2(w.Leaves), Copies: pl.P}
}
