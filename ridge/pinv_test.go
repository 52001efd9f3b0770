package ridge

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"gonum.org/v1/gonum/mat"
)

// refPinv is an independent reference for the PinvCutoff method, written
// as the authors' code reads: W_out = Yᵀ·H·pinv(HᵀH + λ·diag(r)) with the
// pseudo-inverse from gonum's SVD, singular values ≤ rtol·σ_max dropped.
func refPinv(t *testing.T, d Data, classes int, lambda float64, r []float64, rtol float64) ([]float64, int) {
	t.Helper()
	n := d.Cols
	h := mat.NewDense(d.Rows, n, d.H)
	var a mat.Dense
	a.Mul(h.T(), h)
	for j := 0; j < n; j++ {
		a.Set(j, j, a.At(j, j)+lambda*r[j])
	}
	var svd mat.SVD
	if !svd.Factorize(&a, mat.SVDFull) {
		t.Fatal("reference SVD failed")
	}
	s := svd.Values(nil)
	var u, v mat.Dense
	svd.UTo(&u)
	svd.VTo(&v)
	tol := rtol * s[0]
	sinv := mat.NewDiagDense(n, nil)
	dropped := 0
	for i, x := range s {
		if x > tol {
			sinv.SetDiag(i, 1/x)
		} else {
			dropped++
		}
	}
	var pinv, tmp mat.Dense
	tmp.Mul(&v, sinv)
	pinv.Mul(&tmp, u.T())
	y := mat.NewDense(d.Rows, classes, oneHot(d.Labels, classes))
	var yh, w mat.Dense
	yh.Mul(y.T(), h)
	w.Mul(&yh, &pinv)
	return w.RawMatrix().Data, dropped
}

// collinearData returns sigmoid activations whose columns are noisy
// copies of a few base columns: a badly conditioned Gram matrix, like the
// RVFL's hidden layer, on which the cutoff drops many directions.
func collinearData(rng *rand.Rand, rows, cols, base, classes int, noise float64) Data {
	d := randData(rng, rows, base, classes)
	out := Data{H: make([]float64, rows*cols), Rows: rows, Cols: cols, Labels: d.Labels}
	mix := make([]float64, cols*base)
	for i := range mix {
		mix[i] = rng.NormFloat64()
	}
	for i := 0; i < rows; i++ {
		for j := 0; j < cols; j++ {
			z := noise * rng.NormFloat64()
			for b := 0; b < base; b++ {
				z += mix[j*base+b] * d.H[i*base+b]
			}
			out.H[i*cols+j] = 1 / (1 + math.Exp(-z))
		}
	}
	return out
}

func TestPinvEqualsExactWhenNothingDropped(t *testing.T) {
	tests := []struct {
		rows, cols, classes int
		lambda              float64
	}{
		{120, 40, 3, 4},
		{60, 40, 4, 1},
		{40, 70, 3, 2}, // dual kernel with the identity regulariser
	}
	for _, reg := range []Regularizer{Variance, Identity} {
		for _, tt := range tests {
			t.Run(fmt.Sprintf("%v/%dx%d/λ%g", reg, tt.rows, tt.cols, tt.lambda), func(t *testing.T) {
				rng := rand.New(rand.NewPCG(71, uint64(tt.rows)))
				d := randData(rng, tt.rows, tt.cols, tt.classes)
				want, _, err := Solver{Reg: reg}.Solve(d, tt.classes, tt.lambda)
				if err != nil {
					t.Fatal(err)
				}
				got, info, err := Solver{Reg: reg, Method: PinvCutoff}.Solve(d, tt.classes, tt.lambda)
				if err != nil {
					t.Fatal(err)
				}
				if info.Dropped != 0 {
					t.Fatalf("test premise: %d singular values dropped", info.Dropped)
				}
				if wantDual := reg == Identity && tt.rows < tt.cols; info.Dual != wantDual {
					t.Errorf("dual = %v, want %v", info.Dual, wantDual)
				}
				if e := relErr(got, want); e > 1e-9 {
					t.Errorf("pinv differs from the exact solve: relative error %g", e)
				}
			})
		}
	}
}

