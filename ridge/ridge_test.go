package ridge

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/stat"
)

// randData returns rows×cols sigmoid-like activations in (0,1) with
// labels depending on the first columns, so that the readout learns
// something.
func randData(rng *rand.Rand, rows, cols, classes int) Data {
	d := Data{H: make([]float64, rows*cols), Rows: rows, Cols: cols, Labels: make([]int, rows)}
	for i := 0; i < rows; i++ {
		for j := 0; j < cols; j++ {
			d.H[i*cols+j] = 1 / (1 + math.Exp(-2*rng.NormFloat64()))
		}
		best := 0
		for c := 1; c < classes; c++ {
			if d.H[i*cols+c%cols]+0.3*rng.Float64() > d.H[i*cols+best%cols] {
				best = c
			}
		}
		d.Labels[i] = best
	}
	return d
}

// prefix returns d restricted to its first p columns.
func prefix(d Data, p int) Data {
	out := d
	out.Cols = p
	out.H = columnBlock(d.H, d.Rows, d.Cols, 0, p, nil)
	return out
}

func relErr(a, b []float64) float64 {
	var num, den float64
	for i := range a {
		num += (a[i] - b[i]) * (a[i] - b[i])
		den += b[i] * b[i]
	}
	return math.Sqrt(num / den)
}

// gonumPrimal is an independent reference: (HᵀH + λR)⁻¹HᵀY with gonum.
func gonumPrimal(t *testing.T, d Data, classes int, lambda float64, r []float64) []float64 {
	t.Helper()
	h := mat.NewDense(d.Rows, d.Cols, d.H)
	y := mat.NewDense(d.Rows, classes, oneHot(d.Labels, classes))
	var g mat.Dense
	g.Mul(h.T(), h)
	for j := 0; j < d.Cols; j++ {
		g.Set(j, j, g.At(j, j)+lambda*r[j])
	}
	var hty, w mat.Dense
	hty.Mul(h.T(), y)
	if err := w.Solve(&g, &hty); err != nil {
		t.Fatalf("gonum solve: %v", err)
	}
	var wo mat.Dense
	wo.CloneFrom(w.T())
	return wo.RawMatrix().Data
}

func TestPrimalDualAgree(t *testing.T) {
	tests := []struct {
		rows, cols, classes int
		lambda              float64
	}{
		{40, 60, 3, 0.5},
		{60, 40, 4, 0.5},
		{40, 60, 2, 2},
		{60, 40, 5, 0.125},
	}
	for _, reg := range []Regularizer{Variance, Identity} {
		for _, tt := range tests {
			t.Run(fmt.Sprintf("%v/%dx%d/L%d/λ%g", reg, tt.rows, tt.cols, tt.classes, tt.lambda), func(t *testing.T) {
				rng := rand.New(rand.NewPCG(uint64(tt.rows), uint64(tt.cols)))
				d := randData(rng, tt.rows, tt.cols, tt.classes)
				s := Solver{Reg: reg, Threads: 2}
				wp, ip, err := s.SolvePrimal(d, tt.classes, tt.lambda)
				if err != nil {
					t.Fatal(err)
				}
				wd, id, err := s.SolveDual(d, tt.classes, tt.lambda)
				if err != nil {
					t.Fatal(err)
				}
				if ip.Dual || !id.Dual || ip.Jitter != 0 || id.Jitter != 0 {
					t.Fatalf("info primal %+v dual %+v", ip, id)
				}
				if e := relErr(wp, wd); e > 1e-9 {
					t.Fatalf("primal and dual differ: relative error %g", e)
				}
				ref := gonumPrimal(t, d, tt.classes, tt.lambda, reg.Diag(d.H, d.Rows, d.Cols))
				if e := relErr(wp, ref); e > 1e-9 {
					t.Fatalf("primal differs from gonum: relative error %g", e)
				}
				w, info, err := s.Solve(d, tt.classes, tt.lambda)
				if err != nil {
					t.Fatal(err)
				}
				if wantDual := tt.rows < tt.cols; info.Dual != wantDual {
					t.Fatalf("Solve chose dual=%v, want %v", info.Dual, wantDual)
				}
				if e := relErr(w, ref); e > 1e-9 {
					t.Fatalf("Solve differs from gonum: relative error %g", e)
				}
			})
		}
	}
}

