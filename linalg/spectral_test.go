package linalg

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// spectralFilter is a named filter g(w) for SymFilterApply.
type spectralFilter struct {
	name string
	g    func(w []float64) []float64
}

var spectralFilters = []spectralFilter{
	// The pseudo-inverse with a relative cutoff, as ridge's PinvCutoff.
	{"pinv cutoff 1e-9", func(w []float64) []float64 {
		smax := 0.0
		for _, v := range w {
			smax = math.Max(smax, math.Abs(v))
		}
		g := make([]float64, len(w))
		for i, v := range w {
			if math.Abs(v) > 1e-9*smax {
				g[i] = 1 / v
			}
		}
		return g
	}},
	// The identity filter: X = A·B.
	{"identity", func(w []float64) []float64 { return append([]float64(nil), w...) }},
	// The constant filter: X = B.
	{"one", func(w []float64) []float64 {
		g := make([]float64, len(w))
		for i := range g {
			g[i] = 1
		}
		return g
	}},
}

// refFilterApply returns V·diag(g)·Vᵀ·B from SymEigen (the eigenvalues
// too) for the full symmetric n×n matrix full and B n×nrhs.
func refFilterApply(t *testing.T, n int, full, b []float64, nrhs int, filter func([]float64) []float64) (w, x []float64) {
	t.Helper()
	a := append([]float64(nil), full...)
	w = make([]float64, n)
	v := make([]float64, n*n)
	if err := (Engine{}).SymEigen(n, a, n, w, v, n); err != nil {
		t.Fatal(err)
	}
	g := filter(append([]float64(nil), w...))
	c := make([]float64, n*nrhs)
	Engine{}.Gemm(true, false, n, nrhs, n, 1, v, n, b, nrhs, 0, c, nrhs)
	for i := 0; i < n; i++ {
		for k := 0; k < nrhs; k++ {
			c[i*nrhs+k] *= g[i]
		}
	}
	x = make([]float64, n*nrhs)
	Engine{}.Gemm(false, false, n, nrhs, n, 1, v, n, c, nrhs, 0, x, nrhs)
	return w, x
}

// padded copies the n×cols matrix m (leading dimension cols) into storage
// with leading dimension ld, NaN in the padding (and, when lower, above the
// diagonal), so that reading them shows.
func padded(m []float64, n, cols, ld int, lower bool) []float64 {
	out := make([]float64, n*ld)
	for i := range out {
		out[i] = math.NaN()
	}
	for i := 0; i < n; i++ {
		k := cols
		if lower {
			k = i + 1
		}
		copy(out[i*ld:i*ld+k], m[i*cols:i*cols+k])
	}
	return out
}

