package study

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/hdlgen/hdlgen/internal/jobs"
	"github.com/hdlgen/hdlgen/protocol"

	"github.com/hdlgen/hdlgen/dataset"
	"github.com/hdlgen/hdlgen/model"
	"github.com/hdlgen/hdlgen/power"
	"github.com/hdlgen/hdlgen/quant"
	"github.com/hdlgen/hdlgen/ridge"
	"github.com/hdlgen/hdlgen/rtl/plan"
	"github.com/hdlgen/hdlgen/synth"
)

// The energy-budget study (the paper's Fig. 7): both hardware networks sized to
// the same energy per classification, then compared by accuracy.

// BudgetNetworks are the two hardware networks of the budget study: the
// intRVFL with a 5-bit rounded readout and the 8-bit fixed-point RVFL.
var BudgetNetworks = []protocol.Network{protocol.IntRVFL, protocol.RVFL8}

// BudgetReadoutBits is the intRVFL readout width of the budget study (the
// paper's choice after Fig. 6): levels −15…15.
const BudgetReadoutBits = 5

// Paper's figures for the budget study (Section IV-C, Fig. 7).
const (
	PaperBudgetJ          = 3.2e-6
	PaperBudgetMeanInt    = 0.73
	PaperBudgetMeanRVFL8  = 0.65
	MedianBudgetLabel     = "median"
	DefaultBudgets        = "3.2uJ,median"
	budgetFingerprintKind = "budget-v1"
)

// Budget is one energy budget per classification.
type Budget struct {
	Label string  `json:"label"` // folder name: the energy as given (µ/μ written u, no spaces) or "median"
	J     float64 `json:"joules"`
	// Median is set for the budget equal to the energy of the median network;
	// MedianDesign is then that design's estimate at its energy-minimising P.
	Median       bool            `json:"median,omitempty"`
	MedianDesign *power.Estimate `json:"median_design,omitempty"`
}

// MedianBudget returns the estimate of the median intRVFL (power.MedianShape,
// N = power.MedianN) at the parallelism P ∈ power.DefaultPs (P ≤ N, design fits the
// xc7z020) that minimises its budgeted energy — the same candidates and the
// same criterion as power.Size. Ties go to the smaller P.
func MedianBudget(p power.Params) (power.Estimate, error) {
	var best power.Estimate
	found := false
	for _, ps := range power.DefaultPs {
		if ps > power.MedianN {
			break
		}
		e, err := power.EstimateAnalytic(power.Design{Shape: power.MedianShape, N: power.MedianN, Options: plan.Options{Parallel: ps}}, p)
		if err != nil {
			return power.Estimate{}, fmt.Errorf("budget: median network at P=%d: %w", ps, err)
		}
		r := e.Resources
		if ok, _ := synth.XC7Z020.Fits(r.LUTs+r.LUTRAM, r.FFs, r.DSP48E1, r.BRAM36); !ok {
			continue
		}
		if !found || e.BudgetedJ < best.BudgetedJ {
			best, found = e, true
		}
	}
	if !found {
		return power.Estimate{}, fmt.Errorf("budget: the median network fits the device at no P")
	}
	return best, nil
}

// ParseBudgets parses a comma-separated list of budgets: energies with a unit
// (power.ParseEnergy: 3.2uJ, 3200nJ, …) or the word "median" (MedianBudget
// under p). Labels must be distinct.
func ParseBudgets(s string, p power.Params) ([]Budget, error) {
	var out []Budget
	seen := map[string]bool{}
	for _, f := range List(s) {
		var b Budget
		if strings.EqualFold(f, MedianBudgetLabel) {
			e, err := MedianBudget(p)
			if err != nil {
				return nil, err
			}
			b = Budget{Label: MedianBudgetLabel, J: e.BudgetedJ, Median: true, MedianDesign: &e}
		} else {
			j, err := power.ParseEnergy(f)
			if err != nil {
				return nil, fmt.Errorf("budget %q: %w (or the word %s)", f, err, MedianBudgetLabel)
			}
			b = Budget{Label: energyLabel(f), J: j}
		}
		if seen[b.Label] {
			return nil, fmt.Errorf("budget %q listed twice", b.Label)
		}
		seen[b.Label] = true
		out = append(out, b)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no budget in %q (want e.g. %s)", s, DefaultBudgets)
	}
	return out, nil
}

