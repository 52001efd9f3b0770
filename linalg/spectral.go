package linalg

import (
	"fmt"
	"math"
)

// SymFilterApply applies a spectral filter of the symmetric n×n matrix
// A = Q·Z·diag(w)·Zᵀ·Qᵀ (lower triangle in a, leading dimension lda;
// destroyed) to the n×nrhs matrix B (b, leading dimension ldb; not
// modified): it returns the eigenvalues w of A in ascending order and
//
//	X = V·diag(g)·Vᵀ·B,  V = Q·Z,  g = filter(w)
//
// as an n×nrhs row-major matrix (leading dimension nrhs). filter gets the
// eigenvalues (it must not modify them) and returns g, of length n.
//
// The eigenvalues are those SymEigen returns with eigenvectors, bit for
// bit (the same tridiagonalisation and divide and conquer), but A's
// eigenvectors V are never formed: B is carried into the tridiagonal basis (C = Qᵀ·B, the
// Householder blocks in forward order), filtered there with the
// eigenvectors Z of the tridiagonal matrix (C' = diag(g)·Zᵀ·C, Z·C'), and
// carried back (Q·Z·C'). Z is not formed either: the divide and conquer
// keeps, per subproblem, only the first and last rows of its eigenvectors
// (all a merge reads) and the merge's column transformation, which Zᵀ·C
// and Z·C' apply level by level (dcTree). This saves SymEigen's
// back-transformation of Z (2n³ flops), the divide and conquer's
// eigenvector updates (up to about n³) and the two n×n products with V;
// the rest costs O(n²·nrhs) and the stored transformations O(n²) memory.
// Non-finite input (in A's lower triangle or in B) is an error.
//
// Results are bit-identical for every Engine.Threads value.
func (e Engine) SymFilterApply(n int, a []float64, lda int, b []float64, ldb, nrhs int,
	filter func(w []float64) []float64) (w, x []float64, err error) {
	checkMat("A", n, n, a, lda)
	checkMat("B", n, nrhs, b, ldb)
	for i := 0; i < n; i++ {
		for _, v := range a[i*lda : i*lda+i+1] {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, nil, fmt.Errorf("linalg: SymFilterApply: non-finite element in row %d of A", i)
			}
		}
		if nrhs == 0 {
			continue
		}
		for _, v := range b[i*ldb : i*ldb+nrhs] {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, nil, fmt.Errorf("linalg: SymFilterApply: non-finite element in row %d of B", i)
			}
		}
	}
	w = make([]float64, n)
	x = make([]float64, n*nrhs)
	if n == 0 {
		filter(w)
		return w, x, nil
	}
	// A = Q·T·Qᵀ, T = Z·diag(w)·Zᵀ.
	off := make([]float64, n)
	blocks := e.tridiagonalize(n, a, lda, w, off)
	tree, err := e.tridiagEigenTree(n, w, off[:n-1])
	if err != nil {
		return nil, nil, fmt.Errorf("linalg: SymFilterApply of a %d×%d matrix: %w", n, n, err)
	}
	g := filter(w)
	if len(g) != n {
		panic(fmt.Sprintf("linalg: SymFilterApply: the filter returned %d values for %d eigenvalues", len(g), n))
	}
	// C = Qᵀ·B in x; both applications of Q share the blocks' factors.
	for i := range blocks {
		blocks[i].t = blocks[i].triangularFactor()
	}
	for i := 0; nrhs > 0 && i < n; i++ {
		copy(x[i*nrhs:i*nrhs+nrhs], b[i*ldb:i*ldb+nrhs])
	}
	e.applyQT(nrhs, blocks, x, nrhs)
	// x = Z·diag(g)·Zᵀ·C.
	e.applyZT(tree, x, nrhs)
	for i, gi := range g {
		row := x[i*nrhs : i*nrhs+nrhs]
		for k := range row {
			row[k] *= gi
		}
	}
	e.applyZ(tree, x, nrhs)
	e.applyQ(n, nrhs, blocks, x, nrhs)
	return w, x, nil
}

