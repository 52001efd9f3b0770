package study

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"slices"
	"sort"
	"time"

	"github.com/hdlgen/hdlgen/internal/jobs"
	"github.com/hdlgen/hdlgen/protocol"

	"github.com/hdlgen/hdlgen/dataset"
	"github.com/hdlgen/hdlgen/model"
	"github.com/hdlgen/hdlgen/quant"
)

// ReadoutOptions configures the integer-readout study (the paper's Fig. 6).
type ReadoutOptions struct {
	DataDir  string
	OutDir   string // the accuracy study's folder: its intrvfl results give each dataset's hyperparameters
	Datasets []string
	Bounds   []int    // default 1…16
	Seeds    []uint64 // float and rounded readouts; default 0…4
	GASeeds  []uint64 // the GA strategies (expensive); default {0}
	// NoGA skips the two GA strategies: float and rounded readouts only (a
	// study in minutes rather than hours). GASeeds is then ignored.
	NoGA bool
	// NoRandomGA skips the random-initialised GA (GARandom stays zero): the
	// retune stage needs the rounded-seeded refinement only.
	NoRandomGA bool
	GA         quant.GAOptions
	// MaxGARows caps the training rows the GA's fitness sees: larger training
	// sets are subsampled (a seeded shuffle) to keep the study's time bounded.
	MaxGARows int
	Workers   int
	TestNorm  protocol.TestNorm
	Progress  io.Writer
	Shard     jobs.Shard // this run's share of the datasets (zero value: all)
	ReuseOnly bool       // compute nothing: every selected result must be stored (a merge)
}

// StudyGAOptions is the GA budget of the readout study: a quarter of the
// package defaults (population 32, at most 500 generations, patience 100).
func StudyGAOptions() quant.GAOptions {
	o := quant.DefaultGAOptions()
	o.Population, o.Generations, o.Patience = 32, 500, 100
	o.Workers = 1
	return o
}

func (o *ReadoutOptions) defaults() {
	if len(o.Bounds) == 0 {
		for b := 1; b <= 16; b++ {
			o.Bounds = append(o.Bounds, b)
		}
	}
	switch {
	case o.NoGA:
		o.GASeeds = nil
	case len(o.GASeeds) == 0:
		o.GASeeds = []uint64{0}
	}
	if o.GA.Population == 0 {
		o.GA = StudyGAOptions()
	}
	if o.MaxGARows == 0 {
		o.MaxGARows = 4000
	}
	runDefaults(&o.Seeds, &o.Workers, &o.TestNorm, &o.Progress)
}

// ReadoutResult is one dataset's outcome: mean test accuracy over seeds and
// folds of the float readout and, per bound B, of the three integer strategies.
type ReadoutResult struct {
	Dataset     string            `json:"dataset"`
	Fingerprint string            `json:"fingerprint"`
	Data        string            `json:"data_sha256"`
	Config      protocol.Best     `json:"config"`      // N, λ, κ from the accuracy study
	Regularizer model.Regularizer `json:"regularizer"` // the accuracy study's ridge penalty
	Bounds      []int             `json:"bounds"`
	Float       float64           `json:"float"`                    // over Seeds
	Round       []float64         `json:"round"`                    // per bound, over Seeds
	FloatGA     float64           `json:"float_ga_seeds,omitempty"` // float readout over GASeeds (paired with the GA)
	RoundGA     []float64         `json:"round_ga_seeds,omitempty"` // absent without the GA
	GARounded   []float64         `json:"ga_rounded,omitempty"`     // per bound, over GASeeds
	GARandom    []float64         `json:"ga_random,omitempty"`
	GARows      int               `json:"ga_rows"` // training rows the GA saw (≤ MaxGARows)
	Seconds     float64           `json:"seconds"`
	GASeconds   float64           `json:"ga_seconds"`
}

