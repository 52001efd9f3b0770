package ridge

import (
	"errors"
	"fmt"

	"github.com/hdlgen/hdlgen/linalg"
)

// GridResult holds the outcome of Grid for every (prefix, λ) cell.
type GridResult struct {
	Prefixes []int
	Lambdas  []float64
	Correct  [][]int     // [prefix][λ]: correct validation predictions
	Jitter   [][]float64 // [prefix][λ]: relative diagonal jitter used (0: none)
	Dual     []bool      // [prefix]: solved through the dual system
	// Dropped is, for PinvCutoff, [prefix][λ]: singular values of the
	// primal system at or below the cutoff (nil for Exact).
	Dropped [][]int
}

// Grid evaluates the ridge readout on a fixed train/validation split for
// every λ in lambdas and every network made of the first p columns of H,
// p in prefixes (strictly increasing, each in [1, Cols]). For the
// conventional RVFL the prefixes are the network sizes N (plus K with
// direct links); for a network whose H does not nest, pass the single
// prefix Cols.
//
// Each cell equals what Solve would give for train restricted to the
// first p columns, up to floating-point rounding (so predictions agree
// except on numerically exact ties). A prefix with p ≤ train.Rows is solved
// in the primal: one Gram matrix for the whole call and one Cholesky
// factorisation per λ serve all such prefixes (the factor of a leading
// block is the leading block of the factor); only the back substitution and
// the prediction are per prefix. A prefix with p > train.Rows is solved in
// the dual: the kernels K_p = H'_p H'_pᵀ and H'val_p H'_pᵀ are built
// incrementally over the prefixes, and each (prefix, λ) costs one
// Rows×Rows Cholesky.
func (s Solver) Grid(train, val Data, classes int, lambdas []float64, prefixes []int) (*GridResult, error) {
	if err := s.checkMethod(); err != nil {
		return nil, err
	}
	if err := train.validate("training data", classes); err != nil {
		return nil, err
	}
	if err := val.validate("validation data", classes); err != nil {
		return nil, err
	}
	if val.Cols != train.Cols {
		return nil, fmt.Errorf("ridge: validation data has %d columns, training data %d", val.Cols, train.Cols)
	}
	if len(prefixes) == 0 || len(lambdas) == 0 {
		return nil, errors.New("ridge: grid needs at least one prefix and one λ")
	}
	for i, p := range prefixes {
		if p < 1 || p > train.Cols || (i > 0 && p <= prefixes[i-1]) {
			return nil, fmt.Errorf("ridge: prefixes must increase strictly within [1,%d], got %v", train.Cols, prefixes)
		}
	}
	for _, l := range lambdas {
		if err := checkLambda(l); err != nil {
			return nil, err
		}
	}
	res := &GridResult{
		Prefixes: append([]int(nil), prefixes...),
		Lambdas:  append([]float64(nil), lambdas...),
		Correct:  make([][]int, len(prefixes)),
		Jitter:   make([][]float64, len(prefixes)),
		Dual:     make([]bool, len(prefixes)),
	}
	for i := range prefixes {
		res.Correct[i] = make([]int, len(lambdas))
		res.Jitter[i] = make([]float64, len(lambdas))
		res.Dual[i] = prefixes[i] > train.Rows
	}
	r := s.regDiag(train.H, train.Rows, train.Cols)
	if s.Method == PinvCutoff {
		if err := s.gridPinv(train, val, classes, r, res); err != nil {
			return nil, err
		}
		return res, nil
	}
	nPrimal := 0
	for nPrimal < len(prefixes) && !res.Dual[nPrimal] {
		nPrimal++
	}
	if nPrimal > 0 {
		if err := s.gridPrimal(train, val, classes, r, res, nPrimal); err != nil {
			return nil, err
		}
	}
	if nPrimal < len(prefixes) {
		if err := s.gridDual(train, val, classes, r, res, nPrimal); err != nil {
			return nil, err
		}
	}
	return res, nil
}

// batchClasses is the number of classes below which predictions for all λ
// of a prefix are made by one product (validation rows × (λ count·L)),
// which packs the validation matrix once per prefix instead of once per λ
// and keeps the product kernel's register tile full.
const batchClasses = 24

