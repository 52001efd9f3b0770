package protocol

import (
	"context"
	"math"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/hdlgen/hdlgen/dataset"
	"github.com/hdlgen/hdlgen/model"
)

// twoFiles is a two-file dataset of 2 features: the training file
// standardised (mean 0, sd 1 per feature), the test file raw.
func twoFiles(train, test []float64) *dataset.UCIDataset {
	mk := func(x []float64) *dataset.Dataset {
		y := make([]int, len(x)/2)
		for i := range y {
			y[i] = i % 2
		}
		return &dataset.Dataset{FeatureNames: []string{"f1", "f2"}, ClassNames: []string{"a", "b"}, X: x, Y: y}
	}
	return &dataset.UCIDataset{Data: mk(train), TestData: mk(test)}
}

// standardize scales each of the k columns of x to mean 0 and standard
// deviation 1 (n−1 denominator).
func standardize(x []float64, k int) []float64 {
	m := len(x) / k
	out := slices.Clone(x)
	for f := range k {
		var s, s2 float64
		for r := range m {
			s += x[r*k+f]
		}
		mu := s / float64(m)
		for r := range m {
			s2 += (x[r*k+f] - mu) * (x[r*k+f] - mu)
		}
		sd := math.Sqrt(s2 / float64(m-1))
		for r := range m {
			out[r*k+f] = (x[r*k+f] - mu) / sd
		}
	}
	return out
}

func TestFilledNormalizedTest(t *testing.T) {
	// training file: f1 takes its maximum on 4 of 5 rows (the median of its
	// normalised values is 1), f2 spans a range; standardised per feature
	train := standardize([]float64{
		1, -1.5, 1, -0.5, 1, 0.5, 1, 1.5, -3, 0,
	}, 2)
	tests := []struct {
		name     string
		train    []float64
		test     []float64
		constant []int
		fills    bool
		wantOwn  []float64
		wantAuto []float64
	}{
		{name: "f1 constant in the test file", train: train, test: []float64{7, 10, 7, 20, 7, 30},
			constant: []int{0}, fills: true,
			wantOwn:  []float64{0, 0, 0, 0.5, 0, 1},
			wantAuto: []float64{1, 0, 1, 0.5, 1, 1}},
		{name: "nothing constant", train: train, test: []float64{5, 10, 7, 20, 7, 30},
			wantOwn:  []float64{0, 0, 1, 0.5, 1, 1},
			wantAuto: []float64{0, 0, 1, 0.5, 1, 1}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			u := twoFiles(tc.train, tc.test)
			if !standardized(u.Data) {
				t.Fatalf("the training file is not standardised: the fixture is wrong")
			}
			if diff := cmp.Diff(tc.constant, ConstantInTestFile(u)); diff != "" {
				t.Errorf("ConstantInTestFile (-want +got):\n%s", diff)
			}
			if got := AutoFills(u); got != tc.fills {
				t.Errorf("AutoFills = %v, want %v", got, tc.fills)
			}
			if diff := cmp.Diff(tc.wantOwn, ownNormalizedTest(u)); diff != "" {
				t.Errorf("own (-want +got):\n%s", diff)
			}
			norm := model.FitNormalizer(u.Data.X, u.Data.M(), u.Data.K())
			if diff := cmp.Diff(tc.wantAuto, autoNormalizedTest(u, norm)); diff != "" {
				t.Errorf("auto (-want +got):\n%s", diff)
			}
			parts := Parts(u, TestNormAuto)
			if diff := cmp.Diff(tc.wantAuto, parts[0].XTest); diff != "" {
				t.Errorf("Parts(auto) test rows (-want +got):\n%s", diff)
			}
		})
	}
}

// TestAutoFillsAnnealingOnly checks the collection: TestNormAuto differs from
// TestNormOwn on annealing only, whose test file is constant on features 13,
// 19, 21 and 31.
func TestAutoFillsAnnealingOnly(t *testing.T) {
	got := map[string][]int{}
	for _, u := range twoFileDatasets(t) {
		if AutoFills(u) {
			got[u.Meta.Name] = ConstantInTestFile(u)
		}
	}
	want := map[string][]int{"annealing": {12, 18, 20, 30}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("datasets whose auto normalisation fills (-want +got):\n%s", diff)
	}
}

// TestEvaluateAutoFilled checks that Evaluate reports the filled accuracy
// under auto on annealing, the same from the fast path (intRVFL) and the
// straightforward one.
func TestEvaluateAutoFilled(t *testing.T) {
	u, err := dataset.LoadUCI(collection(t), "annealing")
	if err != nil {
		t.Fatal(err)
	}
	cfg := model.Config{Arch: model.IntRVFL, N: 200, Kappa: 3, Lambda: 1}
	opt := EvalOptions{Seeds: []uint64{0, 1}, TestNorm: TestNormAuto}
	fast, err := Evaluate(context.Background(), u, cfg, opt)
	if err != nil {
		t.Fatal(err)
	}
	slow, err := EvaluateBaseline(context.Background(), u, cfg, opt)
	if err != nil {
		t.Fatal(err)
	}
	if fast.OwnFilled == nil {
		t.Fatalf("no filled accuracy: %+v", fast)
	}
	if fast.Mean != fast.OwnFilled.Mean {
		t.Errorf("auto mean %.4f, want the filled %.4f", fast.Mean, fast.OwnFilled.Mean)
	}
	if diff := cmp.Diff(slow.OwnFilled, fast.OwnFilled); diff != "" {
		t.Errorf("filled accuracy, baseline vs fast path (-slow +fast):\n%s", diff)
	}
}