func TestSymFilterApply(t *testing.T) {
	graded := func(rng *rand.Rand, n int) []float64 {
		vals := make([]float64, n)
		for i := range vals {
			vals[i] = math.Pow(10, -14*float64(i)/float64(max(n-1, 1)))
		}
		return withSpectrum(rng, vals)
	}
	matrices := []symTestMatrix{
		{"random", 1, randomSym},
		{"random", 2, randomSym},
		{"random", 33, randomSym},
		{"random", 64, randomSym},
		{"random", 65, randomSym},
		{"random", 200, randomSym},
		{"graded 1e-14…1", 33, graded},
		{"graded 1e-14…1", 130, graded},
		{"gram rank 20", 150, func(rng *rand.Rand, n int) []float64 { return gramSym(rng, 20, n) }},
		{"gram full rank", 120, func(rng *rand.Rand, n int) []float64 { return gramSym(rng, 400, n) }},
		{"gram rank 40", 700, func(rng *rand.Rand, n int) []float64 { return gramSym(rng, 40, n) }},
		{"zero", 40, func(_ *rand.Rand, n int) []float64 { return make([]float64, n*n) }},
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
	}
	for mi, tm := range matrices {
		for _, nrhs := range []int{1, 7} {
			for _, f := range spectralFilters {
				t.Run(fmt.Sprintf("%s/n=%d/nrhs=%d/%s", tm.name, tm.n, nrhs, f.name), func(t *testing.T) {
					n := tm.n
					rng := rand.New(rand.NewPCG(21, uint64(mi)))
					full := tm.make(rng, n)
					b := make([]float64, n*nrhs)
					for i := range b {
						b[i] = rng.NormFloat64()
					}
					wantW, wantX := refFilterApply(t, n, full, b, nrhs, f.g)
					lda, ldb := n+3, nrhs+2
					a := padded(full, n, n, lda, true)
					bp := padded(b, n, nrhs, ldb, false)
					gotW, gotX, err := Engine{Threads: 2}.SymFilterApply(n, a, lda, bp, ldb, nrhs, f.g)
					if err != nil {
						t.Fatal(err)
					}
					// The eigenvalues are SymEigen's, bit for bit.
					if diff := cmp.Diff(wantW, gotW); diff != "" {
						t.Fatalf("eigenvalues differ from SymEigen's (-want +got):\n%s", diff)
					}
					// X agrees with V·diag(g)·Vᵀ·B to 1e-10 of its largest element.
					scale := 0.0
					for _, v := range wantX {
						scale = math.Max(scale, math.Abs(v))
					}
					approx := cmpopts.EquateApprox(0, 1e-10*scale)
					if diff := cmp.Diff(wantX, gotX, approx); diff != "" {
						t.Fatalf("X differs from V·diag(g)·Vᵀ·B (-want +got):\n%s", diff)
					}
					// Independent of SymEigen: the identity filter gives A·B,
					// the constant one gives B.
					var direct []float64
					switch f.name {
					case "identity":
						direct = make([]float64, n*nrhs)
						Engine{}.Gemm(false, false, n, nrhs, n, 1, full, n, b, nrhs, 0, direct, nrhs)
					case "one":
						direct = b
					}
					if direct != nil {
						ascale := 0.0
						for _, v := range full {
							ascale = math.Max(ascale, math.Abs(v))
						}
						bscale := 0.0
						for _, v := range b {
							bscale = math.Max(bscale, math.Abs(v))
						}
						if f.name == "one" {
							ascale = 1
						}
						approx := cmpopts.EquateApprox(0, 1e-12*float64(n)*ascale*bscale)
						if diff := cmp.Diff(direct, gotX, approx); diff != "" {
							t.Fatalf("X differs from the direct product (-want +got):\n%s", diff)
						}
					}
				})
			}
		}
	}
}

func TestSymFilterApplyThreadsIdentical(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 24))
	n, nrhs := 300, 7
	full := gramSym(rng, 500, n)
	b := make([]float64, n*nrhs)
	for i := range b {
		b[i] = rng.NormFloat64()
	}
	var w0, x0 []float64
	for _, th := range []int{1, 2, 3} {
		a := append([]float64(nil), full...)
		w, x, err := Engine{Threads: th}.SymFilterApply(n, a, n, b, nrhs, nrhs, spectralFilters[0].g)
		if err != nil {
			t.Fatal(err)
		}
		if w0 == nil {
			w0, x0 = w, x
			continue
		}
		if diff := cmp.Diff(w0, w); diff != "" {
			t.Fatalf("threads=%d: eigenvalues differ from threads=1:\n%s", th, diff)
		}
		if diff := cmp.Diff(x0, x); diff != "" {
			t.Fatalf("threads=%d: X differs from threads=1:\n%s", th, diff)
		}
	}
}

func TestSymFilterApplyNonFinite(t *testing.T) {
	one := spectralFilters[2].g
	tests := []struct {
		name string
		a, b []float64
	}{
		{"A", []float64{1, 0, math.Inf(1), 2}, []float64{1, 1}},
		{"B", []float64{1, 0, 0.5, 2}, []float64{1, math.NaN()}},
	}
	for _, tt := range tests {
		if _, _, err := (Engine{}).SymFilterApply(2, tt.a, 2, tt.b, 1, 1, one); err == nil {
			t.Errorf("non-finite %s accepted", tt.name)
		}
	}
}
