package ridge

import (
	"errors"
	"fmt"
	"math"

	"github.com/hdlgen/hdlgen/linalg"
)

// Data is a design matrix with its labels.
type Data struct {
	H      []float64 // Rows×Cols activations, row-major, leading dimension Cols
	Rows   int       // samples (M)
	Cols   int       // hidden neurons (n)
	Labels []int     // Rows class indices in [0, classes)
}

func (d Data) validate(what string, classes int) error {
	if d.Rows < 0 || d.Cols < 1 || (what == "training data" && d.Rows < 1) {
		return fmt.Errorf("ridge: %s has invalid shape %d×%d", what, d.Rows, d.Cols)
	}
	if len(d.H) != d.Rows*d.Cols {
		return fmt.Errorf("ridge: %s: len(H) = %d, want %d×%d", what, len(d.H), d.Rows, d.Cols)
	}
	if len(d.Labels) != d.Rows {
		return fmt.Errorf("ridge: %s: %d labels for %d rows", what, len(d.Labels), d.Rows)
	}
	for i, y := range d.Labels {
		if y < 0 || y >= classes {
			return fmt.Errorf("ridge: %s: label %d of row %d outside [0,%d)", what, y, i, classes)
		}
	}
	return checkFinite(what+" H", d.H, d.Cols)
}

func checkLambda(lambda float64) error {
	if !(lambda > 0) || math.IsInf(lambda, 1) {
		return fmt.Errorf("ridge: λ = %v, want a finite positive value", lambda)
	}
	return nil
}

// Solver solves ridge readouts. Its zero value uses the Variance
// regulariser and the Exact method on one goroutine.
type Solver struct {
	Reg     Regularizer
	Threads int // goroutines for the linear algebra; results do not depend on it
	Method  Method
	// RTol is PinvCutoff's relative tolerance: singular values at or below
	// RTol·σ_max of the n×n system are dropped. 0 means DefaultRTol(n).
	RTol float64

	// fullEigen makes PinvCutoff with the variance regulariser form every
	// eigenvector of the primal system (SymEigen) instead of applying the
	// filter with SymFilterApply: the older, slower route, kept as the
	// baseline of tests and benchmarks.
	fullEigen bool
}

func (s Solver) engine() linalg.Engine { return linalg.Engine{Threads: s.Threads} }

// Info describes how a system was solved.
type Info struct {
	Dual bool // the M×M dual system was solved (else the n×n primal one)
	// Jitter is the relative diagonal jitter δ that was needed: the system's
	// diagonal was multiplied by 1+δ after a Cholesky failure (0: none).
	Jitter float64
	// Dropped is, for PinvCutoff, the number of singular values of the n×n
	// primal system at or below the cutoff.
	Dropped int
}

// jitterLadder is the sequence of relative diagonal jitters tried when the
// Cholesky factorisation of a ridge system fails (numerically singular,
// e.g. near-constant columns with tiny variance and a small λ). Each S_jj is
// multiplied by 1+δ. The rule depends on each diagonal element alone, so
// the jittered system of a column prefix is the prefix of the jittered
// full system.
var jitterLadder = [...]float64{1e-10, 1e-8, 1e-6, 1e-4, 1e-2}

// Solve returns W_out (classes×Cols, row-major) of the ridge readout for λ:
// the primal n×n system when Rows ≥ Cols, the dual Rows×Rows one otherwise.
func (s Solver) Solve(d Data, classes int, lambda float64) ([]float64, Info, error) {
	if err := s.checkMethod(); err != nil {
		return nil, Info{}, err
	}
	if s.Method == PinvCutoff {
		return s.solvePinv(d, classes, lambda)
	}
	if d.Rows >= d.Cols {
		return s.SolvePrimal(d, classes, lambda)
	}
	return s.SolveDual(d, classes, lambda)
}

// SolvePrimal returns W_out with W_outᵀ = (HᵀH + λR)⁻¹HᵀY (with
// PinvCutoff, the pseudo-inverse).
func (s Solver) SolvePrimal(d Data, classes int, lambda float64) ([]float64, Info, error) {
	nm, err := s.NewNormal(d, classes)
	if err != nil {
		return nil, Info{}, err
	}
	return s.SolveNormal(nm, lambda, d.Cols)
}

