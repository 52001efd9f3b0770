package linalg

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/lapack"
	lapackgonum "gonum.org/v1/gonum/lapack/gonum"
)

// dcLeaf is the size at or below which a tridiagonal subproblem of the
// divide-and-conquer eigensolver is solved by the implicit QL/QR method.
const dcLeaf = 32

// ErrEigenNoConvergence is returned when an eigenvalue iteration fails
// (it does not happen for finite input).
var ErrEigenNoConvergence = errors.New("linalg: symmetric eigensolver did not converge")

// SymEigen computes the eigendecomposition A = Z·diag(w)·Zᵀ of the
// symmetric n×n matrix A whose lower triangle is in a (a is destroyed):
// the eigenvalues in ascending order in w (length n) and, when z is not
// nil, the orthonormal eigenvectors in the columns of z (n×n, leading
// dimension ldz). The method is LAPACK's dsyevd: Householder reduction to
// tridiagonal form (blocked, with the trailing updates on the product
// kernel), Cuppen's divide and conquer for the tridiagonal matrix (leaves
// of ≤ 32 by implicit QL/QR, merges by the secular equation with the
// Gu–Eisenstat eigenvector formula and deflation, the eigenvector updates
// on the product kernel), and the blocked back-transformation. Non-finite
// input is an error.
//
// Results are bit-identical for every Engine.Threads value.
func (e Engine) SymEigen(n int, a []float64, lda int, w []float64, z []float64, ldz int) error {
	checkMat("A", n, n, a, lda)
	if len(w) < n {
		panic(fmt.Sprintf("linalg: SymEigen: len(w) = %d < %d", len(w), n))
	}
	if z != nil {
		checkMat("Z", n, n, z, ldz)
	}
	for i := 0; i < n; i++ {
		for _, v := range a[i*lda : i*lda+i+1] {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return fmt.Errorf("linalg: SymEigen: non-finite element in row %d", i)
			}
		}
	}
	if n == 0 {
		return nil
	}
	d := w[:n]
	off := make([]float64, n)
	blocks := e.tridiagonalize(n, a, lda, d, off)
	off = off[:n-1]
	if z == nil {
		if !(lapackgonum.Implementation{}).Dsterf(n, d, off) {
			return ErrEigenNoConvergence
		}
		return nil
	}
	for i := 0; i < n; i++ {
		clear(z[i*ldz : i*ldz+n])
	}
	if err := e.tridiagEigen(n, d, off, z, ldz); err != nil {
		return err
	}
	e.applyQ(n, n, blocks, z, ldz)
	return nil
}

// maxNorm returns the largest |element| of the tridiagonal matrix with
// diagonal d and subdiagonal off: the scale divide and conquer works at.
func maxNorm(d, off []float64) float64 {
	scale := 0.0
	for _, v := range d {
		scale = math.Max(scale, math.Abs(v))
	}
	for _, v := range off {
		scale = math.Max(scale, math.Abs(v))
	}
	return scale
}

// tridiagEigen computes the eigenvalues (ascending, into d) and the
// eigenvectors (columns of z, which must be zero on entry) of the
// symmetric tridiagonal matrix with diagonal d and subdiagonal off, by
// divide and conquer on the matrix scaled to max-norm 1.
func (e Engine) tridiagEigen(n int, d, off []float64, z []float64, ldz int) error {
	scale := maxNorm(d, off)
	if scale == 0 {
		for i := 0; i < n; i++ {
			z[i*ldz+i] = 1
		}
		return nil
	}
	for i := range d {
		d[i] /= scale
	}
	for i := range off {
		off[i] /= scale
	}
	if err := e.divide(n, d, off, z, ldz); err != nil {
		return err
	}
	for i := range d {
		d[i] *= scale
	}
	return nil
}

