package protocol

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/hdlgen/hdlgen/dataset"
	"github.com/hdlgen/hdlgen/model"
)

// TestIntHiddenMatchesModel: the int8 hidden layer of the fast evaluation
// equals model.IntNet.HiddenTo for one- and multi-word sign rows, levels at
// 0 and N, and clip thresholds below and at K.
func TestIntHiddenMatchesModel(t *testing.T) {
	for _, tc := range []struct{ k, n, kappa int }{
		{1, 7, 1}, {5, 40, 3}, {16, 300, 3}, {16, 64, 15}, {64, 100, 7}, {65, 90, 1}, {130, 200, 127}, {9, 50, 9},
	} {
		t.Run(fmt.Sprintf("K%d/N%d/κ%d", tc.k, tc.n, tc.kappa), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(uint64(tc.k), uint64(tc.n)))
			net := model.NewIntNet(tc.k, tc.n, tc.kappa, uint64(tc.k*tc.n))
			hid := newIntHidden(net, min(tc.kappa, tc.k))
			const rows = 40
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
		tests = append(tests,
			tc{u.Meta.Name + "/intrvfl/κ15/threads2", u, model.Config{Arch: model.IntRVFL, N: 100, Kappa: 15, Lambda: 4, Threads: 2}},
			tc{u.Meta.Name + "/rvfl", u, model.Config{Arch: model.RVFL, N: 60, Lambda: 0.25}},
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
