// Package ridge computes the ridge-regression readout W_out of RVFL and
// intRVFL networks and evaluates it over the hyper-parameter grid.
//
// # Problem
//
// H is the M×n hidden-activation matrix of the training rows (row-major,
// leading dimension n), Y the M×L one-hot targets of the integer labels.
// The readout is
//
//	W_outᵀ = (HᵀH + λR)⁻¹ HᵀY        (primal, n×n system)
//	       = R⁻¹Hᵀ(HR⁻¹Hᵀ + λI)⁻¹ Y  (dual, M×M system)
//
// with R = I (Identity, the paper's form) or R = diag(var_j) (Variance, the
// authors' code, the default): var_j is the sample variance (denominator
// M−1) of column j over the training rows. A column with var_j = 0, or every
// column when M < 2, gets R_jj = 1 — the system stays positive definite for
// λ > 0, and R_jj depends on column j alone, so a column prefix of H gets the
// prefix of R. The dual form is computed with H' = H·R^{-1/2}:
// W_outᵀ = R^{-1/2}H'ᵀ(H'H'ᵀ + λI)⁻¹Y. Both forms give the same W_out
// (tested to 1e-9). W_out is returned L×n, row-major. λ must be positive.
//
// Prediction: scores = H·W_outᵀ, class = argmax, ties to the lowest index.
//
// # Numerical safety
//
// If a Cholesky factorisation fails (numerically singular system, e.g. a
// near-constant column with tiny variance, or large duplicated columns with
// the identity regulariser and a small λ), the system is rebuilt with its
// diagonal multiplied by 1+δ for δ = 1e-10, 1e-8, …, 1e-2 in turn, and Info
// (or GridResult.Jitter) reports the δ used. The rule touches each diagonal
// element alone, so the grid search and a one-shot solve of the same prefix
// choose the same δ. Non-finite inputs, a failed ladder or non-finite
// results are errors, never silent NaNs.
//
// # API
//
//	type Regularizer int                 // Variance (zero value), Identity
//	func ParseRegularizer(s string) (Regularizer, error)
//	func (r Regularizer) Diag(h []float64, m, n int) []float64
//	type Data struct{ H []float64; Rows, Cols int; Labels []int }
//	type Solver struct{ Reg Regularizer; Threads int }
//	func (Solver) Solve(d Data, classes int, lambda float64) ([]float64, Info, error)       // primal if Rows ≥ Cols
//	func (Solver) SolvePrimal(d Data, classes int, lambda float64) ([]float64, Info, error)
//	func (Solver) SolveDual(d Data, classes int, lambda float64) ([]float64, Info, error)
//	func (Solver) NewNormal(d Data, classes int) (*Normal, error)                           // HᵀH, HᵀY, R once
//	func (Solver) SolveNormal(nm *Normal, lambda float64, p int) ([]float64, Info, error)   // any λ, any prefix p
//	func (Solver) Grid(train, val Data, classes int, lambdas []float64, prefixes []int) (*GridResult, error)
//	func Predict(h []float64, rows, n int, wout []float64, classes, threads int) []int
//	func Argmax(scores []float64) int
//
// # Grid search
//
// Grid returns, for every column prefix p (network size) and every λ, the
// number of correct validation predictions. Prefixes with p ≤ M use the
// primal: one Gram matrix per call, one Cholesky factorisation per λ for
// all prefixes (the factor of a leading block is the leading block of the
// factor), one forward substitution per λ, and one back substitution per λ
// for all prefixes at once (Lᵀx = [z_p; 0] has the solution [W_p; 0], so
// the prefixes are zero-padded right-hand sides of one solve); the
// validation scores of all λ of a prefix come from one product. Prefixes
// with p > M use the dual: the kernels H'_pH'_pᵀ and H'val_pH'_pᵀ grow
// incrementally over the prefixes, and each (prefix, λ) costs one M×M
// Cholesky. An intRVFL H, which does not nest, is one call with the single
// prefix n. Results are identical for every Threads value.
package ridge
