package e2e

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/hdlgen/hdlgen/model"
	"github.com/hdlgen/hdlgen/rtl"
	"github.com/hdlgen/hdlgen/rtl/plan"
	"github.com/hdlgen/hdlgen/verify"
)

// generatorMatrix are intRVFL designs whose W_in comes from the on-chip
// PRBS31 generator (hdlgen_win_lfsr, model.WinPRBS31): P = 1; P not dividing
// N; P > 28 (the recurrence's XORs chain); a tiny N; K = 1; odd K; κ = 1 and
// κ ≥ K; the median network at P = 8. Each is verified like the matrix: lint,
// the model step, Verilator and Icarus on both tops (stream and AXI4-Stream).
var generatorMatrix = []shape{
	{arch: model.IntRVFL, k: 16, n: 64, l: 3, kappa: 3, bits: 5, p: 1, win: model.WinPRBS31},
	{arch: model.IntRVFL, k: 5, n: 50, l: 3, kappa: 1, bits: 5, p: 3, win: model.WinPRBS31},
	{arch: model.IntRVFL, k: 16, n: 97, l: 4, kappa: 3, bits: 5, p: 40, win: model.WinPRBS31},
	{arch: model.IntRVFL, k: 2, n: 3, l: 2, kappa: 1, bits: 2, p: 2, win: model.WinPRBS31},
	{arch: model.IntRVFL, k: 1, n: 20, l: 2, kappa: 1, bits: 3, p: 4, win: model.WinPRBS31},
	{arch: model.IntRVFL, k: 7, n: 33, l: 10, kappa: 15, bits: 8, p: 0, win: model.WinPRBS31},
	{arch: model.IntRVFL, k: 16, n: 512, l: 4, kappa: 3, bits: 5, p: 8, win: model.WinPRBS31},
}

func TestGeneratorMatrix(t *testing.T) {
	needTools(t)
	if testing.Short() {
		t.Skip("the generator matrix takes minutes")
	}
	root := t.TempDir()
	for _, s := range generatorMatrix {
		t.Run(s.String(), func(t *testing.T) {
			m := trainShape(t, s)
			dir := filepath.Join(root, s.String())
			rep, icarusN := emitAndVerify(t, m, s.p, dir, verify.Options{})
			if !rep.Passed() {
				t.Fatalf("verification failed:\n%s", text(rep))
			}
			checkStepCounts(t, rep, icarusN)
			// No W_in ROM: neither a .mem file nor a ROM in the plan.
			pl, err := plan.New(m, plan.Options{Parallel: max(s.p, 1)})
			if s.p == 0 {
				pl, err = plan.New(m, plan.Options{Parallel: s.n})
			}
			if err != nil {
				t.Fatal(err)
			}
			if pl.HasROM(plan.ROMWin) {
				t.Errorf("the plan has a W_in ROM")
			}
			if _, err := os.Stat(filepath.Join(dir, pl.MemFile(plan.ROMWin))); !os.IsNotExist(err) {
				t.Errorf("%s: %v, want no such file", pl.MemFile(plan.ROMWin), err)
			}
		})
	}
}

// TestGeneratorFaultCaught shows that verification of a generator design can
// fail: with the seed window of the emitted core changed (x_0 flipped), both
// simulators report score mismatches.
func TestGeneratorFaultCaught(t *testing.T) {
	needTools(t)
	s := shape{arch: model.IntRVFL, k: 16, n: 64, l: 4, kappa: 3, bits: 5, p: 4, win: model.WinPRBS31}
	m := trainShape(t, s)
	dir := filepath.Join(t.TempDir(), "design")
	opt := verify.Options{Targets: []string{"stream"}, KeepBuild: true}
	rep, _ := emitAndVerify(t, m, s.p, dir, opt)
	if !rep.Passed() {
		t.Fatalf("the correct design fails:\n%s", text(rep))
	}
	pl, err := plan.New(m, plan.Options{Parallel: s.p})
	if err != nil {
		t.Fatal(err)
	}
	core := filepath.Join(dir, "rtl", pl.Prefix+"_core.v")
	orig, err := os.ReadFile(core)
	if err != nil {
		t.Fatal(err)
	}
	re := regexp.MustCompile(`(WIN_SEED\s*=\s*\d+'h)([0-9a-f]+);`)
	loc := re.FindSubmatchIndex(orig)
	if loc == nil {
		t.Fatalf("no WIN_SEED literal in %s", core)
	}
	// Flip x_0, the least significant bit of the last hex digit.
	mutated := []byte(string(orig))
	last := loc[5] - 1
	d := strings.IndexByte("0123456789abcdef", mutated[last])
	mutated[last] = "0123456789abcdef"[d^1]
	if err := os.WriteFile(core, mutated, 0o644); err != nil {
		t.Fatal(err)
	}
	rep, err = verify.Run(context.Background(), dir, verify.Options{Targets: []string{"stream"}, KeepBuild: true,
		Steps: []verify.Step{verify.StepVerilator, verify.StepIcarus}})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rep.Steps {
		if r.Passed {
			t.Errorf("%s/%s passed with a wrong seed window", r.Step, r.Target)
			continue
		}
		found := false
		for _, mm := range r.Mismatches {
			if strings.HasPrefix(mm, "MISMATCH vector=") && strings.Contains(mm, "field=score") {
				found = true
			}
		}
		if !found {
			t.Errorf("%s/%s: no score MISMATCH line: %q", r.Step, r.Target, r.Mismatches)
		}
	}
}

// TestGeneratorSystem verifies a generator design inside the Zynq system top
// with a reloadable readout (the readout RAM then no longer uses the group
// count, and neither does the generator): lint, the model step, Verilator
// and Icarus on the stream and system tops, with the system run's bank
// swaps and readout reload.
func TestGeneratorSystem(t *testing.T) {
	needTools(t)
	if testing.Short() {
		t.Skip("a system design takes a minute")
	}
	s := shape{arch: model.IntRVFL, k: 5, n: 50, l: 3, kappa: 3, bits: 5, p: 3, win: model.WinPRBS31}
	m := trainShape(t, s)
	dir := filepath.Join(t.TempDir(), s.String())
	o := rtl.Options{Parallel: s.p, Vectors: 200, Seed: 5, System: rtl.SystemZynq, ReloadableReadout: true}
	if _, err := rtl.Emit(context.Background(), m, o, dir); err != nil {
		t.Fatalf("emit: %v", err)
	}
	rep, err := verify.Run(context.Background(), dir, verify.Options{})
	if err != nil {
		t.Fatalf("verify: %v", err)
	}
	if !rep.Passed() {
		t.Fatalf("verification failed:\n%s", text(rep))
	}
	targets := map[string]int{}
	for _, r := range rep.Steps {
		targets[r.Target]++
	}
	if targets["stream"] != 3 || targets["system"] != 3 {
		t.Errorf("steps per target %v, want lint, Verilator and Icarus on stream and system", targets)
	}
}