// divide solves the tridiagonal eigenproblem of size n whose eigenvectors
// go into the n×n block z (zero on entry).
func (e Engine) divide(n int, d, off []float64, z []float64, ldz int) error {
	if n <= dcLeaf {
		work := make([]float64, max(1, 2*n-2))
		zz := make([]float64, n*n)
		ee := append([]float64(nil), off[:n-1]...)
		if !(lapackgonum.Implementation{}).Dsteqr(lapack.EVTridiag, n, d, ee, zz, n, work) {
			return ErrEigenNoConvergence
		}
		for i := 0; i < n; i++ {
			copy(z[i*ldz:i*ldz+n], zz[i*n:i*n+n])
		}
		return nil
	}
	m := n / 2
	beta := off[m-1]
	rho := math.Abs(beta)
	d[m-1] -= rho
	d[m] -= rho
	if err := e.divide(m, d[:m], off[:m-1], z, ldz); err != nil {
		return err
	}
	if err := e.divide(n-m, d[m:], off[m:], z[m*ldz+m:], ldz); err != nil {
		return err
	}
	return e.merge(n, m, d, rho, math.Copysign(1, beta), z, ldz)
}

// merge combines the solutions of the two halves (eigenvalues d[:m], d[m:]
// and eigenvectors in the diagonal blocks of z) into the eigensystem of
// diag(T1, T2) + ρ·u·uᵀ, u = e_{m−1} + σ·e_m, written back into d and z.
func (e Engine) merge(n, m int, d []float64, rho, sigma float64, z []float64, ldz int) error {
	// zv = Qᵀu / √2 (unit norm).
	zv := make([]float64, n)
	for i := 0; i < m; i++ {
		zv[i] = z[(m-1)*ldz+i] / math.Sqrt2
	}
	for i := m; i < n; i++ {
		zv[i] = sigma * z[m*ldz+i] / math.Sqrt2
	}
	pl, err := planMerge(n, d, rho, zv)
	if err != nil {
		return err
	}
	e.applyMergeCols(pl, z, ldz, n)
	copy(d, pl.lam)
	return nil
}

// mergePlan is the column transformation M of one merge of the divide and
// conquer: the eigenvectors of the merged problem are
// blockdiag(Z1, Z2)·M, M = G_1·…·G_r·S·P, with the deflating rotations
// G (rots, in order), S (the deflated columns kept, the others combined by
// the secular-equation vectors u) and the sorting permutation P.
type mergePlan struct {
	n        int
	rots     []givens
	cols     []int // cols[k]: the column of the rotated matrix holding sorted entry k
	deflated []bool
	keep     []int     // the sorted entries that were not deflated
	u        []float64 // len(keep)² row-major, column j for root j
	order    []int     // column c of the result is sorted entry order[c]
	lam      []float64 // the merged eigenvalues, ascending
}

// givens is the rotation of columns i and j by (c, s) (rotateColumns).
type givens struct {
	i, j int
	c, s float64
}

// planMerge computes the merge of the eigenvalues d (d[:m], d[m:] of the
// halves) with the rank-one update ρ'·zv·zvᵀ, ρ' = 2ρ (zv of unit norm):
// deflation, the secular equation, and the order of the result.
func planMerge(n int, d []float64, rho float64, zv []float64) (*mergePlan, error) {
	rho *= 2
	perm := make([]int, n)
	for i := range perm {
		perm[i] = i
	}
	slices.SortStableFunc(perm, func(a, b int) int { return cmp.Compare(d[a], d[b]) })
	dmax, zmax := 0.0, 0.0
	for i := 0; i < n; i++ {
		dmax = math.Max(dmax, math.Abs(d[i]))
		zmax = math.Max(zmax, math.Abs(zv[i]))
	}
	tol := 8 * eps * math.Max(dmax, rho*zmax)
	// Deflation (LAPACK dlaed2): a negligible ρ·z_i leaves (d_i, q_i) an
	// eigenpair; two nearly equal d are rotated so that one z vanishes.
	dd := make([]float64, n) // d in sorted order (updated by rotations)
	for k, i := range perm {
		dd[k] = d[i]
	}
	zz := make([]float64, n)
	for k, i := range perm {
		zz[k] = zv[i]
	}
	pl := &mergePlan{n: n, cols: perm, deflated: make([]bool, n)}
	cols, deflated := pl.cols, pl.deflated
	prev := -1
	for k := 0; k < n; k++ {
		if rho*math.Abs(zz[k]) <= tol {
			deflated[k] = true
			continue
		}
		if prev >= 0 {
			r := math.Hypot(zz[prev], zz[k])
			c, s := zz[k]/r, zz[prev]/r
			if math.Abs((dd[k]-dd[prev])*c*s) <= tol {
				// New basis q_prev' = c·q_prev − s·q_k, q_k' = s·q_prev + c·q_k:
				// z_prev' = 0, z_k' = r.
				pl.rots = append(pl.rots, givens{cols[prev], cols[k], c, s})
				dp, dk := dd[prev], dd[k]
				dd[prev] = c*c*dp + s*s*dk
				dd[k] = s*s*dp + c*c*dk
				zz[prev], zz[k] = 0, r
				deflated[prev] = true
			}
		}
		prev = k
	}
	for k := 0; k < n; k++ {
		if !deflated[k] {
			pl.keep = append(pl.keep, k)
		}
	}
	lam := make([]float64, n) // new eigenvalue of sorted entry k
	for k := 0; k < n; k++ {
		if deflated[k] {
			lam[k] = dd[k]
		}
	}
	if kn := len(pl.keep); kn > 0 {
		dk := make([]float64, kn)
		zk := make([]float64, kn)
		for j, k := range pl.keep {
			dk[j], zk[j] = dd[k], zz[k]
		}
		u, roots, err := secularEigen(dk, zk, rho)
		if err != nil {
			return nil, err
		}
		pl.u = u
		for j, k := range pl.keep {
			lam[k] = roots[j]
		}
	}
	// Sort the merged eigenvalues.
	pl.order = make([]int, n)
	for i := range pl.order {
		pl.order[i] = i
	}
	slices.SortStableFunc(pl.order, func(a, b int) int { return cmp.Compare(lam[a], lam[b]) })
	pl.lam = make([]float64, n)
	for c, k := range pl.order {
		pl.lam[c] = lam[k]
	}
	return pl, nil
}

