// Package linalg provides the dense float64 kernels behind hdlgen's ridge
// regression: Gram matrices, general products, Cholesky factorisation and
// triangular solves, fast enough for the benchmark's hyper-parameter grid.
//
// # Conventions
//
// Matrices are row-major []float64 with an explicit leading dimension
// (the distance between the starts of consecutive rows, ≥ the number of
// columns). A kernel reads and writes only the elements inside the stated
// dimensions, so a kernel can work on a block of a larger matrix (e.g. the
// leading p×p block of an n×n Cholesky factor, with ld = n). Dimension or
// slice-length mistakes are programmer errors and panic with a "linalg:"
// prefix; a matrix that is not positive definite is an error
// (*NotPositiveDefiniteError, which names the failing pivot).
//
// # API
//
//	type Engine struct{ Threads int }                   // zero value: 1 goroutine
//	func (Engine) Gemm(transA, transB bool, m, n, k int, alpha float64, a []float64, lda int,
//	                   b []float64, ldb int, beta float64, c []float64, ldc int) // C = αop(A)op(B) + βC
//	func (Engine) Syrk(trans bool, n, k int, alpha float64, a []float64, lda int,
//	                   beta float64, c []float64, ldc int) // lower(C) = αAAᵀ + βC, or αAᵀA + βC if trans
//	func (Engine) Gram(m, n int, a []float64, lda int, c []float64, ldc int)      // C = AᵀA, full
//	func (Engine) GramInt8(m, n int, a []int8, lda int, c []float64, ldc int)     // C = AᵀA of small integers, exact
//	func (Engine) OuterGram(m, k int, a []float64, lda int, c []float64, ldc int) // C = AAᵀ, full
//	func MirrorLower(n int, c []float64, ldc int)
//	func (Engine) Cholesky(n int, a []float64, lda int) error                     // A = LLᵀ in place
//	func (Engine) SolveLower(n, nrhs int, l []float64, ldl int, b []float64, ldb int)    // L X = B
//	func (Engine) SolveLowerT(n, nrhs int, l []float64, ldl int, b []float64, ldb int)   // Lᵀ X = B
//	func (Engine) CholeskySolve(n, nrhs int, l []float64, ldl int, b []float64, ldb int) // LLᵀ X = B
//	func (Engine) SymEigen(n int, a []float64, lda int, w, z []float64, ldz int) error   // A = Z·diag(w)·Zᵀ
//	func (Engine) SymFilterApply(n int, a []float64, lda int, b []float64, ldb, nrhs int,
//		filter func(w []float64) []float64) (w, x []float64, err error)               // X = V·diag(filter(w))·Vᵀ·B, V not formed
//	func (Engine) RowScores(m, n, l int, h []float64, ldh int, w []float64, ldw int,
//		s []float64, lds int)                                                       // S = H·Wᵀ as the plain loop sums it
//	func AddSquaredDeviationsInt8(d, mean []float64, x []int8)                     // d += (x − mean)², unfused
//	func AddInt8To32(acc []int32, x []int8)                                        // acc += x
//	func ClipInt16ToInt8(dst []int8, src []int16, c int)                          // dst = clip(src, −c, c)
//	func (Engine) KernelName() string
//
// # Threads and determinism
//
// Engine.Threads bounds the goroutines a call may use (there is no package
// state to configure). Work is split over blocks of output rows; the
// blocking along the summation dimension (the only one that changes
// rounding) depends on the problem size alone, and every output element is
// computed by the same sequence of operations whatever the thread count, so
// results are bit-identical for every value of Threads. Integer-valued
// inputs give exact products as long as every partial sum stays below 2⁵³.
//
// Measured on the project machine (2 vCPUs of an AMD Zen 5 "Turin"): the
// two vCPUs share one core's floating-point units (SMT siblings), so two
// threads run compute-bound kernels no faster than one (the micro-kernel
// alone reaches about 107 GFLOPS on one thread and the same in total on
// two). Threads = 1 is the right default there; run independent problems
// in parallel instead if anything.
//
// # Kernel design
//
// Products follow the GotoBLAS/BLIS scheme: for each block of nc columns
// and each depth block of kc, op(B) is packed into nr-column panels; for
// each block of mc rows, op(A) is packed into mr-row panels (scaled by α);
// a register-blocked micro-kernel multiplies an mr-row panel by an
// nr-column panel over the depth block and adds the mr×nr tile into C.
// Edge tiles go through a small buffer, so panels are zero-padded and the
// micro-kernel has no edge cases. Syrk visits only tiles that touch the
// lower triangle and writes only the lower triangle.
//
// Micro-kernels (chosen at start-up with CPUID and XGETBV, our own
// assembly, no dependencies):
//
//	avx512-8x24  AVX-512F: 24 zmm accumulators (8 rows × 3 vectors of 8), mr=8, nr=24, kc=256, mc=128
//	avx2-6x8     AVX2+FMA: 12 ymm accumulators (6 rows × 2 vectors of 4), mr=6, nr=8, kc=256, mc=144
//	generic-4x4  portable Go (16 scalar accumulators), every other CPU and architecture
//
// The depth loop is unrolled four times; each step loads the B row of the
// panel, broadcasts each A element and issues one FMA per accumulator.
// The depth blocking kc is balanced (⌈k/⌈k/256⌉⌉) and fixed per kernel.
//
// Cholesky is recursive: split the matrix in halves (aligned to 8), factor
// the leading half, solve the off-diagonal block against it (X·L11ᵀ = A21,
// itself recursive; its narrow leaves of ≤ 32 columns invert the small
// diagonal block and multiply on the product kernel), update the trailing
// block with Syrk, factor it; leaves of ≤ 48 run an unblocked left-looking
// algorithm on contiguous rows. So nearly all flops run in the
// micro-kernel. The triangular solves with several right-hand sides are
// recursive the same way.
//
// GramInt8 is the Gram matrix of an intRVFL hidden layer (integers in
// [−κ, κ]) on AVX-512 VNNI: VPDPBUSD multiplies 8-bit integers, 64
// multiply-adds per instruction against 8 for a float64 FMA, in an 8×48
// int32 tile per 4096-row block (no overflow: 4096·254·127 < 2³¹). Its
// result is exact, so it equals Gram on the same values bit for bit
// (TestGramInt8); elsewhere it is Gram. The packing interleaves four rows
// 8 columns at a time (SSE2), A's packed panels are visited in chunks that
// stay in the L2 cache while every U panel passes, and a whole tile is
// converted and added into C by one assembly routine.
// BenchmarkGramInt8_10000x1500 measures it against the float Gram in the
// same run (docs/speed.md).
//
// SymEigen follows LAPACK's dsyevd. The Householder reduction to
// tridiagonal form is blocked as dlatrd/dsytrd (panels of 32 columns; the
// symmetric matrix-vector products of a panel use AVX2+FMA dot and axpy
// kernels, the rank-64 trailing updates the product kernel). The
// tridiagonal eigenproblem is solved by Cuppen's divide and conquer: halves
// of ≤ 32 rows by gonum's Dsteqr (implicit QL/QR), each merge by deflation
// (negligible components and nearly equal poles, as dlaed2), the secular
// equation solved per root relative to its nearer pole by safeguarded Newton
// steps, and the Gu–Eisenstat formula for orthogonal eigenvectors; the
// eigenvector update of a merge and the back-transformation (compact WY
// blocks, dlarft/dlarfb) run on the product kernel. Measured against
// gonum's mat.EigenSym (Dsyev) on Gram matrices: BenchmarkSymEigen500 and
// BenchmarkSymEigen1500 report the ratio of the same run (3.4× and 11× on
// the loaded project machine).
//
// RowScores, AddSquaredDeviationsInt8, AddInt8To32 and ClipInt16ToInt8 are
// the vector forms of the inner loops of a model's float readout, of the
// variance penalty and of an intRVFL's class sums and clipping: each
// element goes through the same operations as in the plain Go loop (a
// product rounded before it is added, never fused), several elements or
// rows side by side, so the results are the loop's bit for bit
// (scores_test.go). The symmetric matrix-vector product of the
// tridiagonalisation reads each row of the trailing matrix once for its dot
// product and its update (dotAxpyVec), with dotVec's and axpyVec's
// arithmetic; SymEigen's and SymFilterApply's bits are unchanged
// (TestFusedSymvIdentical).
//
// The factor of a leading p×p block of A is the leading p×p block of the
// factor of A, and forward substitution with a leading block gives the
// leading rows of the full forward substitution; the ridge grid search
// relies on both (tested in TestLeadingBlock).
package linalg
