package study

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/hdlgen/hdlgen/internal/jobs"
	"github.com/hdlgen/hdlgen/protocol"

	"github.com/hdlgen/hdlgen/internal/atomicfile"
	"github.com/hdlgen/hdlgen/internal/svgplot"
	"github.com/hdlgen/hdlgen/power"
)

// Spread is the median and range of a list of values.
type Spread struct {
	Median float64 `json:"median"`
	Min    float64 `json:"min"`
	Max    float64 `json:"max"`
}

func spreadOf(v []float64) Spread {
	if len(v) == 0 {
		return Spread{}
	}
	s := append([]float64(nil), v...)
	sort.Float64s(s)
	med := s[len(s)/2]
	if len(s)%2 == 0 {
		med = (s[len(s)/2-1] + s[len(s)/2]) / 2
	}
	return Spread{Median: med, Min: s[0], Max: s[len(s)-1]}
}

// BudgetNetworkSummary aggregates one network at one budget.
type BudgetNetworkSummary struct {
	Network protocol.Network `json:"network"`
	// Feasible counts the datasets where the network fits the budget; Impossible
	// those where it does not (no N ≥ 1).
	Feasible   int `json:"feasible_datasets"`
	Impossible int `json:"impossible_datasets"`
	// MeanAccuracy is over the datasets where both networks fit (the compared
	// set); MeanFeasible over every dataset where this one fits.
	// Both are absent when there is no such dataset.
	MeanAccuracy *float64 `json:"mean_accuracy,omitempty"`
	MeanFeasible *float64 `json:"mean_accuracy_feasible,omitempty"`
	Paper        float64  `json:"paper_mean_accuracy"`
	// SizedN is the sizer's N (N ≤ power.DefaultMaxN) of the selected network;
	// N the trained N (capped); AtCap the datasets whose trained N is the cap.
	SizedN Spread `json:"sized_n"`
	N      Spread `json:"n"`
	AtCap  int    `json:"n_at_cap"`
	// EnergyJ is the budgeted energy per classification of the trained designs.
	EnergyJ Spread `json:"energy_j"`
	// Kappas counts the selected κ (intRVFL).
	Kappas        map[int]int `json:"kappas,omitempty"`
	SearchSeconds float64     `json:"search_seconds"`
	EvalSeconds   float64     `json:"eval_seconds"`
}

// BudgetImpossible is a (dataset, network) that no N fits.
type BudgetImpossible struct {
	Dataset string           `json:"dataset"`
	Network protocol.Network `json:"network"`
	Reason  string           `json:"reason"`
}

// BudgetLevelSummary is one budget's outcome.
type BudgetLevelSummary struct {
	Budget     Budget                 `json:"budget"`
	BudgetOn   power.Budgeted         `json:"budget_on"`
	Constrains string                 `json:"constrains"`
	Datasets   int                    `json:"datasets"` // both networks fit and have a result
	Networks   []BudgetNetworkSummary `json:"networks"`
	// Comparison is intRVFL (b) against rvfl8 (a) over the compared datasets.
	Comparison         *protocol.Comparison `json:"intrvfl_vs_rvfl8,omitempty"`
	Wins, Ties, Losses int                  `json:"-"`
	Impossible         []BudgetImpossible   `json:"impossible,omitempty"`
	Incomplete         []string             `json:"incomplete,omitempty"` // a network has no result yet
	Figure             string               `json:"figure"`
}

// MarshalJSON adds the win/tie/loss counts, which Comparison leaves out.
func (s BudgetLevelSummary) MarshalJSON() ([]byte, error) {
	type plain BudgetLevelSummary
	return json.Marshal(struct {
		plain
		Wins   int `json:"intrvfl_wins"`
		Ties   int `json:"ties"`
		Losses int `json:"intrvfl_losses"`
	}{plain(s), s.Wins, s.Ties, s.Losses})
}

