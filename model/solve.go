package model

import "github.com/hdlgen/hdlgen/ridge"

// SolveReadout returns the ridge readout W_out (L×c row-major) for the M×c
// activation matrix h and labels y (docs/semantics.md §5), solved as sv says:
// exactly (the primal system when M ≥ c, the dual when M < c) or by the
// pinv cutoff. info.Jitter is the relative diagonal jitter that a numerically
// singular system needed (0 normally), info.Dropped the singular values the
// cutoff dropped (see package ridge).
func SolveReadout(h []float64, m, c int, y []int, l int, lambda float64, reg Regularizer, sv Solver, threads int) (w []float64, info ridge.Info, err error) {
	return sv.Ridge(reg, threads).Solve(ridge.Data{H: h, Rows: m, Cols: c, Labels: y}, l, lambda)
}
