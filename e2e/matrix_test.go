package e2e

import (
	"fmt"
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
//
// The standard tier (make test) verifies the rows marked standard, which
// still take every value above but K = 65 with N = 64, the median network and
// the fully parallel K = 16 designs, and each corner the project names: a
// tiny N (1), odd K (3, 65), L = 2, κ at both ends (1 and 15), P that does
// not divide N (3), P = N, both networks (TestStandardMatrixRows); the full
// tier (make test-full) verifies every row.
var matrix = []matrixRow{
	{shape{arch: model.IntRVFL, k: 1, n: 1, l: 2, kappa: 1, bits: 2, p: 1}, true},
	{shape{arch: model.IntRVFL, k: 3, n: 7, l: 3, kappa: 15, bits: 5, p: 3}, true},
	{shape{arch: model.IntRVFL, k: 65, n: 7, l: 10, kappa: 1, bits: 8, p: 0}, true},
	{shape{arch: model.IntRVFL, k: 16, n: 64, l: 10, kappa: 15, bits: 2, p: 3}, true},
	{shape{arch: model.IntRVFL, k: 65, n: 64, l: 2, kappa: 1, bits: 5, p: 1}, false},
	{shape{arch: model.IntRVFL, k: 3, n: 513, l: 3, kappa: 1, bits: 8, p: 3}, true},
	{shape{arch: model.IntRVFL, k: 16, n: 130, l: 2, kappa: 15, bits: 5, p: 0}, false},
	{shape{arch: model.IntRVFL, k: 1, n: 513, l: 10, kappa: 1, bits: 2, p: 1}, false},
	{shape{arch: model.IntRVFL, k: 16, n: 512, l: 4, kappa: 3, bits: 5, p: 8}, false},
	{shape{arch: model.RVFL8, k: 1, n: 1, l: 2, p: 1}, true},
	{shape{arch: model.RVFL8, k: 3, n: 7, l: 10, p: 3}, true},
	{shape{arch: model.RVFL8, k: 16, n: 16, l: 3, p: 0}, false},
	{shape{arch: model.RVFL8, k: 65, n: 64, l: 2, p: 1}, false},
	{shape{arch: model.RVFL8, k: 3, n: 513, l: 2, p: 3}, false},
}

// matrixRow is a design of the verification matrix and whether the standard
// tier verifies it.
type matrixRow struct {
	shape
	standard bool
}

// TestStandardMatrixRows checks what the standard tier's rows of the
// verification matrix keep: each value of N, K, L, κ, bits and the network,
// and the P = 3 ∤ N and P = N corners.
func TestStandardMatrixRows(t *testing.T) {
	seen := map[string]bool{}
	for _, r := range matrix {
		if !r.standard {
			continue
		}
		s := r.shape
		for _, v := range []string{fmt.Sprint("N", s.n), fmt.Sprint("K", s.k), fmt.Sprint("L", s.l), string(s.arch)} {
			seen[v] = true
		}
		if s.arch != model.RVFL8 {
			seen[fmt.Sprint("kappa", s.kappa)], seen[fmt.Sprint("bits", s.bits)] = true, true
		}
		switch {
		case s.p == 0:
			seen["P=N"] = true
		case s.n%s.p != 0:
			seen["P∤N"] = true
		}
	}
	want := []string{"N1", "N7", "N64", "N513", "K1", "K3", "K16", "K65", "L2", "L3", "L10", "kappa1", "kappa15",
		"bits2", "bits5", "bits8", "P=N", "P∤N", string(model.IntRVFL), string(model.RVFL8)}
	for _, v := range want {
		if !seen[v] {
			t.Errorf("no standard row of the verification matrix has %s", v)
		}
	}
}

func TestVerificationMatrix(t *testing.T) {
	hwtest.Require(t, hwtest.Verilator, hwtest.Icarus)
	root := t.TempDir()
	for _, r := range matrix {
		s := r.shape
		t.Run(s.String(), func(t *testing.T) {
			if !r.standard {
				hwtest.Require(t, hwtest.Full)
			}
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

// matrixShapes are the shapes of every row of the verification matrix.
func matrixShapes() []shape {
	out := make([]shape, len(matrix))
	for i, r := range matrix {
		out[i] = r.shape
	}
	return out
}
