package study

import (
	"context"
	"fmt"
	"io"
	"math"
	"sort"
	"time"

	"github.com/hdlgen/hdlgen/internal/jobs"
	"github.com/hdlgen/hdlgen/protocol"

	"github.com/hdlgen/hdlgen/dataset"
	"github.com/hdlgen/hdlgen/model"
)

// AccuracyOptions configures the accuracy study over a collection.
type AccuracyOptions struct {
	DataDir  string
	OutDir   string
	Datasets []string           // subset; nil = every dataset of the collection
	Networks []protocol.Network // default protocol.AccuracyNetworks
	Grid     protocol.Grid      // default protocol.PaperGrid
	Seeds    []uint64           // default protocol.DefaultSeeds
	Workers  int                // parallel jobs (default 2)
	TestNorm protocol.TestNorm  // default protocol.TestNormOwn
	Progress io.Writer          // progress lines (stderr); nil = none
	// SearchSeed is the seed of the networks of the grid search (default 0).
	SearchSeed uint64
	// Fixed, when set, replaces the search: each listed dataset is evaluated with
	// these hyperparameters (e.g. the ones published with the authors' code);
	// unlisted datasets are skipped.
	Fixed map[string]protocol.Best
	// Regularizer of every ridge readout ("" means the authors' variance form).
	Regularizer model.Regularizer
	// Solver of every ridge readout (zero value: exact).
	Solver model.Solver
	// Win is the intRVFL's W_in source (zero value: stored; model.WinPRBS31:
	// the on-chip generator's rows, docs/semantics.md §3a). intRVFL only.
	Win model.WinGen
	// Shard selects this run's share of the jobs (zero value: all of them).
	Shard jobs.Shard
	// ReuseOnly computes nothing: every selected job must be stored (a merge).
	ReuseOnly bool
}

func (o *AccuracyOptions) defaults() {
	if len(o.Networks) == 0 {
		o.Networks = protocol.AccuracyNetworks
	}
	if len(o.Grid.Ns) == 0 {
		o.Grid = protocol.PaperGrid()
	}
	runDefaults(&o.Seeds, &o.Workers, &o.TestNorm, &o.Progress)
}

// RunResult is the stored outcome of one (dataset, network) job of the accuracy
// study: the search on the validation split and the final evaluation.
type RunResult struct {
	Dataset     string                 `json:"dataset"`
	Network     protocol.Network       `json:"network"`
	Fingerprint string                 `json:"fingerprint"` // of the grid, seeds and normalisation rule
	Data        string                 `json:"data_sha256"` // DataHash of the dataset
	K           int                    `json:"k"`
	L           int                    `json:"l"`
	Rows        int                    `json:"rows"` // rows of the (train) data file
	Search      *protocol.SearchResult `json:"search"`
	Eval        *protocol.EvalResult   `json:"eval"`
	// Regularizer is the ridge penalty the result was trained with; empty in
	// results stored before the field existed, which all used the variance form.
	Regularizer model.Regularizer `json:"regularizer,omitempty"`
	// Solver is how the ridge readouts were solved; absent (the exact solve)
	// in results stored before the option existed.
	model.Solver
	// Win is the intRVFL's W_in source; absent for the stored W_in.
	Win model.WinGen `json:"w_in_generator,omitempty"`
}

// Reg returns the ridge penalty of the result, with its default.
func (r *RunResult) Reg() model.Regularizer {
	if r.Regularizer == "" {
		return model.RegVariance
	}
	return r.Regularizer
}

type job struct {
	meta *dataset.UCIMeta
	nw   protocol.Network
	data string // DataHash of the dataset
	cost float64
}

