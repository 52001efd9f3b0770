package tune

import (
	"context"
	"fmt"
	"slices"

	"github.com/hdlgen/hdlgen/dataset"
	"github.com/hdlgen/hdlgen/model"
	"github.com/hdlgen/hdlgen/protocol"
)

// Task is a user's data set up for tuning: the training rows with their
// validation splits and, optionally, a separate test file.
type Task struct {
	Name   string
	Train  *dataset.Dataset
	Test   *dataset.Dataset // nil without a test file; labels numbered as Train's classes
	Splits []dataset.Split  // validation splits of Train's rows
	// Progress, when set, is told about each finished part of a search.
	Progress func(format string, args ...any)
	// Store, when not empty, is a folder that keeps every finished part of
	// a search (one split, seed and N), so that a search run again with the
	// same data and settings reuses them: an interrupted search resumes.
	Store string
	// Workers is the number of parts scored at once (≤ 1: one at a time).
	// The result does not depend on it.
	Workers int
	// MemoryBudget bounds the working memory of one part of an intRVFL
	// search before it is scored in row chunks (0: DefaultMemoryBudget).
	MemoryBudget int64
}

// NewTask checks that test (may be nil) has train's features, renumbers its
// labels to train's classes, and splits train's rows by v.
func NewTask(train, test *dataset.Dataset, v Validation) (*Task, error) {
	splits, err := v.Splits(train)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", train.Name, err)
	}
	t := &Task{Name: train.Name, Train: train, Splits: splits}
	if test != nil {
		if t.Test, err = matchTest(train, test); err != nil {
			return nil, err
		}
	}
	return t, nil
}

// matchTest returns test with its labels renumbered to train's classes. The
// feature columns must be train's, by count and name, and every class of
// the test file must occur in the training file.
func matchTest(train, test *dataset.Dataset) (*dataset.Dataset, error) {
	if test.K() != train.K() {
		return nil, fmt.Errorf("test file %s has %d features, the training file %s %d", test.Name, test.K(), train.Name, train.K())
	}
	for i, name := range test.FeatureNames {
		if name != train.FeatureNames[i] {
			return nil, fmt.Errorf("test file %s: column %d is %q, in the training file %s %q", test.Name, i+1, name, train.Name, train.FeatureNames[i])
		}
	}
	label := make([]int, test.L())
	for c, name := range test.ClassNames {
		if label[c] = slices.Index(train.ClassNames, name); label[c] < 0 {
			return nil, fmt.Errorf("test file %s has class %q, which the training file %s lacks (its classes: %q)", test.Name, name, train.Name, train.ClassNames)
		}
	}
	out := test.Clone()
	out.ClassNames = train.ClassNames
	for r, y := range test.Y {
		out.Y[r] = label[y]
	}
	return out, nil
}

// split returns the task as a protocol dataset whose search split is s.
func (t *Task) split(s dataset.Split) *dataset.UCIDataset {
	return &dataset.UCIDataset{Meta: dataset.UCIMeta{Name: t.Name}, Data: t.Train, Search: s}
}

// gridIndex returns the indices of b's κ, N and λ in g (κ index 0 for a
// grid without κ).
func gridIndex(g protocol.Grid, b protocol.Best) (ki, ni, li int) {
	ni, li = slices.Index(g.Ns, b.N), slices.Index(g.Lambdas, b.Lambda)
	if len(g.Kappas) > 0 {
		ki = slices.Index(g.Kappas, b.Kappa)
	}
	if ki < 0 || ni < 0 || li < 0 {
		panic(fmt.Sprintf("tune: best configuration %+v is not in the grid", b))
	}
	return ki, ni, li
}

// Evaluate returns cfg's accuracy on the validation splits with each seed
// (protocol.Evaluate, cfg.Seed replaced by each seed) and, with a test file,
// on the test file with each seed (trained on all training rows, the test
// file normalised with their statistics; nil without a test file).
func (t *Task) Evaluate(ctx context.Context, cfg model.Config, seeds []uint64) (Accuracy, *Accuracy, error) {
	cv := &dataset.UCIDataset{Meta: dataset.UCIMeta{Name: t.Name}, Data: t.Train, Folds: t.Splits}
	res, err := protocol.Evaluate(ctx, cv, cfg, protocol.EvalOptions{Seeds: seeds})
	if err != nil {
		return Accuracy{}, nil, err
	}
	val := accuracyOf(res.PerFold)
	if t.Test == nil {
		return val, nil, nil
	}
	test, err := t.TestAccuracy(ctx, cfg, seeds)
	return val, test, err
}

// TestAccuracy returns cfg's accuracy on the test file with each seed:
// trained on all training rows, the test file normalised with their
// statistics.
func (t *Task) TestAccuracy(ctx context.Context, cfg model.Config, seeds []uint64) (*Accuracy, error) {
	if t.Test == nil {
		return nil, fmt.Errorf("%s: no test file", t.Name)
	}
	tt := &dataset.UCIDataset{Meta: dataset.UCIMeta{Name: t.Name}, Data: t.Train, TestData: t.Test}
	res, err := protocol.Evaluate(ctx, tt, cfg, protocol.EvalOptions{Seeds: seeds, TestNorm: protocol.TestNormTrain})
	if err != nil {
		return nil, err
	}
	per := make([][]float64, len(res.Train.PerSeed))
	for s, a := range res.Train.PerSeed {
		per[s] = []float64{a}
	}
	a := accuracyOf(per)
	return &a, nil
}