// TestPinvDropsKnownDirections builds H = U·diag(σ)·Vᵀ with orthonormal U
// and V, so that HᵀH + λI has the known eigenvalues σ_i² + λ, and checks
// that exactly those at or below rtol·σ_max are dropped.
func TestPinvDropsKnownDirections(t *testing.T) {
	const rows, cols, classes = 40, 8, 3
	rng := rand.New(rand.NewPCG(81, 82))
	orth := func(r, c int) *mat.Dense {
		a := mat.NewDense(r, c, nil)
		for i := 0; i < r; i++ {
			for j := 0; j < c; j++ {
				a.Set(i, j, rng.NormFloat64())
			}
		}
		var qr mat.QR
		qr.Factorize(a)
		var q mat.Dense
		qr.QTo(&q)
		return mat.DenseCopyOf(q.Slice(0, r, 0, c))
	}
	u, v := orth(rows, cols), orth(cols, cols)
	sq := []float64{1e8, 1e6, 1e4, 2e2, 50, 1, 1e-2, 0} // σ_i²
	tests := []struct {
		lambda, rtol float64
		keep         int // the first keep values of sq survive
	}{
		{1e-3, 1e-5, 3}, // cutoff 1000.00001: 200 and below dropped
		{1e-3, 1e-7, 5}, // cutoff 10: 50 kept, 1 dropped
		{1, 1e-7, 5},    // cutoff 10.0000001: 51 kept, 2 dropped
		{20, 1e-7, 8},   // every value ≥ 20 > 10.000002
		{1e-3, 0.5, 1},  // only σ_max
		{1, 1e-12, 8},   // cutoff 1e-4 < λ: nothing dropped
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("λ%g/rtol%g", tt.lambda, tt.rtol), func(t *testing.T) {
			sig := mat.NewDiagDense(cols, nil)
			for i, x := range sq {
				sig.SetDiag(i, math.Sqrt(x))
			}
			var us, h mat.Dense
			us.Mul(u, sig)
			h.Mul(&us, v.T())
			labels := make([]int, rows)
			for i := range labels {
				labels[i] = rng.IntN(classes)
			}
			d := Data{H: h.RawMatrix().Data, Rows: rows, Cols: cols, Labels: labels}
			// W_outᵀ = Σ_kept v_i·σ_i/(σ_i²+λ)·u_iᵀ·Y.
			y := mat.NewDense(rows, classes, oneHot(labels, classes))
			want := mat.NewDense(classes, cols, nil)
			for i := 0; i < tt.keep; i++ {
				var uy mat.Dense
				uy.Mul(u.ColView(i).T(), y) // 1×classes
				f := math.Sqrt(sq[i]) / (sq[i] + tt.lambda)
				for c := 0; c < classes; c++ {
					for j := 0; j < cols; j++ {
						want.Set(c, j, want.At(c, j)+f*uy.At(0, c)*v.At(j, i))
					}
				}
			}
			s := Solver{Reg: Identity, Method: PinvCutoff, RTol: tt.rtol}
			got, info, err := s.Solve(d, classes, tt.lambda)
			if err != nil {
				t.Fatal(err)
			}
			if info.Dropped != cols-tt.keep {
				t.Errorf("dropped %d, want %d", info.Dropped, cols-tt.keep)
			}
			if e := relErr(got, want.RawMatrix().Data); e > 1e-7 {
				t.Errorf("relative error %g against the constructed solution", e)
			}
		})
	}
}

