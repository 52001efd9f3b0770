package study

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/hdlgen/hdlgen/dataset"
	"github.com/hdlgen/hdlgen/model"
)

// ReproduceOptions configures the accuracy study over a collection.
type ReproduceOptions struct {
	DataDir  string
	OutDir   string
	Datasets []string  // subset; nil = every dataset of the collection
	Networks []Network // default AccuracyNetworks
	Grid     Grid      // default PaperGrid
	Seeds    []uint64  // default DefaultSeeds
	Workers  int       // parallel jobs (default 2)
	TestNorm TestNorm  // default TestNormOwn
	Progress io.Writer // progress lines (stderr); nil = none
	// SearchSeed is the seed of the networks of the grid search (default 0).
	SearchSeed uint64
	// Fixed, when set, replaces the search: each listed dataset is evaluated with
	// these hyperparameters (e.g. the ones published with the authors' code);
	// unlisted datasets are skipped.
	Fixed map[string]Best
	// Regularizer of every ridge readout ("" means the authors' variance form).
	Regularizer model.Regularizer
}

func (o *ReproduceOptions) defaults() {
	if len(o.Networks) == 0 {
		o.Networks = AccuracyNetworks
	}
	if len(o.Grid.Ns) == 0 {
		o.Grid = PaperGrid()
	}
	runDefaults(&o.Seeds, &o.Workers, &o.TestNorm, &o.Progress)
}

// Skipped is a dataset the study could not use.
type Skipped struct {
	Dataset string `json:"dataset"`
	Reason  string `json:"reason"`
}

// AccuracyStudy is what RunAccuracy returns: every job's result and the
// datasets it had to skip.
type AccuracyStudy struct {
	Results     []*RunResult
	Skipped     []Skipped
	WallSeconds float64 // this invocation
	Reused      int     // jobs whose results were already stored
}

type job struct {
	meta *dataset.UCIMeta
	nw   Network
	cost float64
}

