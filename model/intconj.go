package model

import "fmt"

// IntConj is the mixed network (docs/semantics.md §3d): one hidden layer of
// N1 intRVFL neurons and N2 random conjunctions over the same levels, and
// one 8-bit readout over both. The neurons add one thermometer test per
// feature with random signs; the conjunctions AND a few threshold tests, the
// interactions a random forest's leaves hold. On the collection's screening
// one readout over both beat the better of the two networks chosen by
// validation (results/family-check/README.md).
const IntConj Arch = "intconj"

// IntConjDepth is Dmax of the intconj's conjunctions: unit u has
// 1 + (u mod Dmax) terms, so one layer holds units of every depth 1 … Dmax
// and the readout weighs them; the depth leaves the search grid, which
// the screening found as accurate as choosing D (results/family-check).
const IntConjDepth = 4

// IntConjSplit returns the widths of the two kinds of units of an intconj
// of n hidden units in all: N1 = ⌈n/2⌉ neurons, N2 = n − N1 conjunctions.
func IntConjSplit(n int) (n1, n2 int) { return (n + 1) / 2, n / 2 }

// intConjMinHidden is the intconj's smallest N: a neuron and the constant
// unit.
const intConjMinHidden = 2

// IntConjNet is the hidden layer of the mixed network. Columns j < N1 are
// the intRVFL's neurons over the levels v = floor(x·N1 + 0.5) (IntNet,
// clipped at κ); columns N1 + u are the conjunctions' units u over the same
// levels (ConjNet of depth IntConjDepth, thresholds in 1 … N1; a unit with
// fewer terms holds a ≥ 0, which always holds, in its last ones), the last
// the constant unit, a bias per class.
type IntConjNet struct {
	L1    *IntNet
	Units *ConjNet
}

// NewIntConjNet draws an intconj from seed: W_in as NewIntNet(k, n1, κ,
// seed) draws it, the conjunctions as NewConjNet does from the same seed
// (their own stream), unit u with 1 + (u mod Dmax) terms.
func NewIntConjNet(k, n1, n2, kappa int, seed uint64) *IntConjNet {
	if k <= 0 || n1 <= 0 || n2 <= 0 || kappa <= 0 {
		panic(fmt.Sprintf("model: intconj with K=%d N1=%d N2=%d κ=%d", k, n1, n2, kappa))
	}
	units := newConjTerms(k, n2, IntConjDepth, n1)
	units.draw(seed, func(j int) int { return 1 + j%IntConjDepth })
	return &IntConjNet{L1: NewIntNet(k, n1, kappa, seed), Units: units}
}

// N1 is the number of intRVFL neurons.
func (net *IntConjNet) N1() int { return net.L1.N }

// Arch is IntConj.
func (net *IntConjNet) Arch() Arch { return IntConj }

// Dims returns K and N1 + N2.
func (net *IntConjNet) Dims() (k, n int) { return net.L1.K, net.L1.N + net.Units.N }

// Columns is N1 + N2: the readout sees both kinds of units.
func (net *IntConjNet) Columns() int { return net.L1.N + net.Units.N }

// FeaturesTo writes [h; u] of one normalised row as float64.
func (net *IntConjNet) FeaturesTo(dst, xnorm []float64) {
	lv := make([]int, net.L1.K)
	net.InputsTo(lv, xnorm)
	h := make([]int, net.Columns())
	net.HiddenIntsTo(h, lv)
	for j, v := range h {
		dst[j] = float64(v)
	}
}

// HiddenMatrix computes the M×(N1+N2) matrix [h; u] of M normalised rows
// (float64 values that are exact integers).
func (net *IntConjNet) HiddenMatrix(xnorm []float64, m int) []float64 {
	k, c := net.L1.K, net.Columns()
	out := make([]float64, m*c)
	lv := make([]int, k)
	hr := make([]int, c)
	for r := 0; r < m; r++ {
		net.InputsTo(lv, xnorm[r*k:(r+1)*k])
		net.HiddenIntsTo(hr, lv)
		row := out[r*c : (r+1)*c]
		for j, v := range hr {
			row[j] = float64(v)
		}
	}
	return out
}

// Readout: always the conj's 8-bit readout.
func (net *IntConjNet) Readout() ReadoutRule { return intconjType.traits.Readout }

