package ridge

import (
	"fmt"
	"math"

	"github.com/hdlgen/hdlgen/internal/parallel"
	"github.com/hdlgen/hdlgen/linalg"
)

// spectrum is the eigendecomposition A = V·diag(vals)·Vᵀ of a symmetric
// p×p matrix.
type spectrum struct {
	p    int
	vals []float64 // ascending
	vecs []float64 // p×p row-major; column i is the eigenvector of vals[i]
}

// eigenSym decomposes the symmetric p×p matrix whose lower triangle is in
// a (leading dimension lda; destroyed) with linalg's SymEigen.
func (s Solver) eigenSym(p int, a []float64, lda int) (spectrum, error) {
	sp := spectrum{p: p, vals: make([]float64, p), vecs: make([]float64, p*p)}
	if err := s.engine().SymEigen(p, a, lda, sp.vals, sp.vecs, p); err != nil {
		return spectrum{}, err
	}
	return sp, nil
}

// filter returns the pseudo-inverse's diagonal for the eigenvalues
// vals+shift of a symmetric system: 1/(v+shift) where the singular value
// |v+shift| exceeds rtol·σ_max, else 0, and the number of values dropped.
// extra more singular values equal to |shift| (the null space of a Gram
// matrix seen through the dual) take part in σ_max and in the count.
func filter(vals []float64, shift, rtol float64, extra int) (g []float64, dropped int) {
	smax := 0.0
	for _, v := range vals {
		smax = math.Max(smax, math.Abs(v+shift))
	}
	if extra > 0 {
		smax = math.Max(smax, math.Abs(shift))
	}
	tol := rtol * smax
	g = make([]float64, len(vals))
	for i, v := range vals {
		if s := math.Abs(v + shift); s > tol {
			g[i] = 1 / (v + shift)
		} else {
			dropped++
		}
	}
	if extra > 0 && !(math.Abs(shift) > tol) {
		dropped += extra
	}
	return g, dropped
}

// project returns Vᵀ·B (p×nrhs) for B p×nrhs.
func (sp spectrum) project(e linalg.Engine, b []float64, nrhs int) []float64 {
	c := make([]float64, sp.p*nrhs)
	e.Gemm(true, false, sp.p, nrhs, sp.p, 1, sp.vecs, sp.p, b, nrhs, 0, c, nrhs)
	return c
}

// scaledRows writes diag(g)·C (p×nrhs) into dst at column offset off of a
// matrix with leading dimension ld.
func scaledRows(dst []float64, ld, off int, c []float64, nrhs int, g []float64) {
	for i, gi := range g {
		row := dst[i*ld+off : i*ld+off+nrhs]
		for k, v := range c[i*nrhs : i*nrhs+nrhs] {
			row[k] = gi * v
		}
	}
}

// pinvPrimal returns W_outᵀ (p×L) = pinv(G_p + λR_p)·(HᵀY)_p and the
// number of singular values dropped.
func (s Solver) pinvPrimal(nm *Normal, lambda float64, p int) ([]float64, int, error) {
	wt := make([]float64, p*nm.Classes)
	dropped := []int{0}
	if err := s.pinvPrimalAll(nm, []float64{lambda}, p, wt, dropped); err != nil {
		return nil, 0, err
	}
	return wt, dropped[0], nil
}

// pinvDual returns W_outᵀ (n×L) of the identity-regularised pinv solution
// through the M×M kernel K = HHᵀ = U·diag(κ)·Uᵀ: the primal system
// HᵀH + λI has the singular values κ_i + λ and, n − M times, λ (the null
// space of H, which HᵀY does not reach), so
// W_outᵀ = Hᵀ·U·diag(g)·Uᵀ·Y with g_i = 1/(κ_i+λ) for the kept values.
func (s Solver) pinvDual(d Data, classes int, lambda float64) ([]float64, int, error) {
	e := s.engine()
	m, n, L := d.Rows, d.Cols, classes
	k := make([]float64, m*m)
	e.Syrk(false, m, n, 1, d.H, n, 0, k, m)
	dropped := []int{0}
	alpha, err := s.pinvDualAll(k, m, n, d.Labels, L, []float64{lambda}, dropped)
	if err != nil {
		return nil, 0, err
	}
	wt := make([]float64, n*L)
	e.Gemm(true, false, n, L, m, 1, d.H, n, alpha, L, 0, wt, L)
	return wt, dropped[0], nil
}

