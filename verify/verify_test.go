package verify_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/hdlgen/hdlgen/internal/hwtest"
	"github.com/hdlgen/hdlgen/testbench"
	"github.com/hdlgen/hdlgen/testbench/refdut"
	"github.com/hdlgen/hdlgen/verify"
)

// newDir writes the reference design with n vectors into a fresh directory.
func newDir(t *testing.T, n int) (string, refdut.Vectors) {
	t.Helper()
	dir := t.TempDir()
	vs := refdut.Generate(n, 7)
	if err := refdut.Write(dir, vs, refdut.ModeOK); err != nil {
		t.Fatal(err)
	}
	return dir, vs
}

func names(r *verify.Report) []string {
	var n []string
	for _, s := range r.Steps {
		n = append(n, s.Name)
	}
	return n
}

type summary struct {
	Name                     string
	Passed                   bool
	Vectors, Cycles, Latency int
	FirstMismatch            string
}

func summarize(r *verify.Report) []summary {
	var out []summary
	for _, s := range r.Steps {
		m := ""
		if len(s.Mismatches) > 0 {
			m = s.Mismatches[0]
		}
		out = append(out, summary{s.Name, s.Passed, s.Vectors, s.Cycles, s.Latency, m})
	}
	return out
}

// TestRun verifies the reference design with every step, then breaks one
// expected value, then the RTL's lint, reusing one build (KeepBuild).
func TestRun(t *testing.T) {
	hwtest.Require(t, hwtest.Verilator, hwtest.Icarus)
	dir, vs := newDir(t, 40)
	ctx := context.Background()
	keep := verify.Options{KeepBuild: true}

	rep, err := verify.Run(ctx, dir, keep)
	if err != nil {
		t.Fatal(err)
	}
	want := []summary{
		{"lint/stream", true, 0, 0, 0, ""},
		{"lint/axis", true, 0, 0, 0, ""},
		{"verilator/stream", true, 40, vs.StreamRun, refdut.Latency, ""},
		{"verilator/axis", true, 40, vs.AxisRun, refdut.AxisLatency, ""},
		{"icarus/stream", true, 40, vs.StreamRun, refdut.Latency, ""},
		{"icarus/axis", true, 40, vs.AxisRun, refdut.AxisLatency, ""},
	}
	if diff := cmp.Diff(want, summarize(rep)); diff != "" {
		t.Fatalf("passing run (-want +got):\n%s", diff)
	}
	if !rep.Passed() || rep.Err() != nil {
		t.Errorf("Passed() = %v, Err() = %v; want a pass", rep.Passed(), rep.Err())
	}
	// Only the Verilator runs report their host time (the SIMRATE line).
	for _, s := range rep.Steps {
		if hasRate := s.SimWall > 0 && s.CyclesPerSecond() > 0; hasRate != (s.Step == verify.StepVerilator) {
			t.Errorf("%s: SimWall %v, %g cycles/s", s.Name, s.SimWall, s.CyclesPerSecond())
		}
		if s.SimWall > s.Duration {
			t.Errorf("%s: simulation loop %v longer than the whole step %v", s.Name, s.SimWall, s.Duration)
		}
	}
	// Verilator's optimisation comes from the environment when the options
	// give none (make test sets -O0).
	opt, err := testbench.CXXOptFromEnv()
	if err != nil {
		t.Fatal(err)
	}
	wantCmd := append([]string{"make", "-C", dir, "--no-print-directory", "verilator-stream"}, testbench.CXXOptVars(opt)...)
	if got := rep.Steps[2].Command; !cmp.Equal(got, wantCmd) {
		t.Errorf("command = %q, want %q", got, wantCmd)
	}

	t.Run("mismatch", func(t *testing.T) {
		bad := vs
		bad.Exp = append([]refdut.Result(nil), vs.Exp...)
		bad.Exp[3].Scores[1] -= 2
		if err := refdut.WriteFiles(dir, bad.Files()); err != nil {
			t.Fatal(err)
		}
		defer refdut.WriteFiles(dir, vs.Files())
		rep, err := verify.Run(ctx, dir, keep)
		if err != nil {
			t.Fatal(err)
		}
		line := fmt.Sprintf("MISMATCH vector=3 field=score[1] expected=%d got=%d", vs.Exp[3].Scores[1]-2, vs.Exp[3].Scores[1])
		want := []summary{
			{"lint/stream", true, 0, 0, 0, ""},
			{"lint/axis", true, 0, 0, 0, ""},
			{"verilator/stream", false, 40, vs.StreamRun, 0, line},
			{"verilator/axis", false, 40, vs.AxisRun, 0, line},
			{"icarus/stream", false, 40, vs.StreamRun, 0, line},
			{"icarus/axis", false, 40, vs.AxisRun, 0, line},
		}
		if diff := cmp.Diff(want, summarize(rep)); diff != "" {
			t.Errorf("failing run (-want +got):\n%s", diff)
		}
		err = rep.Err()
		if err == nil || !strings.Contains(err.Error(), "verilator/stream: "+line) || !strings.Contains(err.Error(), "4 of 6 steps") {
			t.Errorf("Err() = %v", err)
		}
		var text bytes.Buffer
		if err := rep.WriteText(&text); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(text.String(), "      "+line+"\n") || !strings.HasPrefix(lastLine(text.String()), "FAIL (") {
			t.Errorf("WriteText:\n%s", text.String())
		}
	})

	t.Run("lint", func(t *testing.T) {
		path := filepath.Join(dir, "rtl", "ref_top.v")
		orig, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		defer os.WriteFile(path, orig, 0o644)
		broken := strings.Replace(string(orig), "  wire accept", "  wire spare = in_valid_i;\n  wire accept", 1)
		if err := os.WriteFile(path, []byte(broken), 0o644); err != nil {
			t.Fatal(err)
		}
		rep, err := verify.Run(ctx, dir, verify.Options{Steps: []verify.Step{verify.StepLint}, KeepBuild: true})
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff([]string{"lint/stream", "lint/axis"}, names(rep)); diff != "" {
			t.Fatalf("steps (-want +got):\n%s", diff)
		}
		for _, s := range rep.Steps {
			if s.Passed || len(s.Diagnostics) == 0 || !strings.HasPrefix(s.Diagnostics[0], "%Warning-UNUSEDSIGNAL") {
				t.Errorf("%s: passed=%v diagnostics=%q; want an UNUSEDSIGNAL failure", s.Name, s.Passed, s.Diagnostics)
			}
		}
	})

	t.Run("trace", func(t *testing.T) {
		// One target only: a traced model is a separate (slow) build.
		rep, err := verify.Run(ctx, dir, verify.Options{
			Steps: []verify.Step{verify.StepVerilator}, Targets: []string{"stream"}, Trace: true, KeepBuild: true,
		})
		if err != nil {
			t.Fatal(err)
		}
		if !rep.Passed() {
			t.Fatalf("trace run failed: %v", rep.Err())
		}
		if diff := cmp.Diff([]string{"verilator/stream"}, names(rep)); diff != "" {
			t.Errorf("steps (-want +got):\n%s", diff)
		}
		if diff := cmp.Diff([]string{"build/trace/stream.vcd"}, rep.Traces); diff != "" {
			t.Errorf("traces (-want +got):\n%s", diff)
		}
		for _, tr := range rep.Traces {
			b, err := os.ReadFile(filepath.Join(dir, tr))
			if err != nil || !bytes.HasPrefix(b, []byte("$version")) {
				t.Errorf("%s: %v, want a VCD", tr, err)
			}
		}
	})
}

