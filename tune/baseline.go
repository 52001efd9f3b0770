package tune

import (
	"context"
	"fmt"
	"math"

	"github.com/hdlgen/hdlgen/dataset"
	"github.com/hdlgen/hdlgen/model"
	"github.com/hdlgen/hdlgen/ridge"
)

// Linear is the network name of the linear baseline in a Result.
const Linear = "linear"

// LinearLambdas is the λ grid of the linear baseline: 2⁻¹⁰ … 2¹⁰.
func LinearLambdas() []float64 {
	var l []float64
	for e := -10; e <= 10; e++ {
		l = append(l, math.Ldexp(1, e))
	}
	return l
}

// LinearResult is the linear baseline of a task.
type LinearResult struct {
	Lambda    float64
	Validated Accuracy  // on the validation splits, at Lambda
	Tested    *Accuracy // on the test file (nil without one)
}

// Linear fits the baseline a user can judge a network against: a ridge
// classifier (one-hot targets, identity penalty, exact solve) on the
// features min-max normalised with the fitted rows' statistics, plus a
// constant column. λ is chosen from lambdas by the most correct validation
// predictions over the task's splits (ties to the larger λ); with a test
// file the classifier is then fitted on every training row and scored
// there. It is deterministic and has no seed.
func (t *Task) Linear(ctx context.Context, lambdas []float64) (*LinearResult, error) {
	if len(lambdas) == 0 {
		return nil, fmt.Errorf("linear %s: no λ", t.Name)
	}
	solver := ridge.Solver{Reg: ridge.Identity, Threads: 1}
	k := t.Train.K()
	correct := make([]int, len(lambdas))
	per := make([][]int, len(t.Splits))
	valRows := make([]int, len(t.Splits))
	for f, s := range t.Splits {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		tr, va := linearDesign(t.Train, s.Train, s.Train), linearDesign(t.Train, s.Train, s.Test)
		g, err := solver.Grid(tr, va, t.Train.L(), lambdas, []int{k + 1})
		if err != nil {
			return nil, fmt.Errorf("linear %s: split %d: %w", t.Name, f+1, err)
		}
		per[f] = g.Correct[0]
		valRows[f] = len(s.Test)
		for li, c := range g.Correct[0] {
			correct[li] += c
		}
	}
	best := 0
	for li := range lambdas {
		if correct[li] > correct[best] || (correct[li] == correct[best] && lambdas[li] > lambdas[best]) {
			best = li
		}
	}
	res := &LinearResult{Lambda: lambdas[best]}
	acc := make([]float64, len(t.Splits))
	for f := range t.Splits {
		acc[f] = float64(per[f][best]) / float64(valRows[f])
	}
	res.Validated = accuracyOf([][]float64{acc})
	if t.Test == nil {
		return res, nil
	}
	all := identityRows(t.Train.M())
	tr := linearDesign(t.Train, all, all)
	w, _, err := solver.Solve(tr, t.Train.L(), res.Lambda)
	if err != nil {
		return nil, fmt.Errorf("linear %s: %w", t.Name, err)
	}
	te := linearDesignOf(t.Test, fitRows(t.Train, all), identityRows(t.Test.M()))
	n := 0
	for i, p := range ridge.Predict(te.H, te.Rows, te.Cols, w, t.Train.L(), 1) {
		if p == te.Labels[i] {
			n++
		}
	}
	a := accuracyOf([][]float64{{float64(n) / float64(te.Rows)}})
	res.Tested = &a
	return res, nil
}

// linearDesign is the design matrix of rows of d, normalised with the
// statistics of the rows fit, with a constant last column.
func linearDesign(d *dataset.Dataset, fit, rows []int) ridge.Data {
	return linearDesignOf(d, fitRows(d, fit), rows)
}

func linearDesignOf(d *dataset.Dataset, nz model.Normalizer, rows []int) ridge.Data {
	k := d.K()
	h := make([]float64, len(rows)*(k+1))
	y := make([]int, len(rows))
	for i, r := range rows {
		nz.ApplyTo(h[i*(k+1):i*(k+1)+k], d.Row(r))
		h[i*(k+1)+k] = 1
		y[i] = d.Y[r]
	}
	return ridge.Data{H: h, Rows: len(rows), Cols: k + 1, Labels: y}
}

func identityRows(m int) []int {
	r := make([]int, m)
	for i := range r {
		r[i] = i
	}
	return r
}