// RunReadout runs (or resumes) the integer-readout study for every dataset whose
// intRVFL accuracy result is stored in OutDir.
func RunReadout(ctx context.Context, opt ReadoutOptions) (*ReadoutStudy, error) {
	opt.defaults()
	start := time.Now()
	st := jobs.Store{Dir: opt.OutDir}
	accs, skipped, err := intRVFLAccuracyResults(st, opt.DataDir, opt.Datasets)
	if err != nil {
		return nil, err
	}
	gaOpt := opt.GA
	gaOpt.Seed = 0 // per run seeds are derived below; keep the fingerprint independent
	fp := jobs.Fingerprint("readout-v1", opt.Bounds, opt.Seeds, opt.GASeeds, gaOpt, opt.MaxGARows, opt.TestNorm)
	// withGAFP is the fingerprint of the same study with the GA strategies:
	// such a result holds every number a NoGA run computes (the float and
	// rounded readouts do not depend on the GA), so a NoGA run reuses it.
	withGAFP := ""
	if opt.NoGA {
		withGAFP = jobs.Fingerprint("readout-v1", opt.Bounds, opt.Seeds, []uint64{0}, gaOpt, opt.MaxGARows, opt.TestNorm)
		fp = jobs.Fingerprint(fp, "no-ga")
	}
	out := &ReadoutStudy{Options: opt, Skipped: skipped, Datasets: len(accs) + len(skipped)}
	type rjob struct {
		name string
		best protocol.Best
		reg  model.Regularizer // the accuracy study's ridge penalty
		fp   string
		data string
	}
	cost := func(acc *RunResult) float64 {
		return float64(min(acc.Rows, opt.MaxGARows)) * float64(acc.Search.Best.N) * float64(acc.L)
	}
	load := func(acc *RunResult) (bool, error) {
		rel := runPath("readout", protocol.IntRVFL, acc.Dataset)
		r := new(ReadoutResult)
		ok, err := st.Load(rel, readoutFingerprint(fp, acc.Search.Best, acc.Reg()), acc.Data, r)
		if !ok && err == nil && withGAFP != "" {
			if ok, err = st.Load(rel, readoutFingerprint(withGAFP, acc.Search.Best, acc.Reg()), acc.Data, r); ok {
				r.FloatGA, r.RoundGA, r.GARounded, r.GARandom, r.GASeconds = 0, nil, nil, nil, 0
			}
		}
		if ok {
			out.Results = append(out.Results, r)
			out.Reused++
		}
		return ok || (err == nil && opt.ReuseOnly && unloadable(opt.DataDir, acc.Dataset, &out.Skipped)), err
	}
	run, _, err := jobs.Resume(StageReadout, opt.Shard, accs, cost, opt.ReuseOnly, func(acc *RunResult) string { return acc.Dataset }, load)
	if err != nil {
		return nil, err
	}
	var todo []rjob
	for _, acc := range run {
		todo = append(todo, rjob{acc.Dataset, acc.Search.Best, acc.Reg(), readoutFingerprint(fp, acc.Search.Best, acc.Reg()), acc.Data})
	}
	fmt.Fprintf(opt.Progress, "readout study: %d datasets to run, %d reused\n", len(todo), out.Reused)
	oc := jobs.NewOutcomes(&out.Skipped, "readout study")
	done := 0
	work := func(j rjob) (*ReadoutResult, error) {
		r, err := readoutDataset(ctx, opt, j.name, j.best, j.reg, j.fp)
		if err == nil {
			r.Data = j.data
			err = st.Save(runPath("readout", protocol.IntRVFL, j.name), r)
		}
		return r, err
	}
	jobs.Run(ctx, opt.Workers, todo, work, func(j rjob, r *ReadoutResult, err error) {
		done++
		if oc.Add(j.name, err) == jobs.Done {
			out.Results = append(out.Results, r)
			ga := ""
			if !opt.NoGA {
				ga = fmt.Sprintf(" ga %.4f random %.4f", at(r.GARounded, r.Bounds, 1), at(r.GARandom, r.Bounds, 1))
			}
			fmt.Fprintf(opt.Progress, "[%d/%d] readout %s (N=%d κ=%d): float %.4f, 5-bit-equivalent B=15 round %.4f, B=1 round %.4f%s (%.1fs, GA %.1fs)\n",
				done, len(todo), j.name, j.best.N, j.best.Kappa, r.Float, at(r.Round, r.Bounds, 15), at(r.Round, r.Bounds, 1),
				ga, r.Seconds, r.GASeconds)
		}
	})
	out.WallSeconds = time.Since(start).Seconds()
	sort.Slice(out.Results, func(i, j int) bool { return out.Results[i].Dataset < out.Results[j].Dataset })
	if err := ctx.Err(); err != nil {
		return out, err
	}
	return out, oc.FirstErr
}

