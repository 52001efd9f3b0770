package e2e

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/hdlgen/hdlgen/board"
	"github.com/hdlgen/hdlgen/internal/hwtest"
	"github.com/hdlgen/hdlgen/model"
	"github.com/hdlgen/hdlgen/rtl"
	"github.com/hdlgen/hdlgen/rtl/plan"
	"github.com/hdlgen/hdlgen/synth"
	"github.com/hdlgen/hdlgen/verify"
)

// optionRow is one design of the option matrix: a shape and the emit options
// it is built with.
type optionRow struct {
	shape
	holdInput    bool   // --hold-input
	registerSums bool   // --register-sums
	blockROMs    bool   // --rom-style block
	adderLevels  int    // --adder-levels (0: the default rule)
	system       bool   // --system zynq (else the AXI4-Stream wrapper, --axis)
	reloadable   bool   // --reloadable-readout
	noScores     bool   // --no-scores
	gateLevel    bool   // also verify the synthesised netlist (gate level, both simulators)
	icebreaker   bool   // --board icebreaker: also the iCE40 UART top (lint, its Icarus testbench)
	compare      string // "", compareHold or compareSums: synthesise the design without that option and compare
	// standard: the row runs in the standard tier (make test) too; the
	// others only in the full tier (hwtest.Full). The standard rows take
	// every option value at least once (TestStandardOptionRowsCoverEveryValue),
	// the whole matrix every pair.
	standard bool
}

// The variants a row can be compared with (optionRow.compare).
const (
	compareHold = "hold-input"
	compareSums = "register-sums"
)

// optionVectors and optionSystemVectors are the test vectors of an option
// row (the system run needs more: it carries malformed vectors, stray beats,
// register reads, a free-running batch and, when reloadable, bank swaps and
// a readout reload).
const (
	optionVectors       = 200
	optionSystemVectors = 300
)

// optionICE40Vectors is how many vectors an iCEBreaker row sends through its
// UART top's Icarus testbench (the stream and AXI4-Stream tops check all
// optionVectors; the UART's framing, identity and error responses are the
// same for every vector; the UART top's own default is 64, and
// rtl.TestICE40Routed runs the routed netlist).
const optionICE40Vectors = 8

