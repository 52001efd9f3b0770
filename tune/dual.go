package tune

import (
	"context"
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/hdlgen/hdlgen/dataset"
	"github.com/hdlgen/hdlgen/linalg"
	"github.com/hdlgen/hdlgen/model"
	"github.com/hdlgen/hdlgen/protocol"
	"github.com/hdlgen/hdlgen/quant"
	"github.com/hdlgen/hdlgen/ridge"
)

// dualJitter is ridge's ladder of relative diagonal jitters, tried in
// order when a Cholesky factorisation fails (ridge's factorLadder).
var dualJitter = [...]float64{1e-10, 1e-8, 1e-6, 1e-4, 1e-2}

// dualScored reports whether the intRVFL part with n neurons on split s is
// scored by dualIntRVFL: a rounded readout (the float readout's grid,
// ridge.Solver.Grid, already builds each kernel once), fewer training rows
// than neurons (the dual system), the exact solver.
func dualScored(so protocol.SearchOptions, s dataset.Split, n int) bool {
	return so.Bits != 0 && len(s.Train) < n && so.Solver.Exact()
}

// dualIntRVFL scores the intRVFL with n neurons on split s, every κ and λ,
// when the readout is solved in the dual form (fewer training rows m than
// neurons): as protocol.Search, whose scorer calls ridge.Solver.SolveDual
// once per λ, but with the m×m kernel of each κ's hidden layer formed once
// and reused for every λ — SolveDual's own steps (the columns scaled by the
// penalty's R^{-1/2}, K = H'H'ᵀ, the Cholesky factor of K + λI with ridge's
// jitter ladder, α = (K + λI)⁻¹Y, W = R^{-1/2}H'ᵀα) on the same linalg
// kernels, so the readouts, and the counts, are the same bit for bit
// (TestDualPartEqualsProtocol). The kernel was 26 λ × 4 κ of the search's
// cost where the hidden layer is wider than the training rows.
func (t *Task) dualIntRVFL(ctx context.Context, so protocol.SearchOptions, s dataset.Split, n int) (*protocol.SearchResult, error) {
	start := time.Now()
	d := t.Train
	k, l := d.K(), d.L()
	mt, mv := len(s.Train), len(s.Test)
	g := so.Grid
	res := &protocol.SearchResult{Dataset: t.Name, Network: protocol.IntRVFL,
		Grid: protocol.Grid{Ns: []int{n}, Lambdas: g.Lambdas, Kappas: g.Kappas},
		Best: protocol.Best{ValRows: mv}, Bits: so.Bits, Solver: so.Solver, Win: so.Win}
	norm := fitRows(d, s.Train)
	net := model.NewIntNetGen(k, n, 1, so.Seed, so.Win)
	solver := so.Solver.Ridge(so.Regularizer, 1)
	e := linalg.Engine{Threads: solver.Threads}

	inputs := func(rows []int) []int16 {
		x := make([]float64, len(rows)*k)
		for i, r := range rows {
			norm.ApplyTo(x[i*k:(i+1)*k], d.Row(r))
		}
		in := make([]int16, len(rows)*n)
		protocol.HiddenInputsTo(in, net, x, len(rows))
		return in
	}
	t0 := time.Now()
	inTrain, inVal := inputs(s.Train), inputs(s.Test)
	res.HiddenSeconds = time.Since(t0).Seconds()
	yTrain := make([]int, mt)
	for i, r := range s.Train {
		yTrain[i] = d.Y[r]
	}
	htr, hva := make([]float64, mt*n), make([]float64, mv*n)

	res.Correct = make([][][]int, len(g.Kappas))
	solvedAt := map[int]int{} // effective κ → index of the κ solved with it
	for ki, kappa := range g.Kappas {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		eff := min(kappa, k) // clipping at κ ≥ K changes nothing
		if prev, ok := solvedAt[eff]; ok {
			res.Correct[ki] = res.Correct[prev]
			continue
		}
		protocol.ClipTo(htr, inTrain, eff)
		protocol.ClipTo(hva, inVal, eff)
		ws := make([][]float64, len(g.Lambdas))
		err := dualReadouts(e, solver, htr, mt, n, yTrain, l, g.Lambdas, func(li int, w []float64, jittered bool) error {
			if jittered {
				res.Jittered++
			}
			r, err := quant.Quantize(w, l, n, quant.BoundForBits(so.Bits))
			if err != nil {
				return fmt.Errorf("λ=%g: %w", g.Lambdas[li], err)
			}
			ws[li] = make([]float64, l*n)
			for i, v := range r.Weights {
				ws[li][i] = float64(v)
			}
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("grid point N=%d κ=%d: %w", n, kappa, err)
		}
		// Every λ's rounded readout scored in one product (countRounded).
		counts := make([]int, len(g.Lambdas))
		countRounded(linalg.Engine{Threads: 1}, hva, mv, n, ws, l, func(i int) int { return d.Y[s.Test[i]] }, counts)
		res.Correct[ki] = [][]int{counts}
		solvedAt[eff] = ki
	}
	res.Seconds = time.Since(start).Seconds()
	res.SolveSeconds = res.Seconds - res.HiddenSeconds
	return res, nil
}

// dualReadouts computes, for every λ of lambdas, the ridge readout W_out
// (l×n, as ridge.Solver.SolveDual returns it, bit for bit) of the m×n
// hidden layer h with labels y, forming the kernel once, and hands each to
// each (w is reused by the next λ).
func dualReadouts(e linalg.Engine, solver ridge.Solver, h []float64, m, n int, y []int, l int, lambdas []float64,
	each func(li int, w []float64, jittered bool) error) error {
	// H' = H R^{-1/2} (the identity penalty leaves H as it is).
	var scale []float64
	hs := h
	if solver.Reg != ridge.Identity {
		r := solver.Reg.Diag(h, m, n)
		scale = make([]float64, n)
		for j, v := range r {
			scale[j] = 1 / math.Sqrt(v)
		}
		hs = make([]float64, m*n)
		for i := 0; i < m; i++ {
			for j := 0; j < n; j++ {
				hs[i*n+j] = h[i*n+j] * scale[j]
			}
		}
	}
	kernel, sys := make([]float64, m*m), make([]float64, m*m)
	e.Syrk(false, m, n, 1, hs, n, 0, kernel, m)
	alpha, wt, w := make([]float64, m*l), make([]float64, n*l), make([]float64, l*n)
	for li, lambda := range lambdas {
		jittered, err := factorDual(e, kernel, sys, m, lambda)
		if err != nil {
			return fmt.Errorf("ridge: dual %d×%d system, λ=%g: %w", m, m, lambda, err)
		}
		clear(alpha)
		for i, c := range y {
			alpha[i*l+c] = 1
		}
		e.CholeskySolve(m, l, sys, m, alpha, l)
		e.Gemm(true, false, n, l, m, 1, hs, n, alpha, l, 0, wt, l)
		for j := 0; j < n; j++ {
			for c := 0; c < l; c++ {
				v := wt[j*l+c]
				if scale != nil {
					v *= scale[j]
				}
				if math.IsNaN(v) || math.IsInf(v, 0) {
					return fmt.Errorf("ridge: dual solve, λ=%g: W_out[%d][%d] is %v", lambda, j, c, v)
				}
				w[c*n+j] = v
			}
		}
		if err := each(li, w, jittered); err != nil {
			return err
		}
	}
	return nil
}

// factorDual writes the Cholesky factor of K + λI (K's lower triangle,
// m×m) into sys, with ridge's ladder of diagonal jitters when it is not
// positive definite; jittered reports whether one was needed.
func factorDual(e linalg.Engine, kernel, sys []float64, m int, lambda float64) (jittered bool, err error) {
	var last error
	for step := 0; step <= len(dualJitter); step++ {
		delta := 0.0
		if step > 0 {
			delta = dualJitter[step-1]
		}
		for i := 0; i < m; i++ {
			copy(sys[i*m:i*m+i+1], kernel[i*m:i*m+i+1])
			sys[i*m+i] = (sys[i*m+i] + lambda) * (1 + delta)
		}
		err := e.Cholesky(m, sys, m)
		if err == nil {
			return delta > 0, nil
		}
		var npd *linalg.NotPositiveDefiniteError
		if !errors.As(err, &npd) {
			return false, err
		}
		last = err
	}
	return false, fmt.Errorf("cholesky failed even with relative diagonal jitter %g: %w", dualJitter[len(dualJitter)-1], last)
}