// at returns v at the position of bound b (NaN-free: 0 when absent).
func at(v []float64, bounds []int, b int) float64 {
	for i, x := range bounds {
		if x == b && i < len(v) {
			return v[i]
		}
	}
	return 0
}

// readoutFingerprint identifies one dataset's readout result: the study's
// options, the hyperparameters and, when it is not the default, the ridge
// penalty (so results stored before the option existed stay valid).
func readoutFingerprint(studyFP string, best protocol.Best, reg model.Regularizer) string {
	if reg == model.RegVariance {
		return jobs.Fingerprint(studyFP, best)
	}
	return jobs.Fingerprint(studyFP, best, reg)
}

func readoutDataset(ctx context.Context, opt ReadoutOptions, name string, best protocol.Best, reg model.Regularizer, fp string) (*ReadoutResult, error) {
	u, err := dataset.LoadUCI(opt.DataDir, name)
	if err != nil {
		return nil, jobs.LoadError{Err: err}
	}
	return readoutOf(ctx, opt, u, best, reg, fp)
}

// readoutOf evaluates the float and rounded readouts (and the GA strategies
// unless opt.NoGA) of the intRVFL best on the loaded dataset u.
func readoutOf(ctx context.Context, opt ReadoutOptions, u *dataset.UCIDataset, best protocol.Best, reg model.Regularizer, fp string) (*ReadoutResult, error) {
	start := time.Now()
	nb := len(opt.Bounds)
	r := &ReadoutResult{Dataset: u.Meta.Name, Fingerprint: fp, Config: best, Regularizer: reg, Bounds: opt.Bounds,
		Round: make([]float64, nb), RoundGA: make([]float64, nb), GARounded: make([]float64, nb), GARandom: make([]float64, nb)}
	isGASeed := map[uint64]bool{}
	for _, s := range opt.GASeeds {
		isGASeed[s] = true
	}
	seeds := append([]uint64(nil), opt.Seeds...)
	for _, s := range opt.GASeeds {
		if !slices.Contains(seeds, s) {
			seeds = append(seeds, s)
		}
	}
	splits := protocol.Parts(u, opt.TestNorm)
	var nFloat, nGA float64
	for _, seed := range seeds {
		for si, sp := range splits {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			cfg := protocol.IntRVFL.Config(best.N, best.Lambda, best.Kappa)
			cfg.Seed, cfg.Regularizer = seed, reg
			m, err := model.TrainNormalized(ctx, trainDataOf(u.Data, sp), sp.XTrain, model.Normalizer{Min: make([]float64, u.Data.K()), Max: ones(u.Data.K())}, cfg)
			if err != nil {
				return nil, fmt.Errorf("seed %d split %d: %w", seed, si, err)
			}
			hte, err := m.Activations(sp.XTest, sp.MTest)
			if err != nil {
				return nil, err
			}
			floatAcc := m.AccuracyNormalized(sp.XTest, sp.MTest, sp.YTest)
			rounded := make([]quant.Readout, nb)
			roundAcc := make([]float64, nb)
			for bi, b := range opt.Bounds {
				if rounded[bi], err = quant.Quantize(m.Wout, m.L(), m.N(), b); err != nil {
					return nil, err
				}
				if roundAcc[bi], err = quant.Accuracy(hte, rounded[bi], sp.YTest); err != nil {
					return nil, err
				}
			}
			if slices.Contains(opt.Seeds, seed) {
				nFloat++
				r.Float += floatAcc
				for bi := range roundAcc {
					r.Round[bi] += roundAcc[bi]
				}
			}
			if !isGASeed[seed] {
				continue
			}
			nGA++
			r.FloatGA += floatAcc
			t0 := time.Now()
			htr, ytr := gaRows(m, sp, opt.MaxGARows, seed)
			r.GARows = htr.Rows
			for bi, b := range opt.Bounds {
				r.RoundGA[bi] += roundAcc[bi]
				g := opt.GA
				g.Seed = seed*1000003 + uint64(si)*1009 + uint64(b)
				ref, err := quant.Refine(ctx, rounded[bi], htr, ytr, g)
				if err != nil {
					return nil, err
				}
				a1, err := quant.Accuracy(hte, ref.Readout, sp.YTest)
				if err != nil {
					return nil, err
				}
				r.GARounded[bi] += a1
				if opt.NoRandomGA {
					continue
				}
				rnd, err := quant.RandomGA(ctx, m.L(), b, htr, ytr, g)
				if err != nil {
					return nil, err
				}
				a2, err := quant.Accuracy(hte, rnd.Readout, sp.YTest)
				if err != nil {
					return nil, err
				}
				r.GARandom[bi] += a2
			}
			r.GASeconds += time.Since(t0).Seconds()
		}
	}
	r.Float /= nFloat
	for bi := range r.Round {
		r.Round[bi] /= nFloat
	}
	if nGA == 0 { // NoGA: the GA fields are absent, not zero
		r.RoundGA, r.GARounded, r.GARandom = nil, nil, nil
	} else {
		r.FloatGA /= nGA
		for bi := range r.RoundGA {
			r.RoundGA[bi] /= nGA
			r.GARounded[bi] /= nGA
			r.GARandom[bi] /= nGA
		}
	}
	r.Seconds = time.Since(start).Seconds()
	return r, nil
}

