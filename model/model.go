package model

import (
	"fmt"
	"math"
)

// Model is a trained network with everything inference needs; it is what
// model.json holds (docs/model-json.md).
type Model struct {
	Name         string
	ClassNames   []string // L names; class l is ClassNames[l]
	FeatureNames []string // K names (may be nil)
	Seed         uint64
	Training     TrainingInfo
	Norm         Normalizer

	// Net is the hidden layer; its type is the model's architecture
	// (*IntNet, *FloatNet or *FixedNet).
	Net Network

	// Wout is the float ridge readout, L×Columns() row-major.
	Wout []float64
	// Readout is the integer readout: optional for intrvfl, required for rvfl8,
	// absent for rvfl (Net.Readout() says which).
	Readout *IntReadout
}

// TrainingInfo records how the model was trained (provenance; not needed for
// inference but reported by the tools).
type TrainingInfo struct {
	Lambda      float64     `json:"lambda"`
	Regularizer Regularizer `json:"regularizer"`
	Rows        int         `json:"rows"`
	Data        string      `json:"data,omitempty"`       // dataset name or file base name
	LabelName   string      `json:"label_name,omitempty"` // name of the label column of the training CSV
	// Jitter is the relative diagonal jitter the ridge system needed (0: none).
	Jitter float64 `json:"jitter,omitempty"`
	// Solver is how W_out was solved: empty (absent from model.json) for the
	// exact solve; for pinv-cutoff the method and the tolerance it used, the
	// default written out.
	Solver
	// PinvDropped is the number of singular values pinv-cutoff dropped.
	PinvDropped int `json:"pinv_dropped,omitempty"`
	// Select is Config.Select: M > 1 when the hidden units were chosen on
	// the training rows among M candidates per unit (absent: drawn).
	Select int `json:"select,omitempty"`
}

// IntReadout is an integer readout: scores y_l = Σ_j Q[l][j]·h_j.
type IntReadout struct {
	Bits   int     // signed width of each weight
	Bound  int     // weights lie in [−Bound, Bound]
	Scale  float64 // Q ≈ W_out / Scale
	Method string  // "round", "ga-rounded" or "ga-random"
	Q      []int32 // L×Columns() row-major
}

// Arch is the architecture of the model's hidden layer.
func (m *Model) Arch() Arch { return m.Net.Arch() }

// K is the number of input features.
func (m *Model) K() int { return m.Norm.Features() }

// L is the number of classes.
func (m *Model) L() int { return len(m.ClassNames) }

// N is the number of hidden neurons.
func (m *Model) N() int {
	_, n := m.Net.Dims()
	return n
}

// Columns is the number of readout inputs (N, or K+N with direct links).
func (m *Model) Columns() int { return m.Net.Columns() }

// Kappa is the clip threshold κ of a network type with κ (Traits.Kappa; 0
// for the others).
func (m *Model) Kappa() int {
	if t, _ := TraitsOf(m.Arch()); !t.Kappa {
		return 0
	}
	if net, ok := m.Net.(interface{ kappa() int }); ok {
		return net.kappa()
	}
	return 0
}

// Integer returns the model's hidden layer as an IntegerNetwork, or an error
// naming the architecture when it has no integer datapath (the float rvfl).
func (m *Model) Integer() (IntegerNetwork, error) {
	if net, ok := m.Net.(IntegerNetwork); ok {
		return net, nil
	}
	return nil, fmt.Errorf("model: the %s network has no integer datapath", m.Arch())
}

// integer is Integer for callers whose model must have one (a programmer error otherwise).
func (m *Model) integer(what string) IntegerNetwork {
	net, err := m.Integer()
	if err != nil {
		panic("model: " + what + " on a " + string(m.Arch()) + " model")
	}
	return net
}

// Normalize returns the normalised copy of one raw row.
func (m *Model) Normalize(raw []float64) []float64 {
	x := make([]float64, len(raw))
	m.Norm.ApplyTo(x, raw)
	return x
}

// Levels returns the intRVFL input levels (what the hardware receives) of a raw row.
func (m *Model) Levels(raw []float64) []int {
	if _, ok := m.Net.(*IntNet); !ok {
		panic("model: Levels on a " + string(m.Arch()) + " model")
	}
	return m.Inputs(raw)
}

// InputCodes returns the rvfl8 8-bit input codes (what the hardware receives) of a raw row.
func (m *Model) InputCodes(raw []float64) []uint8 {
	if _, ok := m.Net.(*FixedNet); !ok {
		panic("model: InputCodes on a " + string(m.Arch()) + " model")
	}
	a := make([]uint8, m.K())
	InputCodesTo(a, m.Normalize(raw))
	return a
}

// Inputs returns the hardware inputs of a raw row (intRVFL levels, rvfl8
// codes). It panics for a network without an integer datapath.
func (m *Model) Inputs(raw []float64) []int {
	in := make([]int, m.K())
	m.integer("Inputs").InputsTo(in, m.Normalize(raw))
	return in
}

