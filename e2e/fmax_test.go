package e2e

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/hdlgen/hdlgen/internal/hwtest"
	"github.com/hdlgen/hdlgen/model"
	"github.com/hdlgen/hdlgen/rtl"
	"github.com/hdlgen/hdlgen/rtl/plan"
	"github.com/hdlgen/hdlgen/synth"
	"github.com/hdlgen/hdlgen/timing"
)

// minFmaxMHz is issue 14's timing target: every design of the verification
// matrix at an estimated Fmax (docs/timing.md) of at least 110 MHz.
const minFmaxMHz = 110

// fmaxSample is the part of the matrix TestMatrixFmax synthesises by default
// (a few minutes of Yosys; docs/timing.md gives the time): the slowest small
// intRVFL of the matrix, the median shape at P = 8, a small rvfl8 (122, 124
// and 140 MHz, docs/timing.md) and fmaxWide, which the default rule's wide
// case (P ≥ 16) covers. HDLGEN_FMAX_ALL=1 runs the whole
// matrix and fmaxWide, HDLGEN_FMAX_ONLY=name,name… the designs named.
var fmaxSample = []string{
	"intrvfl_K16_N64_L10_k15_b2_P3",
	"intrvfl_K16_N512_L4_k3_b5_P8",
	"rvfl8_K3_N7_L10_P3",
	"intrvfl_K16_N512_L4_k3_b5_P16",
}

// fmaxWide is the median intRVFL at P = 16 (not in the verification matrix,
// whose wide designs take tens of minutes of Yosys).
var fmaxWide = []shape{{arch: model.IntRVFL, k: 16, n: 512, l: 4, kappa: 3, bits: 5, p: 16}}

// TestMatrixFmax synthesises designs of the verification matrix with Yosys and
// checks the estimated Fmax against the 110 MHz target: the full tier's only
// (the standard tier checks that synth and power report the estimate,
// internal/cli's TestSynthAndPowerShowFmax). With HDLGEN_FMAX_DIR set it
// keeps the emitted directories there (for hdlgen synth DIR).
func TestMatrixFmax(t *testing.T) {
	hwtest.Require(t, hwtest.Yosys, hwtest.Full)
	all := os.Getenv("HDLGEN_FMAX_ALL") != ""
	sample := fmaxSample
	if only := os.Getenv("HDLGEN_FMAX_ONLY"); only != "" {
		sample = strings.Split(only, ",")
	}
	root := os.Getenv("HDLGEN_FMAX_DIR")
	if root == "" {
		root = t.TempDir()
	}
	for _, s := range append(matrixShapes(), fmaxWide...) {
		name := s.String()
		if !all && !slices.Contains(sample, name) {
			continue
		}
		t.Run(name, func(t *testing.T) {
			m := trainShape(t, s)
			p := s.p
			if p == 0 {
				p = m.N()
			}
			dir := filepath.Join(root, name)
			rep, err := rtl.Emit(context.Background(), m, rtl.Options{Options: plan.Options{Parallel: p}, Vectors: 4, Seed: 3, Force: true}, dir)
			if err != nil {
				t.Fatalf("emit: %v", err)
			}
			sr, err := synth.Run(context.Background(), dir, synth.Options{})
			if err != nil {
				t.Fatalf("synth: %v", err)
			}
			tr, err := timing.ForDir(dir, sr, &timing.Zynq7Minus1)
			if err != nil {
				t.Fatalf("timing: %v", err)
			}
			t.Logf("FMAX %s latency %d: %.1f MHz (%.2f ns, %d levels, end %s)", name, rep.Plan.Latency, tr.FmaxMHz, tr.PeriodNS, tr.Levels, tr.End)
			if tr.FmaxMHz < minFmaxMHz {
				var b strings.Builder
				_ = tr.WriteText(&b, minFmaxMHz)
				t.Errorf("estimated Fmax %.1f MHz < %d MHz:\n%s", tr.FmaxMHz, minFmaxMHz, b.String())
			}
		})
	}
}
