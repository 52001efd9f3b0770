package e2e

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os/exec"
	"testing"

	"github.com/hdlgen/hdlgen/model"
	"github.com/hdlgen/hdlgen/rtl"
	"github.com/hdlgen/hdlgen/verify"
)

// needTools skips when the simulators are missing (CI installs them).
func needTools(t *testing.T) {
	t.Helper()
	for _, tool := range []string{"verilator", "iverilog", "vvp", "make", "g++"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s not installed", tool)
		}
	}
}

// blobs is a learnable synthetic data set: L Gaussian blobs in K dimensions, so
// trained readouts have structure (not all-zero weights).
func blobs(m, k, l int, seed uint64) model.Data {
	rng := rand.New(rand.NewPCG(seed, 7))
	centres := make([]float64, l*k)
	for i := range centres {
		centres[i] = rng.NormFloat64() * 2
	}
	d := model.Data{Name: "blobs", X: make([]float64, m*k), Y: make([]int, m)}
	for c := 0; c < l; c++ {
		d.ClassNames = append(d.ClassNames, fmt.Sprintf("c%d", c))
	}
	for r := 0; r < m; r++ {
		y := r % l
		d.Y[r] = y
		for i := 0; i < k; i++ {
			d.X[r*k+i] = centres[y*k+i] + rng.NormFloat64()
		}
	}
	return d
}

// shape is one design of the verification matrix.
type shape struct {
	arch           model.Arch
	k, n, l, kappa int
	bits           int // intrvfl readout bits
	p              int // 0 means P = N
}

func (s shape) String() string {
	p := fmt.Sprint(s.p)
	if s.p == 0 {
		p = "N"
	}
	if s.arch == model.RVFL8 {
		return fmt.Sprintf("rvfl8_K%d_N%d_L%d_P%s", s.k, s.n, s.l, p)
	}
	return fmt.Sprintf("intrvfl_K%d_N%d_L%d_k%d_b%d_P%s", s.k, s.n, s.l, s.kappa, s.bits, p)
}

// trainShape trains a model of the shape on synthetic data.
func trainShape(t *testing.T, s shape) *model.Model {
	t.Helper()
	d := blobs(max(200, 4*s.l), s.k, s.l, uint64(s.k*131+s.n*7+s.l))
	cfg := model.Config{Arch: s.arch, N: s.n, Kappa: s.kappa, Lambda: 1, Seed: uint64(s.n)}
	if s.arch == model.IntRVFL {
		cfg.ReadoutBits = s.bits
	}
	m, err := model.Train(context.Background(), d, cfg)
	if err != nil {
		t.Fatalf("%s: train: %v", s, err)
	}
	m.Name = s.String()
	return m
}

// emitAndVerify emits m with both tops and returns the verification report.
func emitAndVerify(t *testing.T, m *model.Model, p int, dir string, vopt verify.Options) *verify.Report {
	t.Helper()
	if p == 0 {
		p = m.N()
	}
	if _, err := rtl.Emit(context.Background(), m, rtl.Options{Parallel: p, Axis: true, Vectors: 1000, Seed: 3}, dir); err != nil {
		t.Fatalf("emit: %v", err)
	}
	rep, err := verify.Run(context.Background(), dir, vopt)
	if err != nil {
		t.Fatalf("verify: %v", err)
	}
	return rep
}
