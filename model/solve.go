package model

import "github.com/hdlgen/hdlgen/ridge"

// SolveReadout returns the ridge readout W_out (L×c row-major) for the M×c
// activation matrix h and labels y (docs/semantics.md §5): the primal system when
// M ≥ c, the dual when M < c. jitter is the relative diagonal jitter that a
// numerically singular system needed (0 normally; see package ridge).
func SolveReadout(h []float64, m, c int, y []int, l int, lambda float64, reg Regularizer, threads int) (w []float64, jitter float64, err error) {
	s := ridge.Solver{Reg: reg.Ridge(), Threads: threads}
	w, info, err := s.Solve(ridge.Data{H: h, Rows: m, Cols: c, Labels: y}, l, lambda)
	if err != nil {
		return nil, 0, err
	}
	return w, info.Jitter, nil
}
