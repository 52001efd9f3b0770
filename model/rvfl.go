package model

import (
	"fmt"
	"math"

	"github.com/hdlgen/hdlgen/linalg"
)

// FloatNet is the hidden layer of the conventional RVFL: h = sigmoid(W_in·x' + b)
// with W_in ∈ U[−1,1) (N×K, row-major) and b ∈ U[−0.1,0.1) (docs/semantics.md §4).
type FloatNet struct {
	K, N int
	Win  []float64 // N×K
	Bias []float64 // N
	// DirectLinks puts the K normalised inputs before the N hidden activations in
	// the readout's input (C = K + N columns).
	DirectLinks bool
	// InputLevels, when > 0, quantises each input to floor(x'·InputLevels + 0.5)/InputLevels
	// before the hidden layer (the paper's "RVFL with quantised inputs" uses N).
	InputLevels int
}

// NewFloatNet draws W_in and b neuron by neuron from seed.
func NewFloatNet(k, n int, seed uint64) *FloatNet {
	if k <= 0 || n <= 0 {
		panic(fmt.Sprintf("model: RVFL with K=%d N=%d", k, n))
	}
	src := newWeightSource(seed)
	net := &FloatNet{K: k, N: n, Win: make([]float64, n*k), Bias: make([]float64, n)}
	for j := 0; j < n; j++ {
		for i := 0; i < k; i++ {
			net.Win[j*k+i] = src.uniform(-1, 1)
		}
		net.Bias[j] = src.uniform(-0.1, 0.1)
	}
	return net
}

// Columns is the number of readout inputs: N, or K + N with direct links.
func (net *FloatNet) Columns() int {
	if net.DirectLinks {
		return net.K + net.N
	}
	return net.N
}

// Sigmoid is the logistic function 1/(1+e^(−z)).
func Sigmoid(z float64) float64 { return 1 / (1 + math.Exp(-z)) }

// FeaturesTo writes the readout inputs (inputs first with direct links, then the
// hidden activations) for one normalised row into dst (length Columns()).
func (net *FloatNet) FeaturesTo(dst, xnorm []float64) {
	x := xnorm
	if net.InputLevels > 0 {
		q := make([]float64, len(xnorm))
		for i, v := range xnorm {
			q[i] = float64(Level(v, net.InputLevels)) / float64(net.InputLevels)
		}
		x = q
	}
	off := 0
	if net.DirectLinks {
		copy(dst[:net.K], x)
		off = net.K
	}
	for j := 0; j < net.N; j++ {
		z := net.Bias[j]
		w := net.Win[j*net.K : (j+1)*net.K]
		for i, v := range x {
			z += w[i] * v
		}
		dst[off+j] = Sigmoid(z)
	}
}

// HiddenMatrix computes the M×Columns() readout-input matrix for M normalised
// rows. The pre-activations come from one matrix product (X·W_inᵀ on the fast
// kernel), so they may differ from FeaturesTo's row-by-row sums in the last bits.
func (net *FloatNet) HiddenMatrix(xnorm []float64, m int) []float64 {
	k, n, c := net.K, net.N, net.Columns()
	x := xnorm
	if net.InputLevels > 0 {
		x = make([]float64, len(xnorm))
		for i, v := range xnorm {
			x[i] = float64(Level(v, net.InputLevels)) / float64(net.InputLevels)
		}
	}
	z := make([]float64, m*n)
	linalg.Engine{Threads: 1}.Gemm(false, true, m, n, k, 1, x, k, net.Win, k, 0, z, n)
	h := make([]float64, m*c)
	off := 0
	if net.DirectLinks {
		off = k
	}
	for r := 0; r < m; r++ {
		row := h[r*c : (r+1)*c]
		if net.DirectLinks {
			copy(row[:k], x[r*k:(r+1)*k])
		}
		zr := z[r*n : (r+1)*n]
		for j, v := range zr {
			row[off+j] = Sigmoid(v + net.Bias[j])
		}
	}
	return h
}

// The float RVFL as a Network (network.go). It has no integer datapath.

// Arch is RVFL.
func (net *FloatNet) Arch() Arch { return RVFL }

// Dims returns K and N.
func (net *FloatNet) Dims() (k, n int) { return net.K, net.N }

// Readout: the float RVFL has no integer readout.
func (net *FloatNet) Readout() ReadoutRule { return rvflType.traits.Readout }

func (net *FloatNet) describe() string { return "" }

// wireFloatNet is the "rvfl" section of model.json.
type wireFloatNet struct {
	DirectLinks bool        `json:"direct_links"`
	InputLevels int         `json:"input_levels"`
	Bias        []float64   `json:"bias"`
	Win         [][]float64 `json:"w_in"`
}

func (net *FloatNet) section() any {
	return wireFloatNet{DirectLinks: net.DirectLinks, InputLevels: net.InputLevels,
		Bias: net.Bias, Win: splitRows(net.Win, net.K)}
}

func init() { register(rvflType) }

var rvflType = &netType{
	arch:   RVFL,
	traits: Traits{InputOptions: true},
	check:  func(*Config) error { return nil },
	build: func(k int, c Config) Network {
		net := NewFloatNet(k, c.N, c.Seed)
		net.DirectLinks = c.DirectLinks
		if c.QuantizedInputs {
			net.InputLevels = c.N
		}
		return net
	},
	decode: func(d *decoder, sec *node, k, n int) (Network, error) {
		o, err := d.object(sec, string(RVFL), "direct_links", "input_levels", "bias", "w_in")
		if err != nil {
			return nil, err
		}
		net := &FloatNet{K: k, N: n}
		if net.DirectLinks, _, err = field(o, "direct_links", d.boolean); err != nil {
			return nil, err
		}
		var at pos
		if net.InputLevels, at, err = field(o, "input_levels", d.integer); err != nil {
			return nil, err
		}
		if net.InputLevels < 0 || net.InputLevels > MaxHidden {
			return nil, at.errf("%d outside [0, %d]", net.InputLevels, MaxHidden)
		}
		if net.Bias, at, err = field(o, "bias", d.numbers); err != nil {
			return nil, err
		}
		if len(net.Bias) != n {
			return nil, fe(at.path, "%d values, want %d", len(net.Bias), n)
		}
		rows, at, err := field(o, "w_in", d.numberRows)
		if err != nil {
			return nil, err
		}
		if net.Win, err = flatten(rows, n, k, at.path, ""); err != nil {
			return nil, err
		}
		return net, nil
	},
}
