package linalg

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/google/go-cmp/cmp"
	"gonum.org/v1/gonum/mat"
)

// symTestMatrix returns a named symmetric n×n test matrix (full storage).
type symTestMatrix struct {
	name string
	n    int
	make func(rng *rand.Rand, n int) []float64
}

func randomSym(rng *rand.Rand, n int) []float64 {
	a := make([]float64, n*n)
	for i := 0; i < n; i++ {
		for j := 0; j <= i; j++ {
			v := rng.NormFloat64()
			a[i*n+j], a[j*n+i] = v, v
		}
	}
	return a
}

// withSpectrum returns Q·diag(vals)·Qᵀ for a random orthogonal Q.
func withSpectrum(rng *rand.Rand, vals []float64) []float64 {
	n := len(vals)
	g := mat.NewDense(n, n, nil)
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			g.Set(i, j, rng.NormFloat64())
		}
	}
	var qr mat.QR
	qr.Factorize(g)
	var q mat.Dense
	qr.QTo(&q)
	var qd, a mat.Dense
	qd.Mul(&q, mat.NewDiagDense(n, vals))
	a.Mul(&qd, q.T())
	out := a.RawMatrix().Data
	for i := 0; i < n; i++ { // exact symmetry
		for j := 0; j < i; j++ {
			out[j*n+i] = out[i*n+j]
		}
	}
	return out
}

func gramSym(rng *rand.Rand, rows, n int) []float64 {
	h := make([]float64, rows*n)
	for i := range h {
		h[i] = 1 / (1 + math.Exp(-rng.NormFloat64()))
	}
	a := make([]float64, n*n)
	Engine{}.Gram(rows, n, h, n, a, n)
	return a
}

var symTests = []symTestMatrix{
	{"random", 1, randomSym},
	{"random", 2, randomSym},
	{"random", 5, randomSym},
	{"random", 32, randomSym},
	{"random", 33, randomSym},
	{"random", 64, randomSym},
	{"random", 65, randomSym},
	{"random", 97, randomSym},
	{"random", 250, randomSym},
	{"gram rank 20", 150, func(rng *rand.Rand, n int) []float64 { return gramSym(rng, 20, n) }},
	{"gram full rank", 120, func(rng *rand.Rand, n int) []float64 { return gramSym(rng, 400, n) }},
	{"zero", 40, func(_ *rand.Rand, n int) []float64 { return make([]float64, n*n) }},
	{"identity", 70, func(_ *rand.Rand, n int) []float64 {
		a := make([]float64, n*n)
		for i := 0; i < n; i++ {
			a[i*n+i] = 1
		}
		return a
	}},
	{"diagonal with repeats", 90, func(rng *rand.Rand, n int) []float64 {
		a := make([]float64, n*n)
		for i := 0; i < n; i++ {
			a[i*n+i] = float64(rng.IntN(5))
		}
		return a
	}},
	{"tight clusters", 130, func(rng *rand.Rand, n int) []float64 {
		vals := make([]float64, n)
		for i := range vals {
			vals[i] = float64(i%4) + 1e-11*float64(i)
		}
		return withSpectrum(rng, vals)
	}},
	{"graded 1e-14…1", 100, func(rng *rand.Rand, n int) []float64 {
		vals := make([]float64, n)
		for i := range vals {
			vals[i] = math.Pow(10, -14*float64(i)/float64(n-1))
		}
		return withSpectrum(rng, vals)
	}},
	{"tridiagonal 1-2-1", 200, func(_ *rand.Rand, n int) []float64 {
		a := make([]float64, n*n)
		for i := 0; i < n; i++ {
			a[i*n+i] = 2
			if i > 0 {
				a[i*n+i-1], a[(i-1)*n+i] = -1, -1
			}
		}
		return a
	}},
}

