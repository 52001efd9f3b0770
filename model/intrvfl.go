package model

import (
	"fmt"
	"math"
	"slices"
)

// IntNet is the hidden layer of the paper's intRVFL: density-encoded inputs, a
// bipolar N×K W_in and a κ-clip (docs/semantics.md §3). It holds no readout.
type IntNet struct {
	K, N  int
	Kappa int
	Signs *SignMatrix
	// Gen is where Signs come from: WinStored (drawn, held in a ROM) or
	// WinPRBS31 (the PRBS31 windows of PRBSSeed, generated on chip).
	Gen WinGen
	// PRBSSeed is x_0 … x_30 of the PRBS31 sequence (bit t is x_t) when Gen
	// is WinPRBS31, else 0.
	PRBSSeed uint32
}

// NewIntNet draws the bipolar W_in of an intRVFL neuron by neuron from seed.
func NewIntNet(k, n, kappa int, seed uint64) *IntNet {
	if k <= 0 || n <= 0 || kappa <= 0 {
		panic(fmt.Sprintf("model: intRVFL with K=%d N=%d κ=%d", k, n, kappa))
	}
	src := newWeightSource(seed)
	s := NewSignMatrix(n, k)
	for j := 0; j < n; j++ {
		row := s.Row(j)
		for w := range row {
			row[w] = src.pcg.Uint64()
		}
		if r := k % 64; r != 0 {
			row[len(row)-1] &= 1<<r - 1
		}
	}
	return &IntNet{K: k, N: n, Kappa: kappa, Signs: s}
}

// Level returns v = floor(x·N + 0.5) for a normalised feature x ∈ [0, 1].
func Level(x float64, n int) int {
	v := int(math.Floor(float64(x*float64(n)) + 0.5))
	return min(max(v, 0), n)
}

// LevelsTo writes the levels of one normalised row into dst.
func (net *IntNet) LevelsTo(dst []int, xnorm []float64) {
	for i, x := range xnorm {
		dst[i] = Level(x, net.N)
	}
}

// HiddenInputsTo computes s_j (j = 0…N−1) for one row of levels with the
// hardware's method: t_ji = (j < v_i) XOR sign_ji, s_j = K − 2·popcount(t_j).
// The thermometer masks are swept in level order, so a row costs O(N·⌈K/64⌉ + K log K).
func (net *IntNet) HiddenInputsTo(dst []int, levels []int) {
	if len(levels) != net.K || len(dst) != net.N {
		panic(fmt.Sprintf("model: hidden inputs of %d levels into %d for K=%d N=%d", len(levels), len(dst), net.K, net.N))
	}
	words := net.Signs.words
	var small [4]uint64
	var mask []uint64
	if words <= len(small) {
		mask = small[:words]
	} else {
		mask = make([]uint64, words)
	}
	// order: feature indices by ascending level; bit i of mask is (j < v_i).
	order := make([]int, net.K)
	for i := range order {
		order[i] = i
		if levels[i] > 0 {
			mask[i/64] |= 1 << (i % 64)
		}
	}
	slices.SortFunc(order, func(a, b int) int { return levels[a] - levels[b] })
	p := 0
	for j := 0; j < net.N; j++ {
		for p < net.K && levels[order[p]] <= j {
			i := order[p]
			mask[i/64] &^= 1 << (i % 64)
			p++
		}
		dst[j] = net.K - 2*popcountXor(mask, net.Signs.Row(j))
	}
}

// Clip is the paper's f_κ.
func Clip(s, kappa int) int { return min(max(s, -kappa), kappa) }

// HiddenTo computes h_j = clip(s_j, −κ, κ) for one row of levels (integer path).
func (net *IntNet) HiddenTo(dst []int, levels []int) {
	net.HiddenInputsTo(dst, levels)
	for j, s := range dst {
		dst[j] = Clip(s, net.Kappa)
	}
}

