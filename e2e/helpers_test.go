package e2e

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/hdlgen/hdlgen/model"
	"github.com/hdlgen/hdlgen/rtl"
	"github.com/hdlgen/hdlgen/rtl/plan"
	"github.com/hdlgen/hdlgen/synth"
	"github.com/hdlgen/hdlgen/verify"
)

// verified is what emitVerified returns: the emit's and the verification's
// reports.
type verified struct {
	emit   *rtl.Report
	verify *verify.Report
}

// emitVerified emits m with opt into dir and verifies it on both simulators
// and every emitted top, at gate level on both simulators too when
// gateLevel; it fails the test on any error or mismatch.
func emitVerified(t *testing.T, m *model.Model, opt rtl.Options, dir string, gateLevel bool) verified {
	t.Helper()
	rep, err := rtl.Emit(context.Background(), m, opt, dir)
	if err != nil {
		t.Fatalf("emit: %v", err)
	}
	steps := append([]verify.Step(nil), verify.AllSteps...)
	if gateLevel {
		steps = append(steps, verify.StepGateVerilator, verify.StepGateIcarus)
	}
	vrep, err := verify.Run(context.Background(), dir, verify.Options{Steps: steps, ICE40Vectors: optionICE40Vectors})
	if err != nil {
		t.Fatalf("verify: %v", err)
	}
	if !vrep.Passed() {
		t.Fatalf("verification failed:\n%s", text(vrep))
	}
	return verified{emit: rep, verify: vrep}
}

// synthVariant synthesises the design in dir (or takes the report the
// gate-level steps left) and emits m with opt (another variant of the same
// design) into variantDir and synthesises it.
func synthVariant(t *testing.T, dir string, m *model.Model, opt rtl.Options, variantDir string) (here, variant *synth.Report, variantRep *rtl.Report) {
	t.Helper()
	here, err := synth.Run(context.Background(), dir, synth.Options{})
	if err != nil {
		t.Fatalf("synth: %v", err)
	}
	variantRep, err = rtl.Emit(context.Background(), m, opt, variantDir)
	if err != nil {
		t.Fatalf("emit the variant: %v", err)
	}
	variant, err = synth.Run(context.Background(), variantDir, synth.Options{})
	if err != nil {
		t.Fatalf("synth the variant: %v", err)
	}
	return here, variant, variantRep
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
	win            model.WinGen
	sel            int // conj: units chosen among sel candidates each (model.Config.Select; 0: drawn)
}

func (s shape) String() string {
	p := fmt.Sprint(s.p)
	if s.p == 0 {
		p = "N"
	}
	switch s.arch {
	case model.RVFL8:
		return fmt.Sprintf("rvfl8_K%d_N%d_L%d_P%s", s.k, s.n, s.l, p)
	case model.Conj:
		name := fmt.Sprintf("conj_K%d_N%d_L%d_D%d_P%s", s.k, s.n, s.l, s.kappa, p)
		if s.sel > 1 {
			name += fmt.Sprintf("_sel%d", s.sel)
		}
		return name
	case model.IntConj:
		return fmt.Sprintf("intconj_K%d_N%d_L%d_k%d_P%s", s.k, s.n, s.l, s.kappa, p)
	}
	name := fmt.Sprintf("%s_K%d_N%d_L%d_k%d_b%d_P%s", s.arch, s.k, s.n, s.l, s.kappa, s.bits, p)
	if s.win != model.WinStored {
		name += "_" + s.win.Flag()
	}
	return name
}

// trainShape trains a model of the shape on synthetic data.
func trainShape(t *testing.T, s shape) *model.Model {
	t.Helper()
	d := blobs(max(200, 4*s.l), s.k, s.l, uint64(s.k*131+s.n*7+s.l))
	cfg := model.Config{Arch: s.arch, N: s.n, Kappa: s.kappa, Lambda: 1, Seed: uint64(s.n), Win: s.win, Select: s.sel}
	if t, _ := model.TraitsOf(s.arch); t.ReadoutBits() {
		cfg.ReadoutBits = s.bits
	}
	m, err := model.Train(context.Background(), d, cfg)
	if err != nil {
		t.Fatalf("%s: train: %v", s, err)
	}
	m.Name = s.String()
	return m
}

