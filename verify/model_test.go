package verify_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/hdlgen/hdlgen/dataset"
	"github.com/hdlgen/hdlgen/examples"
	"github.com/hdlgen/hdlgen/internal/hwtest"
	"github.com/hdlgen/hdlgen/model"
	"github.com/hdlgen/hdlgen/rtl"
	"github.com/hdlgen/hdlgen/rtl/plan"
	"github.com/hdlgen/hdlgen/verify"
)

// emitIris trains a small intRVFL on iris (N hidden neurons, seed) and emits
// it with 60 vectors into a new directory.
func emitIris(t *testing.T, n int, seed uint64) string {
	t.Helper()
	d, err := dataset.LoadCSVFS(examples.FS, examples.Iris, dataset.CSVOptions{})
	if err != nil {
		t.Fatal(err)
	}
	m, err := model.Train(context.Background(), model.Data{Name: d.Name, X: d.X, Y: d.Y, ClassNames: d.ClassNames, FeatureNames: d.FeatureNames},
		model.Config{Arch: model.IntRVFL, N: n, Kappa: 3, Lambda: 4, Regularizer: model.RegIdentity, ReadoutBits: 5, Seed: seed})
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "hw")
	if _, err := rtl.Emit(context.Background(), m, rtl.Options{Options: plan.Options{Parallel: 2}, Vectors: 60, Seed: 1}, dir); err != nil {
		t.Fatal(err)
	}
	return dir
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestModelStep: the model step passes on an emitted design and fails when
// DIR/model.json, design.json or the expected outputs come from another model
// (issue 10, item 11: a different model copied in used to pass).
func TestModelStep(t *testing.T) {
	base := emitIris(t, 20, 1)
	otherSeed := emitIris(t, 20, 2) // same shape, other weights
	otherN := emitIris(t, 24, 1)    // other shape
	tests := []struct {
		name   string
		break_ func(t *testing.T, dir string)
		want   string // "" means pass; else a substring of the first mismatch or diagnostic
	}{
		{"as emitted", func(*testing.T, string) {}, ""},
		{"model.json of another seed", func(t *testing.T, dir string) {
			copyFile(t, filepath.Join(otherSeed, "model.json"), filepath.Join(dir, "model.json"))
		}, "model.json was changed after the emit"},
		{"model.json of another N", func(t *testing.T, dir string) {
			copyFile(t, filepath.Join(otherN, "model.json"), filepath.Join(dir, "model.json"))
		}, "design.json was not emitted from model.json"},
		{"expected outputs of another model", func(t *testing.T, dir string) {
			copyFile(t, filepath.Join(otherSeed, "vectors", "tv_exp.mem"), filepath.Join(dir, "vectors", "tv_exp.mem"))
		}, "MISMATCH vector="},
		{"model.json removed", func(t *testing.T, dir string) {
			if err := os.Remove(filepath.Join(dir, "model.json")); err != nil {
				t.Fatal(err)
			}
		}, "model.json"},
		// Issue 26, item 14: the model step did not look at mem/.
		{"the readout ROM deleted", func(t *testing.T, dir string) {
			if err := os.Remove(filepath.Join(dir, "mem", "iris_wout.mem")); err != nil {
				t.Fatal(err)
			}
		}, "mem/iris_wout.mem is missing"},
		{"the W_in ROM of another seed", func(t *testing.T, dir string) {
			copyFile(t, filepath.Join(otherSeed, "mem", "iris_win.mem"), filepath.Join(dir, "mem", "iris_win.mem"))
		}, "ROM mem/iris_win.mem differs from model.json's contents"},
		{"truncated tv_exp.mem", func(t *testing.T, dir string) {
			p := filepath.Join(dir, "vectors", "tv_exp.mem")
			b, _ := os.ReadFile(p)
			if err := os.WriteFile(p, b[:len(b)/2], 0o644); err != nil {
				t.Fatal(err)
			}
		}, "tv_exp.mem"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "hw")
			if err := os.CopyFS(dir, os.DirFS(base)); err != nil {
				t.Fatal(err)
			}
			tc.break_(t, dir)
			rep, err := verify.Run(context.Background(), dir, verify.Options{Steps: []verify.Step{verify.StepModel}})
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff([]string{"model"}, names(rep)); diff != "" {
				t.Fatalf("steps (-want +got):\n%s", diff)
			}
			r := rep.Steps[0]
			if tc.want == "" {
				if !r.Passed || r.Vectors != 60 {
					t.Fatalf("failed on the design as emitted (vectors %d): %v", r.Vectors, rep.Err())
				}
				return
			}
			lines := append(append([]string{}, r.Mismatches...), r.Diagnostics...)
			if r.Passed || len(lines) == 0 || !strings.Contains(lines[0], tc.want) {
				t.Fatalf("passed=%v, lines %q; want a failure whose first line contains %q", r.Passed, lines, tc.want)
			}
			if len(r.Mismatches) > 10 {
				t.Errorf("%d mismatch lines, want at most 10", len(r.Mismatches))
			}
		})
	}
}

// TestModelStepOnlyForEmittedDesigns: a reference design (no emit marker) has
// no model step.
func TestModelStepOnlyForEmittedDesigns(t *testing.T) {
	dir, _ := newDir(t, 4)
	rep, err := verify.Run(context.Background(), dir, verify.Options{Steps: []verify.Step{verify.StepModel}})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Steps) != 0 || rep.Passed() {
		t.Errorf("steps %v, passed %v; want no step and no pass", names(rep), rep.Passed())
	}
}

// TestTruncatedBuildIsNoDesignFailure: a simulator build that a failed tool
// left behind (an empty tb_stream.vvp, as iverilog leaves it on a full disk,
// newer than its sources so make takes it as current) fails as a tool
// failure, not a design mismatch, and is removed, so the next run builds
// again and passes (issue 26, item 8).
func TestTruncatedBuildIsNoDesignFailure(t *testing.T) {
	hwtest.Require(t, hwtest.Make, hwtest.Icarus)
	dir := emitIris(t, 20, 1)
	vvp := filepath.Join(dir, "build", "icarus", "tb_stream.vvp")
	if err := os.MkdirAll(filepath.Dir(vvp), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(vvp, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	opts := verify.Options{Steps: []verify.Step{verify.StepIcarus}, Targets: []string{"stream"}, KeepBuild: true}
	rep, err := verify.Run(context.Background(), dir, opts)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Passed() || !rep.Steps[0].ToolFailure || !strings.Contains(rep.Err().Error(), "no design mismatch") {
		t.Fatalf("with an empty build: passed %v, tool failure %v, %v", rep.Passed(), rep.Steps[0].ToolFailure, rep.Err())
	}
	if _, err := os.Stat(vvp); err == nil {
		t.Errorf("the empty build %s is still there", vvp)
	}
	rep, err = verify.Run(context.Background(), dir, opts)
	if err != nil || !rep.Passed() {
		t.Fatalf("the rerun: %v, %v", err, rep.Err())
	}
}