// optionMatrix covers every emit option and every pair of option values at
// least once (TestOptionMatrixCoversEveryPair checks it), on shapes that are
// each option's own corner cases: the generated W_in with P > 28 (the PRBS31
// recurrence's XORs chain), K = 1, a tiny N, κ ≥ K and a 16-group network at
// P = 8 (K = 16, N = 128: the median network's K, L and P); --hold-input with G = 16 (the group counter wraps by itself) and
// G = 1 (the transfer comes with the only group); --register-sums at P = 1
// (the lane sum is the product) and at P = N with a register after every
// lane-tree level; the system top with one beat per vector (K = 3) and with
// 22 beats (K = 65), with and without scores, reloadable or not; block-RAM
// ROMs on both networks. Every row is verified like the matrix (lint, the
// model step, Verilator and Icarus on each of its tops); gate-level rows also
// on the synthesised netlist in both simulators (two rows, which between them
// take every option value: gate-level simulation is most of a row's time).
// Rows with block-RAM ROMs or a comparison are synthesised with Yosys.
// Each shape is as small as its corner allows, since a row's Verilator build
// grows with the lanes' operators (P·K sign-flip inputs or multipliers, P·L
// MACs) and its Icarus run with the cycles (N/P groups a vector): the large
// designs (N = 513, fully parallel or not, and the median network) are the
// verification matrix's (docs/testing.md gives each row's time).
// docs/testing.md maps the earlier one-file-per-option tests onto these rows.
var optionMatrix = []optionRow{
	{shape: shape{arch: model.IntRVFL, k: 4, n: 45, l: 4, kappa: 3, bits: 5, p: 40, win: model.WinPRBS31}, registerSums: true, icebreaker: true},
	{shape: shape{arch: model.IntRVFL, k: 5, n: 37, l: 3, kappa: 3, bits: 5, p: 4}, holdInput: true, blockROMs: true, compare: compareHold},
	{shape: shape{arch: model.IntRVFL, k: 5, n: 37, l: 3, kappa: 3, bits: 5, p: 8}, registerSums: true, compare: compareSums},
	{shape: shape{arch: model.RVFL8, k: 3, n: 16, l: 3, p: 1}, holdInput: true, registerSums: true, adderLevels: 1, icebreaker: true, standard: true},
	{shape: shape{arch: model.RVFL8, k: 3, n: 13, l: 3, p: 4}, blockROMs: true, adderLevels: 1, icebreaker: true},
	{shape: shape{arch: model.IntRVFL, k: 7, n: 24, l: 5, kappa: 15, bits: 6, p: 0}, holdInput: true, registerSums: true, adderLevels: 1},
	{shape: shape{arch: model.IntRVFL, k: 3, n: 9, l: 2, kappa: 1, bits: 3, p: 1}, registerSums: true},
	{shape: shape{arch: model.IntRVFL, k: 16, n: 64, l: 3, kappa: 3, bits: 5, p: 1, win: model.WinPRBS31}},
	{shape: shape{arch: model.IntRVFL, k: 1, n: 20, l: 2, kappa: 1, bits: 3, p: 4, win: model.WinPRBS31}, holdInput: true, adderLevels: 1},
	{shape: shape{arch: model.IntRVFL, k: 2, n: 3, l: 2, kappa: 1, bits: 2, p: 2, win: model.WinPRBS31}, holdInput: true, registerSums: true, blockROMs: true, gateLevel: true, icebreaker: true, standard: true},
	{shape: shape{arch: model.RVFL8, k: 4, n: 10, l: 4, p: 10}, holdInput: true},
	{shape: shape{arch: model.IntRVFL, k: 3, n: 7, l: 3, kappa: 15, bits: 5, p: 3}, system: true, reloadable: true, adderLevels: 1, standard: true},
	{shape: shape{arch: model.RVFL8, k: 65, n: 13, l: 10, p: 1}, system: true, noScores: true, registerSums: true, blockROMs: true},
	{shape: shape{arch: model.IntRVFL, k: 5, n: 50, l: 3, kappa: 3, bits: 5, p: 3, win: model.WinPRBS31}, system: true, reloadable: true, noScores: true, registerSums: true, blockROMs: true},
	{shape: shape{arch: model.IntRVFL, k: 16, n: 128, l: 4, kappa: 3, bits: 5, p: 8, win: model.WinPRBS31}, system: true, reloadable: true},
	{shape: shape{arch: model.RVFL8, k: 3, n: 9, l: 3, p: 2}, system: true, reloadable: true, noScores: true, adderLevels: 1, gateLevel: true},
	{shape: shape{arch: model.IntRVFL, k: 7, n: 12, l: 10, kappa: 15, bits: 8, p: 0, win: model.WinPRBS31}, system: true, noScores: true, adderLevels: 1},
	// The two-layer intRVFL: group 0 holding both layers (N1 = 3, P = 4: S = 0;
	// two groups, so the block-RAM ROMs have two words), a register after every
	// adder level, gate level; P = 1 with a second-layer tree register
	// (N1 = 40); the system top with group 3 split (N1 = 15, P = 4).
	{shape: shape{arch: model.IntRVFL2, k: 3, n: 5, l: 2, kappa: 1, bits: 3, p: 4}, holdInput: true, registerSums: true, blockROMs: true, adderLevels: 1, gateLevel: true, icebreaker: true},
	{shape: shape{arch: model.IntRVFL2, k: 7, n: 80, l: 4, kappa: 7, bits: 6, p: 1}},
	{shape: shape{arch: model.IntRVFL2, k: 5, n: 30, l: 3, kappa: 3, bits: 5, p: 4}, system: true, reloadable: true, noScores: true, standard: true},
	// The random conjunctions (κ is D): K = 3 (a feature index of 2 bits
	// with an unused value), P = 4 over N = 5 (three idle lanes in the
	// second group, the constant unit alone in it), a register after every
	// adder level, gate level; D = 15 at P = 1 with K = 9 (a 9:1 select
	// over 16 padded codes, the units chosen on the training rows among 4
	// candidates each, --select 4; the standard tier's conj row, small for
	// its time); the system top with D = 1 and P = 4 not dividing N.
	{shape: shape{arch: model.Conj, k: 3, n: 5, l: 2, kappa: 2, p: 4}, holdInput: true, registerSums: true, blockROMs: true, adderLevels: 1, gateLevel: true, icebreaker: true},
	{shape: shape{arch: model.Conj, k: 9, n: 8, l: 4, kappa: 15, p: 1, sel: 4}, standard: true},
	{shape: shape{arch: model.Conj, k: 5, n: 30, l: 3, kappa: 1, p: 4}, system: true, reloadable: true, noScores: true},
	// The intRVFL's neurons and conjunctions in one layer: N1 = 4 neurons and
	// N2 = 3 units at P = 4 (group 1 holds the units and an idle lane), a
	// register after every adder level (a popcount cut beside the units'
	// select register), gate level; κ = 15 ≥ K = 9 at P = 1 (no popcount
	// cut: the neurons wait a clock for the units; the standard tier's
	// intconj row); the system top with group 3 holding both kinds (N1 = 15,
	// P = 4).
	{shape: shape{arch: model.IntConj, k: 3, n: 7, l: 2, kappa: 2, p: 4}, holdInput: true, registerSums: true, blockROMs: true, adderLevels: 1, gateLevel: true, icebreaker: true},
	{shape: shape{arch: model.IntConj, k: 9, n: 10, l: 4, kappa: 15, p: 1}, standard: true},
	{shape: shape{arch: model.IntConj, k: 5, n: 30, l: 3, kappa: 1, p: 4}, system: true, reloadable: true, noScores: true},
}