// Test vectors of the matrix. Lint, the model step and Verilator check every
// design on matrixVectors vectors (both tops). Icarus, the second and
// independent simulator, is up to a few hundred times slower per cycle (its
// always @* loops over K features and P lanes are interpreted: about 120
// cycles/s for K=16, P=N=513, against 26,000 for K=1, P=1), and what it is
// for — a second reading of the Verilog's semantics — shows on any vector.
// So every design is emitted a second time, from the same model and seed,
// with fewer vectors for Icarus: every corner vector (all levels 0, all
// maximal, alternating, each one-hot feature), icarusRandom random ones, and
// more when needed for icarusMinCycles cycles of the stream run (the 257-cycle
// ready pattern twice, with random gaps). It checks both tops; what it gives
// up is repetitions of random vectors the primary simulator already checks.
const (
	matrixVectors   = 1000
	icarusRandom    = 100
	icarusMinCycles = 600
)

// emitAndVerify emits m with both tops and returns the verification report
// and the number of vectors Icarus checked.
func emitAndVerify(t *testing.T, m *model.Model, p int, dir string, vopt verify.Options) (*verify.Report, int) {
	t.Helper()
	if p == 0 {
		p = m.N()
	}
	opt := rtl.Options{Options: plan.Options{Parallel: p}, Axis: true, Vectors: matrixVectors, Seed: 3}
	emitted, err := rtl.Emit(context.Background(), m, opt, dir)
	if err != nil {
		t.Fatalf("emit: %v", err)
	}
	steps := vopt.Steps
	if len(steps) == 0 {
		steps = verify.AllSteps
	}
	icarus := slices.Contains(steps, verify.StepIcarus)
	if !icarus || icarusVectors(m.K(), emitted.StreamCycles) == matrixVectors {
		rep, err := verify.Run(context.Background(), dir, vopt)
		if err != nil {
			t.Fatalf("verify: %v", err)
		}
		return rep, matrixVectors
	}
	first := vopt
	first.Steps = slices.DeleteFunc(slices.Clone(steps), func(s verify.Step) bool { return s == verify.StepIcarus })
	rep, err := verify.Run(context.Background(), dir, first)
	if err != nil {
		t.Fatalf("verify: %v", err)
	}
	opt.Vectors = icarusVectors(m.K(), emitted.StreamCycles)
	if _, err := rtl.Emit(context.Background(), m, opt, dir+"-icarus"); err != nil {
		t.Fatalf("emit for Icarus: %v", err)
	}
	second := vopt
	second.Steps = []verify.Step{verify.StepIcarus}
	rep2, err := verify.Run(context.Background(), dir+"-icarus", second)
	if err != nil {
		t.Fatalf("verify: %v", err)
	}
	rep.Steps = append(rep.Steps, rep2.Steps...)
	return rep, opt.Vectors
}

// icarusVectors is the vector count emitAndVerify gives Icarus for a design
// with k features whose stream run of matrixVectors vectors lasts
// streamCycles cycles.
func icarusVectors(k, streamCycles int) int {
	n := 4 + min(k, rtl.MaxCornerOneHot) + icarusRandom
	n = max(n, (icarusMinCycles*matrixVectors+streamCycles-1)/streamCycles)
	return min(n, matrixVectors)
}

// checkStepCounts checks a verification report of the matrix kind: lint,
// Verilator and Icarus each ran on the stream and the AXI4-Stream top, the
// simulators on matrixVectors vectors (Icarus on icarusN).
func checkStepCounts(t *testing.T, rep *verify.Report, icarusN int) {
	t.Helper()
	steps := map[verify.Step]int{}
	for _, r := range rep.Steps {
		steps[r.Step]++
		want := matrixVectors
		if r.Step == verify.StepIcarus {
			want = icarusN
		}
		if r.Step != verify.StepLint && r.Vectors != want {
			t.Errorf("%s/%s ran %d vectors, want %d", r.Step, r.Target, r.Vectors, want)
		}
	}
	for _, st := range []verify.Step{verify.StepLint, verify.StepVerilator, verify.StepIcarus} {
		if steps[st] != 2 {
			t.Errorf("%s ran on %d tops, want 2", st, steps[st])
		}
	}
}
