package model

import (
	"fmt"
	"math/bits"
	"math/rand/v2"
)

// Conj is the random-conjunction network (docs/semantics.md §3c): each
// hidden unit is the AND of D random threshold tests on the 8-bit input
// codes, a 0/1 value, and the readout is over the units. A random forest's
// leaf is such a conjunction with learned tests; here the tests are drawn
// (as ExtraTrees draws its thresholds) and only the readout is learned.
// The hidden layer needs no adder, clip or multiplier: per unit D code
// selections, D comparisons with constants and an AND.
const Conj Arch = "conj"

// Limits and constants of the conjunction network.
const (
	// ConjMaxDepth is the largest D, the terms per unit.
	ConjMaxDepth = 15
	// ConjReadoutBits is the conj's readout width: a 0/1 unit needs no
	// readout multiplier (the readout adds Q_j when unit j is on), and at
	// 5 bits the rounding breaks sparse units on small datasets
	// (results/family-check/README.md, "The readout width settles the
	// rounding").
	ConjReadoutBits = 8
	// conjStream is the PCG stream constant of the conjunctions' draws
	// ("hdlgen" + "cj").
	conjStream = 0x68646c67656e636a
)

// ConjDepths are the D a search tries (the conj's κ grid, Traits.KappaGrid):
// on the collection's screening D = 1 and 2 were chosen most, 3 and 4 on a
// few datasets (results/family-check/README.md).
var ConjDepths = []int{1, 2, 3, 4}

// ConjNet is the hidden layer of the random-conjunction network. Unit j's
// term d tests input code a_f (f = Feature[j·D+d]) against the threshold
// t = Threshold[j·D+d]: the term holds when (a_f ≥ t) differs from
// Negate[j·D+d]; h_j = 1 when all D terms hold, else 0. The last unit,
// j = N−1, is the constant unit: all its thresholds are 0 and none is
// negated, so h_{N−1} = 1 for every input and its readout column is a bias
// per class.
type ConjNet struct {
	K, N, Depth int
	Feature     []int  // N×D feature indices in [0, K)
	Threshold   []int  // N×D thresholds on the input codes, in [0, CodeMax]
	Negate      []bool // N×D polarities
	// CodeMax is the largest input code: ConjCodeMax (255) for the conj's
	// 8-bit codes, N1 for the intconj's units, which test the levels.
	CodeMax int
}

// NewConjNet draws a conjunction network of n units of depth terms for k
// features from seed: for each term a feature uniform over the K, a
// threshold uniform over the codes 1 … 255 (a test a ≥ t splits the codes
// at t; a uniform draw needs no data, as ExtraTrees draws a split uniformly
// over a feature's range) and a polarity; unit N−1 is the constant unit.
func NewConjNet(k, n, depth int, seed uint64) *ConjNet {
	if k <= 0 || n <= 0 || depth < 1 || depth > ConjMaxDepth {
		panic(fmt.Sprintf("model: conj with K=%d N=%d D=%d", k, n, depth))
	}
	c := newConjTerms(k, n, depth, ConjCodeMax)
	c.draw(seed, func(int) int { return depth })
	return c
}

// newConjTerms allocates a conjunction layer whose terms are all zero: every
// term holds (a ≥ 0), so every unit is constant 1 until drawn.
func newConjTerms(k, n, depth, codeMax int) *ConjNet {
	return &ConjNet{K: k, N: n, Depth: depth, CodeMax: codeMax,
		Feature: make([]int, n*depth), Threshold: make([]int, n*depth), Negate: make([]bool, n*depth)}
}

// draw fills the terms of units 0 … N−2 from seed: unit j's first terms(j)
// terms get a feature uniform over the K, a threshold uniform over the codes
// 1 … CodeMax and a polarity; its other terms stay a ≥ 0, which always
// holds. Unit N−1 stays the constant unit.
func (c *ConjNet) draw(seed uint64, terms func(j int) int) {
	src := rand.NewPCG(seed, conjStream)
	below := func(m uint64) uint64 { hi, _ := bits.Mul64(src.Uint64(), m); return hi }
	for j := 0; j < c.N-1; j++ {
		for d := 0; d < terms(j); d++ {
			i := j*c.Depth + d
			c.Feature[i] = int(below(uint64(c.K)))
			c.Threshold[i] = int(1 + below(uint64(c.CodeMax)))
			c.Negate[i] = src.Uint64()>>63 == 1
		}
	}
}

