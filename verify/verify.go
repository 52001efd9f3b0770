package verify

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/hdlgen/hdlgen/internal/proc"
	"github.com/hdlgen/hdlgen/synth"
	"github.com/hdlgen/hdlgen/testbench"
)

// Step is one kind of check.
type Step string

// The steps, in the order Run performs them.
const (
	StepModel     Step = "model"     // DIR/model.json agrees with design.json and the vectors (emitted designs only)
	StepLint      Step = "lint"      // verilator --lint-only -Wall on every top
	StepVerilator Step = "verilator" // the Verilator testbench(es)
	StepIcarus    Step = "icarus"    // the Icarus testbench(es)
	// StepGateVerilator and StepGateIcarus run the stream testbenches against
	// the synthesised netlist (gate level: Yosys's netlist with Yosys's
	// Xilinx cell models and hdlgen's block-RAM models). Only the stream top
	// has them.
	StepGateVerilator Step = "gate-verilator"
	StepGateIcarus    Step = "gate-icarus"
)

// AllSteps is what Run does when Options.Steps is empty (and GateLevel is
// not set); GateSteps with GateLevel.
var (
	AllSteps  = []Step{StepModel, StepLint, StepVerilator, StepIcarus}
	GateSteps = []Step{StepGateVerilator, StepGateIcarus}
)

// order is every step in the order Run performs them.
var order = []Step{StepModel, StepLint, StepVerilator, StepIcarus, StepGateVerilator, StepGateIcarus}

// IsGate reports whether s simulates the synthesised netlist.
func (s Step) IsGate() bool { return s == StepGateVerilator || s == StepGateIcarus }

// Options selects what Run does. The zero value runs every step without
// traces and removes its build directories afterwards.
type Options struct {
	Steps []Step // steps to run, in Run's order; empty means AllSteps (GateSteps with GateLevel)
	// GateLevel selects the gate-level steps when Steps is empty.
	GateLevel bool
	Targets   []string // "stream", "axis", "system"; empty means every target DIR has
	Trace     bool     // Verilator runs write DIR/build/trace/<target>.vcd
	// KeepBuild keeps DIR/build/verilator and DIR/build/icarus, so that the
	// next Run rebuilds only what changed (make tracks the RTL, the
	// testbench and the vector parameters; .mem files are read at run time).
	KeepBuild bool
	Log       io.Writer // if non-nil, receives the tools' output as it comes
	// Progress, if non-nil, is called before each step (done of total steps
	// finished so far, next naming it; done = -1 before the synthesis of the
	// gate-level steps) and with each result as soon as its step finishes.
	Progress func(done, total int, next string, res *Result)
	// Synth are the options of the synthesis that gate-level steps need
	// (synth.Run, cached; Log is set from Log when nil).
	Synth synth.Options
	// CXXOpt, if set, is g++'s optimisation of the Verilator models: make's
	// OPT_FAST, OPT_SLOW and OPT_GLOBAL of Verilator's makefile (e.g. "-O0":
	// a faster build, a slower simulation — for few vectors); "" takes
	// testbench.CXXOptEnv's value when it is set, else keeps Verilator's (-Os). The
	// results do not depend on it.
	CXXOpt string
	// ICE40Vectors, if positive, is how many of the design's vectors the iCE40
	// UART top's Icarus testbench sends (make ICE40_VECTORS=n; at 1 Mbaud a
	// vector costs thousands of clocks); 0 keeps the design's default.
	ICE40Vectors int
}