func TestPinvMatchesReference(t *testing.T) {
	tests := []struct {
		name                   string
		rows, cols, base       int
		classes                int
		lambda, noise, rtol    float64
		wantDroppedAtLeast     int
		wantDifferFromExactGt  float64
		identityThroughTheDual bool
	}{
		{"collinear primal", 200, 60, 6, 3, 1.0 / 64, 1e-3, 0, 20, 1e-3, false},
		{"collinear, large rtol", 200, 60, 6, 4, 1.0 / 1024, 1e-2, 1e-4, 20, 1e-3, false},
		{"collinear, dual", 50, 80, 6, 3, 1.0 / 256, 1e-3, 0, 20, 1e-3, true},
	}
	for _, reg := range []Regularizer{Variance, Identity} {
		for ti, tt := range tests {
			t.Run(reg.String()+"/"+tt.name, func(t *testing.T) {
				rng := rand.New(rand.NewPCG(91, uint64(ti)))
				d := collinearData(rng, tt.rows, tt.cols, tt.base, tt.classes, tt.noise)
				s := Solver{Reg: reg, Method: PinvCutoff, RTol: tt.rtol}
				got, info, err := s.Solve(d, tt.classes, tt.lambda)
				if err != nil {
					t.Fatal(err)
				}
				if info.Dual != (reg == Identity && tt.identityThroughTheDual) {
					t.Errorf("dual = %v", info.Dual)
				}
				want, dropped := refPinv(t, d, tt.classes, tt.lambda, s.regDiag(d.H, d.Rows, d.Cols), s.rtol(d.Cols))
				if info.Dropped != dropped {
					t.Errorf("dropped %d, reference %d", info.Dropped, dropped)
				}
				if dropped < tt.wantDroppedAtLeast {
					t.Errorf("test premise: only %d dropped", dropped)
				}
				if e := relErr(got, want); e > 1e-6 {
					t.Errorf("relative error %g against the SVD reference", e)
				}
				exact, _, err := Solver{Reg: reg}.Solve(d, tt.classes, tt.lambda)
				if err != nil {
					t.Fatal(err)
				}
				if e := relErr(got, exact); e < tt.wantDifferFromExactGt {
					t.Errorf("test premise: pinv within %g of the exact solve", e)
				}
			})
		}
	}
}

// TestPinvZeroVarianceColumn: with the variance regulariser the cutoff
// method leaves a constant column unpenalised (R_jj = 0, as torch.var
// gives), the exact method penalises it with R_jj = 1.
func TestPinvZeroVarianceColumn(t *testing.T) {
	rng := rand.New(rand.NewPCG(95, 96))
	d := randData(rng, 80, 10, 3)
	for i := 0; i < d.Rows; i++ {
		d.H[i*d.Cols+4] = 3
	}
	s := Solver{Method: PinvCutoff}
	r := s.regDiag(d.H, d.Rows, d.Cols)
	if r[4] != 0 || Variance.Diag(d.H, d.Rows, d.Cols)[4] != 1 {
		t.Fatalf("R_44: pinv %g, exact %g", r[4], Variance.Diag(d.H, d.Rows, d.Cols)[4])
	}
	got, _, err := s.Solve(d, 3, 2)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := refPinv(t, d, 3, 2, r, DefaultRTol(d.Cols))
	if e := relErr(got, want); e > 1e-8 {
		t.Errorf("relative error %g against the SVD reference", e)
	}
}

// TestPinvDualEqualsPrimal: the identity regulariser's dual route gives
// the primal pseudo-inverse solution, dropped count included.
func TestPinvDualEqualsPrimal(t *testing.T) {
	rng := rand.New(rand.NewPCG(97, 98))
	d := collinearData(rng, 40, 90, 5, 3, 1e-3)
	s := Solver{Reg: Identity, Method: PinvCutoff}
	for _, lambda := range []float64{1.0 / 1024, 1.0 / 16, 4} {
		wd, id, err := s.SolveDual(d, 3, lambda)
		if err != nil {
			t.Fatal(err)
		}
		wp, ip, err := s.SolvePrimal(d, 3, lambda)
		if err != nil {
			t.Fatal(err)
		}
		if !id.Dual || ip.Dual {
			t.Errorf("λ=%g: info dual %+v primal %+v", lambda, id, ip)
		}
		if id.Dropped != ip.Dropped {
			t.Errorf("λ=%g: dropped dual %d, primal %d", lambda, id.Dropped, ip.Dropped)
		}
		if e := relErr(wd, wp); e > 1e-7 {
			t.Errorf("λ=%g: dual and primal differ by %g", lambda, e)
		}
	}
}

