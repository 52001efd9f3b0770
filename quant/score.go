package quant

import (
	"fmt"
	"math"
)

// Activations is an M×N matrix of integer hidden activations, row-major:
// the activation of neuron j for row m is Data[m*Cols+j].
type Activations struct {
	Rows int // M
	Cols int // N
	Data []int8
}

// NewActivations packs a rows×cols row-major []int (as an intRVFL's hidden
// layer produces it) into Activations, checking that every value fits int8.
func NewActivations(rows, cols int, data []int) (Activations, error) {
	if rows < 1 || cols < 1 || len(data) != rows*cols {
		return Activations{}, fmt.Errorf("quant: activations %d×%d from %d values", rows, cols, len(data))
	}
	h := Activations{Rows: rows, Cols: cols, Data: make([]int8, len(data))}
	for i, v := range data {
		if v < math.MinInt8 || v > math.MaxInt8 {
			return Activations{}, fmt.Errorf("quant: activation [%d][%d] = %d does not fit int8", i/cols, i%cols, v)
		}
		h.Data[i] = int8(v)
	}
	return h, nil
}

// Validate checks that Data has Rows×Cols entries and that the shape is not
// empty.
func (h Activations) Validate() error {
	if h.Rows < 1 || h.Cols < 1 {
		return fmt.Errorf("quant: activations %d×%d: empty shape", h.Rows, h.Cols)
	}
	if len(h.Data) != h.Rows*h.Cols {
		return fmt.Errorf("quant: activations %d×%d: has %d entries", h.Rows, h.Cols, len(h.Data))
	}
	return nil
}

// MaxAbs returns max |h| over all entries (κ for an intRVFL whose clip is
// reached; at most 128).
func (h Activations) MaxAbs() int {
	m := 0
	for _, v := range h.Data {
		a := int(v)
		if a < 0 {
			a = -a
		}
		m = max(m, a)
	}
	return m
}

// checkPair validates h and r and that every score fits an int32 accumulator.
func checkPair(h Activations, r Readout) error {
	if err := h.Validate(); err != nil {
		return err
	}
	if err := r.Validate(); err != nil {
		return err
	}
	if h.Cols != r.Neurons {
		return fmt.Errorf("quant: activations have %d columns, readout has %d neurons", h.Cols, r.Neurons)
	}
	if w := AccumulatorBits(h.Cols, h.MaxAbs(), r.Bound); w > 32 {
		return fmt.Errorf("quant: scores need a %d-bit accumulator (N=%d, max|h|=%d, B=%d), more than 32", w, h.Cols, h.MaxAbs(), r.Bound)
	}
	return nil
}

func checkLabels(labels []int, rows, classes int) error {
	if len(labels) != rows {
		return fmt.Errorf("quant: %d labels for %d rows", len(labels), rows)
	}
	for m, c := range labels {
		if c < 0 || c >= classes {
			return fmt.Errorf("quant: label of row %d is %d, outside [0, %d)", m, c, classes)
		}
	}
	return nil
}

// Scores returns the integer scores y[m][l] = Σ_j Q[l][j]·h[m][j] as an M×L
// row-major matrix. It fails if the shapes disagree or a score could overflow
// int32 (AccumulatorBits(N, max|h|, B) > 32).
func Scores(h Activations, r Readout) ([]int32, error) {
	if err := checkPair(h, r); err != nil {
		return nil, err
	}
	y := make([]int32, h.Rows*r.Classes)
	scoreRows(y, h.Data, h.Rows, h.Cols, r.Weights, r.Classes)
	return y, nil
}

// scoreRows writes the M×L row-major scores of h (M×N int8) and q (L×N).
func scoreRows(y []int32, h []int8, rows, n int, q []int32, classes int) {
	for m := range rows {
		hr := h[m*n : (m+1)*n]
		yr := y[m*classes : (m+1)*classes]
		for l := range classes {
			yr[l] = dot(hr, q[l*n:(l+1)*n])
		}
	}
}

// scoreCols writes the L×M column-major scores (class l's scores for all rows
// contiguous at s[l*M:(l+1)*M]).
func scoreCols(s []int32, h []int8, rows, n int, q []int32, classes int) {
	for m := range rows {
		hr := h[m*n : (m+1)*n]
		for l := range classes {
			s[l*rows+m] = dot(hr, q[l*n:(l+1)*n])
		}
	}
}

