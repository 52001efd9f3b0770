package quant

import (
	"fmt"
	"math"
	"math/bits"
)

// MinBits and MaxBits bound the readout word widths accepted by BoundForBits.
const (
	MinBits = 2
	MaxBits = 16
)

// MaxBound is the largest accepted bound: the bound of a 16-bit readout word.
const MaxBound = 1<<(MaxBits-1) - 1

// Readout methods, the values of Readout.Method.
const (
	MethodRound     = "round"      // rounded ridge-regression solution (Quantize)
	MethodGARounded = "ga-rounded" // GA refinement seeded with the rounded solution (Refine)
	MethodGARandom  = "ga-random"  // GA started from uniformly random levels (RandomGA)
)

// Readout is an integer readout matrix Q with levels −Bound…Bound.
//
// Weights is L×N row-major: the weight from hidden neuron j to class l is
// Weights[l*Neurons+j]. The float readout it stands for is Scale·Q; the
// scale never enters the integer scores (argmax is invariant to it) and is
// kept for reporting and dequantisation.
type Readout struct {
	Classes int     // L, number of output neurons (rows of Weights)
	Neurons int     // N, number of hidden neurons (columns of Weights)
	Bound   int     // B ≥ 1: every weight is in [−B, B]
	Bits    int     // BitsForBound(Bound): the signed word width that holds ±B
	Scale   float64 // s > 0: Q·s approximates the float readout
	Weights []int32 // L×N row-major
	Method  string  // MethodRound, MethodGARounded or MethodGARandom
}

// BoundForBits returns the bound B = 2^(b−1) − 1 of a symmetric b-bit
// readout word (levels −B…B). It panics unless MinBits ≤ b ≤ MaxBits.
func BoundForBits(b int) int {
	if b < MinBits || b > MaxBits {
		panic(fmt.Sprintf("quant: bits %d outside [%d, %d]", b, MinBits, MaxBits))
	}
	return 1<<(b-1) - 1
}

// BitsForBound returns the minimal signed two's-complement width w that holds
// ±bound, i.e. the smallest w with 2^(w−1) − 1 ≥ bound. For bounds of the form
// 2^(b−1) − 1 it inverts BoundForBits. It panics unless 1 ≤ bound ≤ MaxBound.
func BitsForBound(bound int) int {
	if bound < 1 || bound > MaxBound {
		panic(fmt.Sprintf("quant: bound %d outside [1, %d]", bound, MaxBound))
	}
	return bits.Len(uint(bound)) + 1
}

// AccumulatorBits returns the minimal signed width w with
// 2^(w−1) − 1 ≥ n·kappa·bound, so that a score Σ_j Q[l][j]·h_j over n
// neurons with |h_j| ≤ kappa and |Q[l][j]| ≤ bound can never overflow a
// w-bit two's-complement accumulator. A zero product gives w = 1.
// It panics if an argument is negative or the product overflows 64 bits.
func AccumulatorBits(n, kappa, bound int) int {
	if n < 0 || kappa < 0 || bound < 0 {
		panic(fmt.Sprintf("quant: AccumulatorBits(%d, %d, %d): negative argument", n, kappa, bound))
	}
	hi1, p1 := bits.Mul64(uint64(n), uint64(kappa))
	hi2, p := bits.Mul64(p1, uint64(bound))
	if hi1 != 0 || hi2 != 0 || p > math.MaxInt64 {
		panic(fmt.Sprintf("quant: AccumulatorBits(%d, %d, %d): product overflows", n, kappa, bound))
	}
	return bits.Len64(p) + 1
}