// pinvDualAll returns the dual coefficients U·diag(g_λ)·Uᵀ·Y (M×L) of
// every λ side by side (M × len(lambdas)·L) from the lower triangle of the
// kernel K = HHᵀ of an M×n matrix H, and the dropped counts.
func (s Solver) pinvDualAll(k []float64, m, n int, labels []int, L int, lambdas []float64, dropped []int) ([]float64, error) {
	e := s.engine()
	sp, err := s.eigenSym(m, k, m)
	if err != nil {
		return nil, err
	}
	c := sp.project(e, oneHot(labels, L), L)
	ld := len(lambdas) * L
	x := make([]float64, m*ld)
	for li, lambda := range lambdas {
		var g []float64
		g, dropped[li] = filter(sp.vals, lambda, s.rtol(n), n-m)
		scaledRows(x, ld, li*L, c, L, g)
	}
	alpha := make([]float64, m*ld)
	e.Gemm(false, false, m, ld, m, 1, sp.vecs, m, x, ld, 0, alpha, ld)
	return alpha, nil
}

// solvePinv solves d with the PinvCutoff method: the dual kernel for the
// identity regulariser when Rows < Cols, the primal system otherwise.
func (s Solver) solvePinv(d Data, classes int, lambda float64) ([]float64, Info, error) {
	if err := d.validate("training data", classes); err != nil {
		return nil, Info{}, err
	}
	if err := checkLambda(lambda); err != nil {
		return nil, Info{}, err
	}
	if s.Reg == Identity && d.Rows < d.Cols {
		wt, dropped, err := s.pinvDual(d, classes, lambda)
		if err != nil {
			return nil, Info{}, fmt.Errorf("ridge: pinv of the %d×%d system (dual kernel %d×%d), λ=%g: %w",
				d.Cols, d.Cols, d.Rows, d.Rows, lambda, err)
		}
		if err := checkFinite("W_out", wt, classes); err != nil {
			return nil, Info{}, fmt.Errorf("ridge: pinv solve, λ=%g: %w", lambda, err)
		}
		return transpose(d.Cols, classes, wt), Info{Dual: true, Dropped: dropped}, nil
	}
	nm, err := s.NewNormal(d, classes)
	if err != nil {
		return nil, Info{}, err
	}
	return s.SolveNormal(nm, lambda, d.Cols)
}

// gridPinv fills every cell of res with the PinvCutoff method. Each cell
// is computed exactly as Solve computes the prefix problem (the same
// eigendecomposition and products), so the counts agree with Solve's
// predictions up to the rounding of the final products. With the identity
// regulariser one eigendecomposition per prefix serves every λ: of the
// Gram block G_p when p ≤ Rows, of the kernel H_pH_pᵀ otherwise. With the
// variance regulariser each (prefix, λ) costs one p×p eigendecomposition
// without its eigenvectors (SymFilterApply, see pinvPrimalAll).
func (s Solver) gridPinv(train, val Data, classes int, r []float64, res *GridResult) error {
	e := s.engine()
	m, v, n, L, nl := train.Rows, val.Rows, train.Cols, classes, len(res.Lambdas)
	res.Dropped = make([][]int, len(res.Prefixes))
	np := 0 // prefixes [0, np) use the primal system
	for pi, p := range res.Prefixes {
		res.Dual[pi] = s.Reg == Identity && p > m
		res.Dropped[pi] = make([]int, nl)
		if !res.Dual[pi] {
			np = pi + 1
		}
	}
	ld := nl * L
	wAll := make([]float64, res.Prefixes[len(res.Prefixes)-1]*ld)
	scores := make([]float64, v*ld)
	if np > 0 {
		pmax := res.Prefixes[np-1]
		nm := &Normal{N: pmax, Classes: L, Gram: make([]float64, pmax*pmax), HtY: classSums(train, L, pmax), RDiag: r[:pmax],
			groups: findColumnGroups(train.H, m, n, pmax, r)}
		e.Syrk(true, pmax, m, 1, train.H, n, 0, nm.Gram, pmax)
		for pi := 0; pi < np; pi++ {
			p := res.Prefixes[pi]
			if err := s.pinvPrimalAll(nm, res.Lambdas, p, wAll[:p*ld], res.Dropped[pi]); err != nil {
				return fmt.Errorf("ridge: grid, pinv of the primal %d×%d system: %w", p, p, err)
			}
			e.Gemm(false, false, v, ld, p, 1, val.H, n, wAll, ld, 0, scores, ld)
			if err := countCorrect(res, pi, 0, nl, scores, val.Labels, L); err != nil {
				return err
			}
		}
	}
	if np == len(res.Prefixes) {
		return nil
	}
	k := make([]float64, m*m)
	kval := make([]float64, v*m)
	for pi := np; pi < len(res.Prefixes); pi++ {
		p := res.Prefixes[pi]
		e.Syrk(false, m, p, 1, train.H, n, 0, k, m)
		alpha, err := s.pinvDualAll(k, m, p, train.Labels, L, res.Lambdas, res.Dropped[pi])
		if err != nil {
			return fmt.Errorf("ridge: grid, pinv of the %d×%d system (dual kernel %d×%d): %w", p, p, m, m, err)
		}
		e.Gemm(false, true, v, m, p, 1, val.H, n, train.H, n, 0, kval, m)
		e.Gemm(false, false, v, ld, m, 1, kval, m, alpha, ld, 0, scores, ld)
		if err := countCorrect(res, pi, 0, nl, scores, val.Labels, L); err != nil {
			return err
		}
	}
	return nil
}

