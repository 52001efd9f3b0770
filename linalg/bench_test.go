package linalg

import (
	"fmt"
	"math/rand/v2"
	"sort"
	"testing"
	"time"

	"github.com/hdlgen/hdlgen/internal/parallel"
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"
)

// Each benchmark times this package's kernel (per op, as usual) and then
// gonum's route on the same data, outside the timer (median of 3 runs, one
// run for the 10000×1500 Gram, which takes seconds), and reports s/op,
// gonum-s (gonum's time per op), x-gonum (gonum time / our time) and
// GFLOPS (ours; a Gram counts m·n·(n+1) flops, Cholesky n³/3).

// medianTime returns the median wall time of reps calls of f.
func medianTime(reps int, f func()) float64 {
	ts := make([]float64, reps)
	for i := range ts {
		t0 := time.Now()
		f()
		ts[i] = time.Since(t0).Seconds()
	}
	sort.Float64s(ts)
	return ts[reps/2]
}

// timeOnCopy runs f b.N times, each on a fresh copy of src in work (the
// copy untimed), and returns the mean time of f in seconds.
func timeOnCopy(b *testing.B, work, src []float64, f func() error) float64 {
	var total time.Duration
	for b.Loop() {
		b.StopTimer()
		copy(work, src)
		b.StartTimer()
		t0 := time.Now()
		if err := f(); err != nil {
			b.Fatal(err)
		}
		total += time.Since(t0)
	}
	return total.Seconds() / float64(b.N)
}

func gonumSyrk(m, n int, a, c []float64) {
	blas64.Syrk(blas.Trans, 1,
		blas64.General{Rows: m, Cols: n, Stride: n, Data: a}, 0,
		blas64.Symmetric{Uplo: blas.Lower, N: n, Stride: n, Data: c})
}

func benchGram(b *testing.B, m, n int) {
	rng := rand.New(rand.NewPCG(1, 2))
	a := randMat(rng, m, n, n)
	c := make([]float64, n*n)
	for _, th := range []int{1, 2} {
		b.Run(fmt.Sprintf("threads=%d", th), func(b *testing.B) {
			e := Engine{Threads: th}
			for b.Loop() {
				e.Syrk(true, n, m, 1, a, n, 0, c, n)
			}
			ours := b.Elapsed().Seconds() / float64(b.N)
			reps := 3
			if m*n*n > 1e9 {
				reps = 1
			}
			g := medianTime(reps, func() { gonumSyrk(m, n, a, c) })
			b.ReportMetric(ours, "s/op")
			b.ReportMetric(g, "gonum-s")
			b.ReportMetric(g/ours, "x-gonum")
			b.ReportMetric(float64(m)*float64(n)*float64(n+1)/ours/1e9, "GFLOPS")
		})
	}
}

// BenchmarkGram10000x1500: lower triangle of AᵀA for a 10000×1500 A
// against gonum's Dsyrk.
func BenchmarkGram10000x1500(b *testing.B) { benchGram(b, 10000, 1500) }

// BenchmarkGram2000x500 against gonum's Dsyrk.
func BenchmarkGram2000x500(b *testing.B) { benchGram(b, 2000, 500) }

// BenchmarkCholesky1500 factors a 1500×1500 SPD matrix, against gonum's
// mat.Cholesky.Factorize (gonum's Dpotrf).
func BenchmarkCholesky1500(b *testing.B) {
	n := 1500
	rng := rand.New(rand.NewPCG(3, 4))
	h := randMat(rng, 2*n, n, n)
	g := make([]float64, n*n)
	Engine{Threads: 2}.Gram(2*n, n, h, n, g, n)
	for i := 0; i < n; i++ {
		g[i*n+i] += 1
	}
	work := make([]float64, n*n)
	for _, th := range []int{1, 2} {
		b.Run(fmt.Sprintf("threads=%d", th), func(b *testing.B) {
			e := Engine{Threads: th}
			ours := timeOnCopy(b, work, g, func() error { return e.Cholesky(n, work, n) })
			sym := mat.NewSymDense(n, append([]float64(nil), g...))
			gs := medianTime(3, func() {
				var ch mat.Cholesky
				if !ch.Factorize(sym) {
					b.Fatal("gonum: not SPD")
				}
			})
			b.ReportMetric(ours, "s/op")
			b.ReportMetric(gs, "gonum-s")
			b.ReportMetric(gs/ours, "x-gonum")
			b.ReportMetric(float64(n)*float64(n)*float64(n)/3/ours/1e9, "GFLOPS")
		})
	}
}

// BenchmarkMicroKernel measures each micro-kernel alone on in-cache panels
// (kc = 256), run by 1 and by 2 goroutines at once; GFLOPS is the total.
// On the project machine 2 goroutines give the same total as 1: the two
// vCPUs share one core's FP units.
func BenchmarkMicroKernel(b *testing.B) {
	for _, k := range availableKernels() {
		for _, workers := range []int{1, 2} {
			b.Run(fmt.Sprintf("%s/goroutines=%d", k.name, workers), func(b *testing.B) {
				const kc, calls = 256, 2000
				a := make([]float64, k.mr*kc)
				bb := make([]float64, k.nr*kc)
				for i := range a {
					a[i] = 1e-3
				}
				for i := range bb {
					bb[i] = 1e-3
				}
				for b.Loop() {
					parallel.For(workers, workers, func(_, _ int) {
						c := make([]float64, k.mr*k.nr)
						for i := 0; i < calls; i++ {
							k.fn(kc, a, bb, c, k.nr, true)
						}
					})
				}
				flops := 2 * float64(workers) * calls * float64(k.mr*k.nr*kc) * float64(b.N)
				b.ReportMetric(flops/b.Elapsed().Seconds()/1e9, "GFLOPS")
			})
		}
	}
}

