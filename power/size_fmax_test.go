package power

import (
	"errors"
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/hdlgen/hdlgen/model"
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
		{"intrvfl P=1", Design{Shape: median, N: 512, P: 1}, 6},
		// P ≥ 16 cuts the popcount after 3 levels: XOR + 3.
		{"intrvfl P=32", Design{Shape: median, N: 512, P: 32}, 4},
		// The same with 4 levels: 6 again.
		{"intrvfl P=32 R=4", Design{Shape: median, N: 512, P: 32, AdderLevels: 4}, 6},
		// rvfl8: pre-activation depth 5 cut after 4; lane tree depth 3 + accumulator.
		{"rvfl8 P=8", Design{Shape: r8, N: 512, P: 8}, 4},
		// Lane tree depth 10 cut every 3: segments 3, 3, 3 and 1 + accumulator.
		{"intrvfl P=513", Design{Shape: Shape{Arch: model.IntRVFL, K: 16, L: 2, Kappa: 15, Bits: 5}, N: 513, P: 513}, 4},
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
		{Design{Shape: median, N: 512, P: 1}, 145.6},
		{Design{Shape: median, N: 512, P: 8}, 126.9},
		{Design{Shape: median, N: 512, P: 16}, 175.4},
		{Design{Shape: median, N: 512, P: 32}, 162.9},
		{Design{Shape: median, N: 512, P: 32, AdderLevels: 4}, 101.7},
		{Design{Shape: r8, N: 512, P: 1}, 146.8},
		{Design{Shape: r8, N: 512, P: 8}, 122.2},
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
		d := Design{Shape: s, N: sz.N, P: sz.P}
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