// pinvPrimalAll writes W_outᵀ of prefix p for every λ side by side into
// dst (p × len(lambdas)·L; λ li in columns li·L…) and the dropped counts.
// With the identity regulariser one eigendecomposition of G_p serves every
// λ (the eigenvalues of G_p + λI are those of G_p shifted by λ); with the
// variance regulariser each λ has its own, and linalg's SymFilterApply
// applies the filtered pseudo-inverse to (HᵀY)_p without forming the
// eigenvectors, on the system of the groups of repeated columns when the
// prefix has some (groups.go), unless s.fullEigen asks for the older
// route through SymEigen, kept as the baseline of tests and benchmarks,
// which reduces nothing. The arithmetic
// of a λ does not depend on the others, so Grid and Solve give identical
// bits.
func (s Solver) pinvPrimalAll(nm *Normal, lambdas []float64, p int, dst []float64, dropped []int) error {
	e := s.engine()
	L, ld := nm.Classes, len(lambdas)*nm.Classes
	sys := make([]float64, p*p)
	b := make([]float64, p*L)
	for j := 0; j < p; j++ {
		copy(b[j*L:j*L+L], nm.HtY[j*L:j*L+L])
	}
	ident := s.Reg == Identity
	if !ident && !s.fullEigen {
		// Each λ is its own problem: with several threads, the λ run side
		// by side, one thread each (SymFilterApply's results do not depend
		// on its threads, so neither do these).
		errs := make([]error, len(lambdas))
		one := e
		if len(lambdas) > 1 {
			one = linalg.Engine{Threads: 1}
		}
		red, reduced := nm.reduction(p)
		parallel.For(e.Threads, len(lambdas), func(_, li int) {
			lambda := lambdas[li]
			if reduced {
				// Repeated columns: the q×q system of the groups (groups.go).
				sys, bq := make([]float64, red.q*red.q), make([]float64, red.q*L)
				red.system(lambda, sys, bq)
				_, w, err := one.SymFilterApply(red.q, sys, red.q, bq, L, L, func(vals []float64) []float64 {
					var g []float64
					g, dropped[li] = red.filter(vals, lambda, s.rtol(p))
					return g
				})
				if err != nil {
					errs[li] = fmt.Errorf("λ=%g, %d groups of columns: %w", lambda, red.q, err)
					return
				}
				red.expand(w, dst, ld, li*L)
				return
			}
			sys := make([]float64, p*p)
			primalSystem(nm, lambda, 0, p, sys)
			_, w, err := one.SymFilterApply(p, sys, p, b, L, L, func(vals []float64) []float64 {
				var g []float64
				g, dropped[li] = filter(vals, 0, s.rtol(p), 0)
				return g
			})
			if err != nil {
				errs[li] = fmt.Errorf("λ=%g: %w", lambda, err)
				return
			}
			for j := 0; j < p; j++ {
				copy(dst[j*ld+li*L:j*ld+li*L+L], w[j*L:j*L+L])
			}
		})
		for _, err := range errs {
			if err != nil {
				return err
			}
		}
		return nil
	}
	x := make([]float64, p*ld)
	var sp spectrum
	var c []float64
	for li, lambda := range lambdas {
		if !ident || li == 0 {
			reg := lambda
			if ident {
				reg = 0
			}
			primalSystem(nm, reg, 0, p, sys)
			var err error
			if sp, err = s.eigenSym(p, sys, p); err != nil {
				return fmt.Errorf("λ=%g: %w", lambda, err)
			}
			c = sp.project(e, b, L)
		}
		shift := 0.0
		if ident {
			shift = lambda
		}
		var g []float64
		g, dropped[li] = filter(sp.vals, shift, s.rtol(p), 0)
		scaledRows(x, ld, li*L, c, L, g)
		if !ident {
			e.Gemm(false, false, p, L, p, 1, sp.vecs, p, x[li*L:], ld, 0, dst[li*L:], ld)
		}
	}
	if ident {
		e.Gemm(false, false, p, ld, p, 1, sp.vecs, p, x, ld, 0, dst, ld)
	}
	return nil
}
