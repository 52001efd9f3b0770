package ridge

import (
	"fmt"
	"math/rand/v2"
	"sort"
	"testing"
	"time"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"
)

// The baseline is the straightforward gonum route: for every (prefix, λ)
// cell its own Gram (HᵀH, or the dual H'H'ᵀ when M < p) with Dsyrk, its own
// Cholesky (mat.Cholesky), solve, predict. It is too slow to run at full
// size, so it runs on a scaled-down instance; each benchmark reports
//   gonum-small-s  the baseline's time on the small instance,
//   ours-small-s   this package's time on the same small instance,
//   x-same         gonum-small-s / ours-small-s (same instance, same run),
//   x-extrap       the baseline's time extrapolated to the full size by its
//                  multiply-add count (cellWork), divided by our full time.

type gridCase struct {
	rows, vrows, cols, classes int
	prefixes                   []int
	lambdas                    []float64
}

func steps(from, to, step int) []int {
	var p []int
	for x := from; x <= to; x += step {
		p = append(p, x)
	}
	return p
}

func lambdaGrid(n int) []float64 {
	l := make([]float64, n)
	for i := range l {
		l[i] = 1.0 / 1024 * float64(int(1)<<(i*16/n))
	}
	return l
}

// cellWork is the baseline's multiply-add count for one (prefix, λ) cell.
func (g gridCase) cellWork(p int) float64 {
	m, v, l, pf := float64(g.rows), float64(g.vrows), float64(g.classes), float64(p)
	if p <= g.rows {
		return m*pf*pf/2 + pf*pf*pf/6 + pf*pf*l + v*pf*l
	}
	return m*m*pf/2 + m*m*m/6 + m*m*l + 2*m*pf*l + v*pf*l
}

func (g gridCase) work() float64 {
	var w float64
	for _, p := range g.prefixes {
		w += g.cellWork(p) * float64(len(g.lambdas))
	}
	return w
}

func (g gridCase) data(seed uint64) (train, val Data) {
	rng := rand.New(rand.NewPCG(seed, 7))
	return randData(rng, g.rows, g.cols, g.classes), randData(rng, g.vrows, g.cols, g.classes)
}

// gonumGrid is the baseline (see above).
func gonumGrid(b *testing.B, s Solver, train, val Data, g gridCase) [][]int {
	r := s.Reg.Diag(train.H, train.Rows, train.Cols)
	out := make([][]int, len(g.prefixes))
	for pi, p := range g.prefixes {
		tp, vp := prefix(train, p), prefix(val, p)
		for _, lambda := range g.lambdas {
			var w []float64
			if p <= train.Rows {
				w = gonumPrimalSolve(b, tp, g.classes, lambda, r[:p])
			} else {
				w = gonumDualSolve(b, tp, g.classes, lambda, r[:p])
			}
			pred := Predict(vp.H, vp.Rows, p, w, g.classes, 1)
			c := 0
			for i, y := range vp.Labels {
				if pred[i] == y {
					c++
				}
			}
			out[pi] = append(out[pi], c)
		}
	}
	return out
}

func gonumCholSolve(b *testing.B, n int, lower []float64, rhs *mat.Dense) *mat.Dense {
	sym := mat.NewSymDense(n, nil)
	for i := 0; i < n; i++ {
		for j := 0; j <= i; j++ {
			sym.SetSym(i, j, lower[i*n+j])
		}
	}
	var ch mat.Cholesky
	if !ch.Factorize(sym) {
		b.Fatal("gonum: not positive definite")
	}
	var x mat.Dense
	if err := ch.SolveTo(&x, rhs); err != nil {
		b.Fatal(err)
	}
	return &x
}

func gonumPrimalSolve(b *testing.B, d Data, classes int, lambda float64, r []float64) []float64 {
	n := d.Cols
	g := make([]float64, n*n)
	blas64.Syrk(blas.Trans, 1, blas64.General{Rows: d.Rows, Cols: n, Stride: n, Data: d.H}, 0,
		blas64.Symmetric{Uplo: blas.Lower, N: n, Stride: n, Data: g})
	for j := 0; j < n; j++ {
		g[j*n+j] += lambda * r[j]
	}
	var hty mat.Dense
	hty.Mul(mat.NewDense(d.Rows, n, d.H).T(), mat.NewDense(d.Rows, classes, oneHot(d.Labels, classes)))
	x := gonumCholSolve(b, n, g, &hty)
	return transpose(n, classes, x.RawMatrix().Data)
}