// energyLabel turns an energy as typed into a folder name: no spaces, the
// micro signs written u.
func energyLabel(s string) string {
	r := strings.NewReplacer(" ", "", "\t", "", "µ", "u", "μ", "u")
	return r.Replace(s)
}

// BudgetOptions configures the budget study.
type BudgetOptions struct {
	DataDir string
	// OutDir is the study folder; the budget study writes OutDir/budget/.
	OutDir   string
	Datasets []string // subset; nil = every dataset of the collection
	Budgets  []Budget // required (ParseBudgets)
	// Grid gives λ, κ and the cap on N: its largest N (1500 for PaperGrid, the
	// paper's grid maximum). Its other Ns are not used. Default PaperGrid.
	Grid        protocol.Grid
	Seeds       []uint64          // default protocol.DefaultSeeds
	Workers     int               // default 2
	TestNorm    protocol.TestNorm // default protocol.TestNormOwn
	Regularizer model.Regularizer
	SearchSeed  uint64
	// Power is the operating point of the sizer (zero value: 100 MHz, 12.5 %
	// toggle, dynamic energy budgeted).
	Power    power.Params
	Progress io.Writer
	// Shard selects this run's share of the jobs (zero value: all of them).
	Shard jobs.Shard
	// ReuseOnly computes nothing: every selected job must be stored (a merge).
	ReuseOnly bool
}

func (o *BudgetOptions) defaults() {
	if len(o.Grid.Ns) == 0 {
		o.Grid = protocol.PaperGrid()
	}
	runDefaults(&o.Seeds, &o.Workers, &o.TestNorm, &o.Progress)
	if o.Regularizer == "" {
		o.Regularizer = model.RegVariance
	}
	if o.Power.BudgetOn == "" {
		o.Power.BudgetOn = power.BudgetDynamic
	}
}

// NCap is the largest N the study trains (the grid's largest N).
func (o BudgetOptions) NCap() int { return o.Grid.Ns[len(o.Grid.Ns)-1] }

// BudgetCandidate is one sized network of a (budget, dataset, network) job:
// one per κ for the intRVFL, one for the rvfl8.
type BudgetCandidate struct {
	Kappa int `json:"kappa,omitempty"`
	// SizedN is the sizer's answer over its default range N ≤ power.DefaultMaxN;
	// N is its answer over N ≤ the cap (1500), the network trained.
	SizedN  int     `json:"sized_n"`
	N       int     `json:"n"`
	P       int     `json:"p"`
	EnergyJ float64 `json:"energy_j"` // budgeted energy per classification of (N, P)
	TotalJ  float64 `json:"total_j"`  // dynamic + PL static
	// Impossible is the sizer's reason when no N ≥ 1 fits; the candidate is then
	// not searched.
	Impossible string `json:"impossible,omitempty"`
	// Correct is the validation count of the deployed model for each λ.
	Correct  []int `json:"correct,omitempty"`
	Jittered int   `json:"jittered,omitempty"`
}

// BudgetResult is the stored outcome of one (budget, dataset, network) job.
type BudgetResult struct {
	Budget      string            `json:"budget"`
	BudgetJ     float64           `json:"budget_j"`
	BudgetOn    power.Budgeted    `json:"budget_on"`
	Dataset     string            `json:"dataset"`
	Network     protocol.Network  `json:"network"`
	Fingerprint string            `json:"fingerprint"`
	Data        string            `json:"data_sha256"`
	Regularizer model.Regularizer `json:"regularizer"`
	ReadoutBits int               `json:"readout_bits"`
	K           int               `json:"k"`
	L           int               `json:"l"`
	Rows        int               `json:"rows"`
	Lambdas     []float64         `json:"lambdas"`
	Candidates  []BudgetCandidate `json:"candidates"`
	// Impossible is set when no candidate fits the budget; Best and Eval are then nil.
	Impossible string `json:"impossible,omitempty"`
	// Best is the selected (N, λ, κ) with the deployed model's validation count;
	// Chosen indexes Candidates.
	Best          *protocol.Best       `json:"best,omitempty"`
	Chosen        int                  `json:"chosen"`
	Eval          *protocol.EvalResult `json:"eval,omitempty"`
	SearchSeconds float64              `json:"search_seconds"`
}