// HiddenFloatTo computes h for one row of levels the way the paper writes it:
// build the density code F (N×K, ±1), take the Hadamard product with W_in, sum
// each neuron's row in float64 and clip. It exists to check the integer path.
func (net *IntNet) HiddenFloatTo(dst []float64, levels []int) {
	for j := 0; j < net.N; j++ {
		var s float64
		for i := 0; i < net.K; i++ {
			f := 1.0
			if j < levels[i] {
				f = -1
			}
			s += f * float64(net.Signs.Weight(j, i))
		}
		dst[j] = math.Max(-float64(net.Kappa), math.Min(float64(net.Kappa), s))
	}
}

// HiddenMatrix computes the M×N activation matrix (row-major, float64 values that
// are exact integers) for M normalised rows.
func (net *IntNet) HiddenMatrix(xnorm []float64, m int) []float64 {
	h := make([]float64, m*net.N)
	lv := make([]int, net.K)
	hr := make([]int, net.N)
	for r := 0; r < m; r++ {
		net.LevelsTo(lv, xnorm[r*net.K:(r+1)*net.K])
		net.HiddenTo(hr, lv)
		row := h[r*net.N : (r+1)*net.N]
		for j, v := range hr {
			row[j] = float64(v)
		}
	}
	return h
}

// The intRVFL as a Network (network.go).

// Arch is IntRVFL.
func (net *IntNet) Arch() Arch { return IntRVFL }

// Dims returns K and N.
func (net *IntNet) Dims() (k, n int) { return net.K, net.N }

// Columns is N: the readout sees the hidden activations only.
func (net *IntNet) Columns() int { return net.N }

// FeaturesTo writes the N activations of one normalised row as float64.
func (net *IntNet) FeaturesTo(dst, xnorm []float64) {
	lv := make([]int, net.K)
	net.LevelsTo(lv, xnorm)
	h := make([]int, net.N)
	net.HiddenTo(h, lv)
	for j, v := range h {
		dst[j] = float64(v)
	}
}

// Readout: an integer readout of any width is optional.
func (net *IntNet) Readout() ReadoutRule { return intrvflType.traits.Readout }

// InputsTo writes the levels of one normalised row.
func (net *IntNet) InputsTo(dst []int, xnorm []float64) { net.LevelsTo(dst, xnorm) }

// HiddenIntsTo is HiddenTo.
func (net *IntNet) HiddenIntsTo(dst []int, levels []int) { net.HiddenTo(dst, levels) }

// kappa is κ (Model.Kappa); a network type that wraps an IntNet has it too.
func (net *IntNet) kappa() int { return net.Kappa }

// HiddenMax is κ.
func (net *IntNet) HiddenMax() int64 { return int64(net.Kappa) }

// HiddenScale is 1: HiddenMatrix holds the integer activations.
func (net *IntNet) HiddenScale() float64 { return 1 }

func (net *IntNet) describe() string {
	if net.Gen != WinStored {
		return fmt.Sprintf(" κ=%d W_in=%s", net.Kappa, net.Gen)
	}
	return fmt.Sprintf(" κ=%d", net.Kappa)
}

// wireIntNet is the "intrvfl" section of model.json. The generator fields are
// absent for a stored W_in, so such files are unchanged.
type wireIntNet struct {
	Kappa     int      `json:"kappa"`
	Generator WinGen   `json:"w_in_generator,omitempty"`
	PRBSSeed  uint32   `json:"w_in_prbs_seed,omitempty"`
	WinSigns  []string `json:"w_in_signs"`
}

func (net *IntNet) section() any {
	n, _ := net.Signs.Dims()
	rows := make([]string, n)
	for j := range rows {
		rows[j] = net.Signs.HexRow(j)
	}
	return wireIntNet{Kappa: net.Kappa, Generator: net.Gen, PRBSSeed: net.PRBSSeed, WinSigns: rows}
}

func init() { register(intrvflType) }

