package protocol

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/hdlgen/hdlgen/dataset"
	"github.com/hdlgen/hdlgen/model"
)

// TestIntHiddenMatchesModel: the int8 hidden layer of the fast evaluation
// equals model.IntNet.HiddenTo for one- and multi-word sign rows, levels at
// 0 and N, and clip thresholds below and at K; so do the activations from
// the hidden inputs, and those updated from them for moved levels.
func TestIntHiddenMatchesModel(t *testing.T) {
	for _, tc := range []struct{ k, n, kappa int }{
		{1, 7, 1}, {5, 40, 3}, {16, 300, 3}, {16, 64, 15}, {64, 100, 7}, {65, 90, 1}, {130, 200, 127}, {9, 50, 9},
	} {
		t.Run(fmt.Sprintf("K%d/N%d/κ%d", tc.k, tc.n, tc.kappa), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(uint64(tc.k), uint64(tc.n)))
			net := model.NewIntNet(tc.k, tc.n, tc.kappa, uint64(tc.k*tc.n))
			hid := newIntHidden(net, min(tc.kappa, tc.k))
			const rows = 150 // more than 2×64: two goroutines
			lv := make([]int32, rows*tc.k)
			for i := range lv {
				switch rng.IntN(5) {
				case 0:
					lv[i] = 0
				case 1:
					lv[i] = int32(tc.n)
				default:
					lv[i] = int32(rng.IntN(tc.n + 1))
				}
			}
			got := make([]int8, rows*tc.n)
			hid.matrixTo(got, lv, identity(rows), 2)
			want := make([]int8, rows*tc.n)
			row, levels := make([]int, tc.n), make([]int, tc.k)
			for r := 0; r < rows; r++ {
				for i := range levels {
					levels[i] = int(lv[r*tc.k+i])
				}
				net.HiddenTo(row, levels)
				for j, v := range row {
					want[r*tc.n+j] = int8(v)
				}
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("int8 hidden layer differs from model.IntNet.HiddenTo (-want +got):\n%s", diff)
			}
			// The same rows, reordered, from their hidden inputs, and at
			// levels moved up or down in some features from those inputs.
			order := rng.Perm(rows)
			moved := slices.Clone(lv)
			for i := range moved {
				if rng.IntN(3) == 0 {
					moved[i] = int32(min(max(int(moved[i])+rng.IntN(21)-10, 0), tc.n))
				}
			}
			want = make([]int8, rows*tc.n)
			hid.matrixTo(want, lv, order, 1)
			got = make([]int8, rows*tc.n)
			s0 := hid.inputsTo(got, lv, order, 2)
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("inputsTo's activations differ from matrixTo's (-want +got):\n%s", diff)
			}
			hid.matrixTo(want, moved, order, 1)
			hid.shiftedTo(got, s0, lv, moved, order, 2)
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("activations at moved levels differ from matrixTo's (-want +got):\n%s", diff)
			}
		})
	}
}

// evalDiff compares two evaluations, apart from the wall time.
func evalDiff(a, b *EvalResult) string {
	return cmp.Diff(a, b, cmpopts.IgnoreFields(EvalResult{}, "Seconds"))
}

