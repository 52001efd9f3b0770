package protocol

import (
	"context"
	"fmt"
	"math"
	"sync/atomic"
	"time"

	"github.com/hdlgen/hdlgen/dataset"
	"github.com/hdlgen/hdlgen/internal/parallel"
	"github.com/hdlgen/hdlgen/model"
)

// TestNorm selects how the separate test file of a two-file dataset is normalised.
type TestNorm string

const (
	// TestNormOwn min-max normalises the test file with its own statistics (the
	// published results' convention; default).
	TestNormOwn TestNorm = "own"
	// TestNormTrain uses the training file's statistics.
	TestNormTrain TestNorm = "train"
	// TestNormAuto uses the file's own statistics only when the two files were
	// standardised differently (one has zero mean and unit variance per feature,
	// the other not — the collection's 11 inconsistent files), else the training
	// statistics; with its own statistics, a feature constant in the test file
	// takes the training rows' median (filledNormalizedTest). It looks at
	// features only, never at labels.
	TestNormAuto TestNorm = "auto"
)

// ParseTestNorm validates a --test-norm value.
func ParseTestNorm(s string) (TestNorm, error) {
	switch t := TestNorm(s); t {
	case TestNormOwn, TestNormTrain, TestNormAuto:
		return t, nil
	}
	return "", fmt.Errorf("unknown test normalisation %q (want %s, %s or %s)", s, TestNormOwn, TestNormTrain, TestNormAuto)
}

// EvalOptions configures Evaluate.
type EvalOptions struct {
	Seeds    []uint64 // default 0…4
	TestNorm TestNorm // default TestNormOwn
}

// EvalResult is the final accuracy of one configuration on one dataset.
type EvalResult struct {
	Dataset  string      `json:"dataset"`
	Protocol string      `json:"protocol"` // "4-fold" or "train/test"
	Seeds    []uint64    `json:"seeds"`
	PerSeed  []float64   `json:"per_seed"`           // accuracy of each seed
	PerFold  [][]float64 `json:"per_fold,omitempty"` // [seed][fold] for 4-fold
	Mean     float64     `json:"accuracy_mean"`
	Std      float64     `json:"accuracy_std"` // over seeds, n−1 denominator
	Seconds  float64     `json:"seconds"`
	// Two-file datasets: the rule behind Mean, and the accuracy under each
	// convention (same models, the test file normalised two ways, three
	// where TestNormAuto's differs from TestNormOwn's: AutoFills).
	TestNorm   TestNorm     `json:"test_norm,omitempty"`
	Mismatched bool         `json:"files_mismatched,omitempty"` // standardisation differs between the files
	Own        *SeedSummary `json:"test_norm_own,omitempty"`
	Train      *SeedSummary `json:"test_norm_train,omitempty"`
	// OwnFilled is the accuracy with the test file's own statistics and its
	// constant features at the training rows' median (AutoFills only).
	OwnFilled *SeedSummary `json:"test_norm_own_filled,omitempty"`
}

// Auto is the accuracy of a two-file dataset's test file under
// TestNormAuto (nil for folds).
func (r *EvalResult) Auto() *SeedSummary {
	switch {
	case r.Train == nil:
		return nil
	case !r.Mismatched:
		return r.Train
	case r.OwnFilled != nil:
		return r.OwnFilled
	}
	return r.Own
}

// SeedSummary is an accuracy over seeds.
type SeedSummary struct {
	PerSeed []float64 `json:"per_seed"`
	Mean    float64   `json:"mean"`
	Std     float64   `json:"std"`
}

func summarize(v []float64) *SeedSummary {
	return &SeedSummary{PerSeed: v, Mean: Mean(v), Std: StdDev(v)}
}

// DefaultSeeds are the five initialisations of the protocol.
var DefaultSeeds = []uint64{0, 1, 2, 3, 4}

// Evaluate runs the protocol's final step for cfg (cfg.Seed is replaced by each
// seed): 4-fold cross-validation with the dataset's folds, or train/test for
// datasets with a separate test file.
//
// The intRVFL goes through a faster path that gives EvaluateBaseline's
// accuracies bit for bit (evalfast.go): the hidden layer of every row is
// computed once per seed for all the folds whose normalisers give the same
// input levels, and each fold's Gram matrix is summed from exact integer
// Gram matrices of row blocks shared by the folds. Other networks, and
// configurations the fast path does not cover, run EvaluateBaseline.
func Evaluate(ctx context.Context, u *dataset.UCIDataset, cfg model.Config, opt EvalOptions) (*EvalResult, error) {
	if ev := newIntEval(u, cfg); ev != nil {
		return evaluate(ctx, u, cfg, opt, ev)
	}
	return EvaluateBaseline(ctx, u, cfg, opt)
}