// Selected returns the chosen candidate (nil for an impossible job).
func (r *BudgetResult) Selected() *BudgetCandidate {
	if r.Best == nil {
		return nil
	}
	return &r.Candidates[r.Chosen]
}

// readoutBits is the deployed readout width of a budget-study network.
func readoutBits(nw protocol.Network) int {
	if nw == protocol.RVFL8 {
		return model.ReadoutBits
	}
	return BudgetReadoutBits
}

// SizeCandidate sizes one network shape under budget (joules): the sizer's N
// over its default range and over N ≤ capN, with that N's P and estimate. A
// shape that fits no N gives a candidate with Impossible set, not an error.
func SizeCandidate(budget float64, s power.Shape, capN int, p power.Params) (BudgetCandidate, error) {
	c := BudgetCandidate{Kappa: s.Kappa}
	full, err := power.Size(budget, s, power.SizeOptions{Params: p})
	var imp *power.ImpossibleError
	if errors.As(err, &imp) {
		c.Impossible = err.Error()
		return c, nil
	}
	if err != nil {
		return c, fmt.Errorf("budget: size %v: %w", s, err)
	}
	c.SizedN = full.N
	capped, err := power.Size(budget, s, power.SizeOptions{Params: p, MaxN: capN})
	if errors.As(err, &imp) {
		c.Impossible = fmt.Sprintf("only N > %d fits the budget: %v", capN, err)
		return c, nil
	}
	if err != nil {
		return c, fmt.Errorf("budget: size %v with N ≤ %d: %w", s, capN, err)
	}
	c.N, c.P, c.EnergyJ, c.TotalJ = capped.N, capped.P, capped.Estimate.BudgetedJ, capped.Estimate.TotalJ
	return c, nil
}

