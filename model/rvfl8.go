package model

import (
	"fmt"
	"math"
)

// Fixed-point formats of the 8-bit RVFL (docs/semantics.md §7).
const (
	// InputFracBits: input code a represents a·2^-8.
	InputFracBits = 8
	// WeightFracBits: W_in code w represents w·2^-7.
	WeightFracBits = 7
	// BiasFracBits: bias code c represents c·2^-10.
	BiasFracBits = 10
	// PreActFracBits: the pre-activation z represents z·2^-15 (input × weight).
	PreActFracBits = InputFracBits + WeightFracBits
	// BiasShift aligns the bias code with the pre-activation: c << 5.
	BiasShift = PreActFracBits - BiasFracBits
	// LUTAddrShift turns z into a LUT address in steps of 1/16: z >>> 11.
	LUTAddrShift = PreActFracBits - 4
	// LUTSize is the number of sigmoid LUT entries (addresses −128…127).
	LUTSize = 256
	// HiddenFracBits: hidden code h represents h·2^-8.
	HiddenFracBits = 8
	// ReadoutBits is the width of the quantised readout weights.
	ReadoutBits = 8
)

// FixedNet is the hidden layer of the 8-bit fixed-point RVFL.
type FixedNet struct {
	K, N int
	Win  []int8  // N×K, value w·2^-7
	Bias []int8  // N, value c·2^-10
	LUT  []uint8 // LUTSize entries; LUT[t+128] for address t ∈ [−128, 127]
}

// roundClampInt8 rounds half away from zero and saturates to int8.
func roundClampInt8(v float64) int8 {
	r := math.Round(v)
	return int8(min(max(r, -128), 127))
}

// QuantizeFloatNet converts a float RVFL hidden layer to the fixed-point formats
// and computes the sigmoid LUT. Direct links and quantised inputs are not part of
// the fixed-point design.
func QuantizeFloatNet(f *FloatNet) *FixedNet {
	if f.DirectLinks || f.InputLevels != 0 {
		panic("model: the fixed-point RVFL has no direct links or input levels")
	}
	q := &FixedNet{K: f.K, N: f.N, Win: make([]int8, len(f.Win)), Bias: make([]int8, len(f.Bias)), LUT: SigmoidLUT()}
	for i, w := range f.Win {
		q.Win[i] = roundClampInt8(w * (1 << WeightFracBits))
	}
	for j, b := range f.Bias {
		q.Bias[j] = roundClampInt8(b * (1 << BiasFracBits))
	}
	return q
}

// SigmoidLUT returns the 256-entry table LUT[t+128] = min(255, round(256·sigmoid((t+0.5)/16))).
func SigmoidLUT() []uint8 {
	lut := make([]uint8, LUTSize)
	for a := range lut {
		t := float64(a - LUTSize/2)
		v := math.Round(float64(1<<HiddenFracBits) * Sigmoid((t+0.5)/16))
		lut[a] = uint8(min(v, 255))
	}
	return lut
}

// InputCode returns the 8-bit input code a = min(255, floor(256·x' + 0.5)).
func InputCode(x float64) uint8 {
	v := math.Floor(float64(x*(1<<InputFracBits)) + 0.5)
	return uint8(min(max(v, 0), 255))
}

// PreActivation returns z_j = Σ_i a_i·w_ji + c_j·2^5 for one neuron.
func (q *FixedNet) PreActivation(j int, a []uint8) int32 {
	z := int32(q.Bias[j]) << BiasShift
	w := q.Win[j*q.K : (j+1)*q.K]
	for i, v := range a {
		z += int32(v) * int32(w[i])
	}
	return z
}

// LUTAddress returns t = clamp(z >>> 11, −128, 127).
func LUTAddress(z int32) int {
	return int(min(max(z>>LUTAddrShift, -128), 127))
}

// HiddenTo writes the 8-bit hidden codes for one row of input codes.
func (q *FixedNet) HiddenTo(dst []int, a []uint8) {
	if len(a) != q.K || len(dst) != q.N {
		panic(fmt.Sprintf("model: fixed-point hidden of %d inputs into %d for K=%d N=%d", len(a), len(dst), q.K, q.N))
	}
	for j := range dst {
		dst[j] = int(q.LUT[LUTAddress(q.PreActivation(j, a))+LUTSize/2])
	}
}

// InputCodesTo writes the input codes of one normalised row.
func InputCodesTo(dst []uint8, xnorm []float64) {
	for i, x := range xnorm {
		dst[i] = InputCode(x)
	}
}

// HiddenMatrix computes the M×N matrix of hidden values h·2^-8 (float64) for M
// normalised rows — the activations the hardware really produces.
func (q *FixedNet) HiddenMatrix(xnorm []float64, m int) []float64 {
	h := make([]float64, m*q.N)
	a := make([]uint8, q.K)
	hr := make([]int, q.N)
	for r := 0; r < m; r++ {
		InputCodesTo(a, xnorm[r*q.K:(r+1)*q.K])
		q.HiddenTo(hr, a)
		for j, v := range hr {
			h[r*q.N+j] = float64(v) / (1 << HiddenFracBits)
		}
	}
	return h
}

// The 8-bit RVFL as a Network (network.go).

// Arch is RVFL8.
func (q *FixedNet) Arch() Arch { return RVFL8 }

// Dims returns K and N.
func (q *FixedNet) Dims() (k, n int) { return q.K, q.N }

// Columns is N.
func (q *FixedNet) Columns() int { return q.N }

