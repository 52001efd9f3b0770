package quant

import (
	"math/rand/v2"
)

// problem is a synthetic classification problem with intRVFL-like
// activations: h[m][j] = clip(Σ of k random ±1, −kappa, kappa), labels from
// a random float "teacher" readout, and a float readout w that is the teacher
// plus noise (what ridge regression would roughly give).
type problem struct {
	h      Activations
	labels []int
	w      []float64 // L×N
	l      int
}

func synth(rows, n, classes, kappa int, noise float64, seed uint64) problem {
	rng := rand.New(rand.NewPCG(seed, 7))
	const k = 16
	h := Activations{Rows: rows, Cols: n, Data: make([]int8, rows*n)}
	for i := range h.Data {
		s := 0
		for range k {
			s += 2*rng.IntN(2) - 1
		}
		h.Data[i] = int8(min(max(s, -kappa), kappa))
	}
	teacher := make([]float64, classes*n)
	for i := range teacher {
		teacher[i] = rng.NormFloat64()
	}
	labels := make([]int, rows)
	for m := range rows {
		best, bv := 0, 0.0
		for l := range classes {
			s := 0.0
			for j := range n {
				s += teacher[l*n+j] * float64(h.Data[m*n+j])
			}
			if l == 0 || s > bv {
				best, bv = l, s
			}
		}
		labels[m] = best
	}
	w := make([]float64, len(teacher))
	for i := range w {
		w[i] = teacher[i] + noise*rng.NormFloat64()
	}
	return problem{h: h, labels: labels, w: w, l: classes}
}