func TestGridPinvMatchesSolve(t *testing.T) {
	lambdas := []float64{1.0 / 1024, 1.0 / 32, 1, 16}
	tests := []struct {
		name              string
		rows, vrows, cols int
		classes           int
		prefixes          []int
	}{
		{"primal and dual prefixes", 60, 50, 100, 3, []int{10, 40, 60, 61, 100}},
		{"single prefix", 120, 40, 50, 4, []int{50}},
		{"many classes", 100, 40, 60, 30, []int{20, 60}},
	}
	for _, reg := range []Regularizer{Variance, Identity} {
		for ti, tt := range tests {
			t.Run(reg.String()+"/"+tt.name, func(t *testing.T) {
				rng := rand.New(rand.NewPCG(101, uint64(ti)))
				train := collinearData(rng, tt.rows, tt.cols, 8, tt.classes, 1e-3)
				val := collinearData(rng, tt.vrows, tt.cols, 8, tt.classes, 1e-3)
				s := Solver{Reg: reg, Method: PinvCutoff, Threads: 2}
				res, err := s.Grid(train, val, tt.classes, lambdas, tt.prefixes)
				if err != nil {
					t.Fatal(err)
				}
				dropping := 0
				for pi, p := range tt.prefixes {
					if want := reg == Identity && p > tt.rows; res.Dual[pi] != want {
						t.Errorf("prefix %d: dual %v, want %v", p, res.Dual[pi], want)
					}
					for li, l := range lambdas {
						want, ties, info := oneShotCorrect(t, s, train, val, tt.classes, p, l)
						if d := res.Correct[pi][li] - want; d > ties || -d > ties {
							t.Errorf("prefix %d λ %g: grid %d correct, Solve %d (near ties %d)", p, l, res.Correct[pi][li], want, ties)
						}
						if info.Dropped != res.Dropped[pi][li] {
							t.Errorf("prefix %d λ %g: grid dropped %d, Solve %d", p, l, res.Dropped[pi][li], info.Dropped)
						}
						if info.Dropped > 0 {
							dropping++
						}
					}
				}
				if dropping == 0 {
					t.Error("test premise: the cutoff dropped nothing")
				}
			})
		}
	}
}

func TestPinvDeterministic(t *testing.T) {
	rng := rand.New(rand.NewPCG(111, 112))
	train := collinearData(rng, 150, 120, 10, 4, 1e-3)
	val := collinearData(rng, 60, 120, 10, 4, 1e-3)
	for _, reg := range []Regularizer{Variance, Identity} {
		var ref *GridResult
		var refW []float64
		for _, th := range []int{1, 2, 3, 1} { // the λ side by side with several threads
			s := Solver{Reg: reg, Method: PinvCutoff, Threads: th}
			res, err := s.Grid(train, val, 4, []float64{1.0 / 512, 1.0 / 8, 2, 16, 64}, []int{30, 120})
			if err != nil {
				t.Fatal(err)
			}
			w, _, err := s.Solve(train, 4, 1.0/512)
			if err != nil {
				t.Fatal(err)
			}
			if ref == nil {
				ref, refW = res, w
				continue
			}
			if diff := cmp.Diff(ref, res); diff != "" {
				t.Errorf("%v threads=%d: grid differs:\n%s", reg, th, diff)
			}
			if diff := cmp.Diff(refW, w); diff != "" {
				t.Errorf("%v threads=%d: W_out differs:\n%s", reg, th, diff)
			}
		}
	}
}

func TestParseMethod(t *testing.T) {
	for _, m := range []Method{Exact, PinvCutoff} {
		got, err := ParseMethod(m.String())
		if err != nil || got != m {
			t.Errorf("ParseMethod(%q) = %v, %v", m.String(), got, err)
		}
	}
	if _, err := ParseMethod("pinv"); err == nil {
		t.Error(`ParseMethod("pinv") succeeded`)
	}
	if got, want := DefaultRTol(150), 150.0/(1<<23); got != want {
		t.Errorf("DefaultRTol(150) = %g, want %g", got, want)
	}
}