// BudgetSummary is OUT/budget/summary.json.
type BudgetSummary struct {
	Provenance
	Reused      int                  `json:"reused_jobs"`
	Regularizer string               `json:"regularizer"`
	Seeds       []uint64             `json:"seeds"`
	TestNorm    protocol.TestNorm    `json:"test_norm"`
	NCap        int                  `json:"n_cap"`
	Lambdas     []float64            `json:"lambdas"`
	Kappas      []int                `json:"kappas"`
	IntBits     int                  `json:"intrvfl_readout_bits"`
	ClockHz     float64              `json:"clock_hz"`
	Toggle      float64              `json:"toggle"`
	Budgets     []BudgetLevelSummary `json:"budgets"`
	Skipped     []Skipped            `json:"skipped"`
	Paper       map[string]string    `json:"paper"`
}

// constrainsText says what a budget limits.
func constrainsText(on power.Budgeted) string {
	if on == power.BudgetTotal {
		return "dynamic + PL static energy per classification (analytic resource model × exact latency)"
	}
	return "dynamic energy per classification (analytic resource model × exact latency; PL static energy not included)"
}

// WriteBudgetReport writes OUT/budget/summary.{md,json}, accuracy.tsv and one
// fig7-<label>.svg per budget.
func WriteBudgetReport(out string, s *BudgetStudy, command string, now time.Time) (*BudgetSummary, error) {
	opt := s.Options
	opt.defaults()
	dir := BudgetDir(out)
	clock, toggle := opt.Power.ClockHz, opt.Power.Toggle
	if clock == 0 {
		clock = power.DefaultClockHz
	}
	if toggle == 0 {
		toggle = power.DefaultToggle
	}
	sum := &BudgetSummary{Provenance: newProvenance(command, now, s.WallSeconds),
		Reused: s.Reused, Regularizer: string(opt.Regularizer), Seeds: opt.Seeds,
		TestNorm: opt.TestNorm, NCap: opt.NCap(), Lambdas: opt.Grid.Lambdas, Kappas: opt.Grid.Kappas,
		IntBits: BudgetReadoutBits, ClockHz: clock, Toggle: toggle, Skipped: s.Skipped,
		Paper: map[string]string{"budget": power.FormatEnergy(PaperBudgetJ) + " (Xilinx Power Estimator)",
			"intrvfl": paperFigure(PaperBudgetMeanInt), "rvfl8": paperFigure(PaperBudgetMeanRVFL8),
			"significance": "5% two-sample test"}}
	if sum.Skipped == nil {
		sum.Skipped = []Skipped{}
	}
	files := map[string][]byte{"accuracy.tsv": budgetTSV(s.Results)}
	for _, b := range opt.Budgets {
		lv, svg := budgetLevel(b, s.Results, opt)
		sum.Budgets = append(sum.Budgets, lv)
		files[lv.Figure] = svg
	}
	js, err := json.MarshalIndent(sum, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("budget report: %w", err)
	}
	files["summary.json"] = append(js, '\n')
	files["summary.md"] = []byte(sum.markdown() + jobs.RunLogMarkdown(dir))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("budget report: %w", err)
	}
	for name, data := range files {
		if err := atomicfile.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			return nil, fmt.Errorf("budget report: %w", err)
		}
	}
	return sum, nil
}