// InputsTo writes the levels v = floor(x·N1 + 0.5) of one normalised row.
func (net *IntConjNet) InputsTo(dst []int, xnorm []float64) { net.L1.LevelsTo(dst, xnorm) }

// HiddenIntsTo writes the N1 clipped neurons, then the N2 0/1 units, of one
// row of levels.
func (net *IntConjNet) HiddenIntsTo(dst []int, levels []int) {
	n1 := net.L1.N
	net.L1.HiddenTo(dst[:n1], levels)
	net.Units.HiddenIntsTo(dst[n1:n1+net.Units.N], levels)
}

// HiddenMax is κ' = min(κ, K) (at least 1, the units' largest value).
func (net *IntConjNet) HiddenMax() int64 { return int64(min(net.L1.Kappa, net.L1.K)) }

// HiddenScale is 1: HiddenMatrix holds the integer values.
func (net *IntConjNet) HiddenScale() float64 { return 1 }

func (net *IntConjNet) kappa() int { return net.L1.Kappa }

func (net *IntConjNet) describe() string {
	return fmt.Sprintf(" N1=%d N2=%d κ=%d D≤%d", net.L1.N, net.Units.N, net.L1.Kappa, net.Units.Depth)
}

// wireIntConjNet is the "intconj" section of model.json: the neurons' N1,
// κ and W_in rows, then the units' terms as the conj writes them.
type wireIntConjNet struct {
	N1       int      `json:"n1"`
	Kappa    int      `json:"kappa"`
	WinSigns []string `json:"w_in_signs"`
	wireConjNet
}

func (net *IntConjNet) section() any {
	return wireIntConjNet{N1: net.L1.N, Kappa: net.L1.Kappa, WinSigns: hexRows(net.L1.Signs), wireConjNet: net.Units.wire()}
}

func init() { register(intconjType) }

var intconjType = &netType{
	arch: IntConj,
	traits: Traits{Kappa: true, MinHidden: intConjMinHidden,
		Readout: ReadoutRule{Allowed: true, Required: true, Bits: ConjReadoutBits}},
	check: func(c *Config) error {
		if c.Kappa < 1 || c.Kappa > MaxKappa {
			return fmt.Errorf("κ=%d outside [1, %d]", c.Kappa, MaxKappa)
		}
		if c.N < intConjMinHidden {
			return fmt.Errorf("the intconj needs at least %d hidden units (a neuron and the constant unit), not N=%d", intConjMinHidden, c.N)
		}
		if c.Win != WinStored {
			return fmt.Errorf("the intconj takes a stored W_in only, not %q", c.Win)
		}
		return nil
	},
	build: func(k int, c Config) Network {
		n1, n2 := IntConjSplit(c.N)
		return NewIntConjNet(k, n1, n2, c.Kappa, c.Seed)
	},
	decode: func(d *decoder, sec *node, k, n int) (Network, error) {
		o, err := d.object(sec, string(IntConj), "n1", "kappa", "w_in_signs", "depth", "features", "thresholds", "negate")
		if err != nil {
			return nil, err
		}
		n1, at, err := field(o, "n1", d.integer)
		if err != nil {
			return nil, err
		}
		if n1 < 1 || n1 >= n {
			return nil, at.errf("%d outside [1, %d] (n = %d is N1 + N2, each at least 1)", n1, n-1, n)
		}
		kappa, at, err := field(o, "kappa", d.integer)
		if err != nil {
			return nil, err
		}
		if kappa < 1 || kappa > MaxKappa {
			return nil, at.errf("%d outside [1, %d]", kappa, MaxKappa)
		}
		win, err := signRows(d, o, "w_in_signs", n1, k, "one per neuron")
		if err != nil {
			return nil, err
		}
		units, err := decodeConjTerms(d, o, k, n-n1, n1)
		if err != nil {
			return nil, err
		}
		return &IntConjNet{L1: &IntNet{K: k, N: n1, Kappa: kappa, Signs: win}, Units: units}, nil
	},
	diff: func(a, b Network, names [2]string, note string) []string {
		x, y := a.(*IntConjNet), b.(*IntConjNet)
		if x.N1() != y.N1() {
			return []string{fmt.Sprintf("N1: %s %d, %s %d", names[0], x.N1(), names[1], y.N1())}
		}
		return append(intDiffs(x.L1, y.L1, names, note), conjDiffs(x.Units, y.Units, names, note)...)
	},
}
