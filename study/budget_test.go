package study

import (
	"bytes"
	"context"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hdlgen/hdlgen/protocol"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/hdlgen/hdlgen/dataset"
	"github.com/hdlgen/hdlgen/internal/jobs"
	"github.com/hdlgen/hdlgen/model"
	"github.com/hdlgen/hdlgen/power"
	"github.com/hdlgen/hdlgen/rtl/plan"
	"github.com/hdlgen/hdlgen/synth"
)

func TestParseBudgets(t *testing.T) {
	med, err := MedianBudget(power.Params{})
	if err != nil {
		t.Fatal(err)
	}
	type lj struct {
		Label  string
		J      float64
		Median bool
	}
	tests := []struct {
		in      string
		want    []lj
		wantErr string
	}{
		{in: "3.2uJ", want: []lj{{"3.2uJ", 3.2e-6, false}}},
		{in: "3.2uJ,median", want: []lj{{"3.2uJ", 3.2e-6, false}, {"median", med.BudgetedJ, true}}},
		{in: " 3.2 µJ , MEDIAN ", want: []lj{{"3.2uJ", 3.2e-6, false}, {"median", med.BudgetedJ, true}}},
		{in: "4nJ,3.2e-6J", want: []lj{{"4nJ", 4e-9, false}, {"3.2e-6J", 3.2e-6, false}}},
		{in: "", wantErr: "no budget"},
		{in: "3.2", wantErr: "no unit"},
		{in: "typical", wantErr: "median"},
		{in: "-1uJ", wantErr: "> 0"},
		{in: "median,median", wantErr: "listed twice"},
		{in: "3.2uJ,3.2µJ", wantErr: "listed twice"},
	}
	for _, tc := range tests {
		got, err := ParseBudgets(tc.in, power.Params{})
		if tc.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("ParseBudgets(%q) error %v, want one mentioning %q", tc.in, err, tc.wantErr)
			}
			continue
		}
		if err != nil {
			t.Errorf("ParseBudgets(%q): %v", tc.in, err)
			continue
		}
		var g []lj
		for _, b := range got {
			g = append(g, lj{b.Label, b.J, b.Median})
			if b.Median != (b.MedianDesign != nil) {
				t.Errorf("ParseBudgets(%q): %s: median %v but design %v", tc.in, b.Label, b.Median, b.MedianDesign)
			}
		}
		if d := cmp.Diff(tc.want, g, cmpopts.EquateApprox(1e-12, 0)); d != "" {
			t.Errorf("ParseBudgets(%q) (-want +got):\n%s", tc.in, d)
		}
	}
}