// budgetLevel summarises one budget and draws its scatter plot.
func budgetLevel(b Budget, results []*BudgetResult, opt BudgetOptions) (BudgetLevelSummary, []byte) {
	lv := BudgetLevelSummary{Budget: b, BudgetOn: opt.Power.BudgetOn, Constrains: constrainsText(opt.Power.BudgetOn),
		Figure: "fig7-" + b.Label + ".svg"}
	byDS := map[string]map[protocol.Network]*BudgetResult{}
	for _, r := range results {
		if r.Budget != b.Label {
			continue
		}
		if byDS[r.Dataset] == nil {
			byDS[r.Dataset] = map[protocol.Network]*BudgetResult{}
		}
		byDS[r.Dataset][r.Network] = r
	}
	var names []string
	for ds := range byDS {
		names = append(names, ds)
	}
	sort.Strings(names)
	var common []string
	for _, ds := range names {
		m := byDS[ds]
		both := true
		for _, nw := range BudgetNetworks {
			r := m[nw]
			switch {
			case r == nil:
				lv.Incomplete = append(lv.Incomplete, ds)
				both = false
			case r.Impossible != "":
				lv.Impossible = append(lv.Impossible, BudgetImpossible{ds, nw, r.Impossible})
				both = false
			}
		}
		if both {
			common = append(common, ds)
		}
	}
	lv.Incomplete = dedupSorted(lv.Incomplete)
	lv.Datasets = len(common)
	paper := map[protocol.Network]float64{protocol.IntRVFL: PaperBudgetMeanInt, protocol.RVFL8: PaperBudgetMeanRVFL8}
	acc := map[protocol.Network][]float64{}
	for _, nw := range BudgetNetworks {
		ns := BudgetNetworkSummary{Network: nw, Paper: paper[nw]}
		var feasible, sized, trained, energy []float64
		for _, ds := range names {
			r := byDS[ds][nw]
			if r == nil {
				continue
			}
			if r.Impossible != "" {
				ns.Impossible++
				continue
			}
			c := r.Selected()
			ns.Feasible++
			feasible = append(feasible, r.Eval.Mean)
			sized = append(sized, float64(c.SizedN))
			trained = append(trained, float64(c.N))
			energy = append(energy, c.EnergyJ)
			if c.N == opt.NCap() {
				ns.AtCap++
			}
			if nw == protocol.IntRVFL {
				if ns.Kappas == nil {
					ns.Kappas = map[int]int{}
				}
				ns.Kappas[r.Best.Kappa]++
			}
			ns.SearchSeconds += r.SearchSeconds
			ns.EvalSeconds += r.Eval.Seconds
		}
		for _, ds := range common {
			acc[nw] = append(acc[nw], byDS[ds][nw].Eval.Mean)
		}
		ns.MeanAccuracy, ns.MeanFeasible = meanPtr(acc[nw]), meanPtr(feasible)
		ns.SizedN, ns.N, ns.EnergyJ = spreadOf(sized), spreadOf(trained), spreadOf(energy)
		lv.Networks = append(lv.Networks, ns)
	}
	if len(common) > 1 {
		c := protocol.Compare(acc[protocol.RVFL8], acc[protocol.IntRVFL])
		lv.Comparison = &c
		lv.Wins, lv.Ties, lv.Losses = c.Wins, c.Ties, c.Losses
	}
	var pts []svgplot.Point
	for i, ds := range common {
		pts = append(pts, svgplot.Point{X: acc[protocol.RVFL8][i], Y: acc[protocol.IntRVFL][i], Label: ds})
	}
	notes := []string{fmt.Sprintf("budget %s (%s %s energy per classification); %d datasets",
		b.Label, power.FormatEnergy(b.J), lv.BudgetOn, len(common))}
	if len(common) > 0 {
		notes = append(notes, fmt.Sprintf("mean rvfl8 %.3f (paper %s), intRVFL %.3f (paper %s)",
			protocol.Mean(acc[protocol.RVFL8]), paperFigure(PaperBudgetMeanRVFL8), protocol.Mean(acc[protocol.IntRVFL]), paperFigure(PaperBudgetMeanInt)))
	}
	if lv.Comparison != nil {
		notes = append(notes, fmt.Sprintf("Pearson %.3f; two-sample t p=%.2g; paired t p=%.2g; wins/ties/losses %d/%d/%d",
			lv.Comparison.Pearson, lv.Comparison.TwoSampleT, lv.Comparison.PairedT, lv.Wins, lv.Ties, lv.Losses))
	}
	svg := svgplot.Scatter(fmt.Sprintf("Accuracy under an energy budget of %s: rvfl8 vs intRVFL (paper Fig. 7)", power.FormatEnergy(b.J)),
		svgplot.Axis{Label: "8-bit fixed-point RVFL accuracy", Min: 0, Max: 1},
		svgplot.Axis{Label: "intRVFL (5-bit readout) accuracy", Min: 0, Max: 1}, pts, notes)
	return lv, svg
}

// meanPtr is the mean of v, nil when v is empty.
func meanPtr(v []float64) *float64 {
	if len(v) == 0 {
		return nil
	}
	m := protocol.Mean(v)
	return &m
}

// fmtPtr prints an optional accuracy.
func fmtPtr(v *float64) string {
	if v == nil {
		return "–"
	}
	return fmt.Sprintf("%.4f", *v)
}