// benchSymEigen times SymEigen (eigenvalues and eigenvectors) of an n×n
// Gram matrix against gonum's mat.EigenSym (Dsyev: dsytrd, dorgtr, dsteqr).
func benchSymEigen(b *testing.B, n int) {
	rng := rand.New(rand.NewPCG(5, 6))
	h := randMat(rng, 2*n, n, n)
	g := make([]float64, n*n)
	Engine{}.Gram(2*n, n, h, n, g, n)
	work := make([]float64, n*n)
	w := make([]float64, n)
	z := make([]float64, n*n)
	e := Engine{}
	ours := timeOnCopy(b, work, g, func() error { return e.SymEigen(n, work, n, w, z, n) })
	sym := mat.NewSymDense(n, append([]float64(nil), g...))
	reps := 3
	if n > 1000 {
		reps = 1
	}
	gs := medianTime(reps, func() {
		var es mat.EigenSym
		if !es.Factorize(sym, true) {
			b.Fatal("gonum: EigenSym failed")
		}
	})
	b.ReportMetric(ours, "s/op")
	b.ReportMetric(gs, "gonum-s")
	b.ReportMetric(gs/ours, "x-gonum")
}

// BenchmarkSymEigen500 against gonum's mat.EigenSym.
func BenchmarkSymEigen500(b *testing.B) { benchSymEigen(b, 500) }

// BenchmarkSymEigen1500 against gonum's mat.EigenSym.
func BenchmarkSymEigen1500(b *testing.B) { benchSymEigen(b, 1500) }

// benchGramInt8 times GramInt8 on an m×n matrix of integers in [−κ, κ]
// (an intRVFL hidden layer) against Gram on the same values as float64 in
// the same run (median of 3), and reports the ratio (x-float).
func benchGramInt8(b *testing.B, m, n, kappa int) {
	rng := rand.New(rand.NewPCG(7, 8))
	a := make([]int8, m*n)
	f := make([]float64, m*n)
	for i := range a {
		a[i] = int8(rng.IntN(2*kappa+1) - kappa)
		f[i] = float64(a[i])
	}
	c := make([]float64, n*n)
	e := Engine{}
	b.ReportMetric(0, "ns/op")
	for b.Loop() {
		e.GramInt8(m, n, a, n, c, n)
	}
	ours := b.Elapsed().Seconds() / float64(b.N)
	fl := medianTime(3, func() { e.Gram(m, n, f, n, c, n) })
	b.ReportMetric(ours, "s/op")
	b.ReportMetric(fl, "float-s")
	b.ReportMetric(fl/ours, "x-float")
	if int8KernelFor(kappa) == nil {
		b.Log("neither AVX-512 VNNI nor AVX2: GramInt8 is the float Gram")
	}
}

// BenchmarkGramInt8_10000x1500 against the float Gram (κ = 3).
func BenchmarkGramInt8_10000x1500(b *testing.B) { benchGramInt8(b, 10000, 1500, 3) }

// BenchmarkGramInt8_2000x500 against the float Gram (κ = 3).
func BenchmarkGramInt8_2000x500(b *testing.B) { benchGramInt8(b, 2000, 500, 3) }

// BenchmarkSymFilterApplyFused times SymFilterApply on a 1500×1500 Gram
// matrix (4 right-hand sides) with the tridiagonalisation's fused row pass
// (dotAxpyVec) and with the separate dotVec and axpyVec calls, alternately
// in the same run (the same bits, TestFusedSymvIdentical), and reports the
// medians and their ratio (x-separate).
func BenchmarkSymFilterApplyFused(b *testing.B) {
	const n, nrhs = 1500, 4
	rng := rand.New(rand.NewPCG(5, 6))
	g := gramSym(rng, 2000, n)
	rhs := make([]float64, n*nrhs)
	for i := range rhs {
		rhs[i] = rng.NormFloat64()
	}
	work := make([]float64, n*n)
	filter := func(w []float64) []float64 {
		out := make([]float64, len(w))
		for i, v := range w {
			if v > 1e-6*w[len(w)-1] {
				out[i] = 1 / v
			}
		}
		return out
	}
	once := func(separate bool) float64 {
		separateSymv = separate
		defer func() { separateSymv = false }()
		copy(work, g)
		t0 := time.Now()
		if _, _, err := (Engine{}).SymFilterApply(n, work, n, rhs, nrhs, nrhs, filter); err != nil {
			b.Fatal(err)
		}
		return time.Since(t0).Seconds()
	}
	var fused, separate []float64
	b.ReportMetric(0, "ns/op")
	for b.Loop() {
		fused = append(fused, once(false))
		separate = append(separate, once(true))
	}
	sort.Float64s(fused)
	sort.Float64s(separate)
	f, s := fused[len(fused)/2], separate[len(separate)/2]
	b.ReportMetric(f, "s/op")
	b.ReportMetric(s, "separate-s")
	b.ReportMetric(s/f, "x-separate")
}
