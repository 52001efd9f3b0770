package sim

import (
	"fmt"
	"math/bits"

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
	kappa      int      // clip bound κ'
	words      int      // intrvfl: 64-bit words per neuron's sign row
	signs      []uint64 // intrvfl: N×words
	win        []int8   // rvfl8: N×K
	bias       []int8   // rvfl8: N
	lut        []uint8  // rvfl8: 256
	q          []int32  // readout, L×N
	maxIn      int      // largest input value: N (levels) or 255 (codes)
}

// New prepares the simulator of m as laid out by pl (which must be plan.New(m, …)).
func New(m *model.Model, pl *plan.Plan) (*Core, error) {
	if m == nil || pl == nil {
		return nil, fmt.Errorf("sim: nil model or plan")
	}
	if m.Arch != pl.Arch || m.K() != pl.K || m.N() != pl.N || m.L() != pl.L || m.Readout == nil {
		return nil, fmt.Errorf("sim: plan (%s K=%d N=%d L=%d) does not match model %s", pl.Arch, pl.K, pl.N, pl.L, m)
	}
	c := &Core{m: m, pl: pl, k: pl.K, n: pl.N, l: pl.L, p: pl.P, q: m.Readout.Q}
	switch pl.Arch {
	case model.IntRVFL:
		c.kappa = pl.ClipBound
		c.words = (c.k + 63) / 64
		c.signs = make([]uint64, 0, c.n*c.words)
		for j := 0; j < c.n; j++ {
			c.signs = append(c.signs, m.Int.Signs.Row(j)...)
		}
		c.maxIn = c.n
	case model.RVFL8:
		c.win, c.bias, c.lut = m.Fixed.Win, m.Fixed.Bias, m.Fixed.LUT
		c.maxIn = 255
	default:
		return nil, fmt.Errorf("sim: architecture %q has no RTL", pl.Arch)
	}
	return c, nil
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

// hidden returns the activation of neuron j = base+lane for the vector in, with
// the RTL's arithmetic; base is the group's first neuron.
func (c *Core) hidden(in []int, base, lane int) int {
	j := base + lane
	if c.signs != nil {
		row := c.signs[j*c.words : (j+1)*c.words]
		count := 0
		for w := range row {
			var thermo uint64
			lo := w * 64
			hi := min(lo+64, c.k)
			for i := lo; i < hi; i++ {
				// hdlgen_intrvfl_lane: (d_i > p) with d_i = v_i − base.
				if in[i]-base > lane {
					thermo |= 1 << (i - lo)
				}
			}
			count += bits.OnesCount64(thermo ^ row[w])
		}
		s := c.k - 2*count
		return min(max(s, -c.kappa), c.kappa)
	}
	// hdlgen_rvfl8_lane.
	z := int32(c.bias[j]) << model.BiasShift
	w := c.win[j*c.k : (j+1)*c.k]
	for i, a := range in {
		z += int32(a) * int32(w[i])
	}
	t := min(max(z>>model.LUTAddrShift, -128), 127)
	return int(c.lut[t+128])
}

// groupInto writes the contribution of group (base = g·P) of vector in to the L
// scores into dst: Σ over lanes p with base+p < N of Q[l][base+p]·h.
func (c *Core) groupInto(dst []int64, in []int, base int) {
	clear(dst)
	for lane := 0; lane < c.p && base+lane < c.n; lane++ {
		h := int64(c.hidden(in, base, lane))
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
	if c.m.Int != nil {
		return c.m.Levels(raw), nil
	}
	in := make([]int, c.k)
	for i, a := range c.m.InputCodes(raw) {
		in[i] = int(a)
	}
	return in, nil
}