// Normal holds the λ-independent parts of the primal problem of one H, so
// that several λ (and column prefixes) can be solved without recomputing
// the Gram matrix.
type Normal struct {
	N       int       // columns of H
	Classes int       // L
	Gram    []float64 // N×N, HᵀH (full symmetric)
	HtY     []float64 // N×Classes, HᵀY for one-hot Y
	RDiag   []float64 // N, diagonal of R (see Regularizer.Diag)

	// groups are H's repeated columns, found for PinvCutoff (nil: not
	// sought; the system is solved unreduced).
	groups *columnGroups
}

// NewNormal computes HᵀH, HᵀY and R for d.
func (s Solver) NewNormal(d Data, classes int) (*Normal, error) {
	if err := s.checkMethod(); err != nil {
		return nil, err
	}
	if err := d.validate("training data", classes); err != nil {
		return nil, err
	}
	n := d.Cols
	nm := &Normal{
		N: n, Classes: classes,
		Gram:  make([]float64, n*n),
		HtY:   classSums(d, classes, n),
		RDiag: s.regDiag(d.H, d.Rows, n),
	}
	s.engine().Gram(d.Rows, n, d.H, n, nm.Gram, n)
	if s.Method == PinvCutoff {
		nm.groups = findColumnGroups(d.H, d.Rows, n, n, nm.RDiag)
	}
	return nm, nil
}

// classSums returns HᵀY (first p columns of H, p×classes row-major) for
// the one-hot Y of d.Labels: row j, column c is the sum of H[i][j] over the
// rows i of class c.
func classSums(d Data, classes, p int) []float64 {
	byClass := make([]float64, classes*p) // classes×p
	for i, y := range d.Labels {
		dst := byClass[y*p : y*p+p]
		for j, v := range d.H[i*d.Cols : i*d.Cols+p] {
			dst[j] += v
		}
	}
	return transpose(classes, p, byClass)
}

// transpose returns the cols×rows transpose of a rows×cols matrix.
func transpose(rows, cols int, a []float64) []float64 {
	t := make([]float64, rows*cols)
	for i := 0; i < rows; i++ {
		for j, v := range a[i*cols : i*cols+cols] {
			t[j*rows+i] = v
		}
	}
	return t
}

// SolveNormal returns W_out (Classes×p) for the network made of the first
// p columns of H: W_outᵀ = (G_p + λR_p)⁻¹ (HᵀY)_p with G_p the leading
// p×p block of the Gram matrix (with PinvCutoff, the pseudo-inverse). nm
// must come from NewNormal of a Solver with the same Method (it fixes R).
func (s Solver) SolveNormal(nm *Normal, lambda float64, p int) ([]float64, Info, error) {
	if err := s.checkMethod(); err != nil {
		return nil, Info{}, err
	}
	if err := checkLambda(lambda); err != nil {
		return nil, Info{}, err
	}
	if p < 1 || p > nm.N {
		return nil, Info{}, fmt.Errorf("ridge: prefix %d outside [1,%d]", p, nm.N)
	}
	if s.Method == PinvCutoff {
		wt, dropped, err := s.pinvPrimal(nm, lambda, p)
		if err != nil {
			return nil, Info{}, fmt.Errorf("ridge: pinv of the primal %d×%d system, λ=%g: %w", p, p, lambda, err)
		}
		if err := checkFinite("W_out", wt, nm.Classes); err != nil {
			return nil, Info{}, fmt.Errorf("ridge: pinv solve, λ=%g: %w", lambda, err)
		}
		return transpose(p, nm.Classes, wt), Info{Dropped: dropped}, nil
	}
	e := s.engine()
	sys := make([]float64, p*p)
	jit, err := factorLadder(e, p, sys, func(dst []float64, delta float64) {
		primalSystem(nm, lambda, delta, p, dst)
	})
	if err != nil {
		return nil, Info{}, fmt.Errorf("ridge: primal %d×%d system, λ=%g: %w", p, p, lambda, err)
	}
	L := nm.Classes
	wt := make([]float64, p*L)
	for j := 0; j < p; j++ {
		copy(wt[j*L:j*L+L], nm.HtY[j*L:j*L+L])
	}
	e.CholeskySolve(p, L, sys, p, wt, L)
	if err := checkFinite("W_out", wt, L); err != nil {
		return nil, Info{}, fmt.Errorf("ridge: primal solve, λ=%g: %w", lambda, err)
	}
	return transpose(p, L, wt), Info{Jitter: jit}, nil
}

