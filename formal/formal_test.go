package formal_test

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/hdlgen/hdlgen/formal"
	"github.com/hdlgen/hdlgen/internal/hwtest"
	"github.com/hdlgen/hdlgen/internal/randmodel"
	"github.com/hdlgen/hdlgen/model"
	"github.com/hdlgen/hdlgen/rtl"
	"github.com/hdlgen/hdlgen/rtl/plan"
)

// TestAXILiteProof proves the AXI4-Lite slave's properties for all depths by
// k-induction, and checks that each mutant of formal.AXILiteMutants is caught
// (a counterexample): the proof can fail.
func TestAXILiteProof(t *testing.T) {
	hwtest.Require(t, hwtest.Formal)
	ctx := context.Background()
	res, err := formal.AXILite(ctx, t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Verdict != formal.Proved {
		t.Fatalf("hdlgen_axil: %s\n%s", res.Verdict, res.Log)
	}
	t.Logf("hdlgen_axil: proved by %d-induction (%v CPU)", res.Depth, res.CPU)
	cpu := res.CPU
	for _, m := range formal.AXILiteMutants {
		t.Run(m.Name, func(t *testing.T) {
			res, err := formal.AXILite(ctx, t.TempDir(), &m)
			if err != nil {
				t.Fatal(err)
			}
			if res.Verdict != formal.Counterexample {
				t.Errorf("mutant %q: %s, want a counterexample", m.Name, res.Verdict)
			}
			cpu += res.CPU
		})
	}
	t.Logf("AXI4-Lite proof and %d mutants: %v CPU", len(formal.AXILiteMutants), cpu)
}

// systemShape is the design of the system proofs: 15 levels of 4 bits, 7 per
// beat, so a vector is B = 3 beats (first, middle, last); N = P = 8 (one
// group: a short II, so results come out within the depth); L = 2 with scores
// (classified records of 3 beats).
var systemShape = randmodel.Shape{Arch: model.IntRVFL, K: 15, N: 8, L: 2, Kappa: 3, Bits: 3}

// TestSystemProof checks the system top's properties by bounded model
// checking (formal.Depths cycles from reset) with the real classifier of a
// small design: the stream proof (hold, flush) and the framing proof (the
// reference model, the counters; formal/templates/system_props.v.tmpl), and
// that each mutant of formal.SystemMutants is caught within that depth (the
// first of each proof in the standard tier, every one in the full tier).
func TestSystemProof(t *testing.T) {
	hwtest.Require(t, hwtest.Formal)
	ctx := context.Background()
	m := randmodel.Random(systemShape, "fv", 3)
	dir := filepath.Join(t.TempDir(), "design")
	rep, err := rtl.Emit(ctx, m, rtl.Options{Options: plan.Options{Parallel: systemShape.N}, System: rtl.SystemZynq, Vectors: 4}, dir)
	if err != nil {
		t.Fatal(err)
	}
	d := formal.SystemDesign{Dir: dir, Plan: rep.Plan, Top: rep.SystemTop, RTLFiles: rep.RTLFiles, Scores: true}
	var cpu time.Duration
	for _, mode := range []string{formal.Stream, formal.Framing} {
		depth := formal.Depths[mode]
		t.Run(mode, func(t *testing.T) {
			res, err := formal.System(ctx, d, mode, depth, t.TempDir(), nil)
			if err != nil {
				t.Fatal(err)
			}
			if res.Verdict != formal.Proved {
				t.Fatalf("%s: %s within %d cycles\n%s", d.Top, res.Verdict, depth, res.Log)
			}
			t.Logf("%s, %s proof: every property holds for %d cycles from reset (%v CPU)", d.Top, mode, depth, res.CPU)
			cpu += res.CPU
			for i, mu := range formal.SystemMutants[mode] {
				t.Run(mu.Name, func(t *testing.T) {
					if i > 0 {
						// The standard tier shows the proof can fail with
						// one mutant; the full tier runs every mutant.
						hwtest.Require(t, hwtest.Full)
					}
					res, err := formal.System(ctx, d, mode, depth, t.TempDir(), &mu)
					if err != nil {
						t.Fatal(err)
					}
					if res.Verdict != formal.Counterexample {
						t.Errorf("mutant %q: %s within %d cycles, want a counterexample", mu.Name, res.Verdict, depth)
					}
					cpu += res.CPU
				})
			}
		})
	}
	t.Logf("system proofs and their mutants: %v CPU in bmc3", cpu)
}
