package linalg

import "fmt"

// GramInt8Known is GramInt8 for a caller that already knows a bound on the
// values (|a| ≤ bound ≤ 127) and their column sums (colsum[j] = Σ_r a[r][j]):
// it skips GramInt8's two passes over A that find them, which cost as much
// as the products themselves at a few hundred columns. The kernel is exact
// for any offset from max|a| to 127, so the result equals GramInt8's bit for
// bit when bound and colsum are right; wrong ones give a wrong C (they are
// not checked: that would be the passes saved). A bound outside [1, 127] or
// a colsum of the wrong length is a programmer error.
func (e Engine) GramInt8Known(m, n int, a []int8, lda, bound int, colsum []int64, c []float64, ldc int) {
	if m < 0 || n < 0 || lda < max(n, 1) || (m > 0 && n > 0 && len(a) < (m-1)*lda+n) {
		panic(fmt.Sprintf("linalg: GramInt8Known: A %d×%d, lda %d, len %d", m, n, lda, len(a)))
	}
	if bound < 1 || bound > 127 || len(colsum) != n {
		panic(fmt.Sprintf("linalg: GramInt8Known: bound %d, %d column sums for %d columns", bound, len(colsum), n))
	}
	checkMat("C", n, n, c, ldc)
	kern := int8KernelFor(bound)
	if kern == nil || m == 0 || n == 0 {
		e.gramInt8(nil, m, n, a, lda, c, ldc)
		return
	}
	e.gramInt8Tiles(kern, m, n, a, lda, bound, colsum, c, ldc)
}