// applyMergeCols overwrites the rows×n matrix z (rows of blockdiag(Z1, Z2),
// or a few of them) with z·M.
func (e Engine) applyMergeCols(pl *mergePlan, z []float64, ldz, rows int) {
	n, kn := pl.n, len(pl.keep)
	for _, g := range pl.rots {
		rotateColumns(z, ldz, rows, g.i, g.j, g.c, g.s)
	}
	newz := make([]float64, rows*n)
	for k := 0; k < n; k++ {
		if pl.deflated[k] {
			for r := 0; r < rows; r++ {
				newz[r*n+k] = z[r*ldz+pl.cols[k]]
			}
		}
	}
	if kn > 0 {
		// Q_K·U on the product kernel.
		qk := make([]float64, rows*kn)
		for r := 0; r < rows; r++ {
			row := z[r*ldz:]
			dst := qk[r*kn : r*kn+kn]
			for j, k := range pl.keep {
				dst[j] = row[pl.cols[k]]
			}
		}
		out := make([]float64, rows*kn)
		e.gemm(false, false, rows, kn, kn, 1, qk, kn, pl.u, kn, 0, out, kn, false)
		for j, k := range pl.keep {
			for r := 0; r < rows; r++ {
				newz[r*n+k] = out[r*kn+j]
			}
		}
	}
	// Write the vectors back in the order of the merged eigenvalues.
	for r := 0; r < rows; r++ {
		dst := z[r*ldz : r*ldz+n]
		src := newz[r*n : r*n+n]
		for c, k := range pl.order {
			dst[c] = src[k]
		}
	}
}

// eps is the unit roundoff 2⁻⁵³.
const eps = 0x1p-53

// rotateColumns replaces columns i and j of the n-row matrix z by
// c·z_i − s·z_j and s·z_i + c·z_j.
func rotateColumns(z []float64, ldz, n, i, j int, c, s float64) {
	for r := 0; r < n; r++ {
		row := z[r*ldz:]
		a, b := row[i], row[j]
		row[i] = c*a - s*b
		row[j] = s*a + c*b
	}
}