// Result is the outcome of one step on one target.
type Result struct {
	Name    string   // "<step>/<target>", e.g. "verilator/stream"; "model" for the model step
	Step    Step     // the step
	Target  string   // "stream" or "axis"; "" for the model step, which covers both
	Command []string // the command run (in DIR); nil for the model step, done in Go
	Passed  bool

	// From the testbench's PASS or FAIL line (simulation steps); zero otherwise.
	Vectors int // vectors checked (PASS; the model step: vectors recomputed) or transferred before the stop (FAIL)
	Cycles  int // cycles simulated after reset
	Latency int // accept to first valid of vector 0 (PASS only)
	// SimWall is the host time of the simulation loop that the Verilator
	// testbench reports on its SIMRATE line (0 for Icarus and lint, which
	// report none). Unlike Duration it excludes make, the model build, the
	// start-up and reading the vectors.
	SimWall time.Duration

	// Mismatches holds the MISMATCH and TIMEOUT lines the step printed, in
	// order. Run keeps every one; the testbenches stop after 10 MISMATCH
	// lines (docs/rtl-interface.md §7), the model step after 10 too.
	Mismatches  []string
	Diagnostics []string // on failure: ERROR, %Error, %Warning and warning lines (at most 20)
	Duration    time.Duration
	Output      string // everything the command printed (stdout and stderr)
	ExitErr     string // the command's exit error, "" when it exited 0
	// ToolFailure reports a simulation step that failed without a verdict
	// of its testbench (no MISMATCH, TIMEOUT or FAIL line): the tool, its
	// build or the machine failed (a full disk, a truncated build, RTL that
	// does not compile), so no mismatch was found. Its build products are
	// removed, so a rerun builds them again.
	ToolFailure bool
}

// CyclesPerSecond is the simulation speed of a Verilator run: Cycles / SimWall
// in simulated clock cycles per host second; 0 when the testbench reported no
// host time.
func (r Result) CyclesPerSecond() float64 {
	if r.SimWall <= 0 {
		return 0
	}
	return float64(r.Cycles) / r.SimWall.Seconds()
}

// Report is the outcome of Run.
type Report struct {
	Dir      string   // absolute path of DIR
	Targets  []string // the targets checked: "stream", and "axis" when the design has the wrapper
	Steps    []Result // in the order run
	Traces   []string // VCD files written (DIR-relative)
	Duration time.Duration
}

// Passed reports whether every step passed (and at least one ran).
func (r *Report) Passed() bool {
	if len(r.Steps) == 0 {
		return false
	}
	for _, s := range r.Steps {
		if !s.Passed {
			return false
		}
	}
	return true
}

// Failed returns the steps that failed.
func (r *Report) Failed() []Result {
	var f []Result
	for _, s := range r.Steps {
		if !s.Passed {
			f = append(f, s)
		}
	}
	return f
}

// Err returns nil when the report passed, else an error naming the failed
// steps and the first mismatch or diagnostic of the first one.
func (r *Report) Err() error {
	if r.Passed() {
		return nil
	}
	failed := r.Failed()
	if len(failed) == 0 {
		return errors.New("verify: no step was run")
	}
	names := make([]string, len(failed))
	for i, f := range failed {
		names[i] = f.Name
	}
	first := failed[0]
	detail := first.ExitErr
	switch {
	case len(first.Mismatches) > 0:
		detail = first.Mismatches[0]
	case len(first.Diagnostics) > 0:
		detail = first.Diagnostics[0]
	case detail == "":
		detail = "no PASS line"
	}
	if first.ToolFailure {
		return fmt.Errorf("verify: %s: %s: the tool failed before its testbench gave a verdict, so this is no design mismatch (its build was removed; run verify again once the cause is fixed): %s",
			r.Dir, first.Name, detail)
	}
	return fmt.Errorf("verify: %s failed (%d of %d steps): %s: %s",
		r.Dir, len(failed), len(r.Steps), first.Name, detail)
}

// Line is the one-line summary of a step result, with its mismatch or
// diagnostic lines below it when it failed.
func (s Result) Line() string {
	var b bytes.Buffer
	status := "pass"
	if !s.Passed {
		status = "FAIL"
	}
	if s.ToolFailure {
		status = "FAIL (tool: no testbench verdict)"
	}
	fmt.Fprintf(&b, "  %-22s %s %7.1fs", s.Name, status, s.Duration.Seconds())
	if s.Step == StepModel && s.Vectors > 0 {
		fmt.Fprintf(&b, "  vectors=%d (expected outputs recomputed from model.json)", s.Vectors)
	}
	if s.Step != StepLint && s.Step != StepModel && (s.Vectors > 0 || s.Cycles > 0) {
		fmt.Fprintf(&b, "  vectors=%d cycles=%d", s.Vectors, s.Cycles)
		if s.Passed {
			fmt.Fprintf(&b, " latency=%d", s.Latency)
		}
		if r := s.CyclesPerSecond(); r > 0 {
			fmt.Fprintf(&b, " sim=%.4gs (%.3g cycles/s)", s.SimWall.Seconds(), r)
		}
	}
	b.WriteByte('\n')
	if !s.Passed {
		lines := s.Mismatches
		if len(lines) == 0 {
			lines = s.Diagnostics
		}
		if len(lines) == 0 && s.ExitErr != "" {
			lines = []string{s.ExitErr}
		}
		for _, l := range lines {
			fmt.Fprintf(&b, "      %s\n", l)
		}
	}
	return b.String()
}