func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return lines[len(lines)-1]
}

// TestRunCleansUp checks that without KeepBuild the build directories Run
// made are gone afterwards, and that a design without the wrapper has only
// the stream target. (Lint and Icarus only: no Verilator build needed.)
func TestRunCleansUp(t *testing.T) {
	hwtest.Require(t, hwtest.Verilator, hwtest.Icarus)
	dir, _ := newDir(t, 8)
	d := refdut.Design()
	d.AxisTop = ""
	files, err := testbench.Files(d)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"tb/tb_axis.v", "tb/tb_axis.cpp", "vivado/axis_ooc.xdc"} {
		if err := os.Remove(filepath.Join(dir, p)); err != nil {
			t.Fatal(err)
		}
	}
	if err := refdut.WriteFiles(dir, files); err != nil {
		t.Fatal(err)
	}
	var log bytes.Buffer
	rep, err := verify.Run(context.Background(), dir, verify.Options{
		Steps: []verify.Step{verify.StepIcarus, verify.StepLint}, // run in AllSteps order
		Log:   &log,
	})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"lint/stream", "icarus/stream"}, names(rep)); diff != "" {
		t.Errorf("steps (-want +got):\n%s", diff)
	}
	if !rep.Passed() {
		t.Errorf("failed: %v", rep.Err())
	}
	if _, err := os.Stat(filepath.Join(dir, "build")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("build/ still exists after Run without KeepBuild: %v", err)
	}
	if !strings.Contains(log.String(), "== icarus/stream: make -C "+dir+" --no-print-directory icarus-stream\n") ||
		!strings.Contains(log.String(), "PASS vectors=8 ") {
		t.Errorf("log:\n%s", log.String())
	}
}

