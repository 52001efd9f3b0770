package model

import (
	"fmt"

	"gonum.org/v1/gonum/mat"
)

// SolveReadout returns the ridge readout W_out (L×c row-major) for the M×c
// activation matrix h and labels y (docs/semantics.md §5).
// TEMPORARY: a straightforward gonum route until package ridge lands.
func SolveReadout(h []float64, m, c int, y []int, l int, lambda float64, reg Regularizer, threads int) ([]float64, error) {
	H := mat.NewDense(m, c, h)
	r := make([]float64, c)
	for j := 0; j < c; j++ {
		if reg == RegIdentity {
			r[j] = 1
			continue
		}
		var s, s2 float64
		for i := 0; i < m; i++ {
			s += h[i*c+j]
		}
		mean := s / float64(m)
		for i := 0; i < m; i++ {
			d := h[i*c+j] - mean
			s2 += d * d
		}
		v := 0.0
		if m > 1 {
			v = s2 / float64(m-1)
		}
		if v == 0 {
			v = 1
		}
		r[j] = v
	}
	var g mat.SymDense
	g.SymOuterK(1, H.T())
	for j := 0; j < c; j++ {
		g.SetSym(j, j, g.At(j, j)+lambda*r[j])
	}
	Y := mat.NewDense(m, l, nil)
	for i, lab := range y {
		Y.Set(i, lab, 1)
	}
	var b mat.Dense
	b.Mul(H.T(), Y)
	var ch mat.Cholesky
	if !ch.Factorize(&g) {
		return nil, fmt.Errorf("ridge system is not positive definite")
	}
	var w mat.Dense
	if err := ch.SolveTo(&w, &b); err != nil {
		return nil, err
	}
	out := make([]float64, l*c)
	for i := 0; i < l; i++ {
		for j := 0; j < c; j++ {
			out[i*c+j] = w.At(j, i)
		}
	}
	return out, nil
}