// WriteText writes a human-readable summary: one line per step, then the
// mismatch or diagnostic lines of the failed ones.
func (r *Report) WriteText(w io.Writer) error {
	var b bytes.Buffer
	fmt.Fprintf(&b, "verify %s\n", r.Dir)
	for _, s := range r.Steps {
		b.WriteString(s.Line())
	}
	r.writeFooter(&b)
	_, err := w.Write(b.Bytes())
	return err
}

// WriteFooter writes what WriteText writes after the step lines (traces and
// the verdict), for a caller that printed the lines as they came.
func (r *Report) WriteFooter(w io.Writer) error {
	var b bytes.Buffer
	r.writeFooter(&b)
	_, err := w.Write(b.Bytes())
	return err
}

func (r *Report) writeFooter(b *bytes.Buffer) {
	for _, t := range r.Traces {
		fmt.Fprintf(b, "  trace %s\n", t)
	}
	verdict := "PASS"
	if !r.Passed() {
		verdict = "FAIL"
	}
	fmt.Fprintf(b, "%s (%.1fs)\n", verdict, r.Duration.Seconds())
}

// Debian packages that provide each tool, for the error when one is missing.
var toolPackage = map[string]string{
	"make":      "make",
	"verilator": "verilator",
	"g++":       "g++",
	"iverilog":  "iverilog",
	"vvp":       "iverilog",
	"yosys":     "yosys",
	"awk":       "gawk",
}

// stepTools lists the tools each step needs besides make.
var stepTools = map[Step][]string{
	StepModel:         nil,
	StepLint:          {"verilator"},
	StepVerilator:     {"verilator", "g++"},
	StepIcarus:        {"iverilog", "vvp"},
	StepGateVerilator: {"yosys", "awk", "verilator", "g++"},
	StepGateIcarus:    {"yosys", "awk", "iverilog", "vvp"},
}