func TestSymEigen(t *testing.T) {
	for ti, tt := range symTests {
		t.Run(fmt.Sprintf("%s/%d", tt.name, tt.n), func(t *testing.T) {
			n := tt.n
			rng := rand.New(rand.NewPCG(7, uint64(ti)))
			full := tt.make(rng, n)
			anorm := 0.0
			for _, v := range full {
				anorm = math.Max(anorm, math.Abs(v))
			}
			anorm = math.Max(anorm, 1e-300)
			// Reference eigenvalues from gonum.
			var es mat.EigenSym
			if !es.Factorize(mat.NewSymDense(n, append([]float64(nil), full...)), false) {
				t.Fatal("gonum EigenSym failed")
			}
			ref := es.Values(nil)
			a := append([]float64(nil), full...)
			w := make([]float64, n)
			z := make([]float64, n*n)
			if err := (Engine{Threads: 2}).SymEigen(n, a, n, w, z, n); err != nil {
				t.Fatal(err)
			}
			tol := 1e-13 * float64(n) * anorm
			for i := range w {
				if math.Abs(w[i]-ref[i]) > tol {
					t.Fatalf("eigenvalue %d = %.17g, gonum %.17g", i, w[i], ref[i])
				}
				if i > 0 && w[i] < w[i-1] {
					t.Fatalf("eigenvalues not ascending at %d", i)
				}
			}
			am := mat.NewDense(n, n, full)
			zm := mat.NewDense(n, n, z)
			var az, ztz mat.Dense
			az.Mul(am, zm)
			ztz.Mul(zm.T(), zm)
			for i := 0; i < n; i++ {
				for j := 0; j < n; j++ {
					if r := math.Abs(az.At(i, j) - zm.At(i, j)*w[j]); r > tol {
						t.Fatalf("residual (AZ − ZΛ)[%d][%d] = %g > %g", i, j, r, tol)
					}
					want := 0.0
					if i == j {
						want = 1
					}
					if e := math.Abs(ztz.At(i, j) - want); e > 1e-13*float64(n) {
						t.Fatalf("(ZᵀZ − I)[%d][%d] = %g", i, j, e)
					}
				}
			}
			// Values only agree with the full decomposition.
			a = append(a[:0], full...)
			w2 := make([]float64, n)
			if err := (Engine{}).SymEigen(n, a, n, w2, nil, 0); err != nil {
				t.Fatal(err)
			}
			for i := range w2 {
				if math.Abs(w2[i]-w[i]) > tol {
					t.Fatalf("values-only eigenvalue %d = %g, with vectors %g", i, w2[i], w[i])
				}
			}
		})
	}
}

// TestSymEigenLowerOnly: only the lower triangle is read, and a leading
// dimension larger than n works.
func TestSymEigenLowerOnly(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	n, ld := 77, 80
	full := randomSym(rng, n)
	a := make([]float64, n*ld)
	for i := 0; i < n; i++ {
		for j := 0; j < ld; j++ {
			a[i*ld+j] = math.NaN()
		}
		copy(a[i*ld:i*ld+i+1], full[i*n:i*n+i+1])
	}
	w := make([]float64, n)
	z := make([]float64, n*ld)
	if err := (Engine{}).SymEigen(n, a, ld, w, z, ld); err != nil {
		t.Fatal(err)
	}
	b := append([]float64(nil), full...)
	w2 := make([]float64, n)
	z2 := make([]float64, n*n)
	if err := (Engine{}).SymEigen(n, b, n, w2, z2, n); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(w2, w); diff != "" {
		t.Fatalf("eigenvalues depend on the leading dimension:\n%s", diff)
	}
	for i := 0; i < n; i++ {
		if diff := cmp.Diff(z2[i*n:i*n+n], z[i*ld:i*ld+n]); diff != "" {
			t.Fatalf("row %d of Z differs:\n%s", i, diff)
		}
	}
}