// TestMedianBudget: the median budget is the smallest energy of the median
// network over the sizer's parallelisms, and the sizer given that budget
// returns at least the median network's N.
func TestMedianBudget(t *testing.T) {
	e, err := MedianBudget(power.Params{})
	if err != nil {
		t.Fatal(err)
	}
	if e.Design.N != power.MedianN || e.Design.Shape != power.MedianShape || e.BudgetOn != power.BudgetDynamic || e.BudgetedJ != e.DynamicJ {
		t.Fatalf("median design %+v, want the dynamic energy of %v N=%d", e.Design, power.MedianShape, power.MedianN)
	}
	for _, p := range power.DefaultPs {
		if p > power.MedianN {
			break
		}
		o, err := power.EstimateAnalytic(power.Design{Shape: power.MedianShape, N: power.MedianN, Options: plan.Options{Parallel: p}}, power.Params{})
		if err != nil {
			t.Fatal(err)
		}
		r := o.Resources
		fits, _ := synth.XC7Z020.Fits(r.LUTs+r.LUTRAM, r.FFs, r.DSP48E1, r.BRAM36)
		if fits && o.BudgetedJ < e.BudgetedJ {
			t.Errorf("P=%d gives %g J < the median budget %g J (P=%d)", p, o.BudgetedJ, e.BudgetedJ, e.Design.P())
		}
	}
	s, err := power.Size(e.BudgetedJ, power.MedianShape, power.SizeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if s.N < power.MedianN {
		t.Errorf("sizer at the median budget: N=%d, want ≥ %d", s.N, power.MedianN)
	}
}

// TestSizeCandidateCappedMonotone: the trained N never exceeds the cap, equals
// min(sized N, cap), fits the budget, and neither N decreases as the budget grows.
func TestSizeCandidateCappedMonotone(t *testing.T) {
	shapes := []power.Shape{
		{Arch: model.IntRVFL, K: 16, L: 4, Kappa: 1, Bits: 5},
		{Arch: model.IntRVFL, K: 16, L: 4, Kappa: 15, Bits: 5},
		{Arch: model.IntRVFL, K: 60, L: 3, Kappa: 3, Bits: 5},
		{Arch: model.RVFL8, K: 16, L: 4},
		{Arch: model.RVFL8, K: 4, L: 3},
	}
	const capN = 1500
	for _, s := range shapes {
		prev := BudgetCandidate{}
		reachedCap := false
		for e := -10.0; e <= -5; e += 0.25 {
			budget := math.Pow(10, e)
			c, err := SizeCandidate(budget, s, capN, power.Params{})
			if err != nil {
				t.Fatalf("%v at %g J: %v", s, budget, err)
			}
			if c.Impossible != "" {
				if prev.N > 0 {
					t.Errorf("%v: impossible at %g J after N=%d at a smaller budget", s, budget, prev.N)
				}
				continue
			}
			if c.N < 1 || c.N > capN || c.N != min(c.SizedN, capN) {
				t.Errorf("%v at %g J: N=%d, sized %d, want N = min(sized, %d) ≥ 1", s, budget, c.N, c.SizedN, capN)
			}
			if c.N < prev.N || c.SizedN < prev.SizedN {
				t.Errorf("%v: N %d→%d, sized %d→%d as the budget grows to %g J", s, prev.N, c.N, prev.SizedN, c.SizedN, budget)
			}
			if c.EnergyJ > budget || c.P < 1 || c.P > c.N {
				t.Errorf("%v at %g J: design N=%d P=%d needs %g J", s, budget, c.N, c.P, c.EnergyJ)
			}
			reachedCap = reachedCap || c.N == capN
			prev = c
		}
		if !reachedCap {
			t.Errorf("%v: N never reached the cap %d up to 10 µJ", s, capN)
		}
	}
	// A shape that fits the device with no N, and a budget below any design.
	for _, tc := range []struct {
		s      power.Shape
		budget float64
	}{
		{power.Shape{Arch: model.RVFL8, K: 262, L: 13}, 3.2e-6},
		{power.Shape{Arch: model.IntRVFL, K: 16, L: 4, Kappa: 3, Bits: 5}, 1e-15},
	} {
		c, err := SizeCandidate(tc.budget, tc.s, capN, power.Params{})
		if err != nil || c.Impossible == "" || c.N != 0 {
			t.Errorf("%v at %g J: %+v, %v; want an impossible candidate", tc.s, tc.budget, c, err)
		}
	}
}

// TestBudgetSearchMatchesDeployedModel: the validation counts of the search
// equal those of the deployed model trained directly (5-bit intRVFL readout,
// 8-bit rvfl8), under both regularisers.
func TestBudgetSearchMatchesDeployedModel(t *testing.T) {
	u, err := dataset.LoadUCI(collection(t), "iris")
	if err != nil {
		t.Fatal(err)
	}
	lambdas := []float64{1.0 / 64, 0.25, 4}
	sp := protocol.NewSplit(u)
	for _, reg := range []model.Regularizer{model.RegVariance, model.RegIdentity} {
		for _, nw := range BudgetNetworks {
			cands := []BudgetCandidate{{N: 30}}
			if nw == protocol.IntRVFL {
				// κ=3 at N=40, κ=7 at N=30, and an impossible κ.
				cands = []BudgetCandidate{{Kappa: 3, N: 40}, {Kappa: 7, N: 30}, {Kappa: 15, Impossible: "too costly"}}
			}
			if sp.MTrain >= 30 {
				cands = append(cands, BudgetCandidate{Kappa: cands[0].Kappa, N: 120}) // dual system (M < N)
			}
			chosen, best, err := budgetSearch(context.Background(), u, nw, cands, lambdas, 0, reg)
			if err != nil {
				t.Fatal(err)
			}
			maxC := -1
			for ci, c := range cands {
				if c.Impossible != "" {
					if c.Correct != nil {
						t.Errorf("%s: impossible candidate was searched", nw)
					}
					continue
				}
				for li, lambda := range lambdas {
					cfg := nw.Config(c.N, lambda, c.Kappa)
					cfg.Regularizer = reg
					if nw == protocol.IntRVFL {
						cfg.ReadoutBits = BudgetReadoutBits
					}
					d := model.Data{X: sp.XTrain, Y: sp.YTrain, ClassNames: u.Data.ClassNames}
					k := u.Data.K()
					m, err := model.TrainNormalized(context.Background(), d, sp.XTrain, model.Normalizer{Min: make([]float64, k), Max: onesVec(k)}, cfg)
					if err != nil {
						t.Fatal(err)
					}
					if m.Readout == nil {
						t.Fatalf("%s: trained model has no integer readout", nw)
					}
					want := int(math.Round(m.AccuracyNormalized(sp.XVal, sp.MVal, sp.YVal) * float64(sp.MVal)))
					if c.Correct[li] != want {
						t.Errorf("%s %s cand %d (N=%d κ=%d) λ=%g: search %d correct, deployed model %d", reg, nw, ci, c.N, c.Kappa, lambda, c.Correct[li], want)
					}
					maxC = max(maxC, c.Correct[li])
				}
			}
			if best.Correct != maxC || cands[chosen].N != best.N || cands[chosen].Kappa != best.Kappa {
				t.Errorf("%s %s: chose %+v (candidate %d), max correct %d", reg, nw, best, chosen, maxC)
			}
		}
	}
}

func onesVec(k int) []float64 {
	v := make([]float64, k)
	for i := range v {
		v[i] = 1
	}
	return v
}

// TestBudgetStudyEndToEnd runs the stage on three tiny datasets (plus the
// incomplete miniboone) at three budgets — the paper's, the median network's,
// and one below any design — checks the report, that a rerun reuses every
// stored job, and that the results do not depend on the worker count.
func TestBudgetStudyEndToEnd(t *testing.T) {
	dir := collection(t)
	out := t.TempDir()
	budgets, err := ParseBudgets("3.2uJ,median,1pJ", power.Params{})
	if err != nil {
		t.Fatal(err)
	}
	var progress bytes.Buffer
	opt := BudgetOptions{DataDir: dir, OutDir: out, Datasets: []string{"iris", "fertility", "balloons", "miniboone"},
		Budgets: budgets, Grid: smallGrid, Seeds: []uint64{0, 1}, Regularizer: model.RegIdentity, Progress: &progress}
	s, err := RunBudget(context.Background(), opt)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Results) != 3*3*2 {
		t.Fatalf("%d results, want 18", len(s.Results))
	}
	if len(s.Skipped) != 1 || s.Skipped[0].Dataset != "miniboone" || !strings.Contains(s.Skipped[0].Reason, "missing") {
		t.Errorf("skipped = %+v, want miniboone with its reason", s.Skipped)
	}
	capN := smallGrid.Ns[len(smallGrid.Ns)-1]
	for _, r := range s.Results {
		p := filepath.Join(out, "budget", r.Budget, "runs", string(r.Network), r.Dataset+".json")
		if _, err := os.Stat(p); err != nil {
			t.Errorf("stored result: %v", err)
		}
		if r.Regularizer != model.RegIdentity {
			t.Errorf("%s %s: regulariser %q", r.Budget, r.Dataset, r.Regularizer)
		}
		if r.Budget == "1pJ" {
			if r.Impossible == "" || r.Eval != nil {
				t.Errorf("1pJ %s/%s: want an impossible result, got %+v", r.Dataset, r.Network, r)
			}
			continue
		}
		c := r.Selected()
		if r.Impossible != "" || c == nil || r.Eval == nil || c.N < 1 || c.N > capN || c.EnergyJ > r.BudgetJ {
			t.Fatalf("%s %s/%s: %+v", r.Budget, r.Dataset, r.Network, r)
		}
		if r.Budget == "3.2uJ" && c.N != capN {
			t.Errorf("3.2uJ %s/%s: N=%d, want the cap %d", r.Dataset, r.Network, c.N, capN)
		}
		if r.Eval.Mean < 0.5 || r.Eval.Mean > 1 {
			t.Errorf("%s %s/%s: accuracy %.3f implausible", r.Budget, r.Dataset, r.Network, r.Eval.Mean)
		}
	}
	sum, err := WriteBudgetReport(out, s, "test", time.Date(2026, 11, 23, 0, 0, 0, 0, time.UTC))
	if err != nil {
		t.Fatal(err)
	}
	if len(sum.Budgets) != 3 || sum.Budgets[0].Datasets != 3 || sum.Budgets[0].Comparison == nil ||
		sum.Budgets[2].Datasets != 0 || len(sum.Budgets[2].Impossible) != 6 {
		t.Fatalf("summary %+v", sum.Budgets)
	}
	tsv, err := os.ReadFile(filepath.Join(out, "budget", "accuracy.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	if lines := strings.Count(string(tsv), "\n"); lines != 1+18 {
		t.Errorf("accuracy.tsv has %d lines, want header + 18", lines)
	}
	for _, f := range []string{"summary.json", "summary.md", "fig7-3.2uJ.svg", "fig7-median.svg", "fig7-1pJ.svg"} {
		if _, err := os.Stat(filepath.Join(out, "budget", f)); err != nil {
			t.Error(err)
		}
	}
	md, err := os.ReadFile(filepath.Join(out, "budget", "summary.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"miniboone", "0.73", "0.65", "two-sample t", "No N ≥ 1 fits", "median intRVFL (K=16, N=512, L=4"} {
		if !strings.Contains(string(md), want) {
			t.Errorf("summary.md does not mention %q", want)
		}
	}
	var js map[string]any
	data, err := os.ReadFile(filepath.Join(out, "budget", "summary.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &js); err != nil {
		t.Fatalf("summary.json: %v", err)
	}
	if !strings.Contains(progress.String(), "ETA") || !strings.Contains(progress.String(), "/18]") {
		t.Errorf("no i/n progress with ETA: %q", progress.String())
	}

	again, err := RunBudget(context.Background(), opt)
	if err != nil {
		t.Fatal(err)
	}
	if again.Reused != 18 || len(again.Results) != 18 {
		t.Errorf("rerun reused %d of %d results, want 18 of 18", again.Reused, len(again.Results))
	}
	// Another regulariser is another study: nothing is reused.
	opt2 := opt
	opt2.Regularizer, opt2.Budgets, opt2.Datasets = model.RegVariance, budgets[2:], []string{"balloons"}
	if third, err := RunBudget(context.Background(), opt2); err != nil || third.Reused != 0 || len(third.Results) != 2 {
		t.Errorf("changed regulariser: %v, reused %d of %d", err, third.Reused, len(third.Results))
	}

	// One worker in a fresh folder: the same results.
	opt.OutDir, opt.Workers, opt.Progress = t.TempDir(), 1, nil
	one, err := RunBudget(context.Background(), opt)
	if err != nil {
		t.Fatal(err)
	}
	ignore := cmpopts.IgnoreFields(BudgetResult{}, "SearchSeconds")
	if d := cmp.Diff(s.Results, one.Results, ignore, cmpopts.IgnoreFields(protocol.EvalResult{}, "Seconds")); d != "" {
		t.Errorf("results depend on the worker count (-2 workers +1 worker):\n%s", d)
	}
}

// TestBudgetResumeSkipsFinishedWork stores one finished job's result with a
// marker in it and checks that a run reuses it instead of recomputing.
func TestBudgetResumeSkipsFinishedWork(t *testing.T) {
	dir := collection(t)
	out := t.TempDir()
	budgets, err := ParseBudgets("median", power.Params{})
	if err != nil {
		t.Fatal(err)
	}
	opt := BudgetOptions{DataDir: dir, OutDir: out, Datasets: []string{"balloons"}, Budgets: budgets,
		Grid: smallGrid, Seeds: []uint64{0}, Workers: 1}
	first, err := RunBudget(context.Background(), opt)
	if err != nil || len(first.Results) != 2 {
		t.Fatalf("first run: %v, %d results", err, len(first.Results))
	}
	// Mark the stored intRVFL result and delete the rvfl8 one.
	st := jobs.Store{Dir: BudgetDir(out)}
	p := budgetPath("median", protocol.IntRVFL, "balloons")
	r := new(BudgetResult)
	ok, err := st.Load(p, first.Results[0].Fingerprint, first.Results[0].Data, r)
	if err != nil || !ok {
		t.Fatalf("stored result: %v %v", ok, err)
	}
	r.SearchSeconds = -42
	if err := st.Save(p, r); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(st.Path(budgetPath("median", protocol.RVFL8, "balloons"))); err != nil {
		t.Fatal(err)
	}
	second, err := RunBudget(context.Background(), opt)
	if err != nil {
		t.Fatal(err)
	}
	if second.Reused != 1 || len(second.Results) != 2 {
		t.Fatalf("second run reused %d of %d, want 1 of 2", second.Reused, len(second.Results))
	}
	for _, r := range second.Results {
		if (r.Network == protocol.IntRVFL) != (r.SearchSeconds == -42) {
			t.Errorf("%s: search seconds %g: the stored intrvfl result must be reused, the rvfl8 one rerun", r.Network, r.SearchSeconds)
		}
	}
}
