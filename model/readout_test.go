package model

import (
	"context"
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