// budgetCandidates sizes every candidate of a job.
func budgetCandidates(b Budget, nw protocol.Network, k, l int, opt BudgetOptions) ([]BudgetCandidate, error) {
	var shapes []power.Shape
	if nw == protocol.IntRVFL {
		for _, kappa := range opt.Grid.Kappas {
			shapes = append(shapes, power.Shape{Arch: model.IntRVFL, K: k, L: l, Kappa: kappa, Bits: BudgetReadoutBits})
		}
	} else {
		shapes = []power.Shape{{Arch: model.RVFL8, K: k, L: l}}
	}
	var out []BudgetCandidate
	for _, s := range shapes {
		c, err := SizeCandidate(b.J, s, opt.NCap(), opt.Power)
		if err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, nil
}

// budgetSearch fills each feasible candidate's validation counts (deployed
// model: rounded integer readout) on the conxuntos split and returns the index
// of the selected candidate and λ, selected by protocol.Better.
func budgetSearch(ctx context.Context, u *dataset.UCIDataset, nw protocol.Network, cands []BudgetCandidate,
	lambdas []float64, seed uint64, reg model.Regularizer) (chosen int, best protocol.Best, err error) {
	sp := protocol.NewSplit(u)
	bound := quant.BoundForBits(readoutBits(nw))
	solver := ridge.Solver{Reg: reg.Ridge(), Threads: 1}
	type key struct{ n, eff int }
	done := map[key]int{}
	var str, sva []int16 // hidden inputs of the current N (intRVFL)
	curN := 0
	for ci := range cands {
		c := &cands[ci]
		if c.Impossible != "" {
			continue
		}
		if err := ctx.Err(); err != nil {
			return 0, protocol.Best{}, err
		}
		var htr, hva []float64
		switch nw {
		case protocol.IntRVFL:
			eff := min(c.Kappa, sp.K) // clipping at κ ≥ K changes nothing
			if prev, ok := done[key{c.N, eff}]; ok {
				c.Correct, c.Jittered = cands[prev].Correct, cands[prev].Jittered
				continue
			}
			done[key{c.N, eff}] = ci
			if curN != c.N {
				net := model.NewIntNet(sp.K, c.N, 1, seed)
				str, sva = make([]int16, sp.MTrain*c.N), make([]int16, sp.MVal*c.N)
				protocol.HiddenInputsTo(str, net, sp.XTrain, sp.MTrain)
				protocol.HiddenInputsTo(sva, net, sp.XVal, sp.MVal)
				curN = c.N
			}
			htr, hva = make([]float64, len(str)), make([]float64, len(sva))
			protocol.ClipTo(htr, str, eff)
			protocol.ClipTo(hva, sva, eff)
		case protocol.RVFL8:
			net := model.QuantizeFloatNet(model.NewFloatNet(sp.K, c.N, seed))
			htr, hva = net.HiddenMatrix(sp.XTrain, sp.MTrain), net.HiddenMatrix(sp.XVal, sp.MVal)
		default:
			return 0, protocol.Best{}, fmt.Errorf("budget: network %s is not a hardware network", nw)
		}
		if c.Correct, c.Jittered, err = protocol.DeployedCounts(solver, sp, htr, hva, c.N, lambdas, bound); err != nil {
			return 0, protocol.Best{}, fmt.Errorf("budget search %s %s N=%d%s: %w", u.Meta.Name, nw, c.N, kappaText(c.Kappa), err)
		}
	}
	chosen = -1
	best = protocol.Best{Correct: -1, ValRows: sp.MVal}
	for ci, c := range cands {
		if c.Impossible != "" {
			continue
		}
		for li, lambda := range lambdas {
			b := protocol.Best{N: c.N, Lambda: lambda, Kappa: c.Kappa, Correct: c.Correct[li], ValRows: sp.MVal}
			if protocol.Better(b, best) {
				chosen, best = ci, b
			}
		}
	}
	if chosen < 0 {
		return -1, protocol.Best{}, nil
	}
	best.ValAccuracy = float64(best.Correct) / float64(sp.MVal)
	return chosen, best, nil
}

// BudgetDir is the budget study's folder inside a study folder.
func BudgetDir(out string) string { return filepath.Join(out, "budget") }

type budgetJob struct {
	b     Budget
	meta  *dataset.UCIMeta
	nw    protocol.Network
	cands []BudgetCandidate
	fp    string
	data  string // DataHash of the dataset
	cost  float64
}

// budgetPath is where a job is stored in the budget folder:
// <label>/runs/<network>/<dataset>.json.
func budgetPath(label string, nw protocol.Network, ds string) string {
	return filepath.Join(label, "runs", string(nw), ds+".json")
}

// RunBudget runs (or resumes) the budget study: for every budget, dataset and
// network, size the network(s), search λ (and κ) on the validation split by
// the deployed model's accuracy, evaluate the selection by the protocol, and
// store the result as soon as it is done. Stored results with the same
// settings and the same sizing are reused.
func RunBudget(ctx context.Context, opt BudgetOptions) (*BudgetStudy, error) {
	opt.defaults()
	start := time.Now()
	if len(opt.Budgets) == 0 {
		return nil, fmt.Errorf("budget: no budget given")
	}
	if len(opt.Grid.Lambdas) == 0 || len(opt.Grid.Kappas) == 0 {
		return nil, fmt.Errorf("budget: the grid needs λ and κ values")
	}
	if _, err := model.ParseRegularizer(string(opt.Regularizer)); err != nil {
		return nil, fmt.Errorf("budget: %w", err)
	}
	names := opt.Datasets
	if len(names) == 0 {
		var err error
		if names, err = dataset.ListUCI(opt.DataDir); err != nil {
			return nil, fmt.Errorf("budget: %w", err)
		}
	}
	out := &BudgetStudy{Options: opt, Datasets: len(names)}
	st := jobs.Store{Dir: BudgetDir(opt.OutDir)}
	var all []budgetJob
	for _, name := range names {
		meta, data, err := usable(opt.DataDir, name)
		if err != nil {
			out.Skipped = append(out.Skipped, Skipped{Dataset: name, Reason: err.Error()})
			fmt.Fprintf(opt.Progress, "skipped %s: %v\n", name, err)
			continue
		}
		for _, b := range opt.Budgets {
			for _, nw := range BudgetNetworks {
				cands, err := budgetCandidates(b, nw, meta.Features, meta.Classes, opt)
				if err != nil {
					return nil, fmt.Errorf("budget %s %s %s: %w", b.Label, name, nw, err)
				}
				all = append(all, budgetJob{b: b, meta: meta, nw: nw, cands: cands, fp: budgetFingerprint(opt, b, nw, cands),
					data: data, cost: budgetCost(meta, cands, len(opt.Grid.Lambdas), len(opt.Seeds))})
			}
		}
	}
	todo, total, err := jobs.Resume(StageBudget, opt.Shard, all, func(j budgetJob) float64 { return j.cost }, opt.ReuseOnly,
		func(j budgetJob) string { return j.b.Label + "/" + j.meta.Name + "/" + string(j.nw) },
		func(j budgetJob) (bool, error) {
			ok, err := reuse(st, budgetPath(j.b.Label, j.nw, j.meta.Name), j.fp, j.data, &out.Results, &out.Reused)
			return ok || (err == nil && opt.ReuseOnly && unloadable(opt.DataDir, j.meta.Name, &out.Skipped)), err
		})
	if err != nil {
		return nil, fmt.Errorf("budget: %w", err)
	}
	fmt.Fprintf(opt.Progress, "budget study: %d jobs to run, %d reused, %d datasets skipped so far\n", len(todo), out.Reused, len(out.Skipped))

	var (
		doneCost float64
		done     int
	)
	oc := jobs.NewOutcomes(&out.Skipped, "")
	work := func(j budgetJob) (*BudgetResult, error) { return runBudgetJob(ctx, opt, st, j) }
	jobs.Run(ctx, opt.Workers, todo, work, func(j budgetJob, r *BudgetResult, err error) {
		done++
		doneCost += j.cost
		switch oc.Add(j.meta.Name, err) {
		case jobs.Skip:
			fmt.Fprintf(opt.Progress, "[%d/%d] skipped %s: %v\n", done, len(todo), j.meta.Name, err)
		case jobs.Fail:
			fmt.Fprintf(opt.Progress, "[%d/%d] %s %s/%s failed: %v\n", done, len(todo), j.b.Label, j.meta.Name, j.nw, err)
		case jobs.Done:
			out.Results = append(out.Results, r)
			fmt.Fprintf(opt.Progress, "[%d/%d] %s %s/%s: %s ETA %s\n", done, len(todo), j.b.Label, j.meta.Name, j.nw,
				budgetLine(r), jobs.TimeLeft(start, doneCost, total))
		}
	})
	out.WallSeconds = time.Since(start).Seconds()
	order := map[string]int{}
	for i, b := range opt.Budgets {
		order[b.Label] = i
	}
	sort.Slice(out.Results, func(i, j int) bool {
		a, b := out.Results[i], out.Results[j]
		if a.Budget != b.Budget {
			return order[a.Budget] < order[b.Budget]
		}
		if a.Dataset != b.Dataset {
			return a.Dataset < b.Dataset
		}
		return a.Network < b.Network
	})
	return out, oc.Err(ctx)
}

// budgetLine is a job's progress text.
func budgetLine(r *BudgetResult) string {
	if r.Impossible != "" {
		return "impossible: " + r.Impossible
	}
	c, b := r.Selected(), r.Best
	return fmt.Sprintf("N=%d (sized %d) P=%d%s λ=%g val %.4f → %s %.4f ± %.4f (search %.1fs, eval %.1fs)",
		c.N, c.SizedN, c.P, kappaText(b.Kappa), b.Lambda, b.ValAccuracy, r.Eval.Protocol, r.Eval.Mean, r.Eval.Std,
		r.SearchSeconds, r.Eval.Seconds)
}

// budgetFingerprint identifies what a stored result depends on: the study's
// settings and the sizing (so a change of the energy model reruns the job).
func budgetFingerprint(opt BudgetOptions, b Budget, nw protocol.Network, cands []BudgetCandidate) string {
	type sized struct{ Kappa, N, P int }
	var s []sized
	for _, c := range cands {
		s = append(s, sized{c.Kappa, c.N, c.P})
	}
	return jobs.Fingerprint(budgetFingerprintKind, b.J, opt.Power, nw, readoutBits(nw), opt.Grid.Lambdas, opt.Grid.Kappas,
		opt.NCap(), opt.Seeds, opt.TestNorm, opt.SearchSeed, opt.Regularizer, s)
}

// budgetCost is a rough flop count of a job, for ordering and the ETA.
func budgetCost(meta *dataset.UCIMeta, cands []BudgetCandidate, lambdas, seeds int) float64 {
	m := float64(meta.SearchTrain)
	rows := float64(meta.TrainRows)
	var c, maxN float64
	for _, cd := range cands {
		if cd.Impossible != "" {
			continue
		}
		n := float64(cd.N)
		p := math.Min(n, m)
		c += m*n*p + float64(lambdas)*(p*p*p/3+float64(meta.SearchVal)*n)
		maxN = math.Max(maxN, n)
	}
	c += float64(4*seeds) * (0.75 * rows * maxN * maxN / 2)
	return c + 1e6
}

// runBudgetJob runs one (budget, dataset, network) job and stores its result.
func runBudgetJob(ctx context.Context, opt BudgetOptions, st jobs.Store, j budgetJob) (*BudgetResult, error) {
	r := &BudgetResult{Budget: j.b.Label, BudgetJ: j.b.J, BudgetOn: opt.Power.BudgetOn, Dataset: j.meta.Name,
		Network: j.nw, Fingerprint: j.fp, Data: j.data, Regularizer: opt.Regularizer, ReadoutBits: readoutBits(j.nw),
		K: j.meta.Features, L: j.meta.Classes, Rows: j.meta.TrainRows, Lambdas: opt.Grid.Lambdas, Candidates: j.cands, Chosen: -1}
	var reasons []string
	for _, c := range j.cands {
		if c.Impossible != "" {
			reasons = append(reasons, kappaPrefix(c.Kappa)+c.Impossible)
		}
	}
	if len(reasons) == len(j.cands) {
		r.Impossible = strings.Join(reasons, "; ")
		return r, saveBudget(st, j, r)
	}
	u, err := dataset.LoadUCI(opt.DataDir, j.meta.Name)
	if err != nil {
		return nil, jobs.LoadError{Err: err}
	}
	if u.Data.K() != j.meta.Features || u.Data.L() != j.meta.Classes {
		return nil, fmt.Errorf("budget: %s: data has K=%d L=%d, metadata K=%d L=%d", j.meta.Name, u.Data.K(), u.Data.L(), j.meta.Features, j.meta.Classes)
	}
	r.Rows = u.Data.M()
	t0 := time.Now()
	r.Candidates = append([]BudgetCandidate(nil), j.cands...)
	chosen, best, err := budgetSearch(ctx, u, j.nw, r.Candidates, opt.Grid.Lambdas, opt.SearchSeed, opt.Regularizer)
	if err != nil {
		return nil, err
	}
	if chosen < 0 {
		return nil, fmt.Errorf("budget %s %s %s: no candidate was searched", j.b.Label, j.meta.Name, j.nw)
	}
	r.SearchSeconds = time.Since(t0).Seconds()
	r.Chosen, r.Best = chosen, &best
	cfg := j.nw.Config(best.N, best.Lambda, best.Kappa)
	cfg.Regularizer = opt.Regularizer
	if j.nw == protocol.IntRVFL {
		cfg.ReadoutBits = BudgetReadoutBits
	}
	if r.Eval, err = protocol.Evaluate(ctx, u, cfg, protocol.EvalOptions{Seeds: opt.Seeds, TestNorm: opt.TestNorm}); err != nil {
		return nil, fmt.Errorf("budget %s: %w", j.b.Label, err)
	}
	return r, saveBudget(st, j, r)
}

// saveBudget stores the result of job j.
func saveBudget(st jobs.Store, j budgetJob, r *BudgetResult) error {
	if err := st.Save(budgetPath(j.b.Label, j.nw, j.meta.Name), r); err != nil {
		return fmt.Errorf("budget: %w", err)
	}
	return nil
}