var intrvflType = &netType{
	arch:   IntRVFL,
	traits: Traits{Kappa: true, Readout: ReadoutRule{Allowed: true}, GeneratedWin: true},
	check: func(c *Config) error {
		if c.Kappa < 1 || c.Kappa > MaxKappa {
			return fmt.Errorf("κ=%d outside [1, %d]", c.Kappa, MaxKappa)
		}
		return nil
	},
	build: func(k int, c Config) Network { return NewIntNetGen(k, c.N, c.Kappa, c.Seed, c.Win) },
	decode: func(d *decoder, sec *node, k, n int) (Network, error) {
		o, err := d.object(sec, string(IntRVFL), "kappa", "w_in_generator", "w_in_prbs_seed", "w_in_signs")
		if err != nil {
			return nil, err
		}
		kappa, at, err := field(o, "kappa", d.integer)
		if err != nil {
			return nil, err
		}
		if kappa < 1 || kappa > MaxKappa {
			return nil, at.errf("%d outside [1, %d]", kappa, MaxKappa)
		}
		rows, at, err := field(o, "w_in_signs", d.strings)
		if err != nil {
			return nil, err
		}
		if len(rows) != n {
			return nil, fe(at.path, "%d rows, want %d (one per hidden neuron)", len(rows), n)
		}
		for j, r := range rows {
			if _, err := ParseSignRows([]string{r}, k); err != nil {
				return nil, fe(fmt.Sprintf("%s[%d]", at.path, j), "%v", err)
			}
		}
		s, err := ParseSignRows(rows, k)
		if err != nil {
			return nil, fe(at.path, "%v", err)
		}
		net := &IntNet{K: k, N: n, Kappa: kappa, Signs: s}
		if err := decodeWinGen(d, o, net); err != nil {
			return nil, err
		}
		return net, nil
	},
	diff: func(a, b Network, names [2]string, note string) []string {
		return intDiffs(a.(*IntNet), b.(*IntNet), names, note)
	},
}

// intDiffs is HiddenDiffs for two intRVFL hidden layers of one shape: κ and
// the first W_in sign that differs.
func intDiffs(a, b *IntNet, names [2]string, note string) []string {
	var diffs []string
	if a.Kappa != b.Kappa {
		diffs = append(diffs, fmt.Sprintf("κ: %s %d, %s %d", names[0], a.Kappa, names[1], b.Kappa))
	}
	for j := 0; j < a.N; j++ {
		if a.Signs.HexRow(j) == b.Signs.HexRow(j) {
			continue
		}
		for i := 0; i < a.K; i++ {
			if a.Signs.Negative(j, i) != b.Signs.Negative(j, i) {
				return append(diffs, fmt.Sprintf("W_in[%d][%d]: %s %+d, %s %+d%s",
					j, i, names[0], a.Signs.Weight(j, i), names[1], b.Signs.Weight(j, i), note))
			}
		}
	}
	return diffs
}

// decodeWinGen reads the optional generator fields of an intrvfl section
// into net and checks that the stored rows are the generator's.
func decodeWinGen(d *decoder, o *object, net *IntNet) error {
	gen, hasGen, at, err := optField(o, "w_in_generator", d.str)
	if err != nil {
		return err
	}
	seed, hasSeed, seedAt, err := optField(o, "w_in_prbs_seed", d.uinteger)
	if err != nil {
		return err
	}
	if !hasGen {
		if hasSeed {
			return seedAt.errf("present without w_in_generator")
		}
		return nil // stored W_in
	}
	if WinGen(gen) != WinPRBS31 {
		return at.errf("%q, want %q (or no field for a stored W_in)", gen, WinPRBS31)
	}
	if !hasSeed {
		return fe(string(IntRVFL)+".w_in_prbs_seed", "missing (required with w_in_generator %q)", gen)
	}
	if seed == 0 || seed>>PRBSLen != 0 {
		return seedAt.errf("%d, want a nonzero %d-bit value", seed, PRBSLen)
	}
	net.Gen, net.PRBSSeed = WinPRBS31, uint32(seed)
	want := PRBSSigns(net.PRBSSeed, net.N, net.K)
	for j := 0; j < net.N; j++ {
		if got := net.Signs.Row(j); !slices.Equal(got, want.Row(j)) {
			return fe(fmt.Sprintf("%s.w_in_signs[%d]", IntRVFL, j), "%s differs from the w_in_generator %q row %s (w_in_prbs_seed %d)",
				net.Signs.HexRow(j), gen, want.HexRow(j), seed)
		}
	}
	return nil
}