// gridPrimal fills the cells of the first np prefixes (all ≤ train.Rows).
func (s Solver) gridPrimal(train, val Data, classes int, r []float64, res *GridResult, np int) error {
	e := s.engine()
	n, L, nl := train.Cols, classes, len(res.Lambdas)
	pmax := res.Prefixes[np-1]
	nm := &Normal{N: pmax, Classes: L, Gram: make([]float64, pmax*pmax), HtY: classSums(train, L, pmax), RDiag: r[:pmax]}
	e.Syrk(true, pmax, train.Rows, 1, train.H, n, 0, nm.Gram, pmax)
	sys := make([]float64, pmax*pmax)
	z := make([]float64, pmax*L)
	batch := L < batchClasses
	// W for prefix pi and λ li: rows 0..p−1 of the columns li·L.. of
	// wAll[pi] (p × nl·L) when batching, else w (p × L).
	var wAll [][]float64
	var w, scores, back []float64
	if batch {
		back = make([]float64, pmax*np*L)
		wAll = make([][]float64, np)
		for pi := range wAll {
			wAll[pi] = make([]float64, res.Prefixes[pi]*nl*L)
		}
		scores = make([]float64, val.Rows*nl*L)
	} else {
		w = make([]float64, pmax*L)
		scores = make([]float64, val.Rows*L)
	}
	for li, lambda := range res.Lambdas {
		done := 0 // prefixes [0, done) are solved for this λ
		for k := 0; k <= len(jitterLadder) && done < np; k++ {
			delta := 0.0
			if k > 0 {
				delta = jitterLadder[k-1]
			}
			primalSystem(nm, lambda, delta, pmax, sys)
			valid := pmax // the leading valid×valid block of sys holds a factor
			if err := e.Cholesky(pmax, sys, pmax); err != nil {
				var npd *linalg.NotPositiveDefiniteError
				if !errors.As(err, &npd) {
					return fmt.Errorf("ridge: grid, primal %d×%d system, λ=%g: %w", pmax, pmax, lambda, err)
				}
				valid = npd.Pivot
			}
			hi := done
			for hi < np && res.Prefixes[hi] <= valid {
				hi++
			}
			if hi == done {
				continue
			}
			// One forward substitution serves all prefixes up to res.Prefixes[hi-1].
			q := res.Prefixes[hi-1]
			copy(z[:q*L], nm.HtY[:q*L])
			e.SolveLower(q, L, sys, pmax, z, L)
			if batch {
				// All these prefixes in one back substitution: the system
				// Lᵀx = [z_p; 0] has the solution [W_p; 0], so each prefix
				// is a block of nrhs = (hi−done)·L columns, zero-padded.
				nb := (hi - done) * L
				bb := back[:q*nb]
				clear(bb)
				for pi := done; pi < hi; pi++ {
					p, off := res.Prefixes[pi], (pi-done)*L
					for j := 0; j < p; j++ {
						copy(bb[j*nb+off:j*nb+off+L], z[j*L:j*L+L])
					}
				}
				e.SolveLowerT(q, nb, sys, pmax, bb, nb)
				for pi := done; pi < hi; pi++ {
					p, off := res.Prefixes[pi], (pi-done)*L
					res.Jitter[pi][li] = delta
					wb := wAll[pi][li*L:]
					for j := 0; j < p; j++ {
						copy(wb[j*nl*L:j*nl*L+L], bb[j*nb+off:j*nb+off+L])
					}
				}
				done = hi
				continue
			}
			for pi := done; pi < hi; pi++ {
				p := res.Prefixes[pi]
				res.Jitter[pi][li] = delta
				copy(w[:p*L], z[:p*L])
				e.SolveLowerT(p, L, sys, pmax, w, L)
				e.Gemm(false, false, val.Rows, L, p, 1, val.H, n, w, L, 0, scores, L)
				if err := countCorrect(res, pi, li, 1, scores, val.Labels, L); err != nil {
					return err
				}
			}
			done = hi
		}
		if done < np {
			return fmt.Errorf("ridge: grid, primal prefix %d, λ=%g: cholesky failed even with relative diagonal jitter %g",
				res.Prefixes[done], lambda, jitterLadder[len(jitterLadder)-1])
		}
	}
	if batch {
		for pi := 0; pi < np; pi++ {
			p := res.Prefixes[pi]
			e.Gemm(false, false, val.Rows, nl*L, p, 1, val.H, n, wAll[pi], nl*L, 0, scores, nl*L)
			if err := countCorrect(res, pi, 0, nl, scores, val.Labels, L); err != nil {
				return err
			}
		}
	}
	return nil
}