// FeaturesTo writes the N hidden values h·2^-8 of one normalised row.
func (q *FixedNet) FeaturesTo(dst, xnorm []float64) {
	a := make([]uint8, q.K)
	InputCodesTo(a, xnorm)
	h := make([]int, q.N)
	q.HiddenTo(h, a)
	for j, v := range h {
		dst[j] = float64(v) / (1 << HiddenFracBits)
	}
}

// Readout: the 8-bit readout is required.
func (q *FixedNet) Readout() ReadoutRule { return rvfl8Type.traits.Readout }

// InputsTo writes the 8-bit input codes of one normalised row.
func (q *FixedNet) InputsTo(dst []int, xnorm []float64) {
	for i, x := range xnorm {
		dst[i] = int(InputCode(x))
	}
}

// HiddenIntsTo writes the 8-bit hidden codes of one row of input codes (each in [0, 255]).
func (q *FixedNet) HiddenIntsTo(dst []int, inputs []int) {
	a := make([]uint8, len(inputs))
	for i, v := range inputs {
		a[i] = uint8(v)
	}
	q.HiddenTo(dst, a)
}

// HiddenMax is the largest hidden code, 255.
func (q *FixedNet) HiddenMax() int64 { return 255 }

// HiddenScale is 2^8: HiddenMatrix holds h·2^-8.
func (q *FixedNet) HiddenScale() float64 { return 1 << HiddenFracBits }

func (q *FixedNet) describe() string { return "" }

// wireFixedNet is the "rvfl8" section of model.json.
type wireFixedNet struct {
	Bias       []int   `json:"bias"`
	SigmoidLUT []int   `json:"sigmoid_lut"`
	Win        [][]int `json:"w_in"`
}

func (q *FixedNet) section() any {
	win := make([]int, len(q.Win))
	for i, w := range q.Win {
		win[i] = int(w)
	}
	bias := make([]int, len(q.Bias))
	for j, b := range q.Bias {
		bias[j] = int(b)
	}
	lut := make([]int, len(q.LUT))
	for a, v := range q.LUT {
		lut[a] = int(v)
	}
	return wireFixedNet{Bias: bias, SigmoidLUT: lut, Win: splitRows(win, q.K)}
}

func init() { register(rvfl8Type) }

var rvfl8Type = &netType{
	arch:   RVFL8,
	traits: Traits{Readout: ReadoutRule{Allowed: true, Required: true, Bits: ReadoutBits}, Baseline: true},
	check:  func(*Config) error { return nil },
	build:  func(k int, c Config) Network { return QuantizeFloatNet(NewFloatNet(k, c.N, c.Seed)) },
	decode: func(d *decoder, sec *node, k, n int) (Network, error) {
		o, err := d.object(sec, string(RVFL8), "bias", "sigmoid_lut", "w_in")
		if err != nil {
			return nil, err
		}
		q := &FixedNet{K: k, N: n}
		bias, at, err := field(o, "bias", d.integers)
		if err != nil {
			return nil, err
		}
		if len(bias) != n {
			return nil, fe(at.path, "%d values, want %d", len(bias), n)
		}
		if q.Bias, err = codes[int8](bias, element(at.path), -128, 127, "outside the int8 range"); err != nil {
			return nil, err
		}
		lut, at, err := field(o, "sigmoid_lut", d.integers)
		if err != nil {
			return nil, err
		}
		if len(lut) != LUTSize {
			return nil, fe(at.path, "%d entries, want %d", len(lut), LUTSize)
		}
		if q.LUT, err = codes[uint8](lut, element(at.path), 0, 255, "outside [0, 255]"); err != nil {
			return nil, err
		}
		rows, at, err := field(o, "w_in", d.integerRows)
		if err != nil {
			return nil, err
		}
		win, err := flatten(rows, n, k, at.path, "")
		if err != nil {
			return nil, err
		}
		matrix := func(i int) string { return fmt.Sprintf("%s[%d][%d]", at.path, i/k, i%k) }
		if q.Win, err = codes[int8](win, matrix, -128, 127, "outside the int8 range"); err != nil {
			return nil, err
		}
		return q, nil
	},
	diff: func(a, b Network, names [2]string, note string) []string {
		p, q := a.(*FixedNet), b.(*FixedNet)
		var diffs []string
		if i := firstDiff(p.Win, q.Win); i >= 0 {
			diffs = append(diffs, fmt.Sprintf("W_in[%d][%d]: %s %d, %s %d%s", i/p.K, i%p.K, names[0], p.Win[i], names[1], q.Win[i], note))
		}
		if i := firstDiff(p.Bias, q.Bias); i >= 0 {
			diffs = append(diffs, fmt.Sprintf("bias[%d]: %s %d, %s %d%s", i, names[0], p.Bias[i], names[1], q.Bias[i], note))
		}
		if i := firstDiff(p.LUT, q.LUT); i >= 0 {
			diffs = append(diffs, fmt.Sprintf("sigmoid LUT[%d]: %s %d, %s %d", i, names[0], p.LUT[i], names[1], q.LUT[i]))
		}
		return diffs
	},
}

// codes converts integer codes read from model.json to T, each in [lo, hi]
// (an error at the field name(i) with msg otherwise).
func codes[T int8 | uint8](v []int, name func(i int) string, lo, hi int, msg string) ([]T, error) {
	out := make([]T, len(v))
	for i, c := range v {
		if c < lo || c > hi {
			return nil, fe(name(i), "%d %s", c, msg)
		}
		out[i] = T(c)
	}
	return out, nil
}

// element names element i of the array at path.
func element(path string) func(i int) string {
	return func(i int) string { return fmt.Sprintf("%s[%d]", path, i) }
}
