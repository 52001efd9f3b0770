package power

import (
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/hdlgen/hdlgen/internal/golden"
	"github.com/hdlgen/hdlgen/model"
	"github.com/hdlgen/hdlgen/rtl/plan"
)

// TestAnalyticSnapshot pins the analytic model's output (every block of
// Breakdown, the estimate, the LUT factors and a few sizings) for a spread of
// designs in testdata/analytic.json, so that restructuring the package cannot
// change a number unnoticed; `go test ./power -run TestAnalyticSnapshot -update`
// rewrites the file after an intended change.
func TestAnalyticSnapshot(t *testing.T) {
	designs := []Design{
		{Shape: Shape{Arch: model.IntRVFL, K: 1, L: 2, Kappa: 1, Bits: 2}, N: 1, Options: plan.Options{Parallel: 1}},
		{Shape: Shape{Arch: model.IntRVFL, K: 3, L: 3, Kappa: 15, Bits: 5}, N: 7, Options: plan.Options{Parallel: 3}},
		{Shape: Shape{Arch: model.IntRVFL, K: 65, L: 10, Kappa: 1, Bits: 8}, N: 64, Options: plan.Options{Parallel: 64}},
		{Shape: Shape{Arch: model.IntRVFL, K: 16, L: 4, Kappa: 3, Bits: 5}, N: 512, Options: plan.Options{Parallel: 1}},
		{Shape: Shape{Arch: model.IntRVFL, K: 16, L: 4, Kappa: 3, Bits: 5}, N: 512, Options: plan.Options{Parallel: 8}},
		{Shape: Shape{Arch: model.IntRVFL, K: 16, L: 4, Kappa: 3, Bits: 5, EffBits: 2}, N: 512, Options: plan.Options{Parallel: 32}},
		{Shape: Shape{Arch: model.IntRVFL, K: 16, L: 4, Kappa: 3, Bits: 5}, N: 4096, Options: plan.Options{Parallel: 64}},
		{Shape: Shape{Arch: model.RVFL8, K: 1, L: 2}, N: 1, Options: plan.Options{Parallel: 1}},
		{Shape: Shape{Arch: model.RVFL8, K: 3, L: 10}, N: 7, Options: plan.Options{Parallel: 3}},
		{Shape: Shape{Arch: model.RVFL8, K: 16, L: 4}, N: 512, Options: plan.Options{Parallel: 1}},
		{Shape: Shape{Arch: model.RVFL8, K: 16, L: 4}, N: 512, Options: plan.Options{Parallel: 8}},
		{Shape: Shape{Arch: model.RVFL8, K: 16, L: 4, EffBits: 3}, N: 512, Options: plan.Options{Parallel: 8}},
		{Shape: Shape{Arch: model.RVFL8, K: 32, L: 2}, N: 2048, Options: plan.Options{Parallel: 16}},
	}
	type row struct {
		Design     Design
		Components []Component
		Estimate   Estimate
	}
	var snap struct {
		Factors map[model.Arch]map[string]float64
		Designs []row
		Sizings []Sizing
	}
	snap.Factors = map[model.Arch]map[string]float64{model.IntRVFL: LUTFactors(model.IntRVFL), model.RVFL8: LUTFactors(model.RVFL8)}
	for _, d := range designs {
		comps, err := Breakdown(d)
		if err != nil {
			t.Fatalf("%s: %v", d, err)
		}
		e, err := EstimateAnalytic(d, Params{})
		if err != nil {
			t.Fatalf("%s: %v", d, err)
		}
		snap.Designs = append(snap.Designs, row{d, comps, e})
	}
	for _, s := range []Shape{designs[4].Shape, designs[10].Shape} {
		for _, budget := range []float64{1e-8, 3.2e-6} {
			for _, on := range []Budgeted{BudgetDynamic, BudgetTotal} {
				sz, err := Size(budget, s, SizeOptions{Params: Params{BudgetOn: on}, MaxN: 1500})
				if err != nil {
					t.Fatalf("%v %g %s: %v", s, budget, on, err)
				}
				snap.Sizings = append(snap.Sizings, sz)
			}
		}
	}
	b, err := json.MarshalIndent(snap, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	golden.Check(t, filepath.Join("testdata", "analytic.json"), append(b, '\n'))
}