// TestEvaluateMatchesBaseline: Evaluate and EvaluateBaseline give the same
// accuracies, bit for bit, on synthetic datasets: cross-validation and a
// separate test file, primal (M ≥ N) and dual folds, both penalties, float
// and rounded readouts, for the intRVFL (the fast path) and the other
// networks (the baseline itself).
func TestEvaluateMatchesBaseline(t *testing.T) {
	type tc struct {
		name string
		u    *dataset.UCIDataset
		cfg  model.Config
	}
	var tests []tc
	cv := syntheticUCI("cv", 600, 7, 3, 0, 1, false)
	discrete := syntheticUCI("discrete", 700, 6, 3, 0, 5, true) // one group of four folds
	small := syntheticUCI("small", 120, 5, 4, 0, 2, false)
	two := syntheticUCI("two", 500, 6, 3, 200, 3, false)
	wide := syntheticUCI("wide", 300, 70, 2, 0, 4, false) // K > 64: two sign words
	if e := newIntEval(discrete, model.Config{Arch: model.IntRVFL, N: 50, Kappa: 3, Lambda: 1}); e == nil || len(e.groups) != 1 || len(e.groups[0].blocks) < 8 {
		t.Fatalf("the discrete dataset should give one group of the 4 folds in many blocks: %+v", e)
	}
	if e := newIntEval(cv, model.Config{Arch: model.IntRVFL, N: 50, Kappa: 3, Lambda: 1}); e == nil || len(e.groups) < 2 {
		t.Fatalf("the continuous dataset should give several groups: %+v", e)
	}
	for _, u := range []*dataset.UCIDataset{cv, discrete, small, two, wide} {
		for _, n := range []int{40, 200} {
			for _, reg := range []model.Regularizer{model.RegVariance, model.RegIdentity} {
				for _, bits := range []int{0, 5} {
					cfg := model.Config{Arch: model.IntRVFL, N: n, Kappa: 3, Lambda: 0.5, Regularizer: reg, ReadoutBits: bits, Threads: 1}
					tests = append(tests, tc{fmt.Sprintf("%s/intrvfl/N%d/%s/bits%d", u.Meta.Name, n, reg, bits), u, cfg})
				}
			}
		}
		for _, n := range []int{40, 200} {
			for _, reg := range []model.Regularizer{model.RegVariance, model.RegIdentity} {
				cfg := model.Config{Arch: model.IntRVFL, N: n, Kappa: 3, Lambda: 0.5, Regularizer: reg, Solver: model.Solver{Method: "pinv-cutoff"}, Threads: 1}
				tests = append(tests, tc{fmt.Sprintf("%s/intrvfl/N%d/%s/pinv-cutoff", u.Meta.Name, n, reg), u, cfg})
			}
		}
		tests = append(tests,
			tc{u.Meta.Name + "/intrvfl/κ15/threads2", u, model.Config{Arch: model.IntRVFL, N: 100, Kappa: 15, Lambda: 4, Threads: 2}},
			tc{u.Meta.Name + "/rvfl", u, model.Config{Arch: model.RVFL, N: 60, Lambda: 0.25}},
			tc{u.Meta.Name + "/rvfl/pinv-cutoff", u, model.Config{Arch: model.RVFL, N: 60, Lambda: 0.25, Solver: model.Solver{Method: "pinv-cutoff", RTol: 1e-4}}},
			tc{u.Meta.Name + "/rvfl8", u, model.Config{Arch: model.RVFL8, N: 60, Lambda: 1}})
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			opt := EvalOptions{Seeds: []uint64{0, 3}}
			want, err := EvaluateBaseline(context.Background(), tt.u, tt.cfg, opt)
			if err != nil {
				t.Fatal(err)
			}
			if fast := newIntEval(tt.u, tt.cfg) != nil; fast != (tt.cfg.Arch == model.IntRVFL) {
				t.Fatalf("fast path taken: %v, want it for the intRVFL only", fast)
			}
			got, err := Evaluate(context.Background(), tt.u, tt.cfg, opt)
			if err != nil {
				t.Fatal(err)
			}
			if diff := evalDiff(want, got); diff != "" {
				t.Errorf("Evaluate differs from EvaluateBaseline (-baseline +fast):\n%s", diff)
			}
		})
	}
}