// Run verifies the design in dir; see the package documentation.
func Run(ctx context.Context, dir string, opts Options) (*Report, error) {
	start := time.Now()
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("verify: %w", err)
	}
	if strings.ContainsAny(abs, " \t\n\"'$\\#%*?[]") {
		return nil, fmt.Errorf("verify: directory %q: make cannot work in a path with spaces or shell/make special characters", abs)
	}
	for _, need := range []string{testbench.MakefilePath, "tb/tb_stream.v", "tb/tb_stream.cpp", "vectors/tv_params.vh", "vectors/tv_params.h"} {
		if _, err := os.Stat(filepath.Join(abs, filepath.FromSlash(need))); err != nil {
			return nil, fmt.Errorf("verify: %s is not an emitted design directory: %w", abs, err)
		}
	}
	if !slices.Contains(CXXOpts, opts.CXXOpt) {
		return nil, fmt.Errorf("verify: C++ optimisation %q: want one of %s", opts.CXXOpt, strings.Join(CXXOpts[1:], ", "))
	}
	if opts.CXXOpt == "" {
		opt, err := testbench.CXXOptFromEnv()
		if err != nil {
			return nil, fmt.Errorf("verify: %w", err)
		}
		opts.CXXOpt = opt
	}
	want := opts.Steps
	if len(want) == 0 && opts.GateLevel {
		want = GateSteps
	}
	steps, err := normalizeSteps(want)
	if err != nil {
		return nil, err
	}
	targets := []string{"stream"}
	if _, err := os.Stat(filepath.Join(abs, "tb", "tb_axis.v")); err == nil {
		targets = append(targets, "axis")
	}
	if _, err := os.Stat(filepath.Join(abs, "tb", "tb_system.v")); err == nil {
		targets = append(targets, "system")
	}
	if exists(filepath.Join(abs, filepath.FromSlash(ice40TB))) {
		targets = append(targets, targetICE40)
		if len(opts.Steps) == 0 && !opts.GateLevel {
			steps = append(steps, StepRouted)
		}
	}
	if targets, err = selectTargets(targets, opts.Targets); err != nil {
		return nil, fmt.Errorf("verify: %s: %w", abs, err)
	}
	if err := checkTools(steps); err != nil {
		return nil, err
	}

	rep := &Report{Dir: abs, Targets: targets}
	// The builds this run creates go afterwards unless KeepBuild, and always
	// when the run is interrupted (a half-made build is no cache).
	removeCreated := buildCleanup(abs)
	defer func() {
		if !opts.KeepBuild || ctx.Err() != nil {
			removeCreated()
		}
	}()

	type job struct {
		step   Step
		target string
	}
	var jobs []job
	gate := false
	for _, step := range steps {
		if step == StepModel {
			if emitted(abs) { // a hand-made or reference directory has no model to check
				jobs = append(jobs, job{step, ""})
			}
			continue
		}
		for _, target := range targets {
			if step.IsGate() && target != "stream" {
				continue // the gate-level netlist is the stream top's
			}
			if skipJob(step, target) {
				continue
			}
			gate = gate || step.IsGate()
			jobs = append(jobs, job{step, target})
		}
	}
	if len(jobs) == 0 && slices.ContainsFunc(steps, Step.IsGate) {
		return nil, fmt.Errorf("verify: %s: no step to run (gate-level steps exist for the stream top only)", abs)
	}
	if gate {
		so := opts.Synth
		if so.Log == nil {
			so.Log = opts.Log
		}
		if opts.Progress != nil {
			opts.Progress(-1, len(jobs), "synth (Yosys, cached)", nil)
		}
		if _, err := synth.Run(ctx, abs, so); err != nil {
			return nil, fmt.Errorf("verify: gate level needs the synthesised netlist: %w", err)
		}
	}
	for i, j := range jobs {
		if opts.Progress != nil {
			name := string(j.step)
			if j.target != "" {
				name += "/" + j.target
			}
			opts.Progress(i, len(jobs), name, nil)
		}
		var res Result
		if j.step == StepModel {
			if err := ctx.Err(); err != nil {
				return nil, fmt.Errorf("verify: %s: %w", j.step, err)
			}
			res = checkModel(ctx, abs)
		} else if res, err = runStep(ctx, abs, j.step, j.target, opts); err != nil {
			return nil, err
		}
		if opts.Progress != nil {
			opts.Progress(i+1, len(jobs), "", &res)
		}
		rep.Steps = append(rep.Steps, res)
		if j.step == StepVerilator && opts.Trace {
			vcd := "build/trace/" + j.target + ".vcd"
			if _, err := os.Stat(filepath.Join(abs, filepath.FromSlash(vcd))); err == nil {
				rep.Traces = append(rep.Traces, vcd)
			}
		}
	}
	rep.Duration = time.Since(start)
	return rep, nil
}

func normalizeSteps(in []Step) ([]Step, error) {
	if len(in) == 0 {
		return AllSteps, nil
	}
	want := map[Step]bool{}
	for _, s := range in {
		if _, ok := stepTools[s]; !ok {
			return nil, fmt.Errorf("verify: unknown step %q (want model, lint, verilator, icarus, gate-verilator, gate-icarus or routed)", s)
		}
		want[s] = true
	}
	var out []Step
	for _, s := range order {
		if want[s] {
			out = append(out, s)
		}
	}
	return out, nil
}

// selectTargets keeps the targets of have that want names (all when want is
// empty), in the order of have.
func selectTargets(have, want []string) ([]string, error) {
	if len(want) == 0 {
		return have, nil
	}
	keep := map[string]bool{}
	for _, w := range want {
		found := false
		for _, h := range have {
			found = found || h == w
		}
		if !found {
			return nil, fmt.Errorf("no target %q (the design has %s)", w, strings.Join(have, ", "))
		}
		keep[w] = true
	}
	var out []string
	for _, h := range have {
		if keep[h] {
			out = append(out, h)
		}
	}
	return out, nil
}