// applyQT overwrites the n×ncols matrix C with Qᵀ·C, Qᵀ = H_{n−2}·…·H_0
// from the blocks of tridiagonalize: the blocks in forward order, each as
// (I − V·T·Vᵀ)ᵀ = I − V·Tᵀ·Vᵀ on the rows the block touches.
func (e Engine) applyQT(ncols int, blocks []reflectorBlock, c []float64, ldc int) {
	for _, blk := range blocks {
		e.applyBlock(blk, true, ncols, c, ldc)
	}
}

// dcTree is the divide-and-conquer solution of a symmetric tridiagonal
// eigenproblem of size n without its eigenvector matrix Z: a leaf holds Z
// (n ≤ dcLeaf), an inner node its halves (sizes m and n−m) and the merge
// plan M with Z = blockdiag(Z_left, Z_right)·M. first and last are the
// first and last rows of Z. ident marks Z = I (a zero matrix).
type dcTree struct {
	n, m        int
	ident       bool
	leaf        []float64
	left, right *dcTree
	plan        *mergePlan
	first, last []float64
}

// tridiagEigenTree is tridiagEigen with the eigenvectors kept as a dcTree:
// the same scaling, splits, leaves and merges, so the same eigenvalues
// (into d) bit for bit.
func (e Engine) tridiagEigenTree(n int, d, off []float64) (*dcTree, error) {
	scale := maxNorm(d, off)
	if scale == 0 {
		return &dcTree{n: n, ident: true}, nil
	}
	for i := range d {
		d[i] /= scale
	}
	for i := range off {
		off[i] /= scale
	}
	t, err := e.divideTree(n, d, off)
	if err != nil {
		return nil, err
	}
	for i := range d {
		d[i] *= scale
	}
	return t, nil
}

// divideTree is divide keeping only the first and last rows of each
// subproblem's eigenvectors, and the merge plans. The rows are those of
// divide bit for bit: a merge transforms each row on its own, and the
// product kernel's result for an element does not depend on the other
// rows of the product (the micro-kernels sum from zero, then store or add
// into C, in full and edge tiles alike), so the eigenvalues are too.
func (e Engine) divideTree(n int, d, off []float64) (*dcTree, error) {
	if n <= dcLeaf {
		z := make([]float64, n*n)
		if err := e.divide(n, d, off, z, n); err != nil {
			return nil, err
		}
		return &dcTree{n: n, leaf: z, first: z[:n], last: z[(n-1)*n:]}, nil
	}
	m := n / 2
	beta := off[m-1]
	rho := math.Abs(beta)
	sigma := math.Copysign(1, beta)
	d[m-1] -= rho
	d[m] -= rho
	left, err := e.divideTree(m, d[:m], off[:m-1])
	if err != nil {
		return nil, err
	}
	right, err := e.divideTree(n-m, d[m:], off[m:])
	if err != nil {
		return nil, err
	}
	// zv as merge reads it from the full Z: the last row of Z_left, the
	// first row of Z_right.
	zv := make([]float64, n)
	for i := 0; i < m; i++ {
		zv[i] = left.last[i] / math.Sqrt2
	}
	for i := m; i < n; i++ {
		zv[i] = sigma * right.first[i-m] / math.Sqrt2
	}
	pl, err := planMerge(n, d, rho, zv)
	if err != nil {
		return nil, err
	}
	copy(d, pl.lam)
	// The first and last rows of blockdiag(Z_left, Z_right), times M.
	rows := make([]float64, 2*n)
	copy(rows[:m], left.first)
	copy(rows[n+m:], right.last)
	e.applyMergeCols(pl, rows, n, 2)
	return &dcTree{n: n, m: m, left: left, right: right, plan: pl, first: rows[:n], last: rows[n:]}, nil
}