// gridDual fills the cells of prefixes [first, len) (all > train.Rows).
func (s Solver) gridDual(train, val Data, classes int, r []float64, res *GridResult, first int) error {
	e := s.engine()
	m, v, n, L, nl := train.Rows, val.Rows, train.Cols, classes, len(res.Lambdas)
	scale := invSqrt(s.Reg, r)
	k := make([]float64, m*m)    // H'_p H'_pᵀ (lower triangle)
	kval := make([]float64, v*m) // H'val_p H'_pᵀ
	sys := make([]float64, m*m)
	y := oneHot(train.Labels, L)
	ld := nl * L
	alpha := make([]float64, m*ld) // dual coefficients of every λ side by side
	scores := make([]float64, v*ld)
	prev := 0
	for pi := first; pi < len(res.Prefixes); pi++ {
		p := res.Prefixes[pi]
		// Add the columns [prev, p) to both kernels.
		var sc []float64
		if scale != nil {
			sc = scale[prev:p]
		}
		blk := columnBlock(train.H, m, n, prev, p, sc)
		vblk := columnBlock(val.H, v, n, prev, p, sc)
		e.Syrk(false, m, p-prev, 1, blk, p-prev, 1, k, m)
		e.Gemm(false, true, v, m, p-prev, 1, vblk, p-prev, blk, p-prev, 1, kval, m)
		prev = p
		for li, lambda := range res.Lambdas {
			jit, err := factorLadder(e, m, sys, func(dst []float64, delta float64) {
				dualSystem(k, m, lambda, delta, dst)
			})
			if err != nil {
				return fmt.Errorf("ridge: grid, dual %d×%d system for prefix %d, λ=%g: %w", m, m, p, lambda, err)
			}
			res.Jitter[pi][li] = jit
			ab := alpha[li*L:]
			for i := 0; i < m; i++ {
				copy(ab[i*ld:i*ld+L], y[i*L:i*L+L])
			}
			e.CholeskySolve(m, L, sys, m, ab, ld)
		}
		e.Gemm(false, false, v, ld, m, 1, kval, m, alpha, ld, 0, scores, ld)
		if err := countCorrect(res, pi, 0, nl, scores, val.Labels, L); err != nil {
			return err
		}
	}
	return nil
}

// columnBlock returns columns [a, b) of the rows×cols matrix h as a
// contiguous rows×(b−a) matrix, column j multiplied by scale[j−a] when
// scale is not nil.
func columnBlock(h []float64, rows, cols, a, b int, scale []float64) []float64 {
	w := b - a
	out := make([]float64, rows*w)
	for i := 0; i < rows; i++ {
		src := h[i*cols+a : i*cols+b]
		dst := out[i*w : i*w+w]
		if scale == nil {
			copy(dst, src)
			continue
		}
		for j, x := range src {
			dst[j] = x * scale[j]
		}
	}
	return out
}

// countCorrect sets res.Correct[pi][li0+t] for t < nl from scores, whose
// rows hold nl consecutive groups of classes scores (λ li0+t in group t).
// A non-finite score is an error.
func countCorrect(res *GridResult, pi, li0, nl int, scores []float64, labels []int, classes int) error {
	ld := nl * classes
	if err := checkFinite("validation scores", scores[:len(labels)*ld], ld); err != nil {
		return fmt.Errorf("ridge: grid, prefix %d: %w", res.Prefixes[pi], err)
	}
	for t := 0; t < nl; t++ {
		c := 0
		for i, y := range labels {
			row := scores[i*ld+t*classes : i*ld+t*classes+classes]
			if Argmax(row) == y {
				c++
			}
		}
		res.Correct[pi][li0+t] = c
	}
	return nil
}
