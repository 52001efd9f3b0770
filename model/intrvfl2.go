package model

import (
	"fmt"
	"math"
)

// IntRVFL2 is the two-layer intRVFL, a deep intRVFL in the spirit of the
// ensemble deep RVFL (Shi, Katuwal, Suganthan et al. 2021): the intRVFL's
// hidden layer, then a second sign-flip layer over its clipped values, and
// the readout over both layers (docs/semantics.md §3b).
const IntRVFL2 Arch = "intrvfl2"

// Int2Kappa2Percent is the second layer's clip rule: κ2 = max(1,
// round(c·κ1'·√N1)) with c = Int2Kappa2Percent/100 and κ1' = min(κ, K).
// docs/semantics.md §3b records the accuracy check that fixed it.
const Int2Kappa2Percent = 50

// Int2Kappa2 returns κ2 for a first layer of n1 neurons clipped at
// κ1' (clip1 = min(κ, K)).
func Int2Kappa2(clip1, n1 int) int {
	return max(1, int(math.Round(float64(Int2Kappa2Percent)/100*float64(clip1)*math.Sqrt(float64(n1)))))
}

// Int2Split returns the widths of the two layers of an intrvfl2 of n
// hidden neurons in all (the readout's columns): N1 = ⌈n/2⌉, N2 = n − N1.
func Int2Split(n int) (n1, n2 int) { return (n + 1) / 2, n / 2 }

// Int2Net is the hidden layer of the two-layer intRVFL. Layer 1 is an
// intRVFL of N1 neurons (levels in [0, N1], W_in, κ1); layer 2 is
// h2_j = clip(Σ_i W2[j][i]·h1_i, ±κ2) with a bipolar N2×N1 W2 whose row j
// is the window x_j … x_{j+N1−1} of the PRBS31 sequence of W2Seed (sign bit
// 1 is −1), the rows the RTL generates on chip (hdlgen_win_lfsr). The
// readout sees [h1; h2], N1 + N2 columns.
type Int2Net struct {
	L1     *IntNet
	N2     int
	Kappa2 int
	// W2Seed is x_0 … x_30 of W2's PRBS31 sequence (bit t is x_t), nonzero.
	W2Seed uint32
	W2     *SignMatrix // N2×N1, PRBSSigns(W2Seed, N2, N1)
}

// NewInt2Net draws an intrvfl2 from seed: W_in as NewIntNet(k, n1, κ, seed)
// draws it, W2 from the PRBS31 sequence of PRBSSeed(seed).
func NewInt2Net(k, n1, n2, kappa, kappa2 int, seed uint64) *Int2Net {
	if k <= 0 || n1 <= 0 || n2 <= 0 || kappa <= 0 || kappa2 <= 0 {
		panic(fmt.Sprintf("model: intrvfl2 with K=%d N1=%d N2=%d κ=%d κ2=%d", k, n1, n2, kappa, kappa2))
	}
	ps := PRBSSeed(seed)
	return &Int2Net{L1: NewIntNet(k, n1, kappa, seed), N2: n2, Kappa2: kappa2, W2Seed: ps, W2: PRBSSigns(ps, n2, n1)}
}

// N1 is the first layer's width.
func (net *Int2Net) N1() int { return net.L1.N }

// Clip1 is κ1' = min(κ1, K), the first layer's effective clip bound.
func (net *Int2Net) Clip1() int { return min(net.L1.Kappa, net.L1.K) }

// Clip2 is κ2' = min(κ2, N1·κ1'), the second layer's effective clip bound
// (|s2| ≤ N1·κ1').
func (net *Int2Net) Clip2() int { return min(net.Kappa2, net.L1.N*net.Clip1()) }

// Layer2To writes h2 (N2 values) of the first layer's activations h1:
// h2_j = clip(Σ_i W2[j][i]·h1_i, ±κ2).
func (net *Int2Net) Layer2To(dst, h1 []int) {
	net.W2.MulInts(dst, h1)
	for j, s := range dst {
		dst[j] = Clip(s, net.Kappa2)
	}
}