func TestDiag(t *testing.T) {
	rows, cols := 5, 4
	h := []float64{
		1, 2, 7, 0.5,
		1, 4, 7, 0.25,
		1, 6, 7, 1,
		1, 8, 7, 2,
		1, 10, 7, 3,
	}
	col := func(j int) []float64 {
		c := make([]float64, rows)
		for i := range c {
			c[i] = h[i*cols+j]
		}
		return c
	}
	tests := []struct {
		reg  Regularizer
		h    []float64
		rows int
		want []float64
	}{
		{Identity, h, rows, []float64{1, 1, 1, 1}},
		{Variance, h, rows, []float64{1, stat.Variance(col(1), nil), 1, stat.Variance(col(3), nil)}},
		{Variance, h[:cols], 1, []float64{1, 1, 1, 1}}, // one row: variance undefined
	}
	for _, tt := range tests {
		got := tt.reg.Diag(tt.h, tt.rows, cols)
		if diff := cmp.Diff(tt.want, got, cmp.Comparer(func(a, b float64) bool { return math.Abs(a-b) <= 1e-14*math.Abs(b) })); diff != "" {
			t.Errorf("%v rows=%d: (-want +got)\n%s", tt.reg, tt.rows, diff)
		}
	}
	if got := stat.Variance(col(1), nil); got != 10 {
		t.Fatalf("test premise: variance of 2,4,..,10 is %v, want 10", got)
	}
}

func TestParseRegularizer(t *testing.T) {
	for _, r := range []Regularizer{Variance, Identity} {
		got, err := ParseRegularizer(r.String())
		if err != nil || got != r {
			t.Errorf("ParseRegularizer(%q) = %v, %v", r.String(), got, err)
		}
	}
	if _, err := ParseRegularizer("ones"); err == nil {
		t.Error("ParseRegularizer(\"ones\") succeeded")
	}
	var zero Regularizer
	if zero != Variance {
		t.Error("zero Regularizer is not Variance")
	}
}

// nearTies counts rows whose two best scores are within a relative 1e-9.
func nearTies(scores []float64, classes int) int {
	n := 0
	for i := 0; i < len(scores)/classes; i++ {
		row := append([]float64(nil), scores[i*classes:i*classes+classes]...)
		b := Argmax(row)
		top := row[b]
		row[b] = math.Inf(-1)
		if classes > 1 && top-row[Argmax(row)] <= 1e-9*math.Max(1, math.Abs(top)) {
			n++
		}
	}
	return n
}

// oneShotCorrect solves the prefix problem with Solve and counts correct
// validation predictions; it also returns the number of near ties.
func oneShotCorrect(t *testing.T, s Solver, train, val Data, classes, p int, lambda float64) (correct, ties int, info Info) {
	t.Helper()
	tp, vp := prefix(train, p), prefix(val, p)
	w, info, err := s.Solve(tp, classes, lambda)
	if err != nil {
		t.Fatalf("Solve prefix %d λ %g: %v", p, lambda, err)
	}
	pred := Predict(vp.H, vp.Rows, p, w, classes, 1)
	for i, y := range vp.Labels {
		if pred[i] == y {
			correct++
		}
	}
	scores := make([]float64, vp.Rows*classes)
	hm := mat.NewDense(vp.Rows, p, vp.H)
	wm := mat.NewDense(classes, p, w)
	mat.NewDense(vp.Rows, classes, scores).Mul(hm, wm.T())
	return correct, nearTies(scores, classes), info
}

func TestGridMatchesSolve(t *testing.T) {
	lambdas := []float64{1.0 / 1024, 1.0 / 64, 0.25, 4, 32}
	tests := []struct {
		name              string
		rows, vrows, cols int
		classes           int
		prefixes          []int
	}{
		{"prefixes primal and dual", 90, 70, 200, 3, []int{10, 40, 89, 90, 91, 130, 200}},
		{"prefixes all primal", 150, 60, 120, 4, []int{1, 7, 8, 63, 64, 65, 120}},
		{"prefixes all dual", 30, 50, 100, 2, []int{31, 50, 100}},
		{"single prefix primal", 120, 50, 80, 5, []int{80}},
		{"single prefix dual", 60, 50, 80, 3, []int{80}},
		{"prefix below cols", 100, 40, 60, 3, []int{20, 45}},
		{"many classes (per-λ prediction)", 120, 60, 150, 30, []int{30, 100, 150}},
	}
	for _, reg := range []Regularizer{Variance, Identity} {
		for ti, tt := range tests {
			t.Run(reg.String()+"/"+tt.name, func(t *testing.T) {
				rng := rand.New(rand.NewPCG(21, uint64(ti)))
				train := randData(rng, tt.rows, tt.cols, tt.classes)
				val := randData(rng, tt.vrows, tt.cols, tt.classes)
				s := Solver{Reg: reg, Threads: 2}
				res, err := s.Grid(train, val, tt.classes, lambdas, tt.prefixes)
				if err != nil {
					t.Fatal(err)
				}
				for pi, p := range tt.prefixes {
					if res.Dual[pi] != (p > tt.rows) {
						t.Errorf("prefix %d: dual=%v", p, res.Dual[pi])
					}
					for li, l := range lambdas {
						want, ties, info := oneShotCorrect(t, s, train, val, tt.classes, p, l)
						got := res.Correct[pi][li]
						if d := got - want; d > ties || -d > ties {
							t.Errorf("prefix %d λ %g: grid %d correct, Solve %d (near ties %d)", p, l, got, want, ties)
						}
						if info.Jitter != res.Jitter[pi][li] {
							t.Errorf("prefix %d λ %g: grid jitter %g, Solve %g", p, l, res.Jitter[pi][li], info.Jitter)
						}
					}
				}
			})
		}
	}
}

