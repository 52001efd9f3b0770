package linalg

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/google/go-cmp/cmp"
	"gonum.org/v1/gonum/mat"
)

var awkward = []int{1, 2, 3, 7, 8, 15, 63, 64, 65, 127, 257}

// spd returns a well-conditioned SPD n×n matrix (Gram of random rows plus
// n·I) with leading dimension ld; the strict upper triangle holds NaN so
// that reading it is detected. The Gram matrix is summed row by row of h
// (the same sums as naiveGemm with A transposed, in a cache-friendly order).
func spd(rng *rand.Rand, n, ld int) []float64 {
	rows := n + 3
	h := randMat(rng, rows, n, n)
	a := make([]float64, (n-1)*ld+n)
	for i := range a {
		a[i] = math.NaN()
	}
	for i := 0; i < n; i++ {
		for j := 0; j <= i; j++ {
			a[i*ld+j] = 0
		}
	}
	for p := 0; p < rows; p++ {
		row := h[p*n : (p+1)*n]
		for i, hi := range row {
			dst := a[i*ld : i*ld+i+1]
			for j, hj := range row[:i+1] {
				dst[j] += hi * hj
			}
		}
	}
	for i := 0; i < n; i++ {
		a[i*ld+i] += float64(n)
	}
	return a
}

func TestCholesky(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	sizes := append(awkward, 1001)
	// The large matrix is built once and factorised by every engine (building
	// it took most of the test's time).
	const large = 1001
	largeA := spd(rand.New(rand.NewPCG(3, 5)), large, large+2)
	for _, e := range engines(1, 2) {
		for _, n := range sizes {
			if n == large && e.kern == &genericKernel && e.Threads == 2 {
				continue
			}
			t.Run(fmt.Sprintf("%s/t%d/n%d", e.KernelName(), e.Threads, n), func(t *testing.T) {
				ld := n + 2
				var a []float64
				if n == large {
					a = append([]float64(nil), largeA...)
				} else {
					a = spd(rng, n, ld)
				}
				orig := append([]float64(nil), a...)
				if err := e.Cholesky(n, a, ld); err != nil {
					t.Fatal(err)
				}
				// Upper triangle and padding untouched.
				for i := 0; i < n; i++ {
					for j := i + 1; j < ld && i*ld+j < len(a); j++ {
						if !math.IsNaN(a[i*ld+j]) {
							t.Fatalf("upper/padding element (%d,%d) written: %v", i, j, a[i*ld+j])
						}
					}
				}
				// L·Lᵀ reproduces the lower triangle of A.
				for i := 0; i < n; i++ {
					for j := 0; j <= i; j++ {
						s := dot(a[i*ld:i*ld+j+1], a[j*ld:j*ld+j+1])
						want := orig[i*ld+j]
						if math.Abs(s-want) > 1e-12*float64(n)*float64(n) {
							t.Fatalf("(L·Lᵀ)[%d][%d] = %v, want %v", i, j, s, want)
						}
					}
				}
			})
		}
	}
}

func TestCholeskyMatchesGonum(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	n := 300
	a := spd(rng, n, n)
	sym := mat.NewSymDense(n, nil)
	for i := 0; i < n; i++ {
		for j := 0; j <= i; j++ {
			sym.SetSym(i, j, a[i*n+j])
		}
	}
	var ch mat.Cholesky
	if !ch.Factorize(sym) {
		t.Fatal("gonum: not SPD")
	}
	var lg mat.TriDense
	ch.LTo(&lg)
	if err := (Engine{Threads: 2}).Cholesky(n, a, n); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < n; i++ {
		for j := 0; j <= i; j++ {
			if d := math.Abs(a[i*n+j] - lg.At(i, j)); d > 1e-10 {
				t.Fatalf("L[%d][%d] = %v, gonum %v", i, j, a[i*n+j], lg.At(i, j))
			}
		}
	}
}

func TestCholeskyNotSPD(t *testing.T) {
	tests := []struct {
		name  string
		n     int
		pivot int
		setup func(a []float64, n int)
	}{
		{"negative first pivot", 5, 0, func(a []float64, n int) { a[0] = -1 }},
		{"singular at 70", 100, 70, func(a []float64, n int) {
			// Row/column 70 duplicates row/column 3 ⇒ exactly singular leading 71×71 block.
			for j := 0; j < n; j++ {
				a[70*n+j], a[j*n+70] = a[3*n+j], a[j*n+3]
			}
			a[70*n+70] = a[3*n+3]
		}},
		{"indefinite at 200", 257, 200, func(a []float64, n int) { a[200*n+200] = -1e6 }},
		{"NaN at 130", 257, 130, func(a []float64, n int) { a[130*n+130] = math.NaN() }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(7, 8))
			a := spd(rng, tt.n, tt.n)
			MirrorLower(tt.n, a, tt.n)
			tt.setup(a, tt.n)
			err := Engine{Threads: 2}.Cholesky(tt.n, a, tt.n)
			var npd *NotPositiveDefiniteError
			if !errors.As(err, &npd) {
				t.Fatalf("err = %v, want *NotPositiveDefiniteError", err)
			}
			if npd.Pivot != tt.pivot {
				t.Fatalf("failing pivot %d, want %d (%v)", npd.Pivot, tt.pivot, err)
			}
		})
	}
}

