package e2e

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/hdlgen/hdlgen/internal/hwtest"
	"github.com/hdlgen/hdlgen/model"
	"github.com/hdlgen/hdlgen/rtl"
	"github.com/hdlgen/hdlgen/rtl/plan"
	"github.com/hdlgen/hdlgen/verify"
)

func text(rep *verify.Report) string {
	var b bytes.Buffer
	_ = rep.WriteText(&b)
	return b.String()
}

// faultVectors is the number of test vectors of the fault-injection designs.
const faultVectors = 300

// faultSteps are the simulators a fault must be caught by: Icarus, and
// Verilator too unless the test runs in the quick tier (-short), which keeps
// one Verilator build in all (TestVerilatorQuick).
func faultSteps() []verify.Step {
	if hwtest.Missing(hwtest.Verilator) != "" {
		return []verify.Step{verify.StepIcarus}
	}
	return []verify.Step{verify.StepVerilator, verify.StepIcarus}
}

// faultDesign emits m's stream design into a fresh directory and checks that
// the correct design passes every step on the simulators of faultSteps.
func faultDesign(t *testing.T, m *model.Model, p int) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "design")
	if _, err := rtl.Emit(context.Background(), m, rtl.Options{Options: plan.Options{Parallel: p}, Vectors: faultVectors, Seed: 3}, dir); err != nil {
		t.Fatalf("emit: %v", err)
	}
	steps := append([]verify.Step{verify.StepModel, verify.StepLint}, faultSteps()...)
	rep, err := verify.Run(context.Background(), dir, verify.Options{Targets: []string{"stream"}, KeepBuild: true, Steps: steps})
	if err != nil || !rep.Passed() {
		t.Fatalf("the correct design fails: %v\n%s", err, text(rep))
	}
	return dir
}

// checkFaultCaught runs the simulators of faultSteps on dir, which holds a
// fault, and requires each to fail with a MISMATCH line naming field.
func checkFaultCaught(t *testing.T, dir, field string) {
	t.Helper()
	rep, err := verify.Run(context.Background(), dir, verify.Options{Targets: []string{"stream"}, KeepBuild: true, Steps: faultSteps()})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Passed() {
		t.Fatalf("verification passed with the fault:\n%s", text(rep))
	}
	for _, r := range rep.Steps {
		if r.Passed {
			t.Errorf("%s/%s passed with the fault", r.Step, r.Target)
			continue
		}
		found := false
		for _, mm := range r.Mismatches {
			if strings.HasPrefix(mm, "MISMATCH vector=") && strings.Contains(mm, field) {
				found = true
			}
		}
		if !found {
			t.Errorf("%s/%s: no MISMATCH line with %s: %q", r.Step, r.Target, field, r.Mismatches)
		}
	}
}

// TestVerifyCatchesFaults shows that verification is not "pass no matter what":
// the correct design passes, and each single fault — one expected value changed,
// one W_in ROM bit flipped, the clip bound off by one in the Verilog — fails on
// both simulators with a MISMATCH line naming the vector and the field.
func TestVerifyCatchesFaults(t *testing.T) {
	hwtest.Require(t, hwtest.Icarus, hwtest.VerilatorLint, hwtest.Make)
	s := shape{arch: model.IntRVFL, k: 16, n: 64, l: 4, kappa: 3, bits: 5, p: 4}
	m := trainShape(t, s)
	dir := faultDesign(t, m, s.p)
	pl, err := plan.New(m, plan.Options{Parallel: s.p})
	if err != nil {
		t.Fatal(err)
	}
	faults := []struct {
		name   string
		file   string
		mutate func(t *testing.T, content string) string
		field  string // expected in the MISMATCH lines
	}{
		{"expected class of vector 0 changed", "vectors/tv_exp.mem", flipLowBitOfLine(0), "field=class"},
		{"one W_in bit flipped", pl.MemFile("win"), flipWinBit(m, s.p), "field=score"},
		{"clip bound off by one", "rtl/" + pl.Prefix + "_core.v", clipOffByOne(s.kappa), "field=score"},
	}
	for _, f := range faults {
		t.Run(f.name, func(t *testing.T) {
			path := filepath.Join(dir, f.file)
			orig, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { os.WriteFile(path, orig, 0o644) })
			if err := os.WriteFile(path, []byte(f.mutate(t, string(orig))), 0o644); err != nil {
				t.Fatal(err)
			}
			checkFaultCaught(t, dir, f.field)
		})
	}
	// With every fault undone the design passes again (the harness is sound).
	rep, err := verify.Run(context.Background(), dir, verify.Options{Targets: []string{"stream"}, Steps: faultSteps()})
	if err != nil || !rep.Passed() {
		t.Fatalf("restored design does not pass: %v\n%s", err, text(rep))
	}
}