func TestPinvInvalidTolerance(t *testing.T) {
	rng := rand.New(rand.NewPCG(121, 122))
	d := randData(rng, 20, 5, 2)
	for _, rtol := range []float64{-1e-7, math.NaN(), math.Inf(1)} {
		s := Solver{Method: PinvCutoff, RTol: rtol}
		if _, _, err := s.Solve(d, 2, 1); err == nil || !strings.Contains(err.Error(), "relative tolerance") {
			t.Errorf("RTol %v: Solve err = %v", rtol, err)
		}
		if _, err := s.Grid(d, d, 2, []float64{1}, []int{5}); err == nil || !strings.Contains(err.Error(), "relative tolerance") {
			t.Errorf("RTol %v: Grid err = %v", rtol, err)
		}
	}
	if _, _, err := (Solver{Method: Method(7)}).Solve(d, 2, 1); err == nil || !strings.Contains(err.Error(), "invalid solver method") {
		t.Errorf("Method(7): err = %v", err)
	}
}

// TestPinvFilterApplyMatchesFullEigen: the variance-penalty pinv through
// SymFilterApply gives the grid counts and dropped counts of the older
// route through SymEigen's eigenvectors, and W_out to 1e-10 of its largest element.
func TestPinvFilterApplyMatchesFullEigen(t *testing.T) {
	lambdas := []float64{1.0 / 1024, 1.0 / 32, 1, 16}
	tests := []struct {
		name              string
		rows, vrows, cols int
		classes           int
		prefixes          []int
		noise             float64
	}{
		{"collinear, prefixes", 60, 50, 100, 3, []int{10, 40, 60, 61, 100}, 1e-3},
		{"collinear, single prefix", 120, 40, 50, 4, []int{50}, 1e-3},
		{"collinear, many classes", 100, 40, 60, 30, []int{20, 60}, 1e-3},
		{"well conditioned", 150, 60, 80, 5, []int{1, 33, 64, 65, 80}, 1},
	}
	for ti, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(131, uint64(ti)))
			train := collinearData(rng, tt.rows, tt.cols, 8, tt.classes, tt.noise)
			val := collinearData(rng, tt.vrows, tt.cols, 8, tt.classes, tt.noise)
			fast := Solver{Reg: Variance, Method: PinvCutoff, Threads: 2}
			full := fast
			full.fullEigen = true
			want, err := full.Grid(train, val, tt.classes, lambdas, tt.prefixes)
			if err != nil {
				t.Fatal(err)
			}
			got, err := fast.Grid(train, val, tt.classes, lambdas, tt.prefixes)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("grid differs from the SymEigen route (-want +got):\n%s", diff)
			}
			tp := prefix(train, tt.prefixes[len(tt.prefixes)-1])
			for _, l := range lambdas {
				compareSolves(t, full, fast, tp, tt.classes, l)
			}
		})
	}
}

// compareSolves checks that fast solves d as full does: the same Info and
// W_out to 1e-10 of its largest element. It returns fast's W_out and Info.
func compareSolves(t *testing.T, full, fast Solver, d Data, classes int, lambda float64) ([]float64, Info) {
	t.Helper()
	wantW, wantInfo, err := full.Solve(d, classes, lambda)
	if err != nil {
		t.Fatal(err)
	}
	gotW, gotInfo, err := fast.Solve(d, classes, lambda)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(wantInfo, gotInfo); diff != "" {
		t.Errorf("λ %g: Info differs (-want +got):\n%s", lambda, diff)
	}
	scale := 0.0
	for _, v := range wantW {
		scale = math.Max(scale, math.Abs(v))
	}
	if diff := cmp.Diff(wantW, gotW, cmpopts.EquateApprox(0, 1e-10*scale)); diff != "" {
		t.Errorf("λ %g: W_out differs beyond 1e-10 of its largest element (-want +got):\n%s", lambda, diff)
	}
	return gotW, gotInfo
}