func gonumDualSolve(b *testing.B, d Data, classes int, lambda float64, r []float64) []float64 {
	m, n := d.Rows, d.Cols
	sc := invSqrt(Variance, r)
	hs := scaledColumns(d.H, m, n, n, sc)
	k := make([]float64, m*m)
	blas64.Syrk(blas.NoTrans, 1, blas64.General{Rows: m, Cols: n, Stride: n, Data: hs}, 0,
		blas64.Symmetric{Uplo: blas.Lower, N: m, Stride: m, Data: k})
	for i := 0; i < m; i++ {
		k[i*m+i] += lambda
	}
	alpha := gonumCholSolve(b, m, k, mat.NewDense(m, classes, oneHot(d.Labels, classes)))
	var wt mat.Dense
	wt.Mul(mat.NewDense(m, n, hs).T(), alpha)
	raw := wt.RawMatrix().Data
	for j := 0; j < n; j++ {
		for c := 0; c < classes; c++ {
			raw[j*classes+c] *= sc[j]
		}
	}
	return transpose(n, classes, raw)
}

func median(xs []float64) float64 {
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	return s[len(s)/2]
}

func timeIt(reps int, f func()) float64 {
	var ts []float64
	for i := 0; i < reps; i++ {
		t0 := time.Now()
		f()
		ts = append(ts, time.Since(t0).Seconds())
	}
	return median(ts)
}

func benchGrid(b *testing.B, full, small gridCase) {
	train, val := full.data(1)
	strain, sval := small.data(2)
	for _, th := range []int{1, 2} {
		b.Run(fmt.Sprintf("threads=%d", th), func(b *testing.B) {
			s := Solver{Threads: th}
			for b.Loop() {
				if _, err := s.Grid(train, val, full.classes, full.lambdas, full.prefixes); err != nil {
					b.Fatal(err)
				}
			}
			ours := b.Elapsed().Seconds() / float64(b.N)
			b.StopTimer()
			var res *GridResult
			oursSmall := timeIt(3, func() {
				var err error
				if res, err = s.Grid(strain, sval, small.classes, small.lambdas, small.prefixes); err != nil {
					b.Fatal(err)
				}
			})
			var ref [][]int
			gSmall := timeIt(1, func() { ref = gonumGrid(b, s, strain, sval, small) })
			for pi := range ref {
				for li := range ref[pi] {
					if d := ref[pi][li] - res.Correct[pi][li]; d > 1 || d < -1 {
						b.Fatalf("prefix %d λ %g: gonum %d correct, grid %d", small.prefixes[pi], small.lambdas[li], ref[pi][li], res.Correct[pi][li])
					}
				}
			}
			b.ReportMetric(ours, "s/op")
			b.ReportMetric(gSmall, "gonum-small-s")
			b.ReportMetric(oursSmall, "ours-small-s")
			b.ReportMetric(gSmall/oursSmall, "x-same")
			b.ReportMetric(gSmall*full.work()/small.work()/ours, "x-extrap")
		})
	}
}

// BenchmarkGridPrimal: M=2000, V=2000, n=1500, 30 prefixes (50..1500),
// 16 λ, 5 classes; baseline on M=V=800, n=600, 12 prefixes (50..600), 4 λ.
func BenchmarkGridPrimal(b *testing.B) {
	benchGrid(b,
		gridCase{2000, 2000, 1500, 5, steps(50, 1500, 50), lambdaGrid(16)},
		gridCase{800, 800, 600, 5, steps(50, 600, 50), lambdaGrid(4)})
}

// BenchmarkGridDual: M=300, V=300, n=1500, 30 prefixes, 16 λ, 5 classes
// (prefixes above 300 use the dual); baseline on M=V=150, n=750,
// 15 prefixes (50..750), 4 λ.
func BenchmarkGridDual(b *testing.B) {
	benchGrid(b,
		gridCase{300, 300, 1500, 5, steps(50, 1500, 50), lambdaGrid(16)},
		gridCase{150, 150, 750, 5, steps(50, 750, 50), lambdaGrid(4)})
}

// BenchmarkSolve10000x1500: one-shot primal solve, M=10000, n=1500,
// 5 classes; baseline (gonum Dsyrk + Cholesky) on M=2500, n=750.
func BenchmarkSolve10000x1500(b *testing.B) {
	full := gridCase{10000, 0, 1500, 5, []int{1500}, []float64{0.25}}
	small := gridCase{2500, 0, 750, 5, []int{750}, []float64{0.25}}
	rng := rand.New(rand.NewPCG(3, 4))
	d := randData(rng, full.rows, full.cols, full.classes)
	sd := randData(rng, small.rows, small.cols, small.classes)
	for _, th := range []int{1, 2} {
		b.Run(fmt.Sprintf("threads=%d", th), func(b *testing.B) {
			s := Solver{Threads: th}
			for b.Loop() {
				if _, _, err := s.Solve(d, full.classes, 0.25); err != nil {
					b.Fatal(err)
				}
			}
			ours := b.Elapsed().Seconds() / float64(b.N)
			b.StopTimer()
			r := s.Reg.Diag(sd.H, sd.Rows, sd.Cols)
			oursSmall := timeIt(3, func() {
				if _, _, err := s.Solve(sd, small.classes, 0.25); err != nil {
					b.Fatal(err)
				}
			})
			gSmall := timeIt(1, func() { gonumPrimalSolve(b, sd, small.classes, 0.25, r) })
			b.ReportMetric(ours, "s/op")
			b.ReportMetric(gSmall, "gonum-small-s")
			b.ReportMetric(oursSmall, "ours-small-s")
			b.ReportMetric(gSmall/oursSmall, "x-same")
			b.ReportMetric(gSmall*full.work()/small.work()/ours, "x-extrap")
		})
	}
}

