package buildflow

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/hdlgen/hdlgen/verify"
)

// The verification steps build runs (verify.Step names).
const (
	stepModel     = string(verify.StepModel)
	stepLint      = string(verify.StepLint)
	stepVerilator = string(verify.StepVerilator)
	stepIcarus    = string(verify.StepIcarus)
)

// allSteps are the verification steps in order; tops are the design's tops.
var (
	allSteps = []string{stepModel, stepLint, stepVerilator, stepIcarus}
	tops     = []string{"stream", "axis"}
)

// verifySteps is the set of steps --verify-steps selects (all when empty).
func verifySteps(list string) map[string]bool {
	want := map[string]bool{}
	for _, s := range strings.Split(list, ",") {
		if s = strings.TrimSpace(s); s != "" {
			want[s] = true
		}
	}
	if len(want) == 0 {
		for _, s := range allSteps {
			want[s] = true
		}
	}
	return want
}

// VerifyResult is one verification step on one top (or the model step),
// the values of a verify.Result.
type VerifyResult struct {
	Name        string   `json:"name"` // "verilator/stream"; "model"
	Step        string   `json:"step"`
	Target      string   `json:"target,omitempty"`
	Passed      bool     `json:"passed"`
	Vectors     int      `json:"vectors"`
	Cycles      int      `json:"cycles,omitempty"`
	Latency     int      `json:"latency,omitempty"`
	Seconds     float64  `json:"seconds"`
	Mismatches  []string `json:"mismatches,omitempty"`
	Diagnostics []string `json:"diagnostics,omitempty"`
}

// VerifyRun is one verification of a design folder: DIR/verify/<name>.json.
type VerifyRun struct {
	Dir     string         `json:"dir"` // relative to DIR
	Steps   []string       `json:"steps"`
	Command string         `json:"command"` // the equivalent hdlgen command
	Results []VerifyResult `json:"results"`
	Passed  bool           `json:"passed"`
}

// verify runs the steps of want that the folder dir (relative to DIR) is
// for, as `hdlgen verify DIR --steps …` does (package verify, keeping the
// simulator builds), as the step name; nil when none of its steps is
// wanted. A failed check fails the step (the error names it).
func (b *build) verify(ctx context.Context, name, dir string, steps []string, want map[string]bool, dep string) (*VerifyRun, error) {
	var run []string
	for _, s := range steps {
		if want[s] {
			run = append(run, s)
		}
	}
	if len(run) == 0 {
		return nil, nil
	}
	out := verifyDir + "/" + strings.Fields(name)[1] + ".json"
	args := []string{"verify", b.p(dir), "--steps", strings.Join(run, ",")}
	cxxOpt := b.cxxOpt(run)
	if cxxOpt != "" {
		args = append(args, "--cxx-opt", cxxOpt)
	}
	line := b.r.commandLine(args, "")
	_, err := b.r.step(ctx, stepDef{name: name, line: line, deps: []string{dep}, outputs: []string{out}, do: func(ctx context.Context) error {
		vs := make([]verify.Step, len(run))
		for i, s := range run {
			vs[i] = verify.Step(s)
		}
		logf, err := os.Create(filepath.Join(b.o.Dir, logDir, strings.ReplaceAll(name, " ", "-")+".log"))
		if err != nil {
			return fmt.Errorf("buildflow: %w", err)
		}
		defer logf.Close()
		// Each finished check on the progress stream, with how many are left.
		progress := func(done, total int, next string, res *verify.Result) {
			if res == nil {
				return
			}
			verdict := "passed"
			if !res.Passed {
				verdict = "FAILED"
			}
			b.r.progress(name, ": %s %s in %.1fs (%d of %d checks)", res.Name, verdict, res.Duration.Seconds(), done, total)
		}
		rep, err := verify.Run(ctx, b.p(dir), verify.Options{Steps: vs, KeepBuild: true, Log: logf, Progress: progress, CXXOpt: cxxOpt})
		if err != nil {
			return fmt.Errorf("buildflow: step %s (%s): %w", name, line, err)
		}
		if err := rep.WriteText(logf); err != nil {
			return err
		}
		vr := VerifyRun{Dir: dir, Steps: run, Command: line, Passed: rep.Passed()}
		for _, s := range rep.Steps {
			vr.Results = append(vr.Results, VerifyResult{Name: s.Name, Step: string(s.Step), Target: s.Target, Passed: s.Passed,
				Vectors: s.Vectors, Cycles: s.Cycles, Latency: s.Latency, Seconds: s.Duration.Seconds(), Mismatches: s.Mismatches, Diagnostics: s.Diagnostics})
		}
		if err := rep.Err(); err != nil {
			return fmt.Errorf("buildflow: step %s (%s): %w", name, line, err)
		}
		return writeJSON(b.p(out), vr)
	}})
	if err != nil {
		return nil, err
	}
	var vr VerifyRun
	if err := readJSON(b.p(out), &vr); err != nil {
		return nil, err
	}
	return &vr, nil
}

