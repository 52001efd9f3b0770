package tune

import (
	"context"
	"fmt"
	"slices"

	"github.com/hdlgen/hdlgen/dataset"
	"github.com/hdlgen/hdlgen/model"
	"github.com/hdlgen/hdlgen/study/protocol"
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

// Search runs the grid search of so (its Seed replaced by each seed) on every
// validation split and returns the search summed over them
// (protocol.SumSearches: the configuration with the most correct validation
// predictions in total, ties by protocol.Better), and the validation
// accuracy of that configuration on each split with each seed.
func (t *Task) Search(ctx context.Context, nw protocol.Network, so protocol.SearchOptions, seeds []uint64) (*protocol.SearchResult, Accuracy, error) {
	if len(seeds) == 0 {
		return nil, Accuracy{}, fmt.Errorf("search %s: no seed", t.Name)
	}
	var parts []*protocol.SearchResult
	for _, seed := range seeds {
		for i, s := range t.Splits {
			so.Seed = seed
			p, err := protocol.Search(ctx, t.split(s), nw, so)
			if err != nil {
				return nil, Accuracy{}, fmt.Errorf("split %d seed %d: %w", i+1, seed, err)
			}
			if t.Progress != nil {
				t.Progress("search %s %s: split %d/%d, seed %d: %.1fs", t.Name, nw, i+1, len(t.Splits), seed, p.Seconds)
			}
			parts = append(parts, p)
		}
	}
	sum, err := protocol.SumSearches(parts)
	if err != nil {
		return nil, Accuracy{}, err
	}
	ki, ni, li := gridIndex(sum.Grid, sum.Best)
	per := make([][]float64, len(seeds))
	for s := range seeds {
		for i := range t.Splits {
			p := parts[s*len(t.Splits)+i]
			per[s] = append(per[s], float64(p.Correct[ki][ni][li])/float64(p.Best.ValRows))
		}
	}
	return sum, accuracyOf(per), nil
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