// BenchmarkPinvVariance: one (prefix, λ) cell of the PinvCutoff grid with
// the variance penalty, threads = 1 (as the search runs it): the p×p
// primal system's filtered pseudo-inverse applied to (HᵀY)_p with
// SymFilterApply (s/op) against the older route that forms every
// eigenvector with SymEigen, timed in the same run: after the timed loop,
// five alternating runs of each route give the medians fast-s and full-s
// and the ratio x-speedup = full-s / fast-s. H is a 500-row sigmoid layer of 16 inputs
// (collinearData, as an RVFL's hidden layer on a small dataset), λ = 1/32.
func BenchmarkPinvVariance(b *testing.B) {
	const rows, inputs, lambda = 500, 16, 1.0 / 32
	for _, p := range []int{500, 1500} {
		for _, classes := range []int{4, 26} {
			b.Run(fmt.Sprintf("p=%d/L=%d", p, classes), func(b *testing.B) {
				rng := rand.New(rand.NewPCG(uint64(p), uint64(classes)))
				d := collinearData(rng, rows, p, inputs, classes, 0)
				fast := Solver{Reg: Variance, Method: PinvCutoff, Threads: 1}
				full := fast
				full.fullEigen = true
				nm, err := fast.NewNormal(d, classes)
				if err != nil {
					b.Fatal(err)
				}
				dst := make([]float64, p*classes)
				run := func(s Solver) int {
					dropped := []int{0}
					if err := s.pinvPrimalAll(nm, []float64{lambda}, p, dst, dropped); err != nil {
						b.Fatal(err)
					}
					return dropped[0]
				}
				var got, want int
				for b.Loop() {
					got = run(fast)
				}
				b.StopTimer()
				// The two routes alternate, one untimed run of each first, so
				// that a change of the machine's load hits both alike.
				want = run(full)
				var fastTimes, fullTimes []float64
				for r := 0; r < 5; r++ {
					fastTimes = append(fastTimes, timeIt(1, func() { got = run(fast) }))
					fullTimes = append(fullTimes, timeIt(1, func() { want = run(full) }))
				}
				fastS, fullS := median(fastTimes), median(fullTimes)
				if got != want {
					b.Fatalf("dropped %d, the SymEigen route %d", got, want)
				}
				b.ReportMetric(fastS, "fast-s")
				b.ReportMetric(fullS, "full-s")
				b.ReportMetric(fullS/fastS, "x-speedup")
				b.ReportMetric(float64(got), "dropped")
			})
		}
	}
}

// BenchmarkColumnGroups times the search for repeated columns that
// NewNormal and the pinv grid make (s/op) on a 40,000×1500 matrix of
// distinct integer columns (the worst case: nothing to group, every value
// hashed), against the Gram matrix HᵀH of the same matrix timed in the same
// run: x-gram = gram-s / s/op, medians of five alternating runs.
func BenchmarkColumnGroups(b *testing.B) {
	const rows, cols = 40000, 1500
	rng := rand.New(rand.NewPCG(40, 15))
	h := make([]float64, rows*cols)
	for i := range h {
		h[i] = float64(rng.IntN(7) - 3)
	}
	r := Variance.Diag(h, rows, cols)
	gram := make([]float64, cols*cols)
	var groups int
	for b.Loop() {
		groups = len(findColumnGroups(h, rows, cols, cols, r).rep)
	}
	b.StopTimer()
	var gt, ht []float64
	for i := 0; i < 5; i++ {
		gt = append(gt, timeIt(1, func() { findColumnGroups(h, rows, cols, cols, r) }))
		ht = append(ht, timeIt(1, func() { Solver{}.engine().Syrk(true, cols, rows, 1, h, cols, 0, gram, cols) }))
	}
	if groups != cols {
		b.Fatalf("%d groups of %d random columns", groups, cols)
	}
	b.ReportMetric(median(gt), "groups-s")
	b.ReportMetric(median(ht), "gram-s")
	b.ReportMetric(median(ht)/median(gt), "x-gram")
}