func (r optionRow) String() string {
	var b strings.Builder
	b.WriteString(r.shape.String())
	for _, o := range []struct {
		on   bool
		name string
	}{
		{r.holdInput, "hold"}, {r.registerSums, "sums"}, {r.blockROMs, "block"}, {r.adderLevels != 0, fmt.Sprintf("adder%d", r.adderLevels)},
		{r.system, "system"}, {r.reloadable, "reload"}, {r.noScores, "noscores"}, {r.gateLevel, "gate"},
		{r.icebreaker, "ice40"},
	} {
		if o.on {
			b.WriteString("_" + o.name)
		}
	}
	return b.String()
}

// options are the emit options of the row for a model with n neurons.
func (r optionRow) options(n int) rtl.Options {
	p := r.p
	if p == 0 {
		p = n
	}
	o := rtl.Options{Options: plan.Options{Parallel: p, HoldInput: r.holdInput, RegisterSums: r.registerSums, AdderLevelsPerStage: r.adderLevels, ReloadableReadout: r.reloadable}, Axis: !r.system, Vectors: optionVectors, Seed: 5, SystemNoScores: r.noScores}
	if r.icebreaker {
		o.Board = board.NameIceBreaker
	}
	if r.blockROMs {
		o.ROMStyle = plan.ROMStyleBlock
	}
	if r.system {
		o.System, o.Vectors = rtl.SystemZynq, optionSystemVectors
	}
	return o
}

// factors are the option values of a row, by option name, for the pairwise
// coverage check.
func (r optionRow) factors() map[string]string {
	yes := func(b bool) string { return fmt.Sprint(b) }
	top := "axis"
	if r.system {
		top = "system"
	}
	win := string(r.win)
	if win == "" {
		win = string(model.WinStored)
	}
	return map[string]string{
		"network": string(r.arch), "win": win, "hold-input": yes(r.holdInput), "register-sums": yes(r.registerSums),
		"rom-style block": yes(r.blockROMs), "adder-levels 1": yes(r.adderLevels == 1), "top": top,
		"reloadable": yes(r.reloadable), "no-scores": yes(r.noScores), "gate level": yes(r.gateLevel),
		"board": map[bool]string{false: board.NameZedBoard, true: board.NameIceBreaker}[r.icebreaker],
	}
}

// optionValues are every value of every factor.
var optionValues = map[string][]string{
	"network": {string(model.IntRVFL), string(model.RVFL8), string(model.IntRVFL2), string(model.Conj), string(model.IntConj)}, "win": {string(model.WinStored), string(model.WinPRBS31)},
	"hold-input": {"false", "true"}, "register-sums": {"false", "true"}, "rom-style block": {"false", "true"},
	"adder-levels 1": {"false", "true"}, "top": {"axis", "system"}, "reloadable": {"false", "true"},
	"no-scores": {"false", "true"}, "gate level": {"false", "true"},
	"board": {board.NameZedBoard, board.NameIceBreaker},
}

// legalPair reports whether two option values can be combined: a generated
// W_in is the intRVFL's, --hold-input is not for the system top, and a
// reloadable readout and records without scores are the system top's.
func legalPair(f1, v1, f2, v2 string) bool {
	a := map[string]string{f1: v1, f2: v2}
	has := func(f, v string) bool { return a[f] == v }
	switch {
	case has("win", string(model.WinPRBS31)) && (has("network", string(model.RVFL8)) || has("network", string(model.IntRVFL2)) || has("network", string(model.Conj)) || has("network", string(model.IntConj))):
		return false
	case has("hold-input", "true") && has("top", "system"):
		return false
	case (has("reloadable", "true") || has("no-scores", "true")) && (has("top", "axis") || has("hold-input", "true")):
		return false
	case has("board", board.NameIceBreaker) && (has("top", "system") || has("reloadable", "true") || has("no-scores", "true")):
		return false
	}
	return true
}