func TestGridThreadsIdentical(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 32))
	train := randData(rng, 300, 400, 4)
	val := randData(rng, 200, 400, 4)
	lambdas := []float64{1.0 / 256, 1, 16}
	prefixes := []int{50, 150, 300, 350, 400}
	var ref *GridResult
	for _, th := range []int{1, 2, 3} {
		res, err := Solver{Threads: th}.Grid(train, val, 4, lambdas, prefixes)
		if err != nil {
			t.Fatal(err)
		}
		if ref == nil {
			ref = res
			continue
		}
		if diff := cmp.Diff(ref, res); diff != "" {
			t.Fatalf("threads=%d differs from threads=1:\n%s", th, diff)
		}
	}
}

// TestFactorLadder: a system that is indefinite by 1e-9 needs the second
// rung of the ladder (δ = 1e-8).
func TestFactorLadder(t *testing.T) {
	s := Solver{}
	sys := make([]float64, 4)
	build := func(dst []float64, delta float64) {
		dst[0] = 1 + delta
		dst[2] = 1
		dst[3] = (1 - 1e-9) * (1 + delta)
	}
	got, err := factorLadder(s.engine(), 2, sys, build)
	if err != nil || got != 1e-8 {
		t.Fatalf("factorLadder = %g, %v; want 1e-8", got, err)
	}
	neg := func(dst []float64, delta float64) { dst[0], dst[2], dst[3] = -1, 0, 1 }
	if _, err := factorLadder(s.engine(), 2, sys, neg); err == nil || !strings.Contains(err.Error(), "not positive definite") {
		t.Fatalf("factorLadder on an indefinite system: err = %v", err)
	}
}

// TestJitterInGrid: duplicated large-scale columns with the identity
// regulariser and a small λ make the system numerically singular; the grid
// must fall back on jitter exactly where Solve does, and stay finite.
func TestJitterInGrid(t *testing.T) {
	rng := rand.New(rand.NewPCG(41, 42))
	rows, cols, classes := 80, 30, 3
	train := randData(rng, rows, cols, classes)
	val := randData(rng, 40, cols, classes)
	for _, d := range []Data{train, val} {
		for i := 0; i < d.Rows; i++ {
			for _, j := range []int{10, 20} {
				d.H[i*cols+j] = 1e9 * d.H[i*cols+5]
			}
		}
	}
	s := Solver{Reg: Identity}
	lambdas := []float64{1.0 / 1024}
	prefixes := []int{8, 15, 25, 30}
	res, err := s.Grid(train, val, classes, lambdas, prefixes)
	if err != nil {
		t.Fatal(err)
	}
	jittered := 0
	for pi, p := range prefixes {
		want, ties, info := oneShotCorrect(t, s, train, val, classes, p, lambdas[0])
		if info.Jitter != res.Jitter[pi][0] {
			t.Errorf("prefix %d: grid jitter %g, Solve %g", p, res.Jitter[pi][0], info.Jitter)
		}
		if d := res.Correct[pi][0] - want; d > ties || -d > ties {
			t.Errorf("prefix %d: grid %d correct, Solve %d", p, res.Correct[pi][0], want)
		}
		if res.Jitter[pi][0] > 0 {
			jittered++
		}
	}
	if res.Jitter[0][0] != 0 {
		t.Errorf("prefix 8 (no duplicate column) needed jitter %g", res.Jitter[0][0])
	}
	if jittered == 0 {
		t.Fatal("test premise: no cell needed jitter")
	}
}

