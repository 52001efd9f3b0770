package sim

import (
	"fmt"
	"github.com/hdlgen/hdlgen/internal/registry"

	"github.com/hdlgen/hdlgen/model"
	"github.com/hdlgen/hdlgen/rtl/plan"
)

// Core is the immutable description of one design: the model's weights arranged
// as the emitted ROMs hold them, and the plan. It is safe for concurrent use; each
// Top or Axis it creates is not.
type Core struct {
	m  *model.Model
	pl *plan.Plan

	k, n, l, p int
	hid        hiddenLayer // the network type's hidden arithmetic
	q          []int32     // readout, L×N
	maxIn      int         // largest input value: N (levels) or 255 (codes)
}

// hiddenLayer is one network type's hidden-layer arithmetic as its RTL
// computes it (intrvfl.go, rvfl8.go).
type hiddenLayer interface {
	// hidden returns the activation of neuron j = base+lane for the input
	// vector in; base is the group's first neuron.
	hidden(in []int, base, lane int) int
}

// hiddenLayers builds the simulator of each network type with RTL; each
// network's file adds its constructor from init.
var hiddenLayers = registry.New[func(m *model.Model, pl *plan.Plan) hiddenLayer]("sim: hidden layer")

// Archs returns the network types the simulator has a hidden layer of, in order.
func Archs() []model.Arch {
	var out []model.Arch
	for _, n := range hiddenLayers.Names() {
		out = append(out, model.Arch(n))
	}
	return out
}

// New prepares the simulator of m as laid out by pl (which must be plan.New(m, …)).
func New(m *model.Model, pl *plan.Plan) (*Core, error) {
	if m == nil || pl == nil || m.Net == nil {
		return nil, fmt.Errorf("sim: nil model or plan")
	}
	if m.Arch() != pl.Arch || m.K() != pl.K || m.N() != pl.N || m.L() != pl.L || m.Readout == nil {
		return nil, fmt.Errorf("sim: plan (%s K=%d N=%d L=%d) does not match model %s", pl.Arch, pl.K, pl.N, pl.L, m)
	}
	build, ok := hiddenLayers.Get(string(pl.Arch))
	if !ok || pl.Layer() == nil {
		return nil, fmt.Errorf("sim: architecture %q has no RTL", pl.Arch)
	}
	return &Core{m: m, pl: pl, k: pl.K, n: pl.N, l: pl.L, p: pl.P, q: m.Readout.Q,
		hid: build(m, pl), maxIn: pl.Layer().MaxInput(pl)}, nil
}

// Plan returns the plan the simulator follows.
func (c *Core) Plan() *plan.Plan { return c.pl }

// MaxInput is the largest valid input element: N for levels, 255 for codes.
func (c *Core) MaxInput() int { return c.maxIn }

// CheckInput reports whether in is one valid input vector.
func (c *Core) CheckInput(in []int) error {
	if len(in) != c.k {
		return fmt.Errorf("sim: input of %d elements, want K=%d", len(in), c.k)
	}
	for i, v := range in {
		if v < 0 || v > c.maxIn {
			return fmt.Errorf("sim: input element %d is %d, outside [0, %d]", i, v, c.maxIn)
		}
	}
	return nil
}

// groupInto writes the contribution of group (base = g·P) of vector in to the L
// scores into dst: Σ over lanes p with base+p < N of Q[l][base+p]·h.
func (c *Core) groupInto(dst []int64, in []int, base int) {
	clear(dst)
	for lane := 0; lane < c.p && base+lane < c.n; lane++ {
		h := int64(c.hid.hidden(in, base, lane))
		if h == 0 {
			continue
		}
		j := base + lane
		for l := range dst {
			dst[l] += int64(c.q[l*c.n+j]) * h
		}
	}
}

// Scores computes the exact scores of one input vector without timing (the value
// the pipeline produces), for checks.
func (c *Core) Scores(in []int) []int64 {
	y := make([]int64, c.l)
	tmp := make([]int64, c.l)
	for base := 0; base < c.n; base += c.p {
		c.groupInto(tmp, in, base)
		for l := range y {
			y[l] += tmp[l]
		}
	}
	return y
}

// argmax returns the index of the largest score, ties to the lowest index, by the
// same tree as hdlgen_argmax (which gives the same answer as a linear scan).
func argmax(y []int64) int {
	best := 0
	for l := 1; l < len(y); l++ {
		if y[l] > y[best] {
			best = l
		}
	}
	return best
}

// NewFromModel plans m with options o (plan.New) and returns its simulator.
func NewFromModel(m *model.Model, o plan.Options) (*Core, error) {
	pl, err := plan.New(m, o)
	if err != nil {
		return nil, fmt.Errorf("sim: %w", err)
	}
	return New(m, pl)
}

// Input converts one raw data row (K feature values, before normalisation) into
// what the hardware receives: intrvfl levels or rvfl8 8-bit codes.
func (c *Core) Input(raw []float64) ([]int, error) {
	if len(raw) != c.k {
		return nil, fmt.Errorf("sim: row of %d values, the model has K=%d features", len(raw), c.k)
	}
	return c.m.Inputs(raw), nil
}
