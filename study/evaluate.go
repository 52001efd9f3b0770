package study

import (
	"context"
	"fmt"
	"math"
	"time"

	"github.com/hdlgen/hdlgen/dataset"
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
)

// ParseTestNorm validates a --test-norm value.
func ParseTestNorm(s string) (TestNorm, error) {
	switch t := TestNorm(s); t {
	case TestNormOwn, TestNormTrain:
		return t, nil
	}
	return "", fmt.Errorf("unknown test normalisation %q (want %s or %s)", s, TestNormOwn, TestNormTrain)
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
}

// DefaultSeeds are the five initialisations of the protocol.
var DefaultSeeds = []uint64{0, 1, 2, 3, 4}

// Evaluate runs the protocol's final step for cfg (cfg.Seed is replaced by each
// seed): 4-fold cross-validation with the dataset's folds, or train/test for
// datasets with a separate test file.
func Evaluate(ctx context.Context, u *dataset.UCIDataset, cfg model.Config, opt EvalOptions) (*EvalResult, error) {
	start := time.Now()
	if len(opt.Seeds) == 0 {
		opt.Seeds = DefaultSeeds
	}
	if opt.TestNorm == "" {
		opt.TestNorm = TestNormOwn
	}
	res := &EvalResult{Dataset: u.Meta.Name, Seeds: opt.Seeds}
	for _, seed := range opt.Seeds {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		cfg.Seed = seed
		if u.HasTestFile() {
			res.Protocol = "train/test"
			acc, err := trainTest(u, cfg, opt.TestNorm)
			if err != nil {
				return nil, fmt.Errorf("%s seed %d: %w", u.Meta.Name, seed, err)
			}
			res.PerSeed = append(res.PerSeed, acc)
			continue
		}
		res.Protocol = fmt.Sprintf("%d-fold", len(u.Folds))
		folds := make([]float64, len(u.Folds))
		for f, split := range u.Folds {
			acc, err := holdout(u.Data, split, cfg)
			if err != nil {
				return nil, fmt.Errorf("%s seed %d fold %d: %w", u.Meta.Name, seed, f+1, err)
			}
			folds[f] = acc
		}
		res.PerFold = append(res.PerFold, folds)
		res.PerSeed = append(res.PerSeed, mean(folds))
	}
	res.Mean = mean(res.PerSeed)
	res.Std = stddev(res.PerSeed)
	res.Seconds = time.Since(start).Seconds()
	return res, nil
}

// holdout trains on split.Train rows of d (normaliser fitted on them) and returns
// the accuracy on split.Test rows.
func holdout(d *dataset.Dataset, split dataset.Split, cfg model.Config) (float64, error) {
	train := d.Subset(split.Train)
	m, err := model.Train(trainData(train), cfg)
	if err != nil {
		return 0, err
	}
	test := d.Subset(split.Test)
	return m.AccuracyNormalized(m.Norm.Apply(test.X, test.M()), test.M(), test.Y), nil
}

// trainTest trains on the train file and tests on the test file.
func trainTest(u *dataset.UCIDataset, cfg model.Config, tn TestNorm) (float64, error) {
	m, err := model.Train(trainData(u.Data), cfg)
	if err != nil {
		return 0, err
	}
	test := u.TestData
	norm := m.Norm
	if tn == TestNormOwn {
		norm = model.FitNormalizer(test.X, test.M(), test.K())
	}
	return m.AccuracyNormalized(norm.Apply(test.X, test.M()), test.M(), test.Y), nil
}

// trainData adapts a dataset to the model's training input.
func trainData(d *dataset.Dataset) model.Data {
	return model.Data{Name: d.Name, X: d.X, Y: d.Y, ClassNames: d.ClassNames,
		FeatureNames: d.FeatureNames, LabelName: d.LabelName}
}

func mean(v []float64) float64 {
	if len(v) == 0 {
		return math.NaN()
	}
	var s float64
	for _, x := range v {
		s += x
	}
	return s / float64(len(v))
}

func stddev(v []float64) float64 {
	if len(v) < 2 {
		return 0
	}
	m := mean(v)
	var s float64
	for _, x := range v {
		s += (x - m) * (x - m)
	}
	return math.Sqrt(s / float64(len(v)-1))
}