// CheckTools returns an error naming every tool the steps need that is not
// in PATH, with its Debian package, or nil. Run checks it first; a caller
// that runs many designs (the campaign) checks it once before the first, so
// that a machine without the tools stops the run instead of recording
// every design as failed.
func CheckTools(steps []Step) error { return checkTools(steps) }

// checkTools returns an error naming every missing tool and its Debian
// package (make for every step but the model step, which runs in Go).
func checkTools(steps []Step) error {
	var need []string
	for _, s := range steps {
		if s != StepModel && len(need) == 0 {
			need = append(need, "make")
		}
		need = append(need, stepTools[s]...)
	}
	var missing, pkgs []string
	seen := map[string]bool{}
	for _, t := range need {
		if seen[t] {
			continue
		}
		seen[t] = true
		if _, err := exec.LookPath(t); err != nil {
			missing = append(missing, t)
			if !seen["pkg:"+toolPackage[t]] {
				seen["pkg:"+toolPackage[t]] = true
				pkgs = append(pkgs, toolPackage[t])
			}
		}
	}
	if len(missing) == 0 {
		return nil
	}
	return fmt.Errorf("verify: %s not found in PATH; install the Debian package(s) with: apt-get install -y %s",
		strings.Join(missing, ", "), strings.Join(pkgs, " "))
}

// buildCleanup records which build directories exist now and returns a
// function that removes the ones Run created.
func buildCleanup(dir string) func() {
	build := filepath.Join(dir, testbench.BuildDir)
	var created []string
	buildExisted := exists(build)
	for _, sub := range []string{"verilator", "icarus", "gate", "ice40"} {
		p := filepath.Join(build, sub)
		if !exists(p) {
			created = append(created, p)
		}
	}
	return func() {
		for _, p := range created {
			os.RemoveAll(p)
		}
		if !buildExisted {
			os.Remove(build) // only if empty (a trace may remain)
		}
	}
}

func exists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// Command returns the command Run uses for step on target in dir, with
// Verilator's models traced and compiled at cxxOpt (Options.CXXOpt).
func Command(dir string, step Step, target string, trace bool, cxxOpt string) []string {
	args := []string{"make", "-C", dir, "--no-print-directory", string(step) + "-" + target}
	if step == StepVerilator && trace {
		args = append(args, "TRACE=1")
	}
	if step == StepVerilator || step == StepGateVerilator {
		args = append(args, testbench.CXXOptVars(cxxOpt)...)
	}
	return args
}

// CXXOpts are the values Options.CXXOpt may take.
var CXXOpts = testbench.CXXOpts

func runStep(ctx context.Context, dir string, step Step, target string, opts Options) (Result, error) {
	res := Result{
		Name:    string(step) + "/" + target,
		Step:    step,
		Target:  target,
		Command: Command(dir, step, target, opts.Trace, opts.CXXOpt),
	}
	if step == StepIcarus && target == targetICE40 && opts.ICE40Vectors > 0 {
		res.Command = append(res.Command, fmt.Sprintf("ICE40_VECTORS=%d", opts.ICE40Vectors))
	}
	var out bytes.Buffer
	var w io.Writer = &out
	if opts.Log != nil {
		fmt.Fprintf(opts.Log, "== %s: %s\n", res.Name, strings.Join(res.Command, " "))
		w = io.MultiWriter(&out, opts.Log)
	}
	cmd := exec.CommandContext(ctx, res.Command[0], res.Command[1:]...)
	cmd.Dir = dir
	cmd.Env = proc.MakeEnv()
	cmd.Stdout = w
	cmd.Stderr = w
	proc.Setup(cmd)
	t0 := time.Now()
	runErr := cmd.Run()
	res.Duration = time.Since(t0)
	if ctxErr := ctx.Err(); ctxErr != nil {
		return res, fmt.Errorf("verify: %s: %w", res.Name, ctxErr)
	}
	res.Output = out.String()
	if runErr != nil {
		var exitErr *exec.ExitError
		if !errors.As(runErr, &exitErr) {
			return res, fmt.Errorf("verify: %s: running %s: %w", res.Name, res.Command[0], runErr)
		}
		res.ExitErr = runErr.Error()
	}
	parse(&res)
	if !res.Passed && step != StepLint && len(res.Mismatches) == 0 && !failRE.MatchString(res.Output) {
		res.ToolFailure = true
		if free, ok := freeBytes(dir); ok && free < lowDisk {
			res.Diagnostics = append([]string{fmt.Sprintf("ERROR the disk holding %s is full (%d bytes free)", dir, free)}, res.Diagnostics...)
		}
		removeProducts(dir, step, target)
	}
	return res, nil
}