// Check is one cell of the report's verification table.
type Check struct {
	Step, Target string // Target "" for the model step
	Simulator    string // "Verilator", "Icarus", "" for the model step and lint
	Folder       string // the design folder checked (relative to DIR)
	Ran          bool
	Result       VerifyResult // when Ran
	Why          string       // why it did not run
}

// Verification is every check build can run, ran or not.
type Verification struct {
	Checks  []Check
	Passed  bool // every check ran and passed
	Partial bool // some check did not run
}

// verification lays the two runs out over every step and top.
func (b *build) verification(verilator, icarus *VerifyRun, want map[string]bool) Verification {
	found := map[string]VerifyResult{}
	folder := map[string]string{}
	for _, run := range []*VerifyRun{verilator, icarus} {
		if run == nil {
			continue
		}
		for _, r := range run.Results {
			key := r.Name
			if r.Step == stepModel {
				key = stepModel + " " + run.Dir
			}
			found[key], folder[key] = r, run.Dir
		}
	}
	v := Verification{Passed: true}
	add := func(step, target, sim, dir, key string) {
		c := Check{Step: step, Target: target, Simulator: sim, Folder: dir}
		if r, ok := found[key]; ok {
			c.Ran, c.Result = true, r
			v.Passed = v.Passed && r.Passed
		} else {
			c.Why = fmt.Sprintf("not run: --verify-steps %s", b.o.VerifySteps)
			if want[step] {
				c.Why = "not run"
			}
			v.Passed, v.Partial = false, true
		}
		v.Checks = append(v.Checks, c)
	}
	add(stepModel, "", "", hwDir, stepModel+" "+hwDir)
	for _, top := range tops {
		add(stepLint, top, "", hwDir, stepLint+"/"+top)
	}
	for _, top := range tops {
		add(stepVerilator, top, "Verilator", hwDir, stepVerilator+"/"+top)
	}
	if want[stepIcarus] {
		add(stepModel, "", "", icarusDir, stepModel+" "+icarusDir)
	}
	for _, top := range tops {
		add(stepIcarus, top, "Icarus", icarusDir, stepIcarus+"/"+top)
	}
	return v
}

// FastCompileVectors is the most vectors for which build compiles the
// Verilator models unoptimised (g++ -O0, verify --cxx-opt): on the 30,000-row
// example's design (N=1500, P=32) -O0 took 25.6 s of CPU for the stream
// top's build and its 1,000 vectors against 30.4 s at Verilator's -Os, its
// simulation 1.7 s against 0.13 s (docs/build.md); above this many vectors
// the slower simulation would cost more than the build saves.
const FastCompileVectors = 2000

// cxxOpt is the C++ optimisation of build's Verilator models for the
// verification steps run: "-O0" up to FastCompileVectors vectors, else ""
// (Verilator's -Os); "" without the Verilator step.
func (b *build) cxxOpt(run []string) string {
	if !slices.Contains(run, stepVerilator) || b.o.Vectors > FastCompileVectors {
		return ""
	}
	return "-O0"
}