func dedupSorted(v []string) []string {
	var out []string
	for i, s := range v {
		if i == 0 || s != v[i-1] {
			out = append(out, s)
		}
	}
	return out
}

func budgetTSV(results []*BudgetResult) []byte {
	var b bytes.Buffer
	b.WriteString("budget\tbudget_j\tdataset\tnetwork\tk\tl\trows\tprotocol\tkappa\tsized_n\tn\tp\tlambda\t" +
		"energy_j\ttotal_j\tval_accuracy\taccuracy_mean\taccuracy_std\tsearch_s\teval_s\timpossible\n")
	for _, r := range results {
		if r.Impossible != "" {
			fmt.Fprintf(&b, "%s\t%g\t%s\t%s\t%d\t%d\t%d\t\t\t\t\t\t\t\t\t\t\t\t\t\t%s\n",
				r.Budget, r.BudgetJ, r.Dataset, r.Network, r.K, r.L, r.Rows, tsvText(r.Impossible))
			continue
		}
		c := r.Selected()
		fmt.Fprintf(&b, "%s\t%g\t%s\t%s\t%d\t%d\t%d\t%s\t%d\t%d\t%d\t%d\t%g\t%.4g\t%.4g\t%.4f\t%.4f\t%.4f\t%.2f\t%.2f\t%s\n",
			r.Budget, r.BudgetJ, r.Dataset, r.Network, r.K, r.L, r.Rows, r.Eval.Protocol, r.Best.Kappa, c.SizedN, c.N, c.P,
			r.Best.Lambda, c.EnergyJ, c.TotalJ, r.Best.ValAccuracy, r.Eval.Mean, r.Eval.Std, r.SearchSeconds, r.Eval.Seconds,
			tsvText(partialImpossible(r)))
	}
	return b.Bytes()
}

// partialImpossible lists the κ that no N fits, for a job that has others.
func partialImpossible(r *BudgetResult) string {
	var s []string
	for _, c := range r.Candidates {
		if c.Impossible != "" {
			s = append(s, kappaPrefix(c.Kappa)+c.Impossible)
		}
	}
	return strings.Join(s, "; ")
}

func tsvText(s string) string { return strings.NewReplacer("\t", " ", "\n", " ").Replace(s) }