// applyZT overwrites the n×k matrix y (leading dimension k) with Zᵀ·y:
// the halves first, then Mᵀ.
func (e Engine) applyZT(t *dcTree, y []float64, k int) {
	switch {
	case t.ident || k == 0:
	case t.leaf != nil:
		out := make([]float64, t.n*k)
		e.gemm(true, false, t.n, k, t.n, 1, t.leaf, t.n, y, k, 0, out, k, false)
		copy(y, out)
	default:
		e.applyZT(t.left, y[:t.m*k], k)
		e.applyZT(t.right, y[t.m*k:], k)
		e.applyPlanT(t.plan, y, k)
	}
}

// applyZ overwrites the n×k matrix y (leading dimension k) with Z·y: M
// first, then the halves.
func (e Engine) applyZ(t *dcTree, y []float64, k int) {
	switch {
	case t.ident || k == 0:
	case t.leaf != nil:
		out := make([]float64, t.n*k)
		e.gemm(false, false, t.n, k, t.n, 1, t.leaf, t.n, y, k, 0, out, k, false)
		copy(y, out)
	default:
		e.applyPlan(t.plan, y, k)
		e.applyZ(t.left, y[:t.m*k], k)
		e.applyZ(t.right, y[t.m*k:], k)
	}
}

// applyPlanT overwrites the n×k matrix y with Mᵀ·y = Pᵀ·Sᵀ·G_rᵀ·…·G_1ᵀ·y.
func (e Engine) applyPlanT(pl *mergePlan, y []float64, k int) {
	n, kn := pl.n, len(pl.keep)
	for _, g := range pl.rots { // G_1ᵀ first
		rotateRows(y, k, g.i, g.j, g.c, -g.s)
	}
	// s = Sᵀ·y, indexed by sorted entry.
	s := make([]float64, n*k)
	for q := 0; q < n; q++ {
		if pl.deflated[q] {
			copy(s[q*k:q*k+k], y[pl.cols[q]*k:pl.cols[q]*k+k])
		}
	}
	if kn > 0 {
		yk := make([]float64, kn*k)
		for i, q := range pl.keep {
			copy(yk[i*k:i*k+k], y[pl.cols[q]*k:pl.cols[q]*k+k])
		}
		out := make([]float64, kn*k)
		e.gemm(true, false, kn, k, kn, 1, pl.u, kn, yk, k, 0, out, k, false)
		for j, q := range pl.keep {
			copy(s[q*k:q*k+k], out[j*k:j*k+k])
		}
	}
	for c, q := range pl.order {
		copy(y[c*k:c*k+k], s[q*k:q*k+k])
	}
}

// applyPlan overwrites the n×k matrix y with M·y = G_1·…·G_r·S·P·y.
func (e Engine) applyPlan(pl *mergePlan, y []float64, k int) {
	n, kn := pl.n, len(pl.keep)
	// s = P·y, indexed by sorted entry.
	s := make([]float64, n*k)
	for c, q := range pl.order {
		copy(s[q*k:q*k+k], y[c*k:c*k+k])
	}
	for q := 0; q < n; q++ {
		if pl.deflated[q] {
			copy(y[pl.cols[q]*k:pl.cols[q]*k+k], s[q*k:q*k+k])
		}
	}
	if kn > 0 {
		sk := make([]float64, kn*k)
		for j, q := range pl.keep {
			copy(sk[j*k:j*k+k], s[q*k:q*k+k])
		}
		out := make([]float64, kn*k)
		e.gemm(false, false, kn, k, kn, 1, pl.u, kn, sk, k, 0, out, k, false)
		for i, q := range pl.keep {
			copy(y[pl.cols[q]*k:pl.cols[q]*k+k], out[i*k:i*k+k])
		}
	}
	for r := len(pl.rots) - 1; r >= 0; r-- { // G_r first
		g := pl.rots[r]
		rotateRows(y, k, g.i, g.j, g.c, g.s)
	}
}

// rotateRows replaces rows i and j of y (k columns) by c·y_i + s·y_j and
// −s·y_i + c·y_j.
func rotateRows(y []float64, k, i, j int, c, s float64) {
	yi, yj := y[i*k:i*k+k], y[j*k:j*k+k]
	for q := range yi {
		a, b := yi[q], yj[q]
		yi[q] = c*a + s*b
		yj[q] = -s*a + c*b
	}
}
