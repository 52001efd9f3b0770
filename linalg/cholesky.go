package linalg

import (
	"fmt"
	"math"
)

// NotPositiveDefiniteError is returned by Cholesky when a pivot is not
// positive (or not finite). The leading Pivot×Pivot block of the factor is
// valid when it is returned: it is the Cholesky factor of the leading
// Pivot×Pivot block of the input.
type NotPositiveDefiniteError struct {
	Pivot int     // 0-based index of the failing pivot
	Value float64 // the value that would have been square-rooted
}

func (e *NotPositiveDefiniteError) Error() string {
	return fmt.Sprintf("linalg: matrix is not positive definite: pivot %d is %g", e.Pivot, e.Value)
}

const (
	cholLeaf = 48 // below this size Cholesky runs the unblocked algorithm
	trsmLeaf = 32 // below this width triangular solves work on the block directly
)

// Cholesky factors the symmetric positive definite n×n matrix A = L·Lᵀ in
// place: on return the lower triangle of A holds L. Only the lower triangle
// is read and written. On failure it returns a *NotPositiveDefiniteError
// (see there for what is left in A).
//
// The algorithm is recursive (split in halves; the off-diagonal solve and
// the trailing update run on the blocked product kernel), so its cost is
// dominated by the fast kernel.
func (e Engine) Cholesky(n int, a []float64, lda int) error {
	checkMat("A", n, n, a, lda)
	return e.potrf(n, a, lda, 0)
}

// split returns the size of the leading half when a problem of size n is
// split in two (a multiple of 8 when n is large, so blocks stay aligned
// with the register tiles).
func split(n int) int {
	n1 := n / 2
	if n1 >= 16 {
		n1 = n1 / 8 * 8
	}
	return n1
}

func (e Engine) potrf(n int, a []float64, lda, off int) error {
	if n <= cholLeaf {
		return potf2(n, a, lda, off)
	}
	n1 := split(n)
	n2 := n - n1
	if err := e.potrf(n1, a, lda, off); err != nil {
		return err
	}
	a21 := a[n1*lda:]
	a22 := a[n1*lda+n1:]
	e.trsmRLT(n2, n1, a, lda, a21, lda)
	e.gemm(false, true, n2, n2, n1, -1, a21, lda, a21, lda, 1, a22, lda, true)
	return e.potrf(n2, a22, lda, off+n1)
}

// potf2 is the unblocked left-looking Cholesky on rows (dot products of
// contiguous row segments).
func potf2(n int, a []float64, lda, off int) error {
	for j := 0; j < n; j++ {
		rowj := a[j*lda : j*lda+j+1]
		d := rowj[j] - dot(rowj[:j], rowj[:j])
		if !(d > 0) || math.IsInf(d, 1) {
			return &NotPositiveDefiniteError{Pivot: off + j, Value: d}
		}
		ljj := math.Sqrt(d)
		rowj[j] = ljj
		for i := j + 1; i < n; i++ {
			rowi := a[i*lda : i*lda+j+1]
			rowi[j] = (rowi[j] - dot(rowi[:j], rowj[:j])) / ljj
		}
	}
	return nil
}

// dot returns Σ x[i]·y[i] with four interleaved partial sums.
func dot(x, y []float64) float64 {
	y = y[:len(x)]
	var s0, s1, s2, s3 float64
	i := 0
	for ; i+4 <= len(x); i += 4 {
		s0 += x[i] * y[i]
		s1 += x[i+1] * y[i+1]
		s2 += x[i+2] * y[i+2]
		s3 += x[i+3] * y[i+3]
	}
	for ; i < len(x); i++ {
		s0 += x[i] * y[i]
	}
	return (s0 + s1) + (s2 + s3)
}

// trsmRLT solves X·Lᵀ = B in place (B is m×n, L is n×n lower triangular).
func (e Engine) trsmRLT(m, n int, l []float64, ldl int, b []float64, ldb int) {
	if m == 0 || n == 0 {
		return
	}
	if n <= trsmLeaf {
		e.trsmRLTLeaf(m, n, l, ldl, b, ldb)
		return
	}
	n1 := split(n)
	n2 := n - n1
	e.trsmRLT(m, n1, l, ldl, b, ldb)
	e.gemm(false, true, m, n2, n1, -1, b, ldb, l[n1*ldl:], ldl, 1, b[n1:], ldb, false)
	e.trsmRLT(m, n2, l[n1*ldl+n1:], ldl, b[n1:], ldb)
}