// primalSystem writes the lower triangle of G_p + λR_p, diagonal scaled by
// 1+δ, into dst (p×p, leading dimension p).
func primalSystem(nm *Normal, lambda, delta float64, p int, dst []float64) {
	n := nm.N
	for i := 0; i < p; i++ {
		copy(dst[i*p:i*p+i+1], nm.Gram[i*n:i*n+i+1])
		dst[i*p+i] = (dst[i*p+i] + lambda*nm.RDiag[i]) * (1 + delta)
	}
}

// factorLadder builds the system with build(dst, δ) and factors it in
// place, first with δ = 0 and then up the jitter ladder; it returns the δ
// that succeeded.
func factorLadder(e linalg.Engine, n int, dst []float64, build func(dst []float64, delta float64)) (float64, error) {
	var last error
	for k := 0; k <= len(jitterLadder); k++ {
		delta := 0.0
		if k > 0 {
			delta = jitterLadder[k-1]
		}
		build(dst, delta)
		err := e.Cholesky(n, dst, n)
		if err == nil {
			return delta, nil
		}
		var npd *linalg.NotPositiveDefiniteError
		if !errors.As(err, &npd) {
			return 0, err
		}
		last = err
	}
	return 0, fmt.Errorf("cholesky failed even with relative diagonal jitter %g: %w",
		jitterLadder[len(jitterLadder)-1], last)
}

// scaledColumns returns the first p columns of the rows×cols matrix h as a
// rows×p matrix with column j multiplied by scale[j] (a copy of the prefix
// when scale is nil).
func scaledColumns(h []float64, rows, cols, p int, scale []float64) []float64 {
	return columnBlock(h, rows, cols, 0, p, scale)
}

// invSqrt returns 1/sqrt(r_j) for Variance, nil (no scaling) for Identity.
func invSqrt(reg Regularizer, r []float64) []float64 {
	if reg == Identity {
		return nil
	}
	s := make([]float64, len(r))
	for j, v := range r {
		s[j] = 1 / math.Sqrt(v)
	}
	return s
}

// oneHot returns the rows×classes one-hot matrix of labels.
func oneHot(labels []int, classes int) []float64 {
	y := make([]float64, len(labels)*classes)
	for i, c := range labels {
		y[i*classes+c] = 1
	}
	return y
}

// SolveDual returns W_out through the dual system: with H' = H R^{-1/2},
// W_outᵀ = R^{-1/2} H'ᵀ (H'H'ᵀ + λI)⁻¹ Y, which equals the primal solution.
// With PinvCutoff it is Solve: the dual kernel serves the identity
// regulariser only (the cutoff applies to the primal system's singular
// values, which the rescaled kernel of the variance form does not keep).
func (s Solver) SolveDual(d Data, classes int, lambda float64) ([]float64, Info, error) {
	if err := s.checkMethod(); err != nil {
		return nil, Info{}, err
	}
	if s.Method == PinvCutoff {
		return s.solvePinv(d, classes, lambda)
	}
	if err := checkLambda(lambda); err != nil {
		return nil, Info{}, err
	}
	dl, err := s.NewDual(d, classes)
	if err != nil {
		return nil, Info{}, err
	}
	return s.SolveKernel(dl, lambda)
}

// Dual is the m×m kernel K = H·S²·Hᵀ of a dual solve (S the penalty's
// column scaling, identity for λ·I), formed once so that SolveKernel solves
// it for each λ without forming it again: SolveDual(d, classes, λ) is
// NewDual(d, classes) then SolveKernel(dual, λ), bit for bit.
type Dual struct {
	d       Data
	classes int
	hs      []float64 // H with its columns scaled (H itself for λ·I)
	scale   []float64 // the column scaling, nil for λ·I
	k       []float64 // K, lower triangle valid
}

