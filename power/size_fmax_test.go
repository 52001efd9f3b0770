package power

import (
	"errors"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"gonum.org/v1/gonum/mat"

	"github.com/hdlgen/hdlgen/model"
	"github.com/hdlgen/hdlgen/rtl/plan"
)

// TestFmaxLevels pins S, the longest segment in adder levels, on designs
// worked out by hand (see fmaxLevels).
func TestFmaxLevels(t *testing.T) {
	median := Shape{Arch: model.IntRVFL, K: 16, L: 4, Kappa: 3, Bits: 5}
	r8 := Shape{Arch: model.RVFL8, K: 16, L: 4}
	tests := []struct {
		name string
		d    Design
		want int
	}{
		// Popcount depth 4, no register: XOR leaves + 4 levels + clip.
		{"intrvfl P=1", Design{Shape: median, N: 512, Options: plan.Options{Parallel: 1}}, 6},
		// P ≥ 16 cuts the popcount after 3 levels: XOR + 3.
		{"intrvfl P=32", Design{Shape: median, N: 512, Options: plan.Options{Parallel: 32}}, 4},
		// The same with 4 levels: 6 again.
		{"intrvfl P=32 R=4", Design{Shape: median, N: 512, Options: plan.Options{Parallel: 32, AdderLevelsPerStage: 4}}, 6},
		// rvfl8: pre-activation depth 5 cut after 4; lane tree depth 3 + accumulator.
		{"rvfl8 P=8", Design{Shape: r8, N: 512, Options: plan.Options{Parallel: 8}}, 4},
		// Lane tree depth 10 cut every 3: segments 3, 3, 3 and 1 + accumulator.
		{"intrvfl P=513", Design{Shape: Shape{Arch: model.IntRVFL, K: 16, L: 2, Kappa: 15, Bits: 5}, N: 513, Options: plan.Options{Parallel: 513}}, 4},
	}
	for _, tc := range tests {
		if got := fmaxLevels(tc.d, newStructure(tc.d)); got != tc.want {
			t.Errorf("%s: S = %d, want %d", tc.name, got, tc.want)
		}
	}
}

// TestAnalyticFmaxCalibration checks the analytic estimate against the
// timing estimates it was fitted to (docs/timing.md, "Analytic estimate for
// the sizer"): within the documented worst error.
func TestAnalyticFmaxCalibration(t *testing.T) {
	const maxErr = FmaxCalibrationError
	median := Shape{Arch: model.IntRVFL, K: 16, L: 4, Kappa: 3, Bits: 5}
	r8 := Shape{Arch: model.RVFL8, K: 16, L: 4}
	tests := []struct {
		d    Design
		fmax float64 // hdlgen synth DIR, MHz
	}{
		{Design{Shape: median, N: 512, Options: plan.Options{Parallel: 1}}, 145.6},
		{Design{Shape: median, N: 512, Options: plan.Options{Parallel: 8}}, 126.9},
		{Design{Shape: median, N: 512, Options: plan.Options{Parallel: 16}}, 175.4},
		{Design{Shape: median, N: 512, Options: plan.Options{Parallel: 32}}, 162.9},
		{Design{Shape: median, N: 512, Options: plan.Options{Parallel: 32, AdderLevelsPerStage: 4}}, 101.7},
		{Design{Shape: r8, N: 512, Options: plan.Options{Parallel: 1}}, 146.8},
		{Design{Shape: r8, N: 512, Options: plan.Options{Parallel: 8}}, 122.2},
	}
	for _, tc := range tests {
		got := AnalyticFmaxMHz(tc.d)
		if rel := math.Abs(got-tc.fmax) / tc.fmax; rel > maxErr {
			t.Errorf("%s: analytic %.1f MHz, timing estimate %.1f MHz (%.1f %% off, documented ≤ %.0f %%)", tc.d, got, tc.fmax, 100*rel, 100*maxErr)
		}
	}
}