func (s *BudgetSummary) markdown() string {
	var b strings.Builder
	b.WriteString("# Energy-budget study (paper Section IV-C, Fig. 7)\n\n")
	b.WriteString(s.Provenance.markdown(s.Reused, "stored jobs"))
	fmt.Fprintf(&b, "- ridge regulariser: %s; seeds %v; test-file normalisation of two-file datasets: %s\n", s.Regularizer, s.Seeds, s.TestNorm)
	fmt.Fprintf(&b, "- searched on the validation split (seed 0): λ ∈ {%s}; intRVFL κ ∈ %v, each κ with its own sized N; "+
		"selection by the validation accuracy of the deployed model (intRVFL: %d-bit rounded readout, levels ±15; "+
		"rvfl8: its 8-bit readout); ties to the smallest N, then the largest λ, then the smallest κ\n",
		lambdaList(s.Lambdas), s.Kappas, s.IntBits)
	capWhy := "the grid's largest N"
	if s.NCap == 1500 {
		capWhy = "the paper's grid maximum"
	}
	fmt.Fprintf(&b, "- N: the largest N whose best design (over P) fits the budget, capped at %d (%s); "+
		"sizer at %g MHz, toggle rate %.1f %%, analytic resource model (docs/energy-model.md)\n",
		s.NCap, capWhy, s.ClockHz/1e6, 100*s.Toggle)
	fmt.Fprintf(&b, "- datasets skipped: %d", len(s.Skipped))
	for _, sk := range s.Skipped {
		fmt.Fprintf(&b, "\n  - %s: %s", sk.Dataset, sk.Reason)
	}
	fmt.Fprintf(&b, "\n\nPaper: at %s per classification (Xilinx Power Estimator), mean accuracy %s (intRVFL, 5-bit readout) "+
		"vs %s (8-bit RVFL), significant at 5 %% (two-sample test).\n",
		power.FormatEnergy(PaperBudgetJ), paperFigure(PaperBudgetMeanInt), paperFigure(PaperBudgetMeanRVFL8))
	for _, lv := range s.Budgets {
		fmt.Fprintf(&b, "\n## Budget %s: %s\n\n", lv.Budget.Label, power.FormatEnergy(lv.Budget.J))
		fmt.Fprintf(&b, "- budget: %.4g J of %s\n", lv.Budget.J, lv.Constrains)
		if d := lv.Budget.MedianDesign; d != nil {
			fmt.Fprintf(&b, "- the energy of the median intRVFL (K=%d, N=%d, L=%d, κ=%d, %d-bit readout) at its energy-minimising P=%d: "+
				"%s dynamic, %s with PL static, latency %d cycles\n",
				d.Design.K, d.Design.N, d.Design.L, d.Design.Kappa, d.Design.Bits, d.Design.P(),
				power.FormatEnergy(d.DynamicJ), power.FormatEnergy(d.TotalJ), d.Cycles)
		}
		fmt.Fprintf(&b, "- datasets where both networks fit and have a result: %d\n\n", lv.Datasets)
		b.WriteString("| network | mean accuracy (compared datasets) | paper | fits / impossible | mean where it fits | " +
			"sized N median [min, max] | trained N median [min, max] | N at cap | energy of trained design median [min, max] | search / eval time |\n" +
			"|---|---|---|---|---|---|---|---|---|---|\n")
		for _, n := range lv.Networks {
			fmt.Fprintf(&b, "| %s | %s | %.2f | %d / %d | %s | %g [%g, %g] | %g [%g, %g] | %d | %s [%s, %s] | %.0f s / %.0f s |\n",
				n.Network, fmtPtr(n.MeanAccuracy), n.Paper, n.Feasible, n.Impossible, fmtPtr(n.MeanFeasible),
				n.SizedN.Median, n.SizedN.Min, n.SizedN.Max, n.N.Median, n.N.Min, n.N.Max, n.AtCap,
				power.FormatEnergy(n.EnergyJ.Median), power.FormatEnergy(n.EnergyJ.Min), power.FormatEnergy(n.EnergyJ.Max),
				n.SearchSeconds, n.EvalSeconds)
		}
		if c := lv.Comparison; c != nil {
			fmt.Fprintf(&b, "\nintRVFL vs rvfl8 over %d datasets: mean %.4f vs %.4f (Δ %+.4f); Pearson %.3f; "+
				"wins/ties/losses of the intRVFL %d/%d/%d; p-values: two-sample t %.3g (the paper's test), paired t %.3g, "+
				"Wilcoxon signed-rank %.3g.\n", c.N, c.MeanB, c.MeanA, c.MeanB-c.MeanA, c.Pearson, lv.Wins, lv.Ties, lv.Losses,
				c.TwoSampleT, c.PairedT, c.Wilcoxon)
		}
		for _, n := range lv.Networks {
			if len(n.Kappas) == 0 {
				continue
			}
			var ks []int
			for k := range n.Kappas {
				ks = append(ks, k)
			}
			sort.Ints(ks)
			var parts []string
			for _, k := range ks {
				parts = append(parts, fmt.Sprintf("κ=%d: %d", k, n.Kappas[k]))
			}
			fmt.Fprintf(&b, "\nSelected κ of the %s: %s.\n", n.Network, strings.Join(parts, ", "))
		}
		if len(lv.Impossible) > 0 {
			b.WriteString("\nNo N ≥ 1 fits (not in the compared means):\n")
			for _, im := range lv.Impossible {
				fmt.Fprintf(&b, "- %s / %s: %s\n", im.Dataset, im.Network, im.Reason)
			}
		}
		if len(lv.Incomplete) > 0 {
			fmt.Fprintf(&b, "\nIncomplete (a network has no result yet): %s\n", strings.Join(lv.Incomplete, ", "))
		}
		fmt.Fprintf(&b, "\nFigure: [%s](%s) (rvfl8 on x, intRVFL on y, one point per dataset).\n", lv.Figure, lv.Figure)
	}
	return b.String()
}

func lambdaList(l []float64) string {
	var s []string
	for _, v := range l {
		s = append(s, fmt.Sprintf("%g", v))
	}
	return strings.Join(s, ", ")
}