// TestOptionMatrixCoversEveryPair checks the option matrix's promise: every
// legal pair of option values appears in at least one row, and no row
// combines options emit refuses.
func TestOptionMatrixCoversEveryPair(t *testing.T) {
	names := slices.Sorted(func(yield func(string) bool) {
		for f := range optionValues {
			if !yield(f) {
				return
			}
		}
	})
	for _, r := range optionMatrix {
		m := trainShape(t, r.shape)
		if _, _, err := rtl.Generate(context.Background(), m, withVectors(r.options(m.N()), 4)); err != nil {
			t.Errorf("%s: emit refuses the row: %v", r, err)
		}
	}
	for i, f1 := range names {
		for _, f2 := range names[i+1:] {
			for _, v1 := range optionValues[f1] {
				for _, v2 := range optionValues[f2] {
					if !legalPair(f1, v1, f2, v2) {
						continue
					}
					found := slices.ContainsFunc(optionMatrix, func(r optionRow) bool {
						fs := r.factors()
						return fs[f1] == v1 && fs[f2] == v2
					})
					if !found {
						t.Errorf("no row has %s = %s together with %s = %s", f1, v1, f2, v2)
					}
				}
			}
		}
	}
}

// TestStandardOptionRowsCoverEveryValue checks the standard tier's promise:
// its rows of the option matrix take every value of every option at least
// once (the full tier's whole matrix takes every pair).
func TestStandardOptionRowsCoverEveryValue(t *testing.T) {
	for f, values := range optionValues {
		for _, v := range values {
			if !slices.ContainsFunc(optionMatrix, func(r optionRow) bool { return r.standard && r.factors()[f] == v }) {
				t.Errorf("no standard row has %s = %s", f, v)
			}
		}
	}
}

func withVectors(o rtl.Options, n int) rtl.Options {
	o.Vectors = n
	return o
}

// TestOptionMatrix verifies every row on both simulators and each of its tops
// (and gate-level rows on the synthesised netlist too), then checks what each
// option promises: no W_in ROM with a generated W_in; block RAM for the ROMs
// Yosys places with --rom-style block; with --hold-input at least IW fewer
// flip-flops and one cycle less latency than the same design with the input
// register; with --register-sums at least three quarters of the planned
// saving (P·L·PW − L·TW flip-flops) and the same latency and IIs.
func TestOptionMatrix(t *testing.T) {
	hwtest.Require(t, hwtest.Verilator, hwtest.Icarus)
	root := t.TempDir()
	for _, r := range optionMatrix {
		t.Run(r.String(), func(t *testing.T) {
			if !r.standard {
				hwtest.Require(t, hwtest.Full)
			}
			if r.gateLevel || r.compare != "" || r.blockROMs {
				hwtest.Require(t, hwtest.Yosys, hwtest.Awk)
			}
			t.Parallel()
			m := trainShape(t, r.shape)
			opt := r.options(m.N())
			dir := filepath.Join(root, r.String())
			rep := emitVerified(t, m, opt, dir, r.gateLevel)
			t.Log(text(rep.verify))
			checkOptionSteps(t, r, rep)
			pl := rep.emit.Plan
			if r.win == model.WinPRBS31 {
				if pl.HasROM(plan.ROMWin) {
					t.Errorf("a generated W_in, and the plan has a W_in ROM")
				}
				if _, err := os.Stat(filepath.Join(dir, pl.MemFile(plan.ROMWin))); !os.IsNotExist(err) {
					t.Errorf("%s: %v, want no such file", pl.MemFile(plan.ROMWin), err)
				}
			}
			if r.blockROMs {
				checkBlockROMs(t, r, dir, pl)
			}
			switch r.compare {
			case compareHold:
				opt.HoldInput = false
				held, reg, regRep := synthVariant(t, dir, m, opt, dir+"_register")
				if saved := reg.FFs - held.FFs; saved < pl.IW {
					t.Errorf("FFs %d with the input register, %d without: %d saved, want ≥ IW = %d", reg.FFs, held.FFs, saved, pl.IW)
				}
				if pl.Latency != regRep.Plan.Latency-1 || pl.II != regRep.Plan.II {
					t.Errorf("latency %d, II %d without the input register; %d, %d with it", pl.Latency, pl.II, regRep.Plan.Latency, regRep.Plan.II)
				}
			case compareSums:
				opt.RegisterSums = false
				sums, prod, prodRep := synthVariant(t, dir, m, opt, dir+"_products")
				planned := pl.P*pl.L*pl.PW - pl.L*pl.TW
				if saved := prod.FFs - sums.FFs; 4*saved < 3*planned {
					t.Errorf("FFs %d with the product register, %d with the lane-sum register: %d saved, want ≥ 3/4 of P·L·PW − L·TW = %d",
						prod.FFs, sums.FFs, saved, planned)
				}
				if pl.Latency != prodRep.Plan.Latency || pl.II != prodRep.Plan.II || pl.AxisII != prodRep.Plan.AxisII {
					t.Errorf("latency %d, II %d, AXI4-Stream II %d with the lane-sum register; %d, %d, %d with the product register",
						pl.Latency, pl.II, pl.AxisII, prodRep.Plan.Latency, prodRep.Plan.II, prodRep.Plan.AxisII)
				}
			}
		})
	}
}