// dot returns Σ h[j]·q[j] in int32 (wrapping; callers guarantee no overflow,
// so the order of the additions does not matter).
func dot(h []int8, q []int32) int32 {
	q = q[:len(h)]
	var s0, s1, s2, s3 int32
	j := 0
	for ; j+4 <= len(h); j += 4 {
		s0 += int32(h[j]) * q[j]
		s1 += int32(h[j+1]) * q[j+1]
		s2 += int32(h[j+2]) * q[j+2]
		s3 += int32(h[j+3]) * q[j+3]
	}
	for ; j < len(h); j++ {
		s0 += int32(h[j]) * q[j]
	}
	return s0 + s1 + s2 + s3
}

// Argmax returns the index of the largest score; ties go to the lowest index.
// It panics on an empty slice.
func Argmax(y []int32) int {
	if len(y) == 0 {
		panic("quant: Argmax of no scores")
	}
	best := 0
	for l := 1; l < len(y); l++ {
		if y[l] > y[best] {
			best = l
		}
	}
	return best
}

// Predict returns argmax_l y[m][l] for every row (ties to the lowest class).
func Predict(h Activations, r Readout) ([]int, error) {
	y, err := Scores(h, r)
	if err != nil {
		return nil, err
	}
	p := make([]int, h.Rows)
	for m := range p {
		p[m] = Argmax(y[m*r.Classes : (m+1)*r.Classes])
	}
	return p, nil
}

// Accuracy returns the fraction of rows whose prediction equals the label.
func Accuracy(h Activations, r Readout, labels []int) (float64, error) {
	p, err := Predict(h, r)
	if err != nil {
		return 0, err
	}
	if err := checkLabels(labels, h.Rows, r.Classes); err != nil {
		return 0, err
	}
	ok := 0
	for m, c := range labels {
		if p[m] == c {
			ok++
		}
	}
	return float64(ok) / float64(h.Rows), nil
}

// RowCost returns the GLVQ row cost f(μ) for the correct-class score yPlus and
// the best wrong-class score yMinus (see the package documentation):
//
//	μ = (y⁻ − y⁺)/(|y⁻| + |y⁺|),  f(μ) = ½·(1 + βμ/(1 + β|μ|)),  f = ½ when y⁻ = y⁺ = 0.
//
// It is evaluated as the rational function of p = y⁻ − y⁺ and q = |y⁻| + |y⁺|
//
//	f = (q + β|p| + βp) / (2(q + β|p|))
//
// with +, −, ×, ÷ only, so it is bit-identical on every platform.
func RowCost(yPlus, yMinus int32, beta float64) float64 {
	return rowCost(int64(yPlus), int64(yMinus), beta)
}

func rowCost(yp, ym int64, beta float64) float64 {
	p := ym - yp
	q := abs64(ym) + abs64(yp)
	if q == 0 {
		return 0.5
	}
	// The explicit float64 conversions forbid fusing into FMA (Go spec,
	// "Floating-point operators"): every operation is rounded on its own.
	t := float64(beta * float64(abs64(p))) // β|p|
	fq := float64(q)
	den := float64(2 * float64(fq+t))
	if p < 0 {
		return fq / den
	}
	return float64(fq+float64(2*t)) / den
}

func abs64(x int64) int64 {
	if x < 0 {
		return -x
	}
	return x
}

// Cost returns the GA fitness of r on (h, labels): Σ_m f(μ_m) summed in row
// order (lower is better; see RowCost). It needs at least two classes.
func Cost(h Activations, r Readout, labels []int, beta float64) (float64, error) {
	if err := checkBeta(beta); err != nil {
		return 0, err
	}
	if r.Classes < 2 {
		return 0, fmt.Errorf("quant: GLVQ cost needs at least 2 classes, readout has %d", r.Classes)
	}
	y, err := Scores(h, r)
	if err != nil {
		return 0, err
	}
	if err := checkLabels(labels, h.Rows, r.Classes); err != nil {
		return 0, err
	}
	L := r.Classes
	sum := 0.0
	for m, c := range labels {
		yr := y[m*L : (m+1)*L]
		ym := int32(math.MinInt32)
		for l, v := range yr {
			if l != c && v > ym {
				ym = v
			}
		}
		sum += rowCost(int64(yr[c]), int64(ym), beta)
	}
	return sum, nil
}

// maxBeta keeps β|p| exact in float64 for integer β: |p| < 2^33, so β < 2^20
// gives products below 2^53.
const maxBeta = 1 << 20

func checkBeta(beta float64) error {
	if !(beta > 0) || beta > maxBeta {
		return fmt.Errorf("quant: GLVQ beta %v outside (0, %d]", beta, maxBeta)
	}
	return nil
}
