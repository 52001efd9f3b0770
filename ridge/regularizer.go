package ridge

import (
	"fmt"
	"math"
)

// Regularizer selects the matrix R in the ridge system (HᵀH + λR).
type Regularizer int

const (
	// Variance is R = diag(var_j), var_j the sample variance (denominator
	// M−1) of column j of H over the training rows: the authors' form
	// (torchhd's ridge_regression). It is the zero value, so the default.
	Variance Regularizer = iota
	// Identity is R = I, the form written in the paper.
	Identity
)

// String returns "variance" or "identity".
func (r Regularizer) String() string {
	switch r {
	case Variance:
		return "variance"
	case Identity:
		return "identity"
	}
	return fmt.Sprintf("Regularizer(%d)", int(r))
}

// ParseRegularizer parses the names String returns.
func ParseRegularizer(s string) (Regularizer, error) {
	switch s {
	case "variance":
		return Variance, nil
	case "identity":
		return Identity, nil
	}
	return 0, fmt.Errorf("ridge: unknown regulariser %q (want \"variance\" or \"identity\")", s)
}

// Diag returns the diagonal of R for the m×n row-major matrix h (leading
// dimension n). For Variance, a column whose variance is 0 (constant
// column), or every column when m < 2, gets R_jj = 1: that keeps the
// system positive definite for λ > 0, and it depends on the column alone,
// so a column's R_jj does not depend on which other columns are present
// (a prefix of the columns gets the prefix of the diagonal).
func (r Regularizer) Diag(h []float64, m, n int) []float64 {
	return r.diag(h, m, n, 1)
}

// diag is Diag with zeroVar as R_jj of a zero-variance column.
func (r Regularizer) diag(h []float64, m, n int, zeroVar float64) []float64 {
	return diagRows(r, m, n, zeroVar, nil, func(i int) []float64 { return h[i*n : i*n+n] })
}

// regDiag returns the diagonal of R as s uses it: Diag for the exact
// solver. For PinvCutoff a zero-variance column keeps R_jj = 0, as in the
// authors' code (torch.var of a constant column is 0, and the
// pseudo-inverse needs no positive definite system).
func (s Solver) regDiag(h []float64, m, n int) []float64 {
	if s.Method == PinvCutoff {
		return s.Reg.diag(h, m, n, 0)
	}
	return s.Reg.Diag(h, m, n)
}

// checkFinite returns an error naming the first non-finite value of x.
func checkFinite(what string, x []float64, cols int) error {
	for i, v := range x {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("ridge: %s[%d][%d] is %v", what, i/cols, i%cols, v)
		}
	}
	return nil
}
