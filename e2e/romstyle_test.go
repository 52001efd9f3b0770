package e2e

import (
	"context"
	"path/filepath"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/hdlgen/hdlgen/model"
	"github.com/hdlgen/hdlgen/rtl"
	"github.com/hdlgen/hdlgen/rtl/plan"
	"github.com/hdlgen/hdlgen/synth"
	"github.com/hdlgen/hdlgen/verify"
)

// blockROMMatrix are designs emitted with --rom-style block: both networks,
// P > 1 and not dividing N (the ROMs are shallow and wide, which Yosys would
// otherwise put in LUTs), and a tiny design of two words per ROM.
var blockROMMatrix = []shape{
	{arch: model.IntRVFL, k: 5, n: 37, l: 3, kappa: 3, bits: 5, p: 4},
	{arch: model.RVFL8, k: 3, n: 13, l: 3, p: 4},
	{arch: model.IntRVFL, k: 2, n: 3, l: 2, kappa: 1, bits: 2, p: 2},
}

// TestBlockROMs: a design whose ROMs are asked to be block RAM is verified on
// both simulators and both tops, then at gate level on both simulators, and
// Yosys puts its W_in and readout ROMs (and the rvfl8's sigmoid table) in
// block RAM. The option changes attributes (hdlgen_rom.v, the sigmoid table
// of hdlgen_rvfl8_hidden.v), not the function, so the expected outputs are
// the default design's.
func TestBlockROMs(t *testing.T) {
	needGateLevel(t)
	root := t.TempDir()
	for _, s := range blockROMMatrix {
		t.Run(s.String(), func(t *testing.T) {
			m := trainShape(t, s)
			dir := filepath.Join(root, s.String())
			opt := rtl.Options{Parallel: s.p, Axis: true, Vectors: 300, Seed: 3, ROMStyle: plan.ROMStyleBlock}
			if _, err := rtl.Emit(context.Background(), m, opt, dir); err != nil {
				t.Fatalf("emit: %v", err)
			}
			steps := append(append([]verify.Step(nil), verify.AllSteps...), verify.StepGateVerilator, verify.StepGateIcarus)
			rep, err := verify.Run(context.Background(), dir, verify.Options{Steps: steps})
			if err != nil {
				t.Fatalf("verify: %v", err)
			}
			if !rep.Passed() {
				t.Fatalf("verification failed:\n%s", text(rep))
			}
			sr, err := synth.Cached(context.Background(), dir, synth.Options{})
			if err != nil || sr == nil {
				t.Fatalf("the gate-level steps left no current synthesis report: %v", err)
			}
			got := map[string]string{}
			for _, r := range sr.ROMs {
				got[r.Role] = r.Target
			}
			want := map[string]string{plan.ROMWin: "bram", plan.ROMWout: "bram"}
			if s.arch == model.RVFL8 {
				want[plan.ROMLUT] = "bram" // the sigmoid table too (templates.BlockSigmoid)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("ROM placement by Yosys (-want +got):\n%s", diff)
			}
		})
	}
}

// TestBlockROMsSameFunction: the block-ROM design's expected outputs and
// cycle counts are byte for byte the default design's (the option is a
// synthesis attribute): of all the files emitted, only hdlgen_rom.v (the
// attribute) and design.json (the style) differ.
func TestBlockROMsSameFunction(t *testing.T) {
	s := blockROMMatrix[0]
	m := trainShape(t, s)
	base := rtl.Options{Parallel: s.p, Axis: true, Vectors: 50, Seed: 3}
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