// NewDual forms the kernel of d for a dual solve (any method but
// PinvCutoff, which SolveDual solves on its own).
func (s Solver) NewDual(d Data, classes int) (*Dual, error) {
	if err := s.checkMethod(); err != nil {
		return nil, err
	}
	if s.Method == PinvCutoff {
		return nil, fmt.Errorf("ridge: NewDual: the %s method solves the dual on its own (SolveDual)", s.Method)
	}
	if err := d.validate("training data", classes); err != nil {
		return nil, err
	}
	e := s.engine()
	m, n := d.Rows, d.Cols
	dl := &Dual{d: d, classes: classes, hs: d.H, scale: invSqrt(s.Reg, s.Reg.Diag(d.H, m, n))}
	if dl.scale != nil {
		dl.hs = scaledColumns(d.H, m, n, n, dl.scale)
	}
	dl.k = make([]float64, m*m)
	e.Syrk(false, m, n, 1, dl.hs, n, 0, dl.k, m)
	return dl, nil
}

// SolveKernel is SolveDual with the kernel formed by NewDual.
func (s Solver) SolveKernel(dl *Dual, lambda float64) ([]float64, Info, error) {
	if err := checkLambda(lambda); err != nil {
		return nil, Info{}, err
	}
	e := s.engine()
	m, n, L := dl.d.Rows, dl.d.Cols, dl.classes
	sys := make([]float64, m*m)
	jit, err := factorLadder(e, m, sys, func(dst []float64, delta float64) {
		dualSystem(dl.k, m, lambda, delta, dst)
	})
	if err != nil {
		return nil, Info{}, fmt.Errorf("ridge: dual %d×%d system, λ=%g: %w", m, m, lambda, err)
	}
	alpha := oneHot(dl.d.Labels, L)
	e.CholeskySolve(m, L, sys, m, alpha, L)
	wt := make([]float64, n*L)
	e.Gemm(true, false, n, L, m, 1, dl.hs, n, alpha, L, 0, wt, L)
	if dl.scale != nil {
		for j := 0; j < n; j++ {
			for c := 0; c < L; c++ {
				wt[j*L+c] *= dl.scale[j]
			}
		}
	}
	if err := checkFinite("W_out", wt, L); err != nil {
		return nil, Info{}, fmt.Errorf("ridge: dual solve, λ=%g: %w", lambda, err)
	}
	return transpose(n, L, wt), Info{Dual: true, Jitter: jit}, nil
}

// dualSystem writes the lower triangle of K + λI (K m×m, lower triangle
// valid), diagonal scaled by 1+δ, into dst.
func dualSystem(k []float64, m int, lambda, delta float64, dst []float64) {
	for i := 0; i < m; i++ {
		copy(dst[i*m:i*m+i+1], k[i*m:i*m+i+1])
		dst[i*m+i] = (dst[i*m+i] + lambda) * (1 + delta)
	}
}

// Predict returns the predicted class of each row of h (rows×n): the
// argmax over the classes of the scores h·W_outᵀ, ties to the lowest
// class index. W_out is classes×n.
func Predict(h []float64, rows, n int, wout []float64, classes, threads int) []int {
	if len(h) != rows*n || len(wout) != classes*n {
		panic(fmt.Sprintf("ridge: Predict: len(h)=%d, len(wout)=%d for rows=%d n=%d classes=%d",
			len(h), len(wout), rows, n, classes))
	}
	scores := make([]float64, rows*classes)
	linalg.Engine{Threads: threads}.Gemm(false, true, rows, classes, n, 1, h, n, wout, n, 0, scores, classes)
	pred := make([]int, rows)
	for i := range pred {
		pred[i] = Argmax(scores[i*classes : i*classes+classes])
	}
	return pred
}

// Argmax returns the index of the largest score, the lowest index on ties
// (NaN scores never win).
func Argmax(scores []float64) int {
	best := 0
	for c := 1; c < len(scores); c++ {
		if scores[c] > scores[best] || math.IsNaN(scores[best]) {
			best = c
		}
	}
	return best
}