// RunAccuracy runs (or resumes) the accuracy study: for every dataset and
// network, the grid search then the final evaluation, each stored as soon as it
// is done; stored results with the same settings are reused.
func RunAccuracy(ctx context.Context, opt AccuracyOptions) (*AccuracyStudy, error) {
	opt.defaults()
	start := time.Now()
	names := opt.Datasets
	if len(names) == 0 {
		var err error
		if names, err = dataset.ListUCI(opt.DataDir); err != nil {
			return nil, err
		}
	}
	st := jobs.Store{Dir: opt.OutDir}
	// Options added later join the fingerprint only when set, so results stored
	// before they existed stay valid.
	fp := jobs.Fingerprint("accuracy-v2", opt.Grid, opt.Seeds, opt.TestNorm, opt.SearchSeed)
	if opt.Fixed != nil {
		fp = jobs.Fingerprint(fp, opt.Fixed)
	}
	if opt.reg() != model.RegVariance {
		fp = jobs.Fingerprint(fp, opt.reg())
	}
	if !opt.Solver.Exact() {
		fp = jobs.Fingerprint(fp, opt.Solver)
	}
	if opt.Win != model.WinStored {
		fp = jobs.Fingerprint(fp, opt.Win)
	}
	// Searches depend on the grid, the search seed, the penalty, the solver
	// and the W_in source only, so they survive a change of the evaluation
	// settings.
	searchFP := searchFingerprint(opt.Grid, opt.SearchSeed, opt.reg(), opt.Solver)
	if opt.Win != model.WinStored {
		searchFP = jobs.Fingerprint(searchFP, opt.Win)
		for _, nw := range opt.Networks {
			if nw != protocol.IntRVFL {
				return nil, fmt.Errorf("accuracy study: a generated W_in (%s) is an intrvfl option, not %s", opt.Win, nw)
			}
		}
	}
	out := &AccuracyStudy{Datasets: len(names), Options: opt}
	var all []job
	for _, name := range names {
		meta, data, err := usable(opt.DataDir, name)
		if err == nil && opt.Fixed != nil {
			if _, ok := opt.Fixed[name]; !ok {
				err = fmt.Errorf("no fixed hyperparameters for %s", name)
			}
		}
		if err != nil {
			out.Skipped = append(out.Skipped, Skipped{Dataset: name, Reason: err.Error()})
			fmt.Fprintf(opt.Progress, "skipped %s: %v\n", name, err)
			continue
		}
		for _, nw := range opt.Networks {
			all = append(all, job{meta: meta, nw: nw, data: data, cost: estimateCost(meta, nw, opt.Grid)})
		}
	}
	todo, total, err := jobs.Resume(StageAccuracy, opt.Shard, all, func(j job) float64 { return j.cost }, opt.ReuseOnly,
		func(j job) string { return j.meta.Name + "/" + string(j.nw) },
		func(j job) (bool, error) {
			ok, err := reuse(st, runPath("result", j.nw, j.meta.Name), fp, j.data, &out.Results, &out.Reused)
			return ok || (err == nil && opt.ReuseOnly && unloadable(opt.DataDir, j.meta.Name, &out.Skipped)), err
		})
	if err != nil {
		return nil, err
	}
	fmt.Fprintf(opt.Progress, "accuracy study: %d jobs to run, %d reused, %d datasets skipped so far\n", len(todo), out.Reused, len(out.Skipped))

	var (
		doneCost float64
		done     int
	)
	oc := jobs.NewOutcomes(&out.Skipped, "")
	work := func(j job) (*RunResult, error) { return runJob(ctx, opt, st, fp, searchFP, j) }
	jobs.Run(ctx, opt.Workers, todo, work, func(j job, r *RunResult, err error) {
		done++
		doneCost += j.cost
		switch oc.Add(j.meta.Name, err) {
		case jobs.Skip:
			fmt.Fprintf(opt.Progress, "[%d/%d] skipped %s/%s: %v\n", done, len(todo), j.meta.Name, j.nw, err)
		case jobs.Done:
			out.Results = append(out.Results, r)
			b := r.Search.Best
			fmt.Fprintf(opt.Progress, "[%d/%d] %s/%s: N=%d λ=%g%s val %.4f → %s %.4f ± %.4f (search %.1fs, eval %.1fs) ETA %s\n",
				done, len(todo), j.meta.Name, j.nw, b.N, b.Lambda, kappaText(b.Kappa), b.ValAccuracy,
				r.Eval.Protocol, r.Eval.Mean, r.Eval.Std, r.Search.Seconds, r.Eval.Seconds, jobs.TimeLeft(start, doneCost, total))
		}
	})
	out.WallSeconds = time.Since(start).Seconds()
	sort.Slice(out.Results, func(i, j int) bool {
		a, b := out.Results[i], out.Results[j]
		if a.Dataset != b.Dataset {
			return a.Dataset < b.Dataset
		}
		return a.Network < b.Network
	})
	return out, oc.Err(ctx)
}