// TestGeneratorFaultCaught shows that verification of a generator design can
// fail: with the seed window of the emitted core changed (x_0 flipped), both
// simulators report score mismatches.
func TestGeneratorFaultCaught(t *testing.T) {
	hwtest.Require(t, hwtest.Icarus, hwtest.VerilatorLint, hwtest.Make)
	s := shape{arch: model.IntRVFL, k: 16, n: 64, l: 4, kappa: 3, bits: 5, p: 4, win: model.WinPRBS31}
	m := trainShape(t, s)
	dir := faultDesign(t, m, s.p)
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
	checkFaultCaught(t, dir, "field=score")
}

// TestVerilatorQuick is the quick tier's one Verilator model build (make
// check): a small intRVFL with P not dividing N, its stream top verified by
// Verilator against the Go simulator on every vector.
func TestVerilatorQuick(t *testing.T) {
	hwtest.Require(t, hwtest.QuickVerilator)
	s := shape{arch: model.IntRVFL, k: 3, n: 7, l: 3, kappa: 15, bits: 5, p: 3}
	m := trainShape(t, s)
	dir := filepath.Join(t.TempDir(), "design")
	if _, err := rtl.Emit(context.Background(), m, rtl.Options{Options: plan.Options{Parallel: s.p}, Vectors: faultVectors, Seed: 3}, dir); err != nil {
		t.Fatalf("emit: %v", err)
	}
	rep, err := verify.Run(context.Background(), dir, verify.Options{Targets: []string{"stream"},
		Steps: []verify.Step{verify.StepModel, verify.StepVerilator}})
	if err != nil || !rep.Passed() {
		t.Fatalf("verify: %v\n%s", err, text(rep))
	}
	for _, r := range rep.Steps {
		if r.Step == verify.StepVerilator && r.Vectors != faultVectors {
			t.Errorf("Verilator checked %d vectors, want %d", r.Vectors, faultVectors)
		}
	}
}

// flipLowBitOfLine flips the least significant bit (the class field's) of a line.
func flipLowBitOfLine(line int) func(*testing.T, string) string {
	return func(t *testing.T, s string) string {
		lines := strings.Split(s, "\n")
		l := lines[line]
		last := l[len(l)-1]
		var d byte
		fmt.Sscanf(string(last), "%x", &d)
		lines[line] = l[:len(l)-1] + fmt.Sprintf("%x", d^1)
		return strings.Join(lines, "\n")
	}
}

// flipWinBit flips one sign bit of the W_in ROM: the bit of feature 0 of the
// neuron with the largest readout weights, so the fault reaches the scores.
func flipWinBit(m *model.Model, p int) func(*testing.T, string) string {
	return func(t *testing.T, s string) string {
		n, c := m.N(), m.Columns()
		best, bestSum := 0, int32(-1)
		for j := 0; j < n; j++ {
			var sum int32
			for l := 0; l < m.L(); l++ {
				q := m.Readout.Q[l*c+j]
				sum += max(q, -q)
			}
			if sum > bestSum {
				best, bestSum = j, sum
			}
		}
		// ROM word g holds neurons g·P…g·P+P−1; lane j mod P occupies bits
		// [lane·K, lane·K+K) (feature i at bit lane·K + i).
		g, lane := best/p, best%p
		bit := lane * m.K()
		lines := strings.Split(s, "\n")
		w := lines[g]
		digit := len(w) - 1 - bit/4
		var d byte
		fmt.Sscanf(string(w[digit]), "%x", &d)
		lines[g] = w[:digit] + fmt.Sprintf("%x", d^(1<<(bit%4))) + w[digit+1:]
		return strings.Join(lines, "\n")
	}
}

// clipOffByOne raises the clip bound constant of the core by one.
func clipOffByOne(kappa int) func(*testing.T, string) string {
	return func(t *testing.T, s string) string {
		re := regexp.MustCompile(`(localparam integer CLIP\s*=\s*)(\d+);`)
		if !re.MatchString(s) {
			t.Fatal("no CLIP localparam in the core")
		}
		return re.ReplaceAllString(s, fmt.Sprintf("${1}%d;", kappa+1))
	}
}
