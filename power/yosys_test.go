package power_test

import (
	"context"
	"math"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"

	"github.com/hdlgen/hdlgen/hwstudy"
	"github.com/hdlgen/hdlgen/model"
	"github.com/hdlgen/hdlgen/power"
	"github.com/hdlgen/hdlgen/rtl"
	"github.com/hdlgen/hdlgen/synth"
)

// TestAnalyticWithinToleranceOfYosys synthesises a few small designs of both
// networks (together well under a minute) and checks the analytic model's
// stated tolerance (docs/energy-model.md): LUTs ±15 %, FFs ±10 %, DSP48E1 and
// block RAM exact. The full matrix is `hdlgen power --calibrate`.
func TestAnalyticWithinToleranceOfYosys(t *testing.T) {
	if _, err := exec.LookPath("yosys"); err != nil {
		t.Skip("yosys not installed")
	}
	shapes := []hwstudy.Shape{
		{Arch: model.IntRVFL, K: 4, N: 32, L: 2, Kappa: 1, Bits: 3, P: 1},
		{Arch: model.IntRVFL, K: 8, N: 128, L: 3, Kappa: 3, Bits: 5, P: 8},
		{Arch: model.RVFL8, K: 4, N: 32, L: 2, P: 1},
		{Arch: model.RVFL8, K: 8, N: 128, L: 3, P: 1},
	}
	root := t.TempDir()
	reports := make([]*synth.Report, len(shapes))
	errs := make([]error, len(shapes))
	var wg sync.WaitGroup
	sem := make(chan struct{}, 2)
	for i, s := range shapes {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			dir := filepath.Join(root, s.Name())
			if _, err := rtl.Emit(hwstudy.RandomModel(s, 1), rtl.Options{Parallel: s.P, Vectors: 4}, dir); err != nil {
				errs[i] = err
				return
			}
			reports[i], errs[i] = synth.Run(context.Background(), dir, synth.Options{})
		}()
	}
	wg.Wait()
	for i, s := range shapes {
		if errs[i] != nil {
			t.Fatalf("%s: %v", s.Name(), errs[i])
		}
		y := hwstudy.YosysResources(reports[i])
		a, err := power.Analytic(power.Design{Shape: power.Shape{Arch: s.Arch, K: s.K, L: s.L, Kappa: s.Kappa, Bits: s.Bits}, N: s.N, P: s.P})
		if err != nil {
			t.Fatal(err)
		}
		check := func(what string, got, want, tolPct float64) {
			if e := 100 * math.Abs(got-want) / want; e > tolPct {
				t.Errorf("%s: %s analytic %.1f, Yosys %.1f (%.1f %% > %.0f %%)", s.Name(), what, got, want, e, tolPct)
			}
		}
		check("LUT", float64(a.LUTs), float64(y.LUTs), 15)
		check("FF", float64(a.FFs), float64(y.FFs), 10)
		if a.DSP48E1 != y.DSP48E1 || a.BRAM36 != y.BRAM36 {
			t.Errorf("%s: DSP48E1 %d/%d, BRAM36 %.1f/%.1f (analytic/Yosys), want exact", s.Name(), a.DSP48E1, y.DSP48E1, a.BRAM36, y.BRAM36)
		}
	}
}