// RunAccuracy runs (or resumes) the accuracy study: for every dataset and
// network, the grid search then the final evaluation, each stored as soon as it
// is done; stored results with the same settings are reused.
func RunAccuracy(ctx context.Context, opt ReproduceOptions) (*AccuracyStudy, error) {
	opt.defaults()
	start := time.Now()
	names := opt.Datasets
	if len(names) == 0 {
		var err error
		if names, err = dataset.ListUCI(opt.DataDir); err != nil {
			return nil, err
		}
	}
	st := store{dir: opt.OutDir}
	// Options added later join the fingerprint only when set, so results stored
	// before they existed stay valid.
	fp := fingerprint("accuracy-v2", opt.Grid, opt.Seeds, opt.TestNorm, opt.SearchSeed)
	if opt.Fixed != nil {
		fp = fingerprint(fp, opt.Fixed)
	}
	if opt.reg() != model.RegVariance {
		fp = fingerprint(fp, opt.reg())
	}
	// Searches depend on the grid and the search seed only, so they survive a
	// change of the evaluation settings.
	searchFP := SearchFingerprint(opt.Grid, opt.SearchSeed, opt.reg())
	out := &AccuracyStudy{}
	var jobs []job
	for _, name := range names {
		meta, err := dataset.ReadUCIMeta(opt.DataDir, name)
		if err == nil {
			err = dataFilesPresent(opt.DataDir, meta)
		}
		if err == nil && opt.Fixed != nil {
			if _, ok := opt.Fixed[name]; !ok {
				err = fmt.Errorf("no fixed hyperparameters for %s", name)
			}
		}
		if err != nil {
			out.Skipped = append(out.Skipped, Skipped{name, err.Error()})
			fmt.Fprintf(opt.Progress, "skipped %s: %v\n", name, err)
			continue
		}
		for _, nw := range opt.Networks {
			var r RunResult
			ok, err := st.load("result", nw, name, fp, &r)
			if err != nil {
				return nil, err
			}
			if ok {
				out.Results = append(out.Results, &r)
				out.Reused++
				continue
			}
			jobs = append(jobs, job{meta: meta, nw: nw, cost: estimateCost(meta, nw, opt.Grid)})
		}
	}
	total := largestFirst(jobs, func(j job) float64 { return j.cost })
	fmt.Fprintf(opt.Progress, "accuracy study: %d jobs to run, %d reused, %d datasets skipped so far\n", len(jobs), out.Reused, len(out.Skipped))

	var (
		doneCost float64
		done     int
	)
	oc := newOutcomes(&out.Skipped, "")
	work := func(j job) (*RunResult, error) { return runJob(ctx, opt, st, fp, searchFP, j) }
	runPool(ctx, opt.Workers, jobs, work, func(j job, r *RunResult, err error) {
		done++
		doneCost += j.cost
		switch oc.add(j.meta.Name, err) {
		case jobSkipped:
			fmt.Fprintf(opt.Progress, "[%d/%d] skipped %s/%s: %v\n", done, len(jobs), j.meta.Name, j.nw, err)
		case jobDone:
			out.Results = append(out.Results, r)
			b := r.Search.Best
			fmt.Fprintf(opt.Progress, "[%d/%d] %s/%s: N=%d λ=%g%s val %.4f → %s %.4f ± %.4f (search %.1fs, eval %.1fs) ETA %s\n",
				done, len(jobs), j.meta.Name, j.nw, b.N, b.Lambda, kappaText(b.Kappa), b.ValAccuracy,
				r.Eval.Protocol, r.Eval.Mean, r.Eval.Std, r.Search.Seconds, r.Eval.Seconds, timeLeft(start, doneCost, total))
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
	sort.Slice(out.Skipped, func(i, j int) bool { return out.Skipped[i].Dataset < out.Skipped[j].Dataset })
	if err := ctx.Err(); err != nil {
		return out, err
	}
	return out, oc.firstErr
}

// SearchFingerprint identifies the settings a stored grid search depends on.
func SearchFingerprint(g Grid, seed uint64, reg model.Regularizer) string {
	if reg == model.RegVariance {
		return fingerprint("search-v1", g, seed) // the form stored before the option existed
	}
	return fingerprint("search-v1", g, seed, reg)
}

// reg is the study's regulariser with its default.
func (o ReproduceOptions) reg() model.Regularizer {
	if o.Regularizer == "" {
		return model.RegVariance
	}
	return o.Regularizer
}

// dataFilesPresent reports a missing data file of a dataset before any job starts.
func dataFilesPresent(dir string, meta *dataset.UCIMeta) error {
	for _, f := range []string{meta.TrainFile, meta.TestFile} {
		if f == "" {
			continue
		}
		p := filepath.Join(dir, meta.Name, f)
		if _, err := os.Stat(p); err != nil {
			return &dataset.MissingDataError{Dataset: meta.Name, Path: p, Err: err}
		}
	}
	return nil
}

func kappaText(k int) string {
	if k == 0 {
		return ""
	}
	return fmt.Sprintf(" κ=%d", k)
}

// loadError marks a dataset that could not be loaded (reported as skipped).
type loadError struct{ err error }

func (e loadError) Error() string { return e.err.Error() }
func (e loadError) Unwrap() error { return e.err }

func isLoadError(err error) bool {
	var le loadError
	return errors.As(err, &le)
}

// runJob searches (or reuses a stored search) and evaluates one job.
func runJob(ctx context.Context, opt ReproduceOptions, st store, fp, searchFP string, j job) (*RunResult, error) {
	u, err := dataset.LoadUCI(opt.DataDir, j.meta.Name)
	if err != nil {
		return nil, loadError{err}
	}
	var s struct {
		Fingerprint string        `json:"fingerprint"`
		Search      *SearchResult `json:"search"`
	}
	ok, err := st.load("search", j.nw, j.meta.Name, searchFP, &s)
	if err != nil {
		return nil, err
	}
	if b, fixed := opt.Fixed[j.meta.Name]; fixed {
		s.Search, ok = &SearchResult{Dataset: j.meta.Name, Network: j.nw, Best: b}, true
	}
	if !ok {
		if s.Search, err = Search(ctx, u, j.nw, SearchOptions{Grid: opt.Grid, Seed: opt.SearchSeed, Regularizer: opt.reg()}); err != nil {
			return nil, err
		}
		s.Fingerprint = searchFP
		if err := st.save("search", j.nw, j.meta.Name, s); err != nil {
			return nil, err
		}
	}
	b := s.Search.Best
	cfg := j.nw.Config(b.N, b.Lambda, b.Kappa)
	cfg.Regularizer = opt.reg()
	ev, err := Evaluate(ctx, u, cfg, EvalOptions{Seeds: opt.Seeds, TestNorm: opt.TestNorm})
	if err != nil {
		return nil, err
	}
	r := &RunResult{Dataset: j.meta.Name, Network: j.nw, Fingerprint: fp, K: u.Data.K(), L: u.Data.L(),
		Rows: u.Data.M(), Search: s.Search, Eval: ev, Regularizer: opt.reg()}
	if err := st.save("result", j.nw, j.meta.Name, r); err != nil {
		return nil, err
	}
	return r, nil
}

// estimateCost is a rough flop count of a job, used to order jobs and for the ETA.
func estimateCost(meta *dataset.UCIMeta, nw Network, g Grid) float64 {
	m := float64(meta.SearchTrain)
	rows := float64(meta.TrainRows)
	maxN := float64(g.Ns[len(g.Ns)-1])
	var c float64
	perN := func(n float64) float64 {
		p := math.Min(n, m)
		return m*n*p + float64(len(g.Lambdas))*p*p*p/3
	}
	switch nw {
	case IntRVFL:
		for _, n := range g.Ns {
			c += float64(len(g.Kappas)) * perN(float64(n))
		}
	case RVFLQuant:
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

// DatasetList parses a comma-separated --datasets value.
func DatasetList(s string) []string {
	var out []string
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}
