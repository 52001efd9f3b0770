package rtl

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	testmodel "github.com/hdlgen/hdlgen/internal/randmodel"
	"github.com/hdlgen/hdlgen/model"
)

// harnessDir holds rtl's own minimal testbenches (the product testbenches come
// from the testbench package).
var harnessDir, _ = filepath.Abs("testdata/harness")

// run runs a command in dir and returns its combined output; it fails the test
// on a non-zero exit.
func run(t *testing.T, dir string, timeout time.Duration, name string, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s %s in %s: %v\n%s", name, strings.Join(args, " "), dir, err, out.String())
	}
	return out.String()
}

// emitted emits m into a fresh directory and returns it with the report.
func emitted(t *testing.T, m *model.Model, o Options) (string, *Report) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "design")
	rep, err := Emit(context.Background(), m, o, dir)
	if err != nil {
		t.Fatal(err)
	}
	return dir, rep
}

// lint runs Verilator's and Icarus' linters on every top of an emitted design and
// fails on any warning.
func lint(t *testing.T, dir string, rep *Report) {
	t.Helper()
	tops := []string{rep.StreamTop}
	for _, top := range []string{rep.AxisTop, rep.SystemTop} {
		if top != "" {
			tops = append(tops, top)
		}
	}
	for _, top := range tops {
		args := append([]string{"--lint-only", "-Wall", "--language", "1364-2005", "--top-module", top}, rep.RTLFiles...)
		if out := run(t, dir, 5*time.Minute, "verilator", args...); strings.TrimSpace(out) != "" {
			t.Errorf("verilator lint of %s:\n%s", top, out)
		}
		args = append([]string{"-g2005", "-Wall", "-s", top, "-o", os.DevNull}, rep.RTLFiles...)
		if out := run(t, dir, 5*time.Minute, "iverilog", args...); strings.TrimSpace(out) != "" {
			t.Errorf("iverilog -Wall of %s:\n%s", top, out)
		}
	}
}

// checkPass fails unless out has the harness's PASS line and no MISMATCH.
func checkPass(t *testing.T, what, out string) {
	t.Helper()
	if strings.Contains(out, "MISMATCH") || !strings.Contains(out, "PASS vectors=") {
		t.Errorf("%s:\n%s", what, out)
	}
}

// icarus simulates tb ("stream" or "axis") of an emitted design with the harness.
func icarus(t *testing.T, dir string, rep *Report, tb string) {
	t.Helper()
	vvp := filepath.Join(t.TempDir(), "tb.vvp")
	args := append([]string{"-g2005", "-Ivectors", "-s", "tb_" + tb, "-o", vvp, filepath.Join(harnessDir, "tb_"+tb+".v")}, rep.RTLFiles...)
	run(t, dir, 5*time.Minute, "iverilog", args...)
	checkPass(t, "icarus "+tb, run(t, dir, 10*time.Minute, "vvp", "-n", vvp))
}

// verilator builds and runs the harness tb with Verilator's --binary --timing.
func verilator(t *testing.T, dir string, rep *Report, tb string) {
	t.Helper()
	obj := filepath.Join(t.TempDir(), "obj")
	args := append([]string{"--binary", "--timing", "-j", "2", "-Wno-fatal", "-Wno-lint", "-Wno-style",
		"-Ivectors", "--top-module", "tb_" + tb, "-Mdir", obj, filepath.Join(harnessDir, "tb_"+tb+".v")}, rep.RTLFiles...)
	run(t, dir, 10*time.Minute, "verilator", args...)
	checkPass(t, "verilator "+tb, run(t, dir, 10*time.Minute, filepath.Join(obj, "Vtb_"+tb)))
}

func intShape(k, n, l, kappa, bits int) testmodel.Shape {
	return testmodel.Shape{Arch: model.IntRVFL, K: k, N: n, L: l, Kappa: kappa, Bits: bits}
}

func r8Shape(k, n, l int) testmodel.Shape {
	return testmodel.Shape{Arch: model.RVFL8, K: k, N: n, L: l}
}
