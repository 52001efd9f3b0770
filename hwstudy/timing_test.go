package hwstudy

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/hdlgen/hdlgen/internal/hwtest"
	"github.com/hdlgen/hdlgen/model"
	"github.com/hdlgen/hdlgen/rtl/plan"
	"github.com/hdlgen/hdlgen/synth"
	"github.com/hdlgen/hdlgen/timing"
)

// ciMatrix is the verification matrix of CI (e2e/matrix_test.go: 14 shapes,
// P = 0 meaning P = N) and the two median designs at P = 1.
var ciMatrix = []Shape{
	{Arch: model.IntRVFL, K: 1, N: 1, L: 2, Kappa: 1, Bits: 2, P: 1},
	{Arch: model.IntRVFL, K: 3, N: 7, L: 3, Kappa: 15, Bits: 5, P: 3},
	{Arch: model.IntRVFL, K: 65, N: 7, L: 10, Kappa: 1, Bits: 8, P: 0},
	{Arch: model.IntRVFL, K: 16, N: 64, L: 10, Kappa: 15, Bits: 2, P: 3},
	{Arch: model.IntRVFL, K: 65, N: 64, L: 2, Kappa: 1, Bits: 5, P: 1},
	{Arch: model.IntRVFL, K: 3, N: 513, L: 3, Kappa: 1, Bits: 8, P: 3},
	{Arch: model.IntRVFL, K: 16, N: 513, L: 2, Kappa: 15, Bits: 5, P: 0},
	{Arch: model.IntRVFL, K: 1, N: 513, L: 10, Kappa: 1, Bits: 2, P: 1},
	{Arch: model.IntRVFL, K: 16, N: 512, L: 4, Kappa: 3, Bits: 5, P: 8},
	{Arch: model.RVFL8, K: 1, N: 1, L: 2, P: 1},
	{Arch: model.RVFL8, K: 3, N: 7, L: 10, P: 3},
	{Arch: model.RVFL8, K: 16, N: 64, L: 3, P: 0},
	{Arch: model.RVFL8, K: 65, N: 64, L: 2, P: 1},
	{Arch: model.RVFL8, K: 3, N: 513, L: 2, P: 3},
	{Arch: model.IntRVFL, K: 16, N: 512, L: 4, Kappa: 3, Bits: 5, P: 1},
	{Arch: model.RVFL8, K: 16, N: 512, L: 4, P: 1},
	{Arch: model.RVFL8, K: 16, N: 512, L: 4, P: 8},
}

// TestCIMatrixTiming synthesises the CI matrix's shapes and the median
// designs (random weights, RandomModel seed 1) and prints each design's
// estimated Fmax and worst path, and the minimum. It is the command behind
// the timing figures of the matrix (several CPU-minutes of Yosys, so it runs
// only when asked):
//
//	HDLGEN_TIMING_MATRIX=1 go test ./hwstudy -run TestCIMatrixTiming -v -timeout 60m
//
// It fails when a design has no register-to-register path or the estimator
// rejects a cell, not on a low Fmax (the figures are reported, not gated).
func TestCIMatrixTiming(t *testing.T) {
	if os.Getenv("HDLGEN_TIMING_MATRIX") == "" {
		t.Skip("set HDLGEN_TIMING_MATRIX=1 (several CPU-minutes of Yosys)")
	}
	hwtest.Require(t, hwtest.Yosys)
	root := t.TempDir()
	minF, minName := 0.0, ""
	for _, s := range ciMatrix {
		if s.P == 0 {
			s.P = s.N
		}
		m := RandomModel(s, 1)
		dir := filepath.Join(root, s.Name())
		syn, err := emitAndSynth(context.Background(), job{m: m, opts: plan.Options{Parallel: s.P, AdderLevelsPerStage: s.AdderLevels}, dir: dir}, synth.Options{})
		if err != nil {
			t.Fatal(err)
		}
		r, err := timing.ForDir(dir, syn.Yosys, &timing.Zynq7Minus1)
		if err != nil {
			t.Fatal(err)
		}
		if r.PeriodNS == 0 {
			t.Errorf("%s: no register-to-register path", s.Name())
			continue
		}
		t.Logf("%-45s LC %6d  Fmax %6.1f MHz  %5.2f ns  %2d levels  %s", s.Name(), syn.Yosys.EstimatedLCs,
			r.FmaxMHz, r.PeriodNS, r.Levels, r.PathShort())
		if minName == "" || r.FmaxMHz < minF {
			minF, minName = r.FmaxMHz, s.Name()
		}
	}
	t.Logf("minimum Fmax, estimated by hdlgen's static timing model (docs/timing.md): %.1f MHz (%s)", minF, minName)
}
