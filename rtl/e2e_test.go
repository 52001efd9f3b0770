package rtl

import (
	"fmt"
	"testing"

	"github.com/hdlgen/hdlgen/internal/hwtest"
	testmodel "github.com/hdlgen/hdlgen/internal/randmodel"
	"github.com/hdlgen/hdlgen/model"
	"github.com/hdlgen/hdlgen/rtl/plan"
)

// TestLintMatrix emits designs covering every value of the CI matrix (N ∈ {1, 7,
// 64, 513}, K ∈ {1, 3, 16, 65}, L ∈ {2, 3, 10}, κ ∈ {1, 15}, readout bits ∈ {2, 5,
// 8}, P ∈ {1, 3, N}, both networks, both tops) and requires zero warnings from
// `verilator --lint-only -Wall --language 1364-2005` and `iverilog -g2005 -Wall`.
func TestLintMatrix(t *testing.T) {
	hwtest.Require(t, hwtest.VerilatorLint, hwtest.Icarus)
	cases := []struct {
		shape testmodel.Shape
		p     int
	}{
		{intShape(1, 1, 2, 1, 2), 1},
		{intShape(3, 7, 3, 15, 8), 3},
		{intShape(16, 64, 10, 1, 5), 64},
		{intShape(65, 7, 10, 15, 5), 7},
		{intShape(1, 64, 2, 15, 8), 3},
		{intShape(3, 513, 10, 1, 2), 1},
		{intShape(16, 513, 3, 15, 8), 513},
		{intShape(65, 64, 2, 1, 2), 3},
		{r8Shape(1, 1, 2), 1},
		{r8Shape(3, 7, 3), 3},
		{r8Shape(16, 64, 10), 64},
		{r8Shape(65, 7, 2), 7},
		{r8Shape(16, 513, 3), 3},
	}
	for i, tc := range cases {
		tc := tc
		t.Run(fmt.Sprintf("%s_p%d", tc.shape, tc.p), func(t *testing.T) {
			t.Parallel()
			m := testmodel.Random(tc.shape, fmt.Sprintf("lint %d", i), uint64(i+1))
			dir, rep := emitted(t, m, Options{Options: plan.Options{Parallel: tc.p}, Axis: true, Vectors: 20, Seed: 3})
			lint(t, dir, rep)
		})
	}
}

// TestSimulators runs the emitted RTL against the Go simulator's expectations in
// Icarus (every case, both tops) and Verilator (two cases): values and the exact
// accept / first-valid / transfer cycle of every vector, with random gaps and
// back-pressure. The quick tier (-short) runs Icarus on one small design per
// network (quick: true) and no Verilator; the standard tier adds the trained
// models, the full tier the corner shapes (full: true, with the two Verilator
// cases), which e2e's verification matrix covers in the standard tier.
func TestSimulators(t *testing.T) {
	hwtest.Require(t, hwtest.Icarus)
	withVerilator := hwtest.Missing(hwtest.Verilator) == ""
	cases := []struct {
		name      string
		shape     testmodel.Shape
		p         int
		trained   bool
		vectors   int
		verilator string // harness run under Verilator: "", "stream" or "axis"
		quick     bool   // also in the quick tier
		// full: the full tier's only (hwtest.Full); the standard tier's
		// verification matrix (e2e) verifies the same corners: P ∤ N, P = N,
		// K = 65, a wide rvfl8.
		full bool
	}{
		{"tiny", intShape(1, 1, 2, 1, 2), 1, false, 300, "", true, false},
		{"p_not_dividing_n", intShape(3, 7, 3, 15, 8), 3, false, 400, "axis", false, true},
		{"p_eq_n", intShape(16, 64, 10, 1, 5), 64, false, 300, "", false, true},
		{"wide_k", intShape(65, 33, 10, 15, 2), 5, false, 200, "", false, true},
		{"trained", intShape(5, 40, 3, 3, 5), 4, true, 300, "", false, false},
		{"rvfl8_tiny", r8Shape(1, 1, 2), 1, false, 300, "", true, false},
		{"rvfl8", r8Shape(16, 64, 4), 3, false, 150, "stream", false, true},
		{"rvfl8_p_eq_n", r8Shape(5, 7, 10), 7, false, 300, "", false, true},
		{"rvfl8_trained", r8Shape(5, 30, 3), 4, true, 200, "", false, false},
	}
	for i, tc := range cases {
		tc := tc
		t.Run(tc.name, func(t *testing.T) {
			if !tc.quick {
				hwtest.Require(t, hwtest.Slow("Icarus on every shape"))
			}
			if tc.full {
				hwtest.Require(t, hwtest.Full)
			}
			t.Parallel()
			m := testmodel.Random(tc.shape, tc.name, uint64(i+10))
			var rows [][]float64
			if tc.trained {
				// A trained model, half of the random vectors drawn from its data.
				var data model.Data
				m, data = testmodel.Trained(tc.shape, tc.name, uint64(i+10))
				k := data.K()
				for r := range data.Y {
					rows = append(rows, data.X[r*k:(r+1)*k])
				}
			}
			dir, rep := emitted(t, m, Options{Options: plan.Options{Parallel: tc.p}, Axis: true, Vectors: tc.vectors, Seed: uint64(i), Rows: rows})
			icarus(t, dir, rep, "stream")
			icarus(t, dir, rep, "axis")
			if tc.verilator != "" && withVerilator {
				verilator(t, dir, rep, tc.verilator)
			}
		})
	}
}
