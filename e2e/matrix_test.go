package e2e

import (
	"path/filepath"
	"testing"

	"github.com/hdlgen/hdlgen/internal/hwtest"
	"github.com/hdlgen/hdlgen/model"
	"github.com/hdlgen/hdlgen/verify"
)

// matrix covers every value the project promises, each design verified with both
// simulators and both tops (stream and AXI4-Stream), 1,000 vectors (Icarus: a
// prefix with every corner vector, see matrixVectors), random back-pressure
// (out_ready 1 with probability 0.7) and random gaps:
// N ∈ {1, 7, 64, 513}, K ∈ {1, 3, 16, 65}, L ∈ {2, 3, 10}, κ ∈ {1, 15},
// bits ∈ {2, 5, 8}, P ∈ {1, 3, N} (P = 3 does not divide N = 7, 64 or 513), both
// networks; plus the paper's median network (K=16, N=512, L=4, κ=3, 5 bits) at P=8.
// The fully parallel designs with K = 16 have N = 130 (intRVFL: 130 lanes, an
// 8-level readout tree) and N = 16 (rvfl8: 256 multipliers): at N = 513 and
// N = 64 they were a third of the test's CPU (Verilator's C++ of 8,208 sign-flip
// inputs and of 1,024 multipliers, docs/testing.md), while N = 513 keeps its
// P = 1 and P = 3 rows and the wide level and score widths they bring.
var matrix = []shape{
	{arch: model.IntRVFL, k: 1, n: 1, l: 2, kappa: 1, bits: 2, p: 1},
	{arch: model.IntRVFL, k: 3, n: 7, l: 3, kappa: 15, bits: 5, p: 3},
	{arch: model.IntRVFL, k: 65, n: 7, l: 10, kappa: 1, bits: 8, p: 0},
	{arch: model.IntRVFL, k: 16, n: 64, l: 10, kappa: 15, bits: 2, p: 3},
	{arch: model.IntRVFL, k: 65, n: 64, l: 2, kappa: 1, bits: 5, p: 1},
	{arch: model.IntRVFL, k: 3, n: 513, l: 3, kappa: 1, bits: 8, p: 3},
	{arch: model.IntRVFL, k: 16, n: 130, l: 2, kappa: 15, bits: 5, p: 0},
	{arch: model.IntRVFL, k: 1, n: 513, l: 10, kappa: 1, bits: 2, p: 1},
	{arch: model.IntRVFL, k: 16, n: 512, l: 4, kappa: 3, bits: 5, p: 8},
	{arch: model.RVFL8, k: 1, n: 1, l: 2, p: 1},
	{arch: model.RVFL8, k: 3, n: 7, l: 10, p: 3},
	{arch: model.RVFL8, k: 16, n: 16, l: 3, p: 0},
	{arch: model.RVFL8, k: 65, n: 64, l: 2, p: 1},
	{arch: model.RVFL8, k: 3, n: 513, l: 2, p: 3},
}

func TestVerificationMatrix(t *testing.T) {
	hwtest.Require(t, hwtest.Verilator, hwtest.Icarus)
	root := t.TempDir()
	for _, s := range matrix {
		t.Run(s.String(), func(t *testing.T) {
			t.Parallel()
			m := trainShape(t, s)
			rep, icarusN := emitAndVerify(t, m, s.p, filepath.Join(root, s.String()), verify.Options{})
			if !rep.Passed() {
				t.Fatalf("verification failed:\n%s", text(rep))
			}
			t.Logf("Icarus checked %d vectors", icarusN)
			checkStepCounts(t, rep, icarusN)
		})
	}
}