// EvaluateBaseline is Evaluate by the straightforward path: for every seed
// and fold, model.Train on the fold's training rows and the model's
// predictions on its test rows. It is the reference the faster path is
// measured and tested against.
func EvaluateBaseline(ctx context.Context, u *dataset.UCIDataset, cfg model.Config, opt EvalOptions) (*EvalResult, error) {
	return evaluate(ctx, u, cfg, opt, baseline{u: u, cfg: cfg})
}

// seedEvaluator computes the accuracies of one seed. Its methods may run
// concurrently for different seeds; threads bounds the goroutines one call
// uses (the results do not depend on it).
type seedEvaluator interface {
	// folds returns the test accuracy of each fold of u.Folds.
	folds(seed uint64, threads int) ([]float64, error)
	// trainTest returns the test-file accuracy with the test file normalised
	// by its own min/max, by the training file's and, when fill, as
	// TestNormAuto does for mismatched files (filledNormalizedTest).
	trainTest(seed uint64, threads int, fill bool) (testFileAccuracy, error)
}

// testFileAccuracy is the test-file accuracy of one seed under each
// normalisation of the test file (filled: only when asked).
type testFileAccuracy struct {
	own, train, filled float64
}

// seedResult is what a seedEvaluator returns for one seed.
type seedResult struct {
	folds []float64
	file  testFileAccuracy
	err   error
}

// evaluate runs the seeds of Evaluate on ev and assembles the result. With
// cfg.Threads = W > 1 the seeds run W at a time, each on one thread (the
// last seed of a longer list on W: it may end alone), so that the W
// workers stay busy through the parts of a seed that run on one thread;
// each seed's computation is the same whatever runs beside it, so the
// result is too.
func evaluate(ctx context.Context, u *dataset.UCIDataset, cfg model.Config, opt EvalOptions, ev seedEvaluator) (*EvalResult, error) {
	start := time.Now()
	if len(opt.Seeds) == 0 {
		opt.Seeds = DefaultSeeds
	}
	if opt.TestNorm == "" {
		opt.TestNorm = TestNormOwn
	}
	res := &EvalResult{Dataset: u.Meta.Name, Seeds: opt.Seeds}
	var own, train, filled []float64
	fill := false
	if u.HasTestFile() {
		res.TestNorm = opt.TestNorm
		res.Mismatched = FilesMismatched(u)
		fill = AutoFills(u)
	}
	out := make([]seedResult, len(opt.Seeds))
	one := func(i, threads int) {
		if err := ctx.Err(); err != nil {
			out[i].err = err
			return
		}
		seed := opt.Seeds[i]
		r := &out[i]
		if u.HasTestFile() {
			r.file, r.err = ev.trainTest(seed, threads, fill)
			if r.err != nil {
				r.err = fmt.Errorf("%s seed %d: %w", u.Meta.Name, seed, r.err)
			}
			return
		}
		if r.folds, r.err = ev.folds(seed, threads); r.err != nil {
			r.err = fmt.Errorf("%s seed %d %w", u.Meta.Name, seed, r.err)
		}
	}
	workers := min(max(cfg.Threads, 1), len(opt.Seeds))
	var failed atomic.Bool // after one failure, no seed starts
	parallel.For(workers, len(out), func(_, i int) {
		if failed.Load() {
			return
		}
		threads := 1 // seeds side by side, one thread each …
		switch {
		case workers <= 1:
			threads = max(cfg.Threads, 1)
		case i == len(out)-1 && len(out) > workers:
			threads = workers // … but the last may end alone: it gets them all
		}
		if one(i, threads); out[i].err != nil {
			failed.Store(true)
		}
	})
	for _, r := range out { // the first failure in seed order (after one, no seed starts)
		if r.err != nil {
			return nil, r.err
		}
	}
	for _, r := range out {
		if u.HasTestFile() {
			res.Protocol = "train/test"
			own, train, filled = append(own, r.file.own), append(train, r.file.train), append(filled, r.file.filled)
			continue
		}
		res.Protocol = fmt.Sprintf("%d-fold", len(u.Folds))
		res.PerFold = append(res.PerFold, r.folds)
		res.PerSeed = append(res.PerSeed, Mean(r.folds))
	}
	if u.HasTestFile() {
		res.Own, res.Train = summarize(own), summarize(train)
		if fill {
			res.OwnFilled = summarize(filled)
		}
		res.PerSeed = own
		switch opt.TestNorm {
		case TestNormTrain:
			res.PerSeed = train
		case TestNormAuto:
			res.PerSeed = res.Auto().PerSeed
		}
	}
	res.Mean = Mean(res.PerSeed)
	res.Std = StdDev(res.PerSeed)
	res.Seconds = time.Since(start).Seconds()
	return res, nil
}

// baseline is EvaluateBaseline's seedEvaluator.
type baseline struct {
	u   *dataset.UCIDataset
	cfg model.Config
}