// HiddenInts returns the integer hidden activations of a raw row (intrvfl: h ∈
// [−κ,κ]; rvfl8: 8-bit codes). It panics for the float RVFL.
func (m *Model) HiddenInts(raw []float64) []int {
	h := make([]int, m.N())
	m.integer("HiddenInts").HiddenIntsTo(h, m.Inputs(raw))
	return h
}

// HiddenFloats returns the readout inputs of a raw row as float64 (for the float readout).
func (m *Model) HiddenFloats(raw []float64) []float64 {
	out := make([]float64, m.Columns())
	m.Net.FeaturesTo(out, m.Normalize(raw))
	return out
}

// FloatScores returns W_out·h for a raw row.
func (m *Model) FloatScores(raw []float64) []float64 {
	h := m.HiddenFloats(raw)
	return MulRows(m.Wout, h, m.L())
}

// MulRows returns y = W·h for W with rows of len(h): each sum in order of the
// columns, every product rounded before it is added (never a fused
// multiply-add), which linalg.RowScores reproduces bit for bit.
func MulRows(w, h []float64, rows int) []float64 {
	c := len(h)
	y := make([]float64, rows)
	for l := range y {
		var s float64
		for j, v := range w[l*c : (l+1)*c] {
			s += float64(v * h[j]) // rounded, never fused (linalg.RowScores relies on it)
		}
		y[l] = s
	}
	return y
}

// IntScores returns the exact integer scores Σ_j Q[l][j]·h_j for a raw row. It
// panics if the model has no integer readout.
func (m *Model) IntScores(raw []float64) []int64 {
	if m.Readout == nil {
		panic("model: IntScores without an integer readout")
	}
	return m.Readout.Scores(m.HiddenInts(raw), m.L())
}

// Scores returns integer scores for one hidden-activation vector.
func (r *IntReadout) Scores(h []int, classes int) []int64 {
	c := len(h)
	y := make([]int64, classes)
	for l := range y {
		var s int64
		for j, q := range r.Q[l*c : (l+1)*c] {
			s += int64(q) * int64(h[j])
		}
		y[l] = s
	}
	return y
}

// Predict classifies a raw row: with the integer readout when the model has one,
// else with the float readout.
func (m *Model) Predict(raw []float64) int {
	if m.Readout != nil {
		return ArgmaxInt(m.IntScores(raw))
	}
	return ArgmaxFloat(m.FloatScores(raw))
}

// PredictFloat classifies a raw row with the float readout.
func (m *Model) PredictFloat(raw []float64) int { return ArgmaxFloat(m.FloatScores(raw)) }

// ArgmaxInt returns the index of the largest score, the lowest index on ties.
func ArgmaxInt(y []int64) int {
	best := 0
	for l := 1; l < len(y); l++ {
		if y[l] > y[best] {
			best = l
		}
	}
	return best
}

// ArgmaxFloat returns the index of the largest score, the lowest index on ties.
// NaN scores never win.
func ArgmaxFloat(y []float64) int {
	best := 0
	for l := 1; l < len(y); l++ {
		if y[l] > y[best] || math.IsNaN(y[best]) {
			best = l
		}
	}
	return best
}

// Accuracy returns the share of rows of the raw m×K matrix x whose prediction
// equals y, using Predict.
func (m *Model) Accuracy(x []float64, rows int, y []int) float64 {
	k := m.K()
	ok := 0
	for r := 0; r < rows; r++ {
		if m.Predict(x[r*k:(r+1)*k]) == y[r] {
			ok++
		}
	}
	return float64(ok) / float64(rows)
}

// AccWidth is the smallest signed width w with 2^(w−1) − 1 ≥ maxAbs.
func AccWidth(maxAbs int64) int {
	w := 1
	for (int64(1)<<(w-1))-1 < maxAbs {
		w++
	}
	return w
}

// ScoreBound is the largest |score| the integer readout can produce: N·κ·B for the
// intRVFL, N·255·B for the rvfl8.
func (m *Model) ScoreBound() int64 {
	if m.Readout == nil {
		panic("model: ScoreBound without an integer readout")
	}
	return int64(m.Columns()) * m.integer("ScoreBound").HiddenMax() * int64(m.Readout.Bound)
}

// String is a one-line description, e.g. "intrvfl K=4 N=50 L=3 κ=3 readout=5 bits".
func (m *Model) String() string {
	s := fmt.Sprintf("%s K=%d N=%d L=%d", m.Arch(), m.K(), m.N(), m.L()) + m.Net.describe()
	if m.Readout != nil {
		s += fmt.Sprintf(" readout=%d bits (±%d, %s)", m.Readout.Bits, m.Readout.Bound, m.Readout.Method)
	}
	return s
}