// secularEigen returns the eigenvectors (k×k row-major, column j for
// eigenvalue j) and the eigenvalues (ascending) of diag(d) + ρ·z·zᵀ, with d
// strictly increasing, every z_i non-zero and ρ > 0. Each root λ_j of the
// secular equation 1 + ρ·Σ z_i²/(d_i − λ) = 0 lies in (d_j, d_{j+1})
// (the last in (d_{k−1}, d_{k−1} + ρ‖z‖²]); it is found relative to its
// nearer pole, so that every d_i − λ_j is accurate. The vectors use the
// Gu–Eisenstat formula: ẑ is recomputed from the roots (ẑ_i² =
// Π_j (λ_j − d_i) / (ρ·Π_{j≠i} (d_j − d_i))), which keeps them orthogonal.
func secularEigen(d, z []float64, rho float64) (u, lam []float64, err error) {
	k := len(d)
	lam = make([]float64, k)
	origin := make([]int, k)    // pole the root is measured from
	tau := make([]float64, k)   // λ_j = d[origin[j]] + tau[j]
	delta := make([]float64, k) // d_i − d[origin], per root (scratch)
	z2 := make([]float64, k)
	zn := 0.0
	for i, v := range z {
		z2[i] = v * v
		zn += z2[i]
	}
	for j := 0; j < k; j++ {
		var lo, hi float64 // bracket of τ around the chosen origin
		o := j
		if j < k-1 {
			gap := d[j+1] - d[j]
			// f at the midpoint, measured from d_j.
			if secular(d, z2, rho, d[j], gap/2) >= 0 {
				o, lo, hi = j, 0, gap/2
			} else {
				o, lo, hi = j+1, -gap/2, 0
			}
		} else {
			lo, hi = 0, rho*zn
		}
		t, ok := secularRoot(d, z2, rho, d[o], lo, hi, delta)
		if !ok {
			return nil, nil, ErrEigenNoConvergence
		}
		origin[j], tau[j] = o, t
		lam[j] = d[o] + t
	}
	// diff(i, j) = d_i − λ_j, accurate.
	diff := func(i, j int) float64 { return (d[i] - d[origin[j]]) - tau[j] }
	zh := make([]float64, k)
	for i := 0; i < k; i++ {
		p := -diff(i, i) / rho // (λ_i − d_i)/ρ > 0
		for j := 0; j < k; j++ {
			if j != i {
				p *= diff(i, j) / (d[i] - d[j])
			}
		}
		zh[i] = math.Copysign(math.Sqrt(math.Abs(p)), z[i])
	}
	u = make([]float64, k*k)
	col := make([]float64, k)
	for j := 0; j < k; j++ {
		for i := 0; i < k; i++ {
			col[i] = zh[i] / diff(i, j)
		}
		nrm := norm2(col)
		for i := 0; i < k; i++ {
			u[i*k+j] = col[i] / nrm
		}
	}
	return u, lam, nil
}

// secular evaluates f(λ) = 1 + ρ·Σ z_i²/(d_i − λ) at λ = origin + t, with
// the differences d_i − λ formed as (d_i − origin) − t.
func secular(d, z2 []float64, rho, origin, t float64) float64 {
	s := 0.0
	for i, di := range d {
		s += z2[i] / ((di - origin) - t)
	}
	return 1 + rho*s
}

// secularRoot finds the root τ ∈ (lo, hi) of f(origin + τ) (f increasing,
// f(lo⁺) < 0 ≤ f(hi)) by Newton steps safeguarded with bisection, to full
// precision. delta is scratch of length len(d).
func secularRoot(d, z2 []float64, rho, origin, lo, hi float64, delta []float64) (float64, bool) {
	for i, di := range d {
		delta[i] = di - origin
	}
	// eval returns f, f′ and a bound on the rounding error of f.
	eval := func(t float64) (f, df, bound float64) {
		var s, ds, sa float64
		for i, dl := range delta {
			r := 1 / (dl - t)
			q := z2[i] * r
			s += q
			sa += math.Abs(q)
			ds += q * r
		}
		return 1 + rho*s, rho * ds, eps * float64(len(d)+2) * (1 + rho*sa)
	}
	t := (lo + hi) / 2
	for it := 0; it < 400; it++ {
		f, df, bound := eval(t)
		if math.Abs(f) <= bound {
			return t, true
		}
		if f < 0 {
			lo = t
		} else {
			hi = t
		}
		if hi-lo <= 4*eps*math.Max(math.Abs(lo), math.Abs(hi)) {
			return lo + (hi-lo)/2, true
		}
		next := t - f/df
		// Bisect when Newton leaves the bracket.
		if !(next > lo && next < hi) {
			next = lo + (hi-lo)/2
		}
		if next == t {
			return t, true
		}
		t = next
	}
	return t, !math.IsNaN(t)
}