// lowDisk is the free space below which a tool failure is reported as a
// full disk.
const lowDisk = 16 << 20

// removeProducts removes what step builds for target under DIR/build (the
// simulator's model), so that a build a failed tool left behind — truncated
// or empty — is not taken as current by the next run.
func removeProducts(dir string, step Step, target string) {
	build := filepath.Join(dir, testbench.BuildDir)
	var paths []string
	switch step {
	case StepVerilator:
		paths = []string{filepath.Join(build, "verilator", target), filepath.Join(build, "verilator", target+"-trace")}
	case StepIcarus:
		p := filepath.Join(build, "icarus", "tb_"+target+".vvp")
		paths = []string{p, p + ".tmp", p + ".log"}
	case StepGateVerilator:
		paths = []string{filepath.Join(build, "verilator", "gate-"+target)}
	case StepGateIcarus:
		paths = []string{filepath.Join(build, "icarus", "gate_"+target+".vvp")}
	}
	for _, p := range paths {
		os.RemoveAll(p)
	}
}

var (
	passRE = regexp.MustCompile(`^PASS vectors=(\d+) cycles=(\d+) latency=(-?\d+)$`)
	failRE = regexp.MustCompile(`(?m)^FAIL vectors=(\d+) cycles=(\d+) mismatches=(\d+)$`)
	rateRE = regexp.MustCompile(`^SIMRATE cycles=(\d+) wall_ns=(\d+)$`)
	diagRE = regexp.MustCompile(`^(ERROR |%Error|%Warning)|(?i:\bwarning\b|\berror\b)`)
)

const maxDiagnostics = 20

// parse fills in the testbench results and Passed from res.Output and res.ExitErr.
func parse(res *Result) {
	sawPass, sawWarning := false, false
	sc := bufio.NewScanner(strings.NewReader(res.Output))
	sc.Buffer(make([]byte, 0, 64*1024), 16*1024*1024)
	for sc.Scan() {
		line := strings.TrimRight(sc.Text(), "\r")
		switch {
		case strings.HasPrefix(line, "MISMATCH ") || strings.HasPrefix(line, "TIMEOUT "):
			res.Mismatches = append(res.Mismatches, line)
		case passRE.MatchString(line):
			m := passRE.FindStringSubmatch(line)
			res.Vectors, res.Cycles, res.Latency = atoi(m[1]), atoi(m[2]), atoi(m[3])
			sawPass = true
		case rateRE.MatchString(line):
			m := rateRE.FindStringSubmatch(line)
			res.SimWall = time.Duration(atoi(m[2]))
		case failRE.MatchString(line):
			m := failRE.FindStringSubmatch(line)
			res.Vectors, res.Cycles = atoi(m[1]), atoi(m[2])
		case diagRE.MatchString(line):
			if strings.HasPrefix(line, "%Warning") {
				sawWarning = true
			}
			if len(res.Diagnostics) < maxDiagnostics {
				res.Diagnostics = append(res.Diagnostics, line)
			}
		}
	}
	switch res.Step {
	case StepLint:
		res.Passed = res.ExitErr == "" && !sawWarning && !hasPrefixLine(res.Output, "%Error")
	default:
		res.Passed = res.ExitErr == "" && sawPass && len(res.Mismatches) == 0
	}
	if res.Passed {
		res.Diagnostics = nil
	}
}

func hasPrefixLine(out, prefix string) bool {
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, prefix) {
			return true
		}
	}
	return false
}

func atoi(s string) int {
	n, err := strconv.Atoi(s)
	if err != nil {
		panic("verify: regexp matched a non-number: " + s)
	}
	return n
}