// TestEvaluateMatchesBaselineOnTheCollection: Evaluate and EvaluateBaseline
// agree bit for bit on datasets of the collection with the configurations
// the accuracy study chose (results/uci121/accuracy.tsv) and variants:
// cross-validation with discrete features (mushroom, chess-krvkp: the four
// folds share their levels) and continuous ones (abalone), the dual system
// (statlog-heart, iris, monks-1 at N=1250), two-file datasets
// (image-segmentation, monks-1), the identity penalty and the 5-bit
// readout; for the intRVFL and the RVFL.
func TestEvaluateMatchesBaselineOnTheCollection(t *testing.T) {
	dir := collection(t)
	type tc struct {
		name, dataset string
		cfg           model.Config
	}
	intr := func(n int, lambda float64, kappa int) model.Config { return IntRVFL.Config(n, lambda, kappa) }
	rvfl := func(n int, lambda float64) model.Config { return RVFL.Config(n, lambda, 0) }
	id5 := func(c model.Config) model.Config {
		c.Regularizer, c.ReadoutBits = model.RegIdentity, 5
		return c
	}
	tests := []tc{
		{"intrvfl", "iris", intr(50, 16, 1)},
		{"intrvfl identity 5-bit", "iris", id5(intr(200, 4, 3))},
		{"intrvfl", "abalone", intr(300, 32, 15)},
		{"intrvfl identity 5-bit", "abalone", id5(intr(300, 32, 3))},
		{"intrvfl", "mushroom", intr(100, 0.0625, 15)},
		{"intrvfl identity 5-bit", "mushroom", id5(intr(400, 64, 7))},
		{"intrvfl", "chess-krvkp", intr(1500, 8, 7)},
		{"intrvfl", "statlog-heart", intr(50, 32, 3)},
		{"intrvfl N>M", "statlog-heart", intr(400, 32, 3)},
		{"intrvfl", "image-segmentation", intr(500, 0.5, 3)},
		{"intrvfl identity 5-bit", "image-segmentation", id5(intr(150, 0.5, 3))},
		{"intrvfl", "monks-1", intr(100, 16, 1)},
		{"rvfl", "iris", rvfl(50, 0.00390625)},
		{"rvfl", "abalone", rvfl(50, 0.015625)},
		{"rvfl", "mushroom", rvfl(250, 4)},
		{"rvfl", "image-segmentation", rvfl(250, 0.25)},
		{"rvfl", "monks-1", rvfl(1250, 0.25)},
	}
	loaded := map[string]*dataset.UCIDataset{}
	for _, tt := range tests {
		t.Run(tt.dataset+"/"+tt.name, func(t *testing.T) {
			u := loaded[tt.dataset]
			if u == nil {
				var err error
				if u, err = dataset.LoadUCI(dir, tt.dataset); err != nil {
					t.Fatal(err)
				}
				loaded[tt.dataset] = u
			}
			opt := EvalOptions{Seeds: []uint64{0, 1, 2}}
			want, err := EvaluateBaseline(context.Background(), u, tt.cfg, opt)
			if err != nil {
				t.Fatal(err)
			}
			got, err := Evaluate(context.Background(), u, tt.cfg, opt)
			if err != nil {
				t.Fatal(err)
			}
			if diff := evalDiff(want, got); diff != "" {
				t.Errorf("Evaluate differs from EvaluateBaseline (-baseline +fast):\n%s", diff)
			}
		})
	}
}

// TestEvaluateIndependentOfWorkers: the result is the same, field by field,
// whether the seeds run one after the other (one worker) or side by side
// (two, three and more workers than seeds), on the fast path (folds in one
// group and in several, a separate test file) and on the baseline.
func TestEvaluateIndependentOfWorkers(t *testing.T) {
	cv := syntheticUCI("cv", 600, 7, 3, 0, 1, false)
	discrete := syntheticUCI("discrete", 700, 6, 3, 0, 5, true)
	two := syntheticUCI("two", 500, 6, 3, 200, 3, false)
	seeds := []uint64{0, 1, 2, 3, 4, 5, 6}
	for _, tt := range []struct {
		name string
		u    *dataset.UCIDataset
		cfg  model.Config
	}{
		{"cv/intrvfl", cv, model.Config{Arch: model.IntRVFL, N: 120, Kappa: 3, Lambda: 0.5}},
		{"cv/intrvfl/dual", cv, model.Config{Arch: model.IntRVFL, N: 500, Kappa: 3, Lambda: 0.5}},
		{"discrete/intrvfl/5-bit", discrete, model.Config{Arch: model.IntRVFL, N: 80, Kappa: 1, Lambda: 2, ReadoutBits: 5}},
		{"two/intrvfl", two, model.Config{Arch: model.IntRVFL, N: 100, Kappa: 7, Lambda: 4}},
		{"cv/rvfl", cv, model.Config{Arch: model.RVFL, N: 60, Lambda: 0.25}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var want *EvalResult
			for _, workers := range []int{1, 2, 3, 9} {
				cfg := tt.cfg
				cfg.Threads = workers
				got, err := Evaluate(context.Background(), tt.u, cfg, EvalOptions{Seeds: seeds})
				if err != nil {
					t.Fatal(err)
				}
				if want == nil {
					want = got
					continue
				}
				if diff := evalDiff(want, got); diff != "" {
					t.Errorf("%d workers differ from one (-1 +%d):\n%s", workers, workers, diff)
				}
			}
		})
	}
}
