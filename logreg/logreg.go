package logreg

import (
	"context"
	"errors"
	"math"
	"slices"
	"sync"

	"github.com/hdlgen/hdlgen/dataset"
	"github.com/hdlgen/hdlgen/internal/parallel"
)

// Method names the classifier, as the report states it.
const Method = "multinomial logistic regression (softmax, L2 penalty λ on the weights, L-BFGS) on the min-max normalised features"

// DefaultLambdas is the penalty grid Validate scores (per row of the mean
// cross-entropy), largest first.
var DefaultLambdas = []float64{1e-1, 1e-2, 1e-3, 1e-4, 1e-5}

// maxIterations bounds the L-BFGS iterations of one fit; gradTol is the
// gradient norm it stops at.
const (
	maxIterations = 100
	gradTol       = 1e-6
)

// Model is a fitted logistic regression: class scores W·u + b of the
// features u scaled to [0, 1] by the training rows' Min and Max.
type Model struct {
	Lambda float64     `json:"lambda"`
	Min    []float64   `json:"min"`
	Max    []float64   `json:"max"`
	W      [][]float64 `json:"w"` // W[c] holds K weights and the bias last
}

// problem is the data of one fit: the scaled rows and their classes.
type problem struct {
	x      [][]float64 // scaled rows, a 1 appended (the bias input)
	y      []int
	k1, l  int
	lambda float64
}

// scaleOf is the minimum and maximum of each feature over rows.
func scaleOf(d *dataset.Dataset, rows []int) (lo, hi []float64) {
	k := d.K()
	lo, hi = make([]float64, k), make([]float64, k)
	for j := range k {
		lo[j], hi[j] = math.Inf(1), math.Inf(-1)
	}
	for _, r := range rows {
		for j, v := range d.Row(r) {
			lo[j], hi[j] = math.Min(lo[j], v), math.Max(hi[j], v)
		}
	}
	return lo, hi
}

// scale is row x scaled by lo and hi (0 for a constant feature), with a 1
// appended.
func scale(x, lo, hi []float64) []float64 {
	u := make([]float64, len(x)+1)
	for j, v := range x {
		if hi[j] > lo[j] {
			u[j] = (v - lo[j]) / (hi[j] - lo[j])
		}
	}
	u[len(x)] = 1
	return u
}

// lossGrad is the penalised mean cross-entropy at w (L rows of K+1) and its
// gradient.
func (p *problem) lossGrad(w, grad []float64) float64 {
	clear(grad)
	s := make([]float64, p.l)
	loss := 0.0
	for i, x := range p.x {
		mx := math.Inf(-1)
		for c := range p.l {
			wc := w[c*p.k1 : (c+1)*p.k1]
			v := 0.0
			for j, xj := range x {
				v += wc[j] * xj
			}
			s[c] = v
			mx = math.Max(mx, v)
		}
		z := 0.0
		for c := range s {
			s[c] = math.Exp(s[c] - mx)
			z += s[c]
		}
		loss -= math.Log(s[p.y[i]] / z)
		for c := range s {
			g := s[c] / z
			if c == p.y[i] {
				g--
			}
			gc := grad[c*p.k1 : (c+1)*p.k1]
			for j, xj := range x {
				gc[j] += g * xj
			}
		}
	}
	n := float64(len(p.x))
	loss /= n
	for i := range grad {
		grad[i] /= n
		if (i+1)%p.k1 != 0 { // not a bias
			loss += 0.5 * p.lambda * w[i] * w[i]
			grad[i] += p.lambda * w[i]
		}
	}
	return loss
}

// fit minimises the problem from w0 (nil: zeros) by L-BFGS and returns
// the weights.
func (p *problem) fit(ctx context.Context, w0 []float64) ([]float64, error) {
	w := make([]float64, p.l*p.k1)
	if w0 != nil {
		copy(w, w0)
	}
	return minimize(ctx, p.lossGrad, w)
}

// newProblem scales rows of d by their own minimum and maximum.
func newProblem(d *dataset.Dataset, rows []int, lambda float64) (*problem, []float64, []float64) {
	lo, hi := scaleOf(d, rows)
	p := &problem{k1: d.K() + 1, l: d.L(), lambda: lambda}
	for _, r := range rows {
		p.x = append(p.x, scale(d.Row(r), lo, hi))
		p.y = append(p.y, d.Y[r])
	}
	return p, lo, hi
}