// TestSizeMeetsClock: every proposed design's analytic Fmax meets the clock,
// Sizing reports it, and a clock no design reaches is impossible.
func TestSizeMeetsClock(t *testing.T) {
	s := Shape{Arch: model.IntRVFL, K: 16, L: 4, Kappa: 3, Bits: 5}
	for _, mhz := range []float64{100, 130, 150} {
		sz, err := Size(1e-6, s, SizeOptions{Params: Params{ClockHz: mhz * 1e6}, MaxN: 1024})
		if err != nil {
			t.Fatalf("%g MHz: %v", mhz, err)
		}
		d := Design{Shape: s, N: sz.N, Options: plan.Options{Parallel: sz.P}}
		if diff := cmp.Diff(AnalyticFmaxMHz(d), sz.EstFmaxMHz); diff != "" || sz.EstFmaxMHz < mhz {
			t.Errorf("%g MHz: N=%d P=%d, est. Fmax %.1f MHz (-want +got %s)", mhz, sz.N, sz.P, sz.EstFmaxMHz, diff)
		}
	}
	_, err := Size(1e-6, s, SizeOptions{Params: Params{ClockHz: 400e6}, MaxN: 64})
	var imp *ImpossibleError
	if !errors.As(err, &imp) || !math.IsInf(imp.MinJ, 1) {
		t.Errorf("400 MHz: %v, want no design", err)
	}
}

// TestFmaxFit refits the analytic clock period to the timing estimates in
// testdata/fmax_fit.txt — least squares of period = base(network) +
// FmaxPerLevel·S + FmaxPerDoubling·log2(P) — and requires the constants of
// size_fmax.go and the intercepts of the networks timed there to be that fit,
// rounded to the picosecond; a network type without rows there must share
// its intercept with one that has them (it reuses that hidden layer).
func TestFmaxFit(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("testdata", "fmax_fit.txt"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(b), "\n")
	var archs []string // one intercept column per network type timed
	for _, line := range lines {
		if f := strings.Fields(line); len(f) > 0 && !strings.HasPrefix(f[0], "#") && !slices.Contains(archs, f[0]) {
			archs = append(archs, f[0])
		}
	}
	slices.Sort(archs)
	var x [][]float64
	var y []float64
	for i, line := range lines {
		f := strings.Fields(line)
		if len(f) == 0 || strings.HasPrefix(f[0], "#") {
			continue
		}
		if len(f) != 6 {
			t.Fatalf("fmax_fit.txt:%d: want arch K P r period name, got %q", i+1, line)
		}
		k, _ := strconv.Atoi(f[1])
		p, _ := strconv.Atoi(f[2])
		r, _ := strconv.Atoi(f[3])
		period, err := strconv.ParseFloat(f[4], 64)
		if err != nil || k < 1 || p < 1 || r < 1 {
			t.Fatalf("fmax_fit.txt:%d: %q", i+1, line)
		}
		arch := model.Arch(f[0])
		s, err := ShapeOf(arch, k, 2, 3, 5)
		if err != nil {
			t.Fatalf("fmax_fit.txt:%d: %v", i+1, err)
		}
		d := Design{Shape: s, N: max(p, 64), Options: plan.Options{Parallel: p, AdderLevelsPerStage: r}}
		row := make([]float64, len(archs)+2)
		row[slices.Index(archs, string(arch))] = 1
		row[len(archs)] = float64(fmaxLevels(d, newStructure(d)))
		row[len(archs)+1] = math.Log2(float64(p))
		x = append(x, row)
		y = append(y, period)
	}
	var coef mat.VecDense
	if err := coef.SolveVec(mat.NewDense(len(y), len(x[0]), slices.Concat(x...)), mat.NewVecDense(len(y), y)); err != nil {
		t.Fatal(err)
	}
	round := func(v float64) float64 { return math.Round(v*1000) / 1000 }
	got := map[string]float64{"per level": FmaxPerLevel, "per doubling": FmaxPerDoubling}
	want := map[string]float64{"per level": round(coef.AtVec(len(archs))), "per doubling": round(coef.AtVec(len(archs) + 1))}
	for i, a := range archs {
		got["base "+a] = netOf(model.Arch(a)).fmaxBase()
		want["base "+a] = round(coef.AtVec(i))
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("constants of the analytic Fmax (-refit +code):\n%s", diff)
	}
	for _, n := range networks.Values() {
		if !slices.Contains(archs, string(n.arch())) && !slices.ContainsFunc(archs, func(a string) bool { return got["base "+a] == n.fmaxBase() }) {
			t.Errorf("%s: no timing estimate in fmax_fit.txt, and its intercept %g ns is no timed network's", n.arch(), n.fmaxBase())
		}
	}
}