// gaRows returns the training activations the GA's fitness uses: all rows, or a
// seeded random subset of maxRows rows.
func gaRows(m *model.Model, sp protocol.Part, maxRows int, seed uint64) (quant.Activations, []int) {
	idx := make([]int, sp.MTrain)
	for i := range idx {
		idx[i] = i
	}
	if sp.MTrain > maxRows {
		rng := rand.New(rand.NewPCG(seed, 0x6761726f7773)) // "garows"
		for i := len(idx) - 1; i > 0; i-- {
			j := int(rng.Uint64() % uint64(i+1))
			idx[i], idx[j] = idx[j], idx[i]
		}
		idx = idx[:maxRows]
		sort.Ints(idx)
	}
	k := m.K()
	x := make([]float64, 0, len(idx)*k)
	y := make([]int, len(idx))
	for i, r := range idx {
		x = append(x, sp.XTrain[r*k:(r+1)*k]...)
		y[i] = sp.YTrain[r]
	}
	h, err := m.Activations(x, len(idx))
	if err != nil {
		panic("study: " + err.Error()) // κ was checked when the model was trained
	}
	return h, y
}

func trainDataOf(d *dataset.Dataset, sp protocol.Part) model.Data {
	// X only tells TrainNormalized the feature count; the rows come normalised.
	return model.Data{Name: d.Name, X: sp.XTrain, Y: sp.YTrain, ClassNames: d.ClassNames, FeatureNames: d.FeatureNames}
}

func ones(k int) []float64 {
	v := make([]float64, k)
	for i := range v {
		v[i] = 1
	}
	return v
}