// ConjCodeMax is the largest input code (model.InputCode): 255.
const ConjCodeMax = 1<<InputFracBits - 1

// UnitTo evaluates unit j on a row of input codes: 1 when all its terms
// hold, else 0.
func (c *ConjNet) UnitTo(j int, codes []int) int {
	for d := 0; d < c.Depth; d++ {
		i := j*c.Depth + d
		if (codes[c.Feature[i]] >= c.Threshold[i]) == c.Negate[i] {
			return 0
		}
	}
	return 1
}

// Arch is Conj.
func (c *ConjNet) Arch() Arch { return Conj }

// Dims returns K and N.
func (c *ConjNet) Dims() (k, n int) { return c.K, c.N }

// Columns is N: the readout sees the units (the constant unit among them).
func (c *ConjNet) Columns() int { return c.N }

// FeaturesTo writes the N 0/1 unit values of one normalised row.
func (c *ConjNet) FeaturesTo(dst, xnorm []float64) {
	codes := make([]int, c.K)
	c.InputsTo(codes, xnorm)
	for j := range c.N {
		dst[j] = float64(c.UnitTo(j, codes))
	}
}

// HiddenMatrix computes the M×N 0/1 unit matrix of M normalised rows.
func (c *ConjNet) HiddenMatrix(xnorm []float64, m int) []float64 {
	out := make([]float64, m*c.N)
	codes := make([]int, c.K)
	for r := 0; r < m; r++ {
		c.InputsTo(codes, xnorm[r*c.K:(r+1)*c.K])
		row := out[r*c.N : (r+1)*c.N]
		for j := range row {
			row[j] = float64(c.UnitTo(j, codes))
		}
	}
	return out
}

// Readout: always the ConjReadoutBits-bit readout.
func (c *ConjNet) Readout() ReadoutRule { return conjType.traits.Readout }

// InputsTo writes the 8-bit input codes a = min(255, floor(256·x' + 0.5))
// of one normalised row (the rvfl8's, InputCode).
func (c *ConjNet) InputsTo(dst []int, xnorm []float64) {
	for i, x := range xnorm {
		dst[i] = int(InputCode(x))
	}
}

// HiddenIntsTo writes the N 0/1 unit values of one row of input codes.
func (c *ConjNet) HiddenIntsTo(dst []int, codes []int) {
	for j := range dst {
		dst[j] = c.UnitTo(j, codes)
	}
}

// HiddenMax is 1.
func (c *ConjNet) HiddenMax() int64 { return 1 }

// HiddenScale is 1: HiddenMatrix holds the 0/1 values.
func (c *ConjNet) HiddenScale() float64 { return 1 }

// kappa is D: the conj's κ hyperparameter is its depth (Traits.KappaName).
func (c *ConjNet) kappa() int { return c.Depth }

func (c *ConjNet) describe() string { return fmt.Sprintf(" D=%d", c.Depth) }

// wireConjNet is the "conj" section of model.json: per unit its D terms'
// features, thresholds and polarities (1: negated).
type wireConjNet struct {
	Depth     int     `json:"depth"`
	Features  [][]int `json:"features"`
	Threshold [][]int `json:"thresholds"`
	Negate    [][]int `json:"negate"`
}

func (c *ConjNet) section() any {
	return c.wire()
}

// wire is the conjunctions' terms as model.json writes them.
func (c *ConjNet) wire() wireConjNet {
	neg := make([]int, len(c.Negate))
	for i, v := range c.Negate {
		if v {
			neg[i] = 1
		}
	}
	return wireConjNet{Depth: c.Depth, Features: splitRows(c.Feature, c.Depth),
		Threshold: splitRows(c.Threshold, c.Depth), Negate: splitRows(neg, c.Depth)}
}