// searchFingerprint identifies the settings a stored grid search depends on.
func searchFingerprint(g protocol.Grid, seed uint64, reg model.Regularizer, sv model.Solver) string {
	fp := jobs.Fingerprint("search-v1", g, seed) // the form stored before the options existed
	if reg != model.RegVariance {
		fp = jobs.Fingerprint("search-v1", g, seed, reg)
	}
	if !sv.Exact() {
		fp = jobs.Fingerprint(fp, sv)
	}
	return fp
}

// reg is the study's regulariser with its default.
func (o AccuracyOptions) reg() model.Regularizer {
	if o.Regularizer == "" {
		return model.RegVariance
	}
	return o.Regularizer
}

// runJob searches (or reuses a stored search) and evaluates one job.
func runJob(ctx context.Context, opt AccuracyOptions, st jobs.Store, fp, searchFP string, j job) (*RunResult, error) {
	u, err := dataset.LoadUCI(opt.DataDir, j.meta.Name)
	if err != nil {
		return nil, jobs.LoadError{Err: err}
	}
	var s struct {
		Fingerprint string                 `json:"fingerprint"`
		Data        string                 `json:"data_sha256"`
		Search      *protocol.SearchResult `json:"search"`
	}
	ok, err := st.Load(runPath("search", j.nw, j.meta.Name), searchFP, j.data, &s)
	if err != nil {
		return nil, err
	}
	if b, fixed := opt.Fixed[j.meta.Name]; fixed {
		s.Search, ok = &protocol.SearchResult{Dataset: j.meta.Name, Network: j.nw, Best: b}, true
	}
	if !ok {
		if s.Search, err = protocol.Search(ctx, u, j.nw, protocol.SearchOptions{Grid: opt.Grid, Seed: opt.SearchSeed, Regularizer: opt.reg(), Solver: opt.Solver, Win: opt.Win}); err != nil {
			return nil, err
		}
		s.Fingerprint, s.Data = searchFP, j.data
		if err := st.Save(runPath("search", j.nw, j.meta.Name), s); err != nil {
			return nil, err
		}
	}
	b := s.Search.Best
	cfg := j.nw.Config(b.N, b.Lambda, b.Kappa)
	cfg.Regularizer, cfg.Solver, cfg.Win = opt.reg(), opt.Solver, opt.Win
	ev, err := protocol.Evaluate(ctx, u, cfg, protocol.EvalOptions{Seeds: opt.Seeds, TestNorm: opt.TestNorm})
	if err != nil {
		return nil, err
	}
	r := &RunResult{Dataset: j.meta.Name, Network: j.nw, Fingerprint: fp, Data: j.data, K: u.Data.K(), L: u.Data.L(),
		Rows: u.Data.M(), Search: s.Search, Eval: ev, Regularizer: opt.reg(), Solver: opt.Solver, Win: opt.Win}
	if err := st.Save(runPath("result", j.nw, j.meta.Name), r); err != nil {
		return nil, err
	}
	return r, nil
}

// estimateCost is a rough flop count of a job, used to order jobs and for the ETA.
func estimateCost(meta *dataset.UCIMeta, nw protocol.Network, g protocol.Grid) float64 {
	m := float64(meta.SearchTrain)
	rows := float64(meta.TrainRows)
	maxN := float64(g.Ns[len(g.Ns)-1])
	var c float64
	perN := func(n float64) float64 {
		p := math.Min(n, m)
		return m*n*p + float64(len(g.Lambdas))*p*p*p/3
	}
	switch nw {
	case protocol.IntRVFL:
		for _, n := range g.Ns {
			c += float64(len(g.Kappas)) * perN(float64(n))
		}
	case protocol.RVFLQuant:
		for _, n := range g.Ns {
			c += perN(float64(n))
		}
	default:
		c = perN(maxN)
	}
	// Final evaluation: 5 seeds × 4 folds of one training of about the largest size.
	c += 20 * (0.75 * rows * maxN * maxN / 4)
	return c + 1e6
}
