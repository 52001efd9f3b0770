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
// bit (the same tridiagonalisation and divide and conquer), but A's eigenvectors V are
// never formed: B is carried into the tridiagonal basis (C = Qᵀ·B, the
// Householder blocks in forward order), filtered there with the
// eigenvectors Z of the tridiagonal matrix (C' = diag(g)·Zᵀ·C, Z·C'), and
// carried back (Q·Z·C'). This saves SymEigen's back-transformation of Z
// (2n³ flops) and the two n×n products with V; the rest costs O(n²·nrhs),
// and the columns of Z whose g is 0 are skipped.
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
	z := make([]float64, n*n)
	if err := e.tridiagEigen(n, w, off[:n-1], z, n); err != nil {
		return nil, nil, err
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
	// Only the columns of Z with g ≠ 0 take part: with Zk those columns,
	// C' = diag(g_k)·Zkᵀ·C, then x = Zk·C' (a pseudo-inverse's cutoff
	// usually drops most of the spectrum of an RVFL's system).
	var kept []int
	for i, gi := range g {
		if gi != 0 {
			kept = append(kept, i)
		}
	}
	k := len(kept)
	zk := make([]float64, n*k)
	for r := 0; r < n; r++ {
		row, dst := z[r*n:r*n+n], zk[r*k:r*k+k]
		for j, col := range kept {
			dst[j] = row[col]
		}
	}
	c := make([]float64, k*nrhs)
	e.gemm(true, false, k, nrhs, n, 1, zk, k, x, nrhs, 0, c, nrhs, false)
	for j, col := range kept {
		row := c[j*nrhs : j*nrhs+nrhs]
		for q := range row {
			row[q] *= g[col]
		}
	}
	if k == 0 {
		clear(x)
	} else {
		e.gemm(false, false, n, nrhs, k, 1, zk, k, c, nrhs, 0, x, nrhs, false)
	}
	e.applyQ(n, nrhs, blocks, x, nrhs)
	return w, x, nil
}

// applyQT overwrites the n×ncols matrix C with Qᵀ·C, Qᵀ = H_{n−2}·…·H_0
// from the blocks of tridiagonalize: the blocks in forward order, each as
// (I − V·T·Vᵀ)ᵀ = I − V·Tᵀ·Vᵀ on the rows the block touches.
func (e Engine) applyQT(ncols int, blocks []reflectorBlock, c []float64, ldc int) {
	for _, blk := range blocks {
		nb, rows := blk.nb, blk.rows
		t := blk.factor()
		cb := c[blk.first*ldc:]
		y := make([]float64, nb*ncols)
		e.gemm(true, false, nb, ncols, rows, 1, blk.v, nb, cb, ldc, 0, y, ncols, false)
		ty := make([]float64, nb*ncols)
		e.gemm(true, false, nb, ncols, nb, 1, t, nb, y, ncols, 0, ty, ncols, false)
		e.gemm(false, false, rows, ncols, nb, -1, blk.v, nb, ty, ncols, 1, cb, ldc, false)
	}
}