// trsmRLTLeaf solves X·Lᵀ = B for a narrow L (n ≤ trsmLeaf): it inverts
// L by substitution (n³/6 scalar operations) and multiplies X = B·L⁻ᵀ on
// the product kernel, which is much faster than m scalar substitutions.
// (Inverting only small diagonal blocks keeps the error growth to that of
// the block, as in blocked GPU solvers.)
func (e Engine) trsmRLTLeaf(m, n int, l []float64, ldl int, b []float64, ldb int) {
	bufp := getBuf(n*n + m*n)
	defer putBuf(bufp)
	inv, tmp := (*bufp)[:n*n], (*bufp)[n*n:]
	clear(inv)
	for j := 0; j < n; j++ {
		inv[j*n+j] = 1 / l[j*ldl+j]
		for i := j + 1; i < n; i++ {
			var s float64
			for t := j; t < i; t++ {
				s += l[i*ldl+t] * inv[t*n+j]
			}
			inv[i*n+j] = -s / l[i*ldl+i]
		}
	}
	for r := 0; r < m; r++ {
		copy(tmp[r*n:r*n+n], b[r*ldb:r*ldb+n])
	}
	e.gemm(false, true, m, n, n, 1, tmp, n, inv, n, 0, b, ldb, false)
}

// SolveLower solves L·X = B in place by forward substitution: L is the
// lower triangle of the n×n matrix l (only the leading n×n block of a
// larger factor is read when ldl > n), B is n×nrhs.
//
// Because L is lower triangular, the first p rows of the solution for a
// leading p×p block equal the first p rows of the solution for the full L.
func (e Engine) SolveLower(n, nrhs int, l []float64, ldl int, b []float64, ldb int) {
	checkMat("L", n, n, l, ldl)
	checkMat("B", n, nrhs, b, ldb)
	e.solveLower(n, nrhs, l, ldl, b, ldb)
}

func (e Engine) solveLower(n, nrhs int, l []float64, ldl int, b []float64, ldb int) {
	if n == 0 || nrhs == 0 {
		return
	}
	if n <= trsmLeaf {
		for i := 0; i < n; i++ {
			xi := b[i*ldb : i*ldb+nrhs]
			li := l[i*ldl : i*ldl+i+1]
			for t, lit := range li[:i] {
				xt := b[t*ldb : t*ldb+nrhs]
				for c := range xi {
					xi[c] -= lit * xt[c]
				}
			}
			for c := range xi {
				xi[c] /= li[i]
			}
		}
		return
	}
	n1 := split(n)
	n2 := n - n1
	e.solveLower(n1, nrhs, l, ldl, b, ldb)
	e.gemm(false, false, n2, nrhs, n1, -1, l[n1*ldl:], ldl, b, ldb, 1, b[n1*ldb:], ldb, false)
	e.solveLower(n2, nrhs, l[n1*ldl+n1:], ldl, b[n1*ldb:], ldb)
}

// SolveLowerT solves Lᵀ·X = B in place by back substitution, with L as in
// SolveLower (only its leading n×n block is read).
func (e Engine) SolveLowerT(n, nrhs int, l []float64, ldl int, b []float64, ldb int) {
	checkMat("L", n, n, l, ldl)
	checkMat("B", n, nrhs, b, ldb)
	e.solveLowerT(n, nrhs, l, ldl, b, ldb)
}

func (e Engine) solveLowerT(n, nrhs int, l []float64, ldl int, b []float64, ldb int) {
	if n == 0 || nrhs == 0 {
		return
	}
	if n <= trsmLeaf {
		for i := n - 1; i >= 0; i-- {
			xi := b[i*ldb : i*ldb+nrhs]
			for t := i + 1; t < n; t++ {
				lti := l[t*ldl+i]
				xt := b[t*ldb : t*ldb+nrhs]
				for c := range xi {
					xi[c] -= lti * xt[c]
				}
			}
			lii := l[i*ldl+i]
			for c := range xi {
				xi[c] /= lii
			}
		}
		return
	}
	n1 := split(n)
	n2 := n - n1
	e.solveLowerT(n2, nrhs, l[n1*ldl+n1:], ldl, b[n1*ldb:], ldb)
	e.gemm(true, false, n1, nrhs, n2, -1, l[n1*ldl:], ldl, b[n1*ldb:], ldb, 1, b, ldb, false)
	e.solveLowerT(n1, nrhs, l, ldl, b, ldb)
}

// CholeskySolve solves A·X = B in place given the Cholesky factor L of A
// (as left by Cholesky); B is n×nrhs.
func (e Engine) CholeskySolve(n, nrhs int, l []float64, ldl int, b []float64, ldb int) {
	e.SolveLower(n, nrhs, l, ldl, b, ldb)
	e.SolveLowerT(n, nrhs, l, ldl, b, ldb)
}
