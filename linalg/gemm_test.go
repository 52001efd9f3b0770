package linalg

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// randMat returns a rows×cols matrix with leading dimension ld, filled
// with uniform values in [-1,1) (padding columns hold NaN so that reading
// them shows up).
func randMat(rng *rand.Rand, rows, cols, ld int) []float64 {
	a := make([]float64, max(0, (rows-1)*ld+cols))
	for i := range a {
		a[i] = math.NaN()
	}
	for i := 0; i < rows; i++ {
		for j := 0; j < cols; j++ {
			a[i*ld+j] = 2*rng.Float64() - 1
		}
	}
	return a
}

// naiveGemm is the reference C = alpha·op(A)·op(B) + beta·C.
func naiveGemm(tA, tB bool, m, n, k int, alpha float64, a []float64, lda int, b []float64, ldb int, beta float64, c []float64, ldc int) {
	for i := 0; i < m; i++ {
		for j := 0; j < n; j++ {
			var s float64
			for p := 0; p < k; p++ {
				var x, y float64
				if tA {
					x = a[p*lda+i]
				} else {
					x = a[i*lda+p]
				}
				if tB {
					y = b[j*ldb+p]
				} else {
					y = b[p*ldb+j]
				}
				s += x * y
			}
			if beta == 0 {
				c[i*ldc+j] = alpha * s
			} else {
				c[i*ldc+j] = alpha*s + beta*c[i*ldc+j]
			}
		}
	}
}

func engines(threads ...int) []Engine {
	var es []Engine
	for _, k := range availableKernels() {
		for _, t := range threads {
			es = append(es, Engine{Threads: t, kern: k})
		}
	}
	return es
}

func TestGemm(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	sizes := []struct{ m, n, k int }{
		{1, 1, 1}, {2, 3, 1}, {3, 2, 7}, {7, 8, 15}, {8, 7, 64}, {15, 63, 65}, {63, 64, 127},
		{65, 15, 257}, {127, 129, 3}, {257, 31, 600}, {0, 3, 4}, {3, 4, 0},
	}
	for _, e := range engines(1, 3) {
		for _, sz := range sizes {
			for _, tr := range [][2]bool{{false, false}, {true, false}, {false, true}, {true, true}} {
				for _, ab := range [][2]float64{{1, 0}, {-1, 1}, {0.5, -2}} {
					name := fmt.Sprintf("%s/t%d/%dx%dx%d/tA=%v,tB=%v/alpha=%v,beta=%v",
						e.KernelName(), e.Threads, sz.m, sz.n, sz.k, tr[0], tr[1], ab[0], ab[1])
					ra, ca := sz.m, sz.k
					if tr[0] {
						ra, ca = sz.k, sz.m
					}
					rb, cb := sz.k, sz.n
					if tr[1] {
						rb, cb = sz.n, sz.k
					}
					lda, ldb, ldc := ca+3, cb+1, sz.n+5
					a := randMat(rng, ra, ca, lda)
					b := randMat(rng, rb, cb, ldb)
					c := randMat(rng, sz.m, sz.n, ldc)
					want := append([]float64(nil), c...)
					if ab[1] == 0 {
						for i := 0; i < sz.m; i++ {
							for j := 0; j < sz.n; j++ {
								c[i*ldc+j] = math.NaN() // beta = 0 must ignore C
							}
						}
					}
					naiveGemm(tr[0], tr[1], sz.m, sz.n, sz.k, ab[0], a, lda, b, ldb, ab[1], want, ldc)
					e.Gemm(tr[0], tr[1], sz.m, sz.n, sz.k, ab[0], a, lda, b, ldb, ab[1], c, ldc)
					if err := closeMat(sz.m, sz.n, c, want, ldc, 1e-12*float64(sz.k+1)); err != nil {
						t.Fatalf("%s: %v", name, err)
					}
				}
			}
		}
	}
}

// closeMat compares two matrices element-wise with an absolute tolerance,
// NaN-aware (padding must stay NaN in both or equal).
func closeMat(m, n int, got, want []float64, ld int, tol float64) error {
	if len(got) != len(want) {
		return fmt.Errorf("length %d, want %d", len(got), len(want))
	}
	for idx := range got {
		g, w := got[idx], want[idx]
		if math.IsNaN(w) {
			if !math.IsNaN(g) {
				return fmt.Errorf("element %d (padding or NaN) = %v, want NaN", idx, g)
			}
			continue
		}
		if !(math.Abs(g-w) <= tol) {
			return fmt.Errorf("C[%d][%d] = %v, want %v (tol %g)", idx/ld, idx%ld, g, w, tol)
		}
	}
	return nil
}