func TestSymEigenThreadsIdentical(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	n := 300
	full := gramSym(rng, 500, n)
	var w0, z0 []float64
	for _, th := range []int{1, 2, 3} {
		a := append([]float64(nil), full...)
		w := make([]float64, n)
		z := make([]float64, n*n)
		if err := (Engine{Threads: th}).SymEigen(n, a, n, w, z, n); err != nil {
			t.Fatal(err)
		}
		if w0 == nil {
			w0, z0 = w, z
			continue
		}
		if !cmp.Equal(w0, w) || !cmp.Equal(z0, z) {
			t.Fatalf("threads=%d differs from threads=1", th)
		}
	}
}

func TestSymEigenNonFinite(t *testing.T) {
	a := []float64{1, 0, math.Inf(1), 2}
	if err := (Engine{}).SymEigen(2, a, 2, make([]float64, 2), make([]float64, 4), 2); err == nil {
		t.Fatal("SymEigen accepted an infinite element")
	}
}

func TestVecKernels(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	for _, n := range []int{0, 1, 3, 15, 16, 17, 33, 100, 1000} {
		x := make([]float64, n)
		y := make([]float64, n)
		for i := range x {
			x[i], y[i] = rng.NormFloat64(), rng.NormFloat64()
		}
		want := 0.0
		for i := range x {
			want += x[i] * y[i]
		}
		if got := dotVec(x, y); math.Abs(got-want) > 1e-12*float64(n+1) {
			t.Errorf("n=%d: dotVec = %g, want %g", n, got, want)
		}
		y2 := append([]float64(nil), y...)
		axpyVec(y2, 0.75, x)
		for i := range y2 {
			if w := y[i] + 0.75*x[i]; math.Abs(y2[i]-w) > 1e-15*math.Max(1, math.Abs(w)) {
				t.Fatalf("n=%d: axpyVec[%d] = %g, want %g", n, i, y2[i], w)
			}
		}
	}
}

// TestFusedSymvIdentical: the tridiagonalisation with the fused row pass
// (dotAxpyVec) gives SymEigen's and SymFilterApply's results bit for bit
// as with the separate dotVec and axpyVec calls, for sizes below, at and
// above the panel width (one panel, several, a last short one).
func TestFusedSymvIdentical(t *testing.T) {
	for _, n := range []int{5, 40, 97, 300} {
		rng := rand.New(rand.NewPCG(13, uint64(n)))
		full := gramSym(rng, n+30, n)
		b := make([]float64, n*3)
		for i := range b {
			b[i] = rng.NormFloat64()
		}
		run := func(separate bool) (w, z, fw, fx []float64) {
			separateSymv = separate
			defer func() { separateSymv = false }()
			a := append([]float64(nil), full...)
			w, z = make([]float64, n), make([]float64, n*n)
			if err := (Engine{}).SymEigen(n, a, n, w, z, n); err != nil {
				t.Fatal(err)
			}
			a = append([]float64(nil), full...)
			fw, fx, err := (Engine{}).SymFilterApply(n, a, n, b, 3, 3, func(v []float64) []float64 {
				g := make([]float64, len(v))
				for i, e := range v {
					if e > 1e-3 {
						g[i] = 1 / e
					}
				}
				return g
			})
			if err != nil {
				t.Fatal(err)
			}
			return w, z, fw, fx
		}
		w0, z0, fw0, fx0 := run(true)
		w1, z1, fw1, fx1 := run(false)
		for _, c := range []struct {
			name       string
			want, have []float64
		}{{"eigenvalues", w0, w1}, {"eigenvectors", z0, z1}, {"filtered eigenvalues", fw0, fw1}, {"filtered solution", fx0, fx1}} {
			for i := range c.want {
				if math.Float64bits(c.want[i]) != math.Float64bits(c.have[i]) {
					t.Fatalf("n=%d: %s[%d] = %v fused, %v separate", n, c.name, i, c.have[i], c.want[i])
				}
			}
		}
	}
}