// Arch is IntRVFL2.
func (net *Int2Net) Arch() Arch { return IntRVFL2 }

// Dims returns K and N1 + N2 (the hidden neurons of both layers).
func (net *Int2Net) Dims() (k, n int) { return net.L1.K, net.L1.N + net.N2 }

// Columns is N1 + N2: the readout sees both layers.
func (net *Int2Net) Columns() int { return net.L1.N + net.N2 }

// FeaturesTo writes [h1; h2] of one normalised row as float64.
func (net *Int2Net) FeaturesTo(dst, xnorm []float64) {
	lv := make([]int, net.L1.K)
	net.InputsTo(lv, xnorm)
	h := make([]int, net.Columns())
	net.HiddenIntsTo(h, lv)
	for j, v := range h {
		dst[j] = float64(v)
	}
}

// HiddenMatrix computes the M×(N1+N2) activation matrix [h1; h2] of M
// normalised rows (float64 values that are exact integers).
func (net *Int2Net) HiddenMatrix(xnorm []float64, m int) []float64 {
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

// Readout: an integer readout of any width is optional.
func (net *Int2Net) Readout() ReadoutRule { return intrvfl2Type.traits.Readout }

// InputsTo writes the levels v = floor(x·N1 + 0.5) of one normalised row.
func (net *Int2Net) InputsTo(dst []int, xnorm []float64) { net.L1.LevelsTo(dst, xnorm) }

// HiddenIntsTo writes h1 (N1 values) then h2 (N2 values) of one row of levels.
func (net *Int2Net) HiddenIntsTo(dst []int, levels []int) {
	n1 := net.L1.N
	net.L1.HiddenTo(dst[:n1], levels)
	net.Layer2To(dst[n1:n1+net.N2], dst[:n1])
}

// HiddenMax is max(κ1', κ2'), the largest |h| of either layer.
func (net *Int2Net) HiddenMax() int64 { return int64(max(net.Clip1(), net.Clip2())) }

// HiddenScale is 1: HiddenMatrix holds the integer activations.
func (net *Int2Net) HiddenScale() float64 { return 1 }

func (net *Int2Net) describe() string {
	return fmt.Sprintf(" N1=%d N2=%d κ=%d κ2=%d", net.L1.N, net.N2, net.L1.Kappa, net.Kappa2)
}

// wireInt2Net is the "intrvfl2" section of model.json.
type wireInt2Net struct {
	N1       int      `json:"n1"`
	Kappa    int      `json:"kappa"`
	Kappa2   int      `json:"kappa2"`
	W2Seed   uint32   `json:"w2_prbs_seed"`
	WinSigns []string `json:"w_in_signs"`
}

func (net *Int2Net) section() any {
	return wireInt2Net{N1: net.L1.N, Kappa: net.L1.Kappa, Kappa2: net.Kappa2,
		W2Seed: net.W2Seed, WinSigns: hexRows(net.L1.Signs)}
}

func hexRows(s *SignMatrix) []string {
	n, _ := s.Dims()
	rows := make([]string, n)
	for j := range rows {
		rows[j] = s.HexRow(j)
	}
	return rows
}

func init() { register(intrvfl2Type) }

// int2MinHidden is the intrvfl2's smallest N: one neuron per layer.
const int2MinHidden = 2

var intrvfl2Type = &netType{
	arch:   IntRVFL2,
	traits: Traits{Kappa: true, Readout: ReadoutRule{Allowed: true}, MinHidden: int2MinHidden},
	check: func(c *Config) error {
		if c.Kappa < 1 || c.Kappa > MaxKappa {
			return fmt.Errorf("κ=%d outside [1, %d]", c.Kappa, MaxKappa)
		}
		if c.N < int2MinHidden {
			return fmt.Errorf("the intrvfl2 needs at least %d hidden neurons (one per layer), not N=%d", int2MinHidden, c.N)
		}
		if c.Win != WinStored {
			return fmt.Errorf("the intrvfl2 takes a stored W_in only, not %q", c.Win)
		}
		return nil
	},
	build: func(k int, c Config) Network {
		n1, n2 := Int2Split(c.N)
		return NewInt2Net(k, n1, n2, c.Kappa, Int2Kappa2(min(c.Kappa, k), n1), c.Seed)
	},
	decode: func(d *decoder, sec *node, k, n int) (Network, error) {
		o, err := d.object(sec, string(IntRVFL2), "n1", "kappa", "kappa2", "w2_prbs_seed", "w_in_signs")
		if err != nil {
			return nil, err
		}
		n1, at, err := field(o, "n1", d.integer)
		if err != nil {
			return nil, err
		}
		if n1 < 1 || n1 >= n {
			return nil, at.errf("%d outside [1, %d] (n = %d is N1 + N2, each layer at least 1)", n1, n-1, n)
		}
		kappa, at, err := field(o, "kappa", d.integer)
		if err != nil {
			return nil, err
		}
		if kappa < 1 || kappa > MaxKappa {
			return nil, at.errf("%d outside [1, %d]", kappa, MaxKappa)
		}
		kappa2, at, err := field(o, "kappa2", d.integer)
		if err != nil {
			return nil, err
		}
		if kappa2 < 1 || kappa2 > MaxKappa {
			return nil, at.errf("%d outside [1, %d]", kappa2, MaxKappa)
		}
		win, err := signRows(d, o, "w_in_signs", n1, k, "one per first-layer neuron")
		if err != nil {
			return nil, err
		}
		seed, at, err := field(o, "w2_prbs_seed", d.uinteger)
		if err != nil {
			return nil, err
		}
		if seed == 0 || seed>>PRBSLen != 0 {
			return nil, at.errf("%d, want a nonzero %d-bit value", seed, PRBSLen)
		}
		return &Int2Net{L1: &IntNet{K: k, N: n1, Kappa: kappa, Signs: win}, N2: n - n1, Kappa2: kappa2,
			W2Seed: uint32(seed), W2: PRBSSigns(uint32(seed), n-n1, n1)}, nil
	},
	diff: func(a, b Network, names [2]string, note string) []string {
		x, y := a.(*Int2Net), b.(*Int2Net)
		if x.N1() != y.N1() {
			return []string{fmt.Sprintf("N1: %s %d, %s %d", names[0], x.N1(), names[1], y.N1())}
		}
		diffs := intDiffs(x.L1, y.L1, names, note)
		if x.Kappa2 != y.Kappa2 {
			diffs = append(diffs, fmt.Sprintf("κ2: %s %d, %s %d", names[0], x.Kappa2, names[1], y.Kappa2))
		}
		if x.W2Seed != y.W2Seed {
			diffs = append(diffs, fmt.Sprintf("W2's PRBS31 seed: %s %d, %s %d%s", names[0], x.W2Seed, names[1], y.W2Seed, note))
		}
		return diffs
	},
}

// signRows reads the sign-matrix field name of o: rows hex rows of cols
// signs each, the first bad row named in the error.
func signRows(d *decoder, o *object, name string, rows, cols int, what string) (*SignMatrix, error) {
	hex, at, err := field(o, name, d.strings)
	if err != nil {
		return nil, err
	}
	if len(hex) != rows {
		return nil, fe(at.path, "%d rows, want %d (%s)", len(hex), rows, what)
	}
	for j, r := range hex {
		if _, err := ParseSignRows([]string{r}, cols); err != nil {
			return nil, fe(fmt.Sprintf("%s[%d]", at.path, j), "%v", err)
		}
	}
	s, err := ParseSignRows(hex, cols)
	if err != nil {
		return nil, fe(at.path, "%v", err)
	}
	return s, nil
}
