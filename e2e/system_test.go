package e2e

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/hdlgen/hdlgen/model"
	"github.com/hdlgen/hdlgen/rtl"
	"github.com/hdlgen/hdlgen/verify"
)

// systemMatrix are the Zynq system tops verified in Verilator and Icarus against
// rtl/sim (docs/system-interface.md): the median network at P=8 with a
// reloadable readout; P not dividing N with one beat per vector (B=1) and a
// reloadable readout; an rvfl8 with odd K = 65 (22 beats per vector), P not
// dividing N, records without scores. Each run carries malformed vectors, stray
// beats, register reads while streaming, a free-running batch, the bank swaps
// and a readout reload (reloadable designs), with random back-pressure on both
// streams.
var systemMatrix = []struct {
	s          shape
	reloadable bool
	noScores   bool
}{
	{shape{arch: model.IntRVFL, k: 16, n: 512, l: 4, kappa: 3, bits: 5, p: 8}, true, false},
	{shape{arch: model.IntRVFL, k: 3, n: 7, l: 3, kappa: 15, bits: 5, p: 3}, true, false},
	{shape{arch: model.RVFL8, k: 65, n: 13, l: 10, p: 4}, false, true},
}

// systemVectors is the number of vectors of each system run.
const systemVectors = 400

func TestSystemMatrix(t *testing.T) {
	needTools(t)
	if testing.Short() {
		t.Skip("the system matrix takes minutes")
	}
	root := t.TempDir()
	for _, tc := range systemMatrix {
		t.Run(tc.s.String(), func(t *testing.T) {
			t.Parallel()
			m := trainShape(t, tc.s)
			dir := filepath.Join(root, tc.s.String())
			o := rtl.Options{Parallel: tc.s.p, Vectors: systemVectors, Seed: 5, System: rtl.SystemZynq,
				ReloadableReadout: tc.reloadable, SystemNoScores: tc.noScores}
			if _, err := rtl.Emit(context.Background(), m, o, dir); err != nil {
				t.Fatalf("emit: %v", err)
			}
			rep, err := verify.Run(context.Background(), dir, verify.Options{Targets: []string{"system"}})
			if err != nil {
				t.Fatalf("verify: %v", err)
			}
			if !rep.Passed() {
				t.Fatalf("verification failed:\n%s", text(rep))
			}
			steps := map[verify.Step]bool{}
			for _, r := range rep.Steps {
				steps[r.Step] = true
				if r.Step != verify.StepLint && r.Vectors == 0 {
					t.Errorf("%s/%s classified no vectors", r.Step, r.Target)
				}
			}
			want := map[verify.Step]bool{verify.StepModel: true, verify.StepLint: true, verify.StepVerilator: true, verify.StepIcarus: true}
			if diff := cmp.Diff(want, steps); diff != "" {
				t.Errorf("steps (-want +got):\n%s", diff)
			}
		})
	}
}
