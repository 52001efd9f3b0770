package verify_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hdlgen/hdlgen/internal/hwtest"
	"github.com/hdlgen/hdlgen/internal/randmodel"
	"github.com/hdlgen/hdlgen/model"
	"github.com/hdlgen/hdlgen/rtl"
	"github.com/hdlgen/hdlgen/rtl/plan"
	"github.com/hdlgen/hdlgen/verify"
)

// gateVectors keeps the gate-level runs short: Icarus simulates the netlist
// of the median intRVFL at about 175 cycles per second of CPU (24 vectors,
// 12,300 cycles: 70 s), the rvfl8's more slowly still; Verilator's cost is its
// build (about 25 s of CPU per median design), the run takes under a second.
const gateVectors = 8

// TestGateLevel runs the stream testbench against the Yosys netlist of both
// median designs (K = 16, N = 512, L = 4 at P = 1: intRVFL with κ = 3 and a
// 5-bit readout, and the 8-bit RVFL with its DSP48E1s and block-RAM ROMs) on
// Verilator, and the intRVFL's on Icarus too (Icarus is too slow on the
// rvfl8 netlist for CI), both in the full tier only; the standard tier runs a
// small intRVFL (K = 4, N = 12) instead. 0 mismatches. Then it corrupts one expected output:
// the same Verilator model must now report a mismatch, so the comparison is
// live.
func TestGateLevel(t *testing.T) {
	hwtest.Require(t, hwtest.Yosys, hwtest.Verilator, hwtest.Icarus, hwtest.Awk)
	cases := []struct {
		name  string
		shape randmodel.Shape
		steps []verify.Step
		full  bool // the full tier's only (hwtest.Full)
	}{
		{"intrvfl_small", randmodel.Shape{Arch: model.IntRVFL, K: 4, N: 12, L: 3, Kappa: 3, Bits: 5}, []verify.Step{verify.StepGateVerilator, verify.StepGateIcarus}, false},
		{"intrvfl", randmodel.Shape{Arch: model.IntRVFL, K: 16, N: 512, L: 4, Kappa: 3, Bits: 5}, []verify.Step{verify.StepGateVerilator, verify.StepGateIcarus}, true},
		{"rvfl8", randmodel.Shape{Arch: model.RVFL8, K: 16, N: 512, L: 4}, []verify.Step{verify.StepGateVerilator}, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if c.full {
				hwtest.Require(t, hwtest.Full)
			}
			t.Parallel()
			m := randmodel.Random(c.shape, "gate_"+c.name, 5)
			dir := filepath.Join(t.TempDir(), "hw")
			if _, err := rtl.Emit(context.Background(), m, rtl.Options{Options: plan.Options{Parallel: 1}, Vectors: gateVectors, Seed: 2}, dir); err != nil {
				t.Fatal(err)
			}
			opt := verify.Options{Steps: c.steps, KeepBuild: true}
			rep, err := verify.Run(context.Background(), dir, opt)
			if err != nil {
				t.Fatal(err)
			}
			for _, s := range rep.Steps {
				if !s.Passed || s.Vectors != gateVectors {
					t.Errorf("%s: passed %v, %d vectors; want a pass on %d:\n%s", s.Name, s.Passed, s.Vectors, gateVectors, s.Line())
				}
			}
			// Corrupt the last expected output word: the gate-level run must
			// now report a mismatch.
			exp := filepath.Join(dir, "vectors", "tv_exp.mem")
			b, err := os.ReadFile(exp)
			if err != nil {
				t.Fatal(err)
			}
			lines := strings.Split(strings.TrimRight(string(b), "\n"), "\n")
			last := []byte(lines[len(lines)-1])
			if last[len(last)-1] == '0' {
				last[len(last)-1] = '1'
			} else {
				last[len(last)-1] = '0'
			}
			lines[len(lines)-1] = string(last)
			if err := os.WriteFile(exp, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			opt.Steps = []verify.Step{verify.StepGateVerilator} // the model built above
			rep, err = verify.Run(context.Background(), dir, opt)
			if err != nil {
				t.Fatal(err)
			}
			if rep.Passed() || len(rep.Steps) != 1 || len(rep.Steps[0].Mismatches) == 0 {
				t.Errorf("corrupted expected output: %s, want a mismatch", rep.Steps[0].Line())
			}
		})
	}
}