func (p *problem) model(w, lo, hi []float64) *Model {
	m := &Model{Lambda: p.lambda, Min: lo, Max: hi}
	for c := range p.l {
		m.W = append(m.W, slices.Clone(w[c*p.k1:(c+1)*p.k1]))
	}
	return m
}

// Fit fits the logistic regression of penalty lambda on rows of d (all rows
// when rows is nil).
func Fit(ctx context.Context, d *dataset.Dataset, rows []int, lambda float64) (*Model, error) {
	if rows == nil {
		rows = allRows(d)
	}
	if len(rows) == 0 {
		return nil, errors.New("logreg: no training rows")
	}
	p, lo, hi := newProblem(d, rows, lambda)
	w, err := p.fit(ctx, nil)
	if err != nil {
		return nil, err
	}
	return p.model(w, lo, hi), nil
}

// Predict is the class of the raw feature row x (ties to the lower class).
func (m *Model) Predict(x []float64) int {
	u := scale(x, m.Min, m.Max)
	best, bestV := 0, math.Inf(-1)
	for c, wc := range m.W {
		v := 0.0
		for j, uj := range u {
			v += wc[j] * uj
		}
		if v > bestV {
			best, bestV = c, v
		}
	}
	return best
}

// Correct counts the rows of d that m classifies correctly (all rows when
// rows is nil).
func (m *Model) Correct(d *dataset.Dataset, rows []int) int {
	if rows == nil {
		rows = allRows(d)
	}
	n := 0
	for _, r := range rows {
		if m.Predict(d.Row(r)) == d.Y[r] {
			n++
		}
	}
	return n
}

// Accuracy is a mean accuracy over validation splits.
type Accuracy struct {
	Mean     float64   `json:"mean"`
	Std      float64   `json:"std"` // sample standard deviation over the splits
	PerSplit []float64 `json:"per_split"`
}

func accuracyOf(per []float64) Accuracy {
	a := Accuracy{PerSplit: per}
	for _, v := range per {
		a.Mean += v
	}
	a.Mean /= float64(len(per))
	if len(per) > 1 {
		for _, v := range per {
			a.Std += (v - a.Mean) * (v - a.Mean)
		}
		a.Std = math.Sqrt(a.Std / float64(len(per)-1))
	}
	return a
}

// Scored is one λ's validation accuracy.
type Scored struct {
	Lambda    float64  `json:"lambda"`
	Validated Accuracy `json:"validation_accuracy"`
}

// Validate scores every λ of lambdas (nil: DefaultLambdas) on the splits,
// each split fitted on its own training rows, and returns them with the
// index of the best (the highest mean; ties to the larger λ, listed first).
// Each split runs its λ from the largest, each fit starting from the
// previous one's weights; the splits run workers at a time. progress, when
// set, is called (one call at a time) after each split with the splits done.
func Validate(ctx context.Context, d *dataset.Dataset, splits []dataset.Split, lambdas []float64, workers int, progress func(done, total int)) ([]Scored, int, error) {
	if lambdas == nil {
		lambdas = DefaultLambdas
	}
	lambdas = slices.Clone(lambdas)
	slices.SortFunc(lambdas, func(a, b float64) int { return -cmpFloat(a, b) })
	acc := make([][]float64, len(lambdas)) // acc[λ][split]
	for i := range acc {
		acc[i] = make([]float64, len(splits))
	}
	errs := make([]error, len(splits))
	var mu sync.Mutex
	done := 0
	parallel.For(workers, len(splits), func(_, s int) {
		sp := splits[s]
		p, lo, hi := newProblem(d, sp.Train, 0)
		var w []float64
		for i, lambda := range lambdas {
			p.lambda = lambda
			var err error
			if w, err = p.fit(ctx, w); err != nil {
				errs[s] = err
				return
			}
			acc[i][s] = float64(p.model(w, lo, hi).Correct(d, sp.Test)) / float64(len(sp.Test))
		}
		if progress != nil {
			mu.Lock()
			done++
			progress(done, len(splits))
			mu.Unlock()
		}
	})
	if err := errors.Join(errs...); err != nil {
		return nil, -1, err
	}
	var out []Scored
	best := 0
	for i, lambda := range lambdas {
		out = append(out, Scored{Lambda: lambda, Validated: accuracyOf(acc[i])})
		if out[i].Validated.Mean > out[best].Validated.Mean {
			best = i
		}
	}
	return out, best, nil
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func allRows(d *dataset.Dataset) []int {
	rows := make([]int, d.M())
	for i := range rows {
		rows[i] = i
	}
	return rows
}