// Quantize maps the float readout w (classes×neurons, row-major) to levels
// −bound…bound: s = max|w| / bound, Q = round(w / s) with rounding half away
// from zero (math.Round), clamped to [−bound, bound]. An all-zero w gives
// Q = 0 and s = 1. The result has Method MethodRound.
func Quantize(w []float64, classes, neurons, bound int) (Readout, error) {
	if classes < 1 || neurons < 1 {
		return Readout{}, fmt.Errorf("quant: quantize %d×%d readout: empty shape", classes, neurons)
	}
	if len(w) != classes*neurons {
		return Readout{}, fmt.Errorf("quant: quantize %d×%d readout: got %d weights", classes, neurons, len(w))
	}
	if bound < 1 || bound > MaxBound {
		return Readout{}, fmt.Errorf("quant: quantize %d×%d readout: bound %d outside [1, %d]", classes, neurons, bound, MaxBound)
	}
	maxAbs := 0.0
	for i, v := range w {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return Readout{}, fmt.Errorf("quant: quantize %d×%d readout: weight [%d][%d] is %v", classes, neurons, i/neurons, i%neurons, v)
		}
		maxAbs = max(maxAbs, math.Abs(v))
	}
	r := Readout{
		Classes: classes,
		Neurons: neurons,
		Bound:   bound,
		Bits:    BitsForBound(bound),
		Scale:   1,
		Weights: make([]int32, len(w)),
		Method:  MethodRound,
	}
	if maxAbs == 0 {
		return r, nil
	}
	r.Scale = maxAbs / float64(bound)
	if r.Scale == 0 || math.IsInf(r.Scale, 0) {
		// maxAbs is subnormal (scale underflows) or huge; neither has a usable scale.
		return Readout{}, fmt.Errorf("quant: quantize %d×%d readout: max|w| = %g gives unusable scale %g", classes, neurons, maxAbs, r.Scale)
	}
	b := float64(bound)
	for i, v := range w {
		q := math.Round(v / r.Scale)
		r.Weights[i] = int32(min(max(q, -b), b))
	}
	return r, nil
}

// QuantizeBits is Quantize with the bound of a b-bit word, BoundForBits(b).
func QuantizeBits(w []float64, classes, neurons, b int) (Readout, error) {
	if b < MinBits || b > MaxBits {
		return Readout{}, fmt.Errorf("quant: quantize %d×%d readout: bits %d outside [%d, %d]", classes, neurons, b, MinBits, MaxBits)
	}
	return Quantize(w, classes, neurons, BoundForBits(b))
}

// Validate checks the shape, the bound, the bit width, the scale and that every
// weight lies in [−Bound, Bound].
func (r Readout) Validate() error {
	if r.Classes < 1 || r.Neurons < 1 {
		return fmt.Errorf("quant: readout %d×%d: empty shape", r.Classes, r.Neurons)
	}
	if len(r.Weights) != r.Classes*r.Neurons {
		return fmt.Errorf("quant: readout %d×%d: has %d weights", r.Classes, r.Neurons, len(r.Weights))
	}
	if r.Bound < 1 || r.Bound > MaxBound {
		return fmt.Errorf("quant: readout %d×%d: bound %d outside [1, %d]", r.Classes, r.Neurons, r.Bound, MaxBound)
	}
	if want := BitsForBound(r.Bound); r.Bits != want {
		return fmt.Errorf("quant: readout %d×%d: bits %d, bound %d needs %d", r.Classes, r.Neurons, r.Bits, r.Bound, want)
	}
	if !(r.Scale > 0) || math.IsInf(r.Scale, 0) {
		return fmt.Errorf("quant: readout %d×%d: scale %v is not positive and finite", r.Classes, r.Neurons, r.Scale)
	}
	b := int32(r.Bound)
	for i, q := range r.Weights {
		if q < -b || q > b {
			return fmt.Errorf("quant: readout %d×%d: weight [%d][%d] = %d outside ±%d", r.Classes, r.Neurons, i/r.Neurons, i%r.Neurons, q, b)
		}
	}
	return nil
}

// Float returns the dequantised readout Scale·Q (L×N row-major).
func (r Readout) Float() []float64 {
	w := make([]float64, len(r.Weights))
	for i, q := range r.Weights {
		w[i] = r.Scale * float64(q)
	}
	return w
}

// Clone returns a deep copy of r.
func (r Readout) Clone() Readout {
	c := r
	c.Weights = append([]int32(nil), r.Weights...)
	return c
}