func init() { register(conjType) }

var conjType = &netType{
	arch: Conj,
	traits: Traits{Kappa: true, KappaName: "D", KappaGrid: ConjDepths, KappaMax: ConjMaxDepth,
		Readout: ReadoutRule{Allowed: true, Required: true, Bits: ConjReadoutBits}, Selects: true},
	check: func(c *Config) error {
		if c.Kappa < 1 || c.Kappa > ConjMaxDepth {
			return fmt.Errorf("depth D=%d (the conj's κ) outside [1, %d]", c.Kappa, ConjMaxDepth)
		}
		if c.Win != WinStored {
			return fmt.Errorf("the conj has no W_in generator, not %q", c.Win)
		}
		return nil
	},
	build: func(k int, c Config) Network { return NewConjNet(k, c.N, c.Kappa, c.Seed) },
	fit:   fitConjNet,
	decode: func(d *decoder, sec *node, k, n int) (Network, error) {
		o, err := d.object(sec, string(Conj), "depth", "features", "thresholds", "negate")
		if err != nil {
			return nil, err
		}
		return decodeConjTerms(d, o, k, n, ConjCodeMax)
	},
	diff: func(a, b Network, names [2]string, note string) []string {
		return conjDiffs(a.(*ConjNet), b.(*ConjNet), names, note)
	},
}

// decodeConjTerms reads the terms of n units over k features, thresholds in
// [0, codeMax], from the fields depth, features, thresholds and negate of o.
func decodeConjTerms(d *decoder, o *object, k, n, codeMax int) (*ConjNet, error) {
	depth, at, err := field(o, "depth", d.integer)
	if err != nil {
		return nil, err
	}
	if depth < 1 || depth > ConjMaxDepth {
		return nil, at.errf("%d outside [1, %d]", depth, ConjMaxDepth)
	}
	c := &ConjNet{K: k, N: n, Depth: depth, CodeMax: codeMax}
	terms := func(name string, lo, hi int) ([]int, error) {
		rows, at, err := field(o, name, d.integerRows)
		if err != nil {
			return nil, err
		}
		v, err := flatten(rows, n, depth, at.path, "(one per unit)")
		if err != nil {
			return nil, err
		}
		for i, x := range v {
			if x < lo || x > hi {
				return nil, fe(fmt.Sprintf("%s[%d][%d]", at.path, i/depth, i%depth), "%d outside [%d, %d]", x, lo, hi)
			}
		}
		return v, nil
	}
	if c.Feature, err = terms("features", 0, k-1); err != nil {
		return nil, err
	}
	if c.Threshold, err = terms("thresholds", 0, codeMax); err != nil {
		return nil, err
	}
	neg, err := terms("negate", 0, 1)
	if err != nil {
		return nil, err
	}
	c.Negate = make([]bool, len(neg))
	for i, v := range neg {
		c.Negate[i] = v == 1
	}
	return c, nil
}

// conjDiffs names the first differing term of each kind of x and y.
func conjDiffs(x, y *ConjNet, names [2]string, note string) []string {
	if x.Depth != y.Depth {
		return []string{fmt.Sprintf("D: %s %d, %s %d", names[0], x.Depth, names[1], y.Depth)}
	}
	var diffs []string
	term := func(what string, i int) string {
		return fmt.Sprintf("%s of unit %d term %d: %s and %s differ%s", what, i/x.Depth, i%x.Depth, names[0], names[1], note)
	}
	if i := firstDiff(x.Feature, y.Feature); i >= 0 {
		diffs = append(diffs, term("feature", i))
	}
	if i := firstDiff(x.Threshold, y.Threshold); i >= 0 {
		diffs = append(diffs, term("threshold", i))
	}
	if i := firstDiff(x.Negate, y.Negate); i >= 0 {
		diffs = append(diffs, term("polarity", i))
	}
	return diffs
}