func TestRunErrors(t *testing.T) {
	hwtest.Require(t, hwtest.Verilator, hwtest.Icarus)
	dir, _ := newDir(t, 4)
	canceled, cancel := context.WithCancel(context.Background())
	cancel()
	cases := []struct {
		name string
		ctx  context.Context
		dir  string
		opts verify.Options
		want string
	}{
		{"not_a_design", context.Background(), t.TempDir(), verify.Options{}, "not an emitted design directory"},
		{"unknown_step", context.Background(), dir, verify.Options{Steps: []verify.Step{"synth"}}, `unknown step "synth"`},
		{"unknown_target", context.Background(), dir, verify.Options{Targets: []string{"axi"}}, `no target "axi" (the design has stream, axis)`},
		{"canceled", canceled, dir, verify.Options{Steps: []verify.Step{verify.StepLint}}, "context canceled"},
		{"gate_level_axis", context.Background(), dir, verify.Options{GateLevel: true, Targets: []string{"axis"}},
			"gate-level steps exist for the stream top only"},
		{"cxx_opt", context.Background(), dir, verify.Options{CXXOpt: "-O9"}, `C++ optimisation "-O9"`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rep, err := verify.Run(c.ctx, c.dir, c.opts)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("Run = %v, %v; want an error containing %q", rep, err, c.want)
			}
		})
	}
	if _, err := verify.Run(canceled, dir, verify.Options{Steps: []verify.Step{verify.StepLint}}); !errors.Is(err, context.Canceled) {
		t.Errorf("canceled Run: %v does not wrap context.Canceled", err)
	}
}

// TestMissingTools hides every tool: the error names them and their packages.
func TestMissingTools(t *testing.T) {
	dir, _ := newDir(t, 4)
	t.Setenv("PATH", t.TempDir())
	cases := []struct {
		steps []verify.Step
		want  string
	}{
		{nil, "make, verilator, g++, iverilog, vvp not found in PATH; install the Debian package(s) with: apt-get install -y make verilator g++ iverilog"},
		{[]verify.Step{verify.StepIcarus}, "make, iverilog, vvp not found in PATH; install the Debian package(s) with: apt-get install -y make iverilog"},
	}
	for _, c := range cases {
		_, err := verify.Run(context.Background(), dir, verify.Options{Steps: c.steps})
		if err == nil || !strings.HasSuffix(err.Error(), c.want) {
			t.Errorf("steps %v: error %v, want suffix %q", c.steps, err, c.want)
		}
	}
}

// TestCommand: the make command of each step; the C++ optimisation reaches
// Verilator's makefile (OPT_FAST, OPT_SLOW, OPT_GLOBAL) for the Verilator
// builds only, and at -O0 the model is compiled as one file.
func TestCommand(t *testing.T) {
	opt := []string{"OPT_FAST=-O0", "OPT_SLOW=-O0", "OPT_GLOBAL=-O0", "VM_PARALLEL_BUILDS=0"}
	for _, tc := range []struct {
		step   verify.Step
		target string
		trace  bool
		cxxOpt string
		want   []string
	}{
		{verify.StepVerilator, "stream", false, "", nil},
		{verify.StepVerilator, "axis", false, "-O0", opt},
		{verify.StepVerilator, "stream", true, "-O0", append([]string{"TRACE=1"}, opt...)},
		{verify.StepGateVerilator, "stream", false, "-O0", opt},
		{verify.StepVerilator, "axis", false, "-O2", []string{"OPT_FAST=-O2", "OPT_SLOW=-O2", "OPT_GLOBAL=-O2"}},
		{verify.StepIcarus, "stream", false, "-O0", nil},
		{verify.StepLint, "axis", false, "-O0", nil},
	} {
		got := verify.Command("D", tc.step, tc.target, tc.trace, tc.cxxOpt)
		want := append([]string{"make", "-C", "D", "--no-print-directory", string(tc.step) + "-" + tc.target}, tc.want...)
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s-%s trace=%v cxx-opt %q (-want +got):\n%s", tc.step, tc.target, tc.trace, tc.cxxOpt, diff)
		}
	}
}
