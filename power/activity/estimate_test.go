package activity

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hdlgen/hdlgen/internal/hwtest"
	"github.com/hdlgen/hdlgen/internal/randmodel"
	"github.com/hdlgen/hdlgen/model"
	"github.com/hdlgen/hdlgen/rtl"
	"github.com/hdlgen/hdlgen/rtl/plan"
	"github.com/hdlgen/hdlgen/synth"
)

// TestActivityEndToEnd emits a small intRVFL, synthesises it, counts its
// toggles at gate level in both modes and checks the report's invariants.
func TestActivityEndToEnd(t *testing.T) {
	hwtest.Require(t, hwtest.Yosys, hwtest.Verilator, hwtest.Awk)
	m := randmodel.Random(randmodel.Shape{Arch: model.IntRVFL, K: 6, N: 24, L: 3, Kappa: 3, Bits: 4}, "act_small", 3)
	dir := filepath.Join(t.TempDir(), "hw")
	rep, err := rtl.Emit(context.Background(), m, rtl.Options{Options: plan.Options{Parallel: 4}, Vectors: 40, Seed: 2}, dir)
	if err != nil {
		t.Fatal(err)
	}
	const vecs = 6
	a, err := Estimate(context.Background(), dir, Options{Vectors: vecs, KeepBuild: true,
		Synth: synth.Options{CacheDir: t.TempDir()}})
	if err != nil {
		t.Fatal(err)
	}
	pl := rep.Plan
	if a.Vectorless.Cycles != pl.Latency || a.Vectorless.II != pl.II {
		t.Errorf("latency %d, II %d; want the plan's %d, %d", a.Vectorless.Cycles, a.Vectorless.II, pl.Latency, pl.II)
	}
	// Single: each vector waits for the previous output (latency + 1 cycles
	// per vector but the last); stream: one vector every II cycles.
	if want := vecs*(pl.Latency+1) - 1; a.Single.Cycles != want {
		t.Errorf("single run: %d cycles, want %d", a.Single.Cycles, want)
	}
	if want := (vecs-1)*pl.II + pl.Latency; a.Stream.Cycles != want {
		t.Errorf("stream run: %d cycles, want %d", a.Stream.Cycles, want)
	}
	for _, ap := range []ActivityPower{a.Single, a.Stream} {
		if ck := ap.Class(ClassClock); ck.Nets != 1 || ck.Rate != 2 {
			t.Errorf("%s: clock class %+v, want one net toggling twice per cycle", ap.Mode, ck)
		}
		for _, k := range []string{ClassLUT, ClassFF} {
			c := ap.Class(k)
			if c.Nets == 0 || !(c.Rate > 0 && c.Rate < 1) || !(c.W > 0) {
				t.Errorf("%s: class %s %+v, want nets toggling at a rate in (0, 1) and a power", ap.Mode, k, c)
			}
		}
		if ap.ClockW != a.Vectorless.ClockW {
			t.Errorf("%s: clock power %g, want the vectorless %g", ap.Mode, ap.ClockW, a.Vectorless.ClockW)
		}
	}
	if want := a.Single.DynamicW * float64(pl.Latency) / a.Vectorless.ClockHz; a.Single.EnergyJ != want {
		t.Errorf("single energy %g, want %g", a.Single.EnergyJ, want)
	}
	if want := a.Stream.DynamicW * float64(pl.II) / a.Vectorless.ClockHz; a.Stream.EnergyJ != want {
		t.Errorf("stream energy %g, want %g", a.Stream.EnergyJ, want)
	}
	var b strings.Builder
	if err := a.WriteText(&b); err != nil || !strings.Contains(b.String(), "activity, stream") {
		t.Errorf("WriteText: %v\n%s", err, b.String())
	}
	if js, err := json.Marshal(a); err != nil || !strings.Contains(string(js), `"weighted_rate"`) {
		t.Errorf("JSON: %v\n%s", err, js)
	}
	// The first estimate kept its gate-level model; a second one reuses it
	// (and the synthesis), counts the same toggles (the simulation is
	// deterministic) and, without KeepBuild, removes the model.
	build := filepath.Join(dir, filepath.FromSlash(ActivityDir))
	if _, err := os.Stat(filepath.Join(build, "obj", "Vdut")); err != nil {
		t.Errorf("KeepBuild: the model is gone: %v", err)
	}
	a2, err := Estimate(context.Background(), dir, Options{Vectors: vecs,
		Synth: synth.Options{CacheDir: t.TempDir()}})
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(a, a2); d != "" {
		t.Errorf("second estimate differs (-first +second):\n%s", d)
	}
	if _, err := os.Stat(build); !os.IsNotExist(err) {
		t.Errorf("without KeepBuild %s is left behind (%v)", build, err)
	}
}