// checkOptionSteps checks that lint, Verilator and Icarus ran on each of the
// row's tops (stream and AXI4-Stream, or stream and system), the simulators
// on every vector, and the gate-level steps when asked.
func checkOptionSteps(t *testing.T, r optionRow, rep verified) {
	t.Helper()
	want := map[string]bool{}
	for _, top := range []string{"stream", map[bool]string{false: "axis", true: "system"}[r.system]} {
		for _, st := range []verify.Step{verify.StepLint, verify.StepVerilator, verify.StepIcarus} {
			want[string(st)+"/"+top] = true
		}
	}
	if r.icebreaker {
		want[string(verify.StepLint)+"/ice40"] = true
		want[string(verify.StepIcarus)+"/ice40"] = true
	}
	if r.gateLevel {
		want[string(verify.StepGateVerilator)+"/stream"] = true
		want[string(verify.StepGateIcarus)+"/stream"] = true
	}
	got := map[string]bool{}
	for _, s := range rep.verify.Steps {
		if s.Step == verify.StepModel {
			continue
		}
		got[string(s.Step)+"/"+s.Target] = true
		if s.Step != verify.StepLint && s.Vectors == 0 {
			t.Errorf("%s checked no vectors", s.Name)
		}
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("steps and tops (-want +got):\n%s", diff)
	}
}

// checkBlockROMs synthesises a --rom-style block design (or takes the
// report the gate-level steps left) and checks where Yosys put its ROMs: the
// W_in ROM (when stored), the readout ROM (or, reloadable, the readout RAM)
// and the rvfl8's sigmoid table in block RAM.
func checkBlockROMs(t *testing.T, r optionRow, dir string, pl *plan.Plan) {
	t.Helper()
	sr, err := synth.Run(context.Background(), dir, synth.Options{})
	if err != nil {
		t.Fatalf("synth: %v", err)
	}
	got := map[string]string{}
	for _, rom := range sr.ROMs {
		got[rom.Role] = rom.Target
	}
	want := map[string]string{}
	for _, role := range []string{plan.ROMWin, plan.ROMWout, plan.ROMLUT} {
		if pl.HasROM(role) && !(role == plan.ROMWout && r.reloadable) {
			want[role] = "bram"
		}
	}
	if r.reloadable {
		want[""] = "bram" // the readout RAM, which has no .mem file to name its role
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("ROM placement by Yosys (-want +got):\n%s", diff)
	}
}

// TestBlockROMsSameFunction: the block-ROM design's expected outputs and
// cycle counts are byte for byte the default design's (the option is a
// synthesis attribute): of all the files emitted, only hdlgen_rom.v (the
// attribute) and design.json (the style) differ.
func TestBlockROMsSameFunction(t *testing.T) {
	s := shape{arch: model.IntRVFL, k: 5, n: 37, l: 3, kappa: 3, bits: 5, p: 4}
	m := trainShape(t, s)
	base := rtl.Options{Options: plan.Options{Parallel: s.p}, Axis: true, Vectors: 50, Seed: 3}
	block := base
	block.ROMStyle = plan.ROMStyleBlock
	a, _, err := rtl.Generate(context.Background(), m, base)
	if err != nil {
		t.Fatal(err)
	}
	b, _, err := rtl.Generate(context.Background(), m, block)
	if err != nil {
		t.Fatal(err)
	}
	var differ []string
	for name, content := range a {
		if string(b[name]) != string(content) {
			differ = append(differ, name)
		}
	}
	if len(a) != len(b) {
		t.Errorf("%d files by default, %d with block ROMs", len(a), len(b))
	}
	if diff := cmp.Diff([]string{"design.json", "rtl/hdlgen_rom.v"}, slices.Sorted(slices.Values(differ))); diff != "" {
		t.Errorf("files that differ with --rom-style block (-want +got):\n%s", diff)
	}
}
