package model

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/hdlgen/hdlgen/quant"
)

func TestQuantizedReadoutDrivesIntegerInference(t *testing.T) {
	d := blobs(200, 6, 3, 5)
	m, err := Train(context.Background(), d, Config{Arch: IntRVFL, N: 60, Kappa: 3, Lambda: 2, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if err := m.QuantizeReadout(15); err != nil {
		t.Fatal(err)
	}
	xn := m.Norm.Apply(d.X, len(d.Y))
	h, err := m.Activations(xn, len(d.Y))
	if err != nil {
		t.Fatal(err)
	}
	scores, err := quant.Scores(h, m.QuantReadout())
	if err != nil {
		t.Fatal(err)
	}
	l := m.L()
	for r := range d.Y {
		ys := m.IntScores(d.X[r*6 : (r+1)*6])
		for c := range ys {
			if ys[c] != int64(scores[r*l+c]) {
				t.Fatalf("row %d class %d: model %d, quant %d", r, c, ys[c], scores[r*l+c])
			}
		}
		if max(ys[0], ys[1], ys[2]) > m.ScoreBound() {
			t.Fatalf("score beyond the accumulator bound")
		}
	}
	// A 5-bit readout stays close to the float readout on separable data.
	qa := m.AccuracyNormalized(xn, len(d.Y), d.Y)
	m.Readout = nil
	fa := m.AccuracyNormalized(xn, len(d.Y), d.Y)
	if qa < fa-0.05 {
		t.Errorf("5-bit accuracy %.3f far below float %.3f", qa, fa)
	}
	rv, _ := Train(context.Background(), d, Config{Arch: RVFL, N: 10, Lambda: 1})
	if err := rv.QuantizeReadout(15); err == nil {
		t.Error("quantised a float RVFL readout")
	}
}

// TestPredictNormalizedMatchesRowByRow: the batched float scores of
// PredictNormalized classify every row as MulRows and ArgmaxFloat row by
// row do, for the three networks (float readout), with many classes.
func TestPredictNormalizedMatchesRowByRow(t *testing.T) {
	rng := rand.New(rand.NewPCG(47, 48))
	const k, l, rows = 5, 13, 203
	x := make([]float64, rows*k)
	y := make([]int, rows)
	names := make([]string, l)
	for i := range names {
		names[i] = fmt.Sprintf("c%d", i)
	}
	for r := range y {
		y[r] = r % l
		for i := 0; i < k; i++ {
			x[r*k+i] = float64(y[r]) + rng.NormFloat64()
		}
	}
	d := Data{X: x, Y: y, ClassNames: names}
	for _, arch := range []Arch{IntRVFL, RVFL, RVFL8} {
		m, err := Train(context.Background(), d, Config{Arch: arch, N: 70, Kappa: 3, Lambda: 0.5})
		if err != nil {
			t.Fatal(err)
		}
		m.Readout = nil
		xn := m.Norm.Apply(x, rows)
		h := m.HiddenMatrix(xn, rows)
		c := m.Columns()
		got := m.PredictNormalized(xn, rows)
		for r := range got {
			if want := ArgmaxFloat(MulRows(m.Wout, h[r*c:(r+1)*c], l)); got[r] != want {
				t.Fatalf("%s row %d: batched %d, row by row %d", arch, r, got[r], want)
			}
		}
	}
}