func (b baseline) folds(seed uint64, threads int) ([]float64, error) {
	cfg := b.cfg
	cfg.Seed, cfg.Threads = seed, threads
	folds := make([]float64, len(b.u.Folds))
	for f, split := range b.u.Folds {
		acc, err := holdout(b.u.Data, split, cfg)
		if err != nil {
			return nil, fmt.Errorf("fold %d: %w", f+1, err)
		}
		folds[f] = acc
	}
	return folds, nil
}

func (b baseline) trainTest(seed uint64, threads int, fill bool) (testFileAccuracy, error) {
	cfg := b.cfg
	cfg.Seed, cfg.Threads = seed, threads
	return trainTest(b.u, cfg, fill)
}

// holdout trains on split.Train rows of d (normaliser fitted on them) and returns
// the accuracy on split.Test rows.
func holdout(d *dataset.Dataset, split dataset.Split, cfg model.Config) (float64, error) {
	train := d.Subset(split.Train)
	m, err := model.Train(context.Background(), trainData(train), cfg)
	if err != nil {
		return 0, err
	}
	test := d.Subset(split.Test)
	return m.AccuracyNormalized(m.Norm.Apply(test.X, test.M()), test.M(), test.Y), nil
}

// trainTest trains on the train file and returns the test-file accuracy with the
// test file normalised by its own min/max, by the training file's and, when
// fill, by filledNormalizedTest.
func trainTest(u *dataset.UCIDataset, cfg model.Config, fill bool) (testFileAccuracy, error) {
	m, err := model.Train(context.Background(), trainData(u.Data), cfg)
	if err != nil {
		return testFileAccuracy{}, err
	}
	test := u.TestData
	acc := func(x []float64) float64 { return m.AccuracyNormalized(x, test.M(), test.Y) }
	out := testFileAccuracy{own: acc(ownNormalizedTest(u)), train: acc(m.Norm.Apply(test.X, test.M()))}
	if fill {
		out.filled = acc(filledNormalizedTest(u, m.Norm))
	}
	return out, nil
}

// FilesMismatched reports whether the train and test files of a two-file dataset
// were standardised differently: exactly one of them has, for every
// non-constant feature, mean 0 and standard deviation 1 (within 0.01). Only
// features are looked at.
func FilesMismatched(u *dataset.UCIDataset) bool {
	if !u.HasTestFile() {
		return false
	}
	return standardized(u.Data) != standardized(u.TestData)
}

func standardized(d *dataset.Dataset) bool {
	k, m := d.K(), d.M()
	if m < 2 {
		return false
	}
	for i := 0; i < k; i++ {
		var s, s2 float64
		for r := 0; r < m; r++ {
			s += d.X[r*k+i]
		}
		mu := s / float64(m)
		for r := 0; r < m; r++ {
			x := d.X[r*k+i] - mu
			s2 += x * x
		}
		sd := math.Sqrt(s2 / float64(m-1))
		if sd == 0 {
			continue
		}
		if math.Abs(mu) > 0.01 || math.Abs(sd-1) > 0.01 {
			return false
		}
	}
	return true
}

// trainData adapts a dataset to the model's training input.
func trainData(d *dataset.Dataset) model.Data {
	return model.Data{Name: d.Name, X: d.X, Y: d.Y, ClassNames: d.ClassNames,
		FeatureNames: d.FeatureNames, LabelName: d.LabelName}
}

// Part is one train/test unit of the protocol's final step: a fold, or the
// train and test files.
type Part struct {
	XTrain, XTest []float64 // normalised rows, row-major M×K
	YTrain, YTest []int
	MTrain, MTest int
}

// Parts returns the protocol's train/test units of u: the folds, or the two
// files (the test file normalised per tn). Normalisation is fitted on each
// training part.
func Parts(u *dataset.UCIDataset, tn TestNorm) []Part {
	mk := func(tr, te *dataset.Dataset, xtest func(model.Normalizer) []float64) Part {
		norm := model.FitNormalizer(tr.X, tr.M(), tr.K())
		return Part{XTrain: norm.Apply(tr.X, tr.M()), XTest: xtest(norm),
			YTrain: tr.Y, YTest: te.Y, MTrain: tr.M(), MTest: te.M()}
	}
	if u.HasTestFile() {
		te := u.TestData
		xtest := func(n model.Normalizer) []float64 { return n.Apply(te.X, te.M()) }
		switch tn {
		case TestNormOwn:
			xtest = func(model.Normalizer) []float64 { return ownNormalizedTest(u) }
		case TestNormAuto:
			xtest = func(n model.Normalizer) []float64 { return autoNormalizedTest(u, n) }
		}
		return []Part{mk(u.Data, te, xtest)}
	}
	var out []Part
	for _, f := range u.Folds {
		te := u.Data.Subset(f.Test)
		out = append(out, mk(u.Data.Subset(f.Train), te, func(n model.Normalizer) []float64 { return n.Apply(te.X, te.M()) }))
	}
	return out
}