func TestSolves(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	for _, e := range engines(1, 2) {
		for _, n := range awkward {
			for _, nrhs := range []int{1, 3, 9} {
				name := fmt.Sprintf("%s/t%d/n%d/rhs%d", e.KernelName(), e.Threads, n, nrhs)
				ld := n + 1
				l := spd(rng, n, ld)
				if err := e.Cholesky(n, l, ld); err != nil {
					t.Fatal(err)
				}
				ldb := nrhs + 2
				x := randMat(rng, n, nrhs, ldb)
				// b = L·x, then SolveLower must return x; c = Lᵀ·x, SolveLowerT must return x.
				b := append([]float64(nil), x...)
				c := append([]float64(nil), x...)
				for i := 0; i < n; i++ {
					for r := 0; r < nrhs; r++ {
						var s, u float64
						for k := 0; k <= i; k++ {
							s += l[i*ld+k] * x[k*ldb+r]
						}
						for k := i; k < n; k++ {
							u += l[k*ld+i] * x[k*ldb+r]
						}
						b[i*ldb+r], c[i*ldb+r] = s, u
					}
				}
				e.SolveLower(n, nrhs, l, ld, b, ldb)
				e.SolveLowerT(n, nrhs, l, ld, c, ldb)
				if err := closeMat(n, nrhs, b, x, ldb, 1e-9); err != nil {
					t.Fatalf("%s SolveLower: %v", name, err)
				}
				if err := closeMat(n, nrhs, c, x, ldb, 1e-9); err != nil {
					t.Fatalf("%s SolveLowerT: %v", name, err)
				}
			}
		}
	}
}

// TestLeadingBlock checks the facts the prefix search relies on: the factor
// of a leading block is the leading block of the factor, and forward
// substitution on a leading block gives the leading part of the full one.
func TestLeadingBlock(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	n, p, nrhs := 300, 117, 4
	e := Engine{Threads: 2}
	full := spd(rng, n, n)
	lead := append([]float64(nil), full...)
	if err := e.Cholesky(n, full, n); err != nil {
		t.Fatal(err)
	}
	if err := e.Cholesky(p, lead, n); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < p; i++ {
		for j := 0; j <= i; j++ {
			if d := math.Abs(full[i*n+j] - lead[i*n+j]); d > 1e-12 {
				t.Fatalf("L[%d][%d]: full %v, leading %v", i, j, full[i*n+j], lead[i*n+j])
			}
		}
	}
	b := randMat(rng, n, nrhs, nrhs)
	bp := append([]float64(nil), b[:p*nrhs]...)
	e.SolveLower(n, nrhs, full, n, b, nrhs)
	e.SolveLower(p, nrhs, full, n, bp, nrhs)
	if err := closeMat(p, nrhs, bp, b[:p*nrhs], nrhs, 1e-12); err != nil {
		t.Fatal(err)
	}
}

// TestGramExactIntegers: small-integer data gives exactly the integer
// Gram matrix, with every kernel and thread count.
func TestGramExactIntegers(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	for _, sz := range [][2]int{{1, 1}, {7, 3}, {64, 65}, {301, 127}, {1001, 63}, {130, 257}} {
		m, n := sz[0], sz[1]
		lda := n + 3
		a := make([]float64, m*lda)
		for i := range a {
			a[i] = float64(rng.IntN(31) - 15)
		}
		want := make([]float64, n*n)
		for i := 0; i < n; i++ {
			for j := 0; j < n; j++ {
				var s int64
				for k := 0; k < m; k++ {
					s += int64(a[k*lda+i]) * int64(a[k*lda+j])
				}
				want[i*n+j] = float64(s)
			}
		}
		for _, e := range engines(1, 2) {
			got := make([]float64, n*n)
			e.Gram(m, n, a, lda, got, n)
			if diff := cmp.Diff(want, got); diff != "" {
				t.Fatalf("%s t%d Gram %d×%d mismatch (-want +got):\n%s", e.KernelName(), e.Threads, m, n, diff)
			}
		}
	}
}

// TestThreadsBitIdentical: every thread count gives the same bits.
func TestThreadsBitIdentical(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 16))
	m, n := 700, 333
	a := randMat(rng, m, n, n)
	for _, k := range availableKernels() {
		var ref, refL []float64
		for _, th := range []int{1, 2, 3, 7} {
			e := Engine{Threads: th, kern: k}
			g := make([]float64, n*n)
			e.Gram(m, n, a, n, g, n)
			for i := 0; i < n; i++ {
				g[i*n+i] += 1
			}
			l := append([]float64(nil), g...)
			if err := e.Cholesky(n, l, n); err != nil {
				t.Fatal(err)
			}
			if ref == nil {
				ref, refL = g, l
				continue
			}
			if diff := cmp.Diff(ref, g); diff != "" {
				t.Fatalf("%s: Gram with %d threads differs from 1 thread", k.name, th)
			}
			if diff := cmp.Diff(refL, l); diff != "" {
				t.Fatalf("%s: Cholesky with %d threads differs from 1 thread", k.name, th)
			}
		}
	}
}

func TestSyrkLowerOnly(t *testing.T) {
	rng := rand.New(rand.NewPCG(17, 18))
	for _, e := range engines(1, 2) {
		for _, n := range awkward {
			k := 37
			a := randMat(rng, n, k, k)
			ld := n + 1
			c := randMat(rng, n, n, ld)
			want := append([]float64(nil), c...)
			naiveGemm(false, true, n, n, k, -1, a, k, a, k, 1, want, ld)
			for i := 0; i < n; i++ {
				for j := i + 1; j < n; j++ {
					c[i*ld+j] = math.NaN()
					want[i*ld+j] = math.NaN()
				}
			}
			e.Syrk(false, n, k, -1, a, k, 1, c, ld)
			if err := closeMat(n, n, c, want, ld, 1e-12*float64(k)); err != nil {
				t.Fatalf("%s t%d n%d: %v", e.KernelName(), e.Threads, n, err)
			}
		}
	}
}