func TestInvalidInput(t *testing.T) {
	rng := rand.New(rand.NewPCG(51, 52))
	good := randData(rng, 10, 4, 2)
	nan := randData(rng, 10, 4, 2)
	nan.H[7] = math.NaN()
	badLabel := randData(rng, 10, 4, 2)
	badLabel.Labels[3] = 2
	short := good
	short.H = short.H[:39]
	s := Solver{}
	tests := []struct {
		name     string
		train    Data
		lambda   float64
		prefixes []int
		want     string
	}{
		{"NaN in H", nan, 1, []int{4}, "is NaN"},
		{"label out of range", badLabel, 1, []int{4}, "outside [0,2)"},
		{"short H", short, 1, []int{4}, "len(H)"},
		{"zero lambda", good, 0, []int{4}, "λ = 0"},
		{"NaN lambda", good, math.NaN(), []int{4}, "λ = NaN"},
		{"no training rows", Data{Cols: 4}, 1, []int{4}, "invalid shape 0×4"},
		{"prefix too large", good, 1, []int{5}, "prefixes"},
		{"prefixes not increasing", good, 1, []int{3, 3}, "prefixes"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := s.Grid(tt.train, good, 2, []float64{tt.lambda}, tt.prefixes)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Grid: err = %v, want it to contain %q", err, tt.want)
			}
			if tt.prefixes[0] == 4 {
				_, _, err = s.Solve(tt.train, 2, tt.lambda)
				if err == nil || !strings.Contains(err.Error(), tt.want) {
					t.Errorf("Solve: err = %v, want it to contain %q", err, tt.want)
				}
			}
		})
	}
}

func TestArgmaxTies(t *testing.T) {
	tests := []struct {
		scores []float64
		want   int
	}{
		{[]float64{1, 3, 3}, 1},
		{[]float64{2, 2}, 0},
		{[]float64{-1}, 0},
		{[]float64{0, math.Copysign(0, -1), 0}, 0},
		{[]float64{-5, -2, -2, -9}, 1},
	}
	for _, tt := range tests {
		if got := Argmax(tt.scores); got != tt.want {
			t.Errorf("Argmax(%v) = %d, want %d", tt.scores, got, tt.want)
		}
	}
}

// TestSolveNormal: one Normal serves every λ and prefix, matching a
// primal solve of the prefix data.
func TestSolveNormal(t *testing.T) {
	rng := rand.New(rand.NewPCG(61, 62))
	d := randData(rng, 150, 90, 3)
	for _, reg := range []Regularizer{Variance, Identity} {
		s := Solver{Reg: reg}
		nm, err := s.NewNormal(d, 3)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range []int{1, 17, 64, 90} {
			for _, lambda := range []float64{1.0 / 512, 3} {
				got, _, err := s.SolveNormal(nm, lambda, p)
				if err != nil {
					t.Fatal(err)
				}
				want, _, err := s.SolvePrimal(prefix(d, p), 3, lambda)
				if err != nil {
					t.Fatal(err)
				}
				if e := relErr(got, want); e > 1e-10 {
					t.Errorf("%v p=%d λ=%g: relative error %g", reg, p, lambda, e)
				}
			}
		}
		for _, p := range []int{0, 91} {
			if _, _, err := s.SolveNormal(nm, 1, p); err == nil {
				t.Errorf("SolveNormal with prefix %d succeeded", p)
			}
		}
	}
}

// TestSolveKernelIsSolveDual: the kernel formed once and solved for each λ
// gives SolveDual's readout bit for bit, for both penalties; NewDual
// refuses PinvCutoff, which solves the dual on its own.
func TestSolveKernelIsSolveDual(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 35))
	d := randData(rng, 40, 90, 3)
	for _, reg := range []Regularizer{Identity, Variance} {
		s := Solver{Reg: reg, Threads: 2}
		dl, err := s.NewDual(d, 3)
		if err != nil {
			t.Fatal(err)
		}
		for _, lambda := range []float64{1e-6, 0.5, 64, 1 << 15} {
			want, wi, err := s.SolveDual(d, 3, lambda)
			if err != nil {
				t.Fatal(err)
			}
			got, gi, err := s.SolveKernel(dl, lambda)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(want, got); diff != "" || wi != gi {
				t.Errorf("%v λ=%g: SolveKernel (-SolveDual +kernel), info %+v vs %+v:\n%s", reg, lambda, wi, gi, diff)
			}
		}
	}
	if _, err := (Solver{Reg: Identity, Method: PinvCutoff}).NewDual(d, 3); err == nil {
		t.Error("NewDual with PinvCutoff: no error")
	}
}
