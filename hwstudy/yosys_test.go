package hwstudy

import (
	"context"
	"fmt"
	"math"
	"path/filepath"
	"sync"
	"testing"

	"github.com/hdlgen/hdlgen/internal/hwtest"
	"github.com/hdlgen/hdlgen/model"
	"github.com/hdlgen/hdlgen/power"
	"github.com/hdlgen/hdlgen/power/activity"
	"github.com/hdlgen/hdlgen/rtl"
	"github.com/hdlgen/hdlgen/rtl/plan"
	"github.com/hdlgen/hdlgen/synth"
)

// TestAnalyticWithinToleranceOfYosys synthesises a few small designs of both
// networks (a subset of CalibrationMatrix: two with N = 32, and in the full
// tier two with N = 128; about half a minute on two cores) and checks every resource against the analytic model's claimed
// tolerance, Claimed, which docs/energy-model.md states (a hwstudy test
// pins the two together): LUTs ±15 %, FFs ±5 %, CARRY4 ±5 %, DSP48E1 and
// block RAM exact. The full matrix is `hdlgen power --calibrate`
// (results/hardware/calibration.md).
func TestAnalyticWithinToleranceOfYosys(t *testing.T) {
	hwtest.Require(t, hwtest.Yosys)
	shapes := []Shape{
		{Arch: model.IntRVFL, K: 4, N: 32, L: 2, Kappa: 1, Bits: 3, P: 1},
		{Arch: model.RVFL8, K: 4, N: 32, L: 2, P: 1},
	}
	if hwtest.FullTier() {
		// The larger two, most of the Yosys time: the full tier's.
		shapes = append(shapes,
			Shape{Arch: model.IntRVFL, K: 8, N: 128, L: 3, Kappa: 3, Bits: 5, P: 8},
			Shape{Arch: model.RVFL8, K: 8, N: 128, L: 3, P: 1})
	}
	inMatrix := map[Shape]bool{}
	for _, s := range CalibrationMatrix {
		inMatrix[s] = true
	}
	root := t.TempDir()
	reports := make([]*synth.Report, len(shapes))
	errs := make([]error, len(shapes))
	var wg sync.WaitGroup
	sem := make(chan struct{}, 2)
	for i, s := range shapes {
		if !inMatrix[s] {
			t.Fatalf("%s is not in CalibrationMatrix", s.Name())
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			dir := filepath.Join(root, s.Name())
			if _, err := rtl.Emit(context.Background(), RandomModel(s, 1), rtl.Options{Options: plan.Options{Parallel: s.P}, Vectors: 4}, dir); err != nil {
				errs[i] = fmt.Errorf("emit: %w", err)
				return
			}
			// No cache directory: Yosys runs every time.
			reports[i], errs[i] = synth.Run(context.Background(), dir, synth.Options{})
		}()
	}
	wg.Wait()
	resources := []struct {
		name string
		get  func(power.Resources) float64
	}{
		{"LUT", func(r power.Resources) float64 { return float64(r.LUTs) }},
		{"FF", func(r power.Resources) float64 { return float64(r.FFs) }},
		{"CARRY4", func(r power.Resources) float64 { return float64(r.CARRY4) }},
		{"DSP48E1", func(r power.Resources) float64 { return float64(r.DSP48E1) }},
		{"BRAM36", func(r power.Resources) float64 { return r.BRAM36 }},
	}
	for i, s := range shapes {
		if errs[i] != nil {
			t.Fatalf("%s: %v", s.Name(), errs[i])
		}
		if reports[i].Cached {
			t.Fatalf("%s: report came from a cache, want a Yosys run", s.Name())
		}
		y := activity.YosysResources(reports[i])
		a, err := power.Analytic(power.Design{Shape: power.Shape{Arch: s.Arch, K: s.K, L: s.L, Kappa: s.Kappa, Bits: s.Bits}, N: s.N, Options: plan.Options{Parallel: s.P}})
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range resources {
			claim, ok := Claimed[r.name]
			if !ok {
				t.Fatalf("Claimed has no %s", r.name)
			}
			got, want := r.get(a), r.get(y)
			if got == want {
				continue
			}
			if want == 0 || 100*math.Abs(got-want)/want > claim {
				t.Errorf("%s: %s analytic %g, Yosys %g: outside the claimed ±%g %%", s.Name(), r.name, got, want, claim)
			}
		}
	}
}
