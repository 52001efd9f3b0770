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
// # Solvers
//
// Solver.Method selects how the system is solved. Exact (the default)
// factors it by Cholesky, as above. PinvCutoff reproduces the authors'
// code: torchhd's functional.ridge_regression computes
// Yᵀ·H·torch.linalg.pinv(HᵀH + α·diag(torch.var(H))) (torchhd/functional.py,
// hyperdimensional-computing/torchhd), and the GLVQ-RVFL repository
// (CameronDiao/GLVQ-For-Classification-In-Randomized-NN-And-HDC,
// classifiers/rlms.py) computes scipy.linalg.pinv(HᵀH + λ·diag(np.var(H)))·HᵀY
// on float32 arrays. Both pseudo-inverses treat the singular values
// s ≤ rtol·s_max as zero (PyTorch's linalg_pinv keeps S > max(atol,
// rtol·S_max), aten/src/ATen/native/LinearAlgebra.cpp; scipy the same with
// atol + rtol·s_max), with the default rtol = max(rows, cols)·eps of the
// dtype: n·2⁻²³ for the n×n float32 system (torch.linalg.pinv and
// scipy.linalg.pinv documentation). So PinvCutoff always means the primal
// n×n system, W_outᵀ = pinv(HᵀH + λR)·HᵀY with the singular values at or
// below RTol·σ_max dropped; Solver.RTol = 0 means DefaultRTol(n) = n·2⁻²³.
//
// The computation is in float64 with that relative cutoff. The cutoff,
// not the precision, is what matters: on conn-bench-vowel-deterding (RVFL,
// variance penalty, 5 seeds, test file normalised with the training
// statistics) float64 with the float32 cutoff gives the same accuracy and
// the same number of dropped singular values on every seed as a true
// float32 SVD (LAPACK sgesdd through numpy): N=150, λ=16: 0.6286 with
// 130–134 of 150 dropped (exact solve 0.7719); N=1000, λ=2⁻¹⁰: 0.5866 with
// 989 of 1000 dropped (exact 0.9753). (A throwaway comparison outside the
// repository; the sigmoid hidden layer is nearly collinear, so most of its
// spectrum lies below n·2⁻²³·σ_max.)
//
// The symmetric positive semidefinite system is decomposed as
// V·diag(e)·Vᵀ (linalg's SymEigen, checked against gonum's EigenSym and
// SVD in the tests); its singular values are |e_i|. With
// the identity regulariser the eigendecomposition of HᵀH serves every λ
// (the eigenvalues shift by λ), and when Rows < Cols the M×M kernel HHᵀ
// stands in for it: HᵀH + λI has the kernel's eigenvalues plus λ and, on
// the null space of H, the value λ, which HᵀY does not reach, so the
// solution is Hᵀ·U·diag(g)·Uᵀ·Y (Info.Dual). With the variance regulariser
// every (prefix, λ) needs its own primal eigendecomposition; only its
// eigenvalues and the filtered product V·diag(g)·Vᵀ·(HᵀY)_p are needed, so
// linalg's SymFilterApply computes them without forming V or the
// eigenvectors of the tridiagonal form (the L columns of HᵀY are carried
// through the Householder reflectors and the divide and conquer's merges;
// the same eigenvalues bit for bit, so the same dropped counts; 1.4–1.6×
// faster, docs/speed.md); with Threads > 1 the λ of a prefix run side by
// side, one thread each (the same bits). Repeated hidden columns shrink
// that system exactly: columns equal up to sign on the training rows (and
// of equal R_jj) form a group whose g−1 inner directions are eigenvectors
// with the eigenvalue λ·R_jj that HᵀY does not reach, so the primal system
// is solved as the q×q system of the q groups, the inner eigenvalues
// counted in Info.Dropped (groups.go; small and categorical data sets have
// many: at N = 500, balloons 8 distinct columns, iris 288 at κ = 1,
// TestPinvFilterApplyCollection's log). The reduced
// system agrees with the full one to rounding, not bit for bit
// (TestPinvRepeatedColumnsMatchFull); a prefix without repeated columns,
// the identity regulariser and the SymEigen baseline are not reduced. As in the
// authors' code, a column with zero variance gets R_jj = 0 (the
// pseudo-inverse needs no positive definite system; the exact method uses
// R_jj = 1). Info.Dropped (GridResult.Dropped) counts the dropped singular
// values of the primal system.
//
// # API
//
//	type Regularizer int                 // Variance (zero value), Identity
//	func ParseRegularizer(s string) (Regularizer, error)
//	func (r Regularizer) Diag(h []float64, m, n int) []float64
//	func (r Regularizer) DiagInt8(m, n int, sums []int64, row func(i int) []int8) []float64
//	func (s Solver) DiagInt8(m, n int, sums []int64, row func(i int) []int8) []float64 // R as s's method uses it
//	type Data struct{ H []float64; Rows, Cols int; Labels []int }
//	type Method int                      // Exact (zero value), PinvCutoff
//	func ParseMethod(s string) (Method, error)
//	func DefaultRTol(n int) float64      // n·2⁻²³
//	type Solver struct{ Reg Regularizer; Threads int; Method Method; RTol float64 }
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
