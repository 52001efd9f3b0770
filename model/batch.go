package model

import "github.com/hdlgen/hdlgen/linalg"

// HiddenMatrix returns the M×Columns() readout-input matrix of M normalised rows
// (float64; exact integers for the intRVFL, h·2^-8 for the rvfl8).
func (m *Model) HiddenMatrix(xnorm []float64, rows int) []float64 {
	return m.Net.HiddenMatrix(xnorm, rows)
}

// PredictNormalized classifies M normalised rows: with the integer readout when
// the model has one, else with the float readout.
func (m *Model) PredictNormalized(xnorm []float64, rows int) []int {
	h := m.HiddenMatrix(xnorm, rows)
	c, l := m.Columns(), m.L()
	pred := make([]int, rows)
	if m.Readout != nil {
		hscale := m.integer("an integer readout").HiddenScale() // back to the integer h
		hi := make([]int, c)
		for r := 0; r < rows; r++ {
			for j, v := range h[r*c : (r+1)*c] {
				hi[j] = int(v * hscale)
			}
			pred[r] = ArgmaxInt(m.Readout.Scores(hi, l))
		}
		return pred
	}
	// MulRows's sums for all rows at once (linalg.RowScores: the same
	// operations, bit for bit, several rows and classes side by side).
	scores := make([]float64, rows*l)
	linalg.Engine{}.RowScores(rows, c, l, h, c, m.Wout, c, scores, l)
	for r := range pred {
		pred[r] = ArgmaxFloat(scores[r*l : (r+1)*l])
	}
	return pred
}

// AccuracyNormalized is the share of M normalised rows whose prediction equals y.
func (m *Model) AccuracyNormalized(xnorm []float64, rows int, y []int) float64 {
	ok := 0
	for r, p := range m.PredictNormalized(xnorm, rows) {
		if p == y[r] {
			ok++
		}
	}
	return float64(ok) / float64(rows)
}
