package protocol

import (
	"context"
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/hdlgen/hdlgen/dataset"
	"github.com/hdlgen/hdlgen/internal/hwtest"
	"github.com/hdlgen/hdlgen/model"
)

func collection(t testing.TB) string {
	dir := hwtest.CollectionDir(t)
	return dir
}

// TestSearchMatchesDirectTraining checks that the grid's validation counts equal
// what training a model at a grid point and scoring it gives, for every network.
func TestSearchMatchesDirectTraining(t *testing.T) {
	u, err := dataset.LoadUCI(collection(t), "iris")
	if err != nil {
		t.Fatal(err)
	}
	g := Grid{Ns: []int{20, 40}, Lambdas: []float64{0.25, 4}, Kappas: []int{1, 3, 7}}
	sp := NewSplit(u)
	for _, nw := range []Network{IntRVFL, RVFL, RVFLQuant, RVFLDirect, RVFL8} {
		res, err := Search(context.Background(), u, nw, SearchOptions{Grid: g})
		if err != nil {
			t.Fatal(err)
		}
		for ki := range res.Correct {
			for ni, n := range g.Ns {
				for li, lambda := range g.Lambdas {
					kappa := 0
					if nw.HasKappa() {
						kappa = g.Kappas[ki]
					}
					want := directCorrect(t, u, sp, nw.Config(n, lambda, kappa))
					if got := res.Correct[ki][ni][li]; got != want {
						t.Errorf("%s N=%d λ=%g κ=%d: grid %d correct, direct training %d", nw, n, lambda, kappa, got, want)
					}
				}
			}
		}
		if res.Best.ValAccuracy < 0.8 {
			t.Errorf("%s: best validation accuracy %.3f on iris", nw, res.Best.ValAccuracy)
		}
	}
}

// directCorrect trains cfg on the search split's training rows, as a user
// would, and counts its float readout's correct validation predictions (what
// the search scores).
func directCorrect(t *testing.T, u *dataset.UCIDataset, sp *Split, cfg model.Config) int {
	t.Helper()
	tr := u.Data.Subset(u.Search.Train)
	m, err := model.TrainNormalized(context.Background(), trainData(tr), sp.XTrain, model.FitNormalizer(tr.X, tr.M(), tr.K()), cfg)
	if err != nil {
		t.Fatal(err)
	}
	m.Readout = nil // the search scores the float readout
	correct := 0
	for r, p := range m.PredictNormalized(sp.XVal, sp.MVal) {
		if p == sp.YVal[r] {
			correct++
		}
	}
	return correct
}

func TestSelectBestTieRule(t *testing.T) {
	res := &SearchResult{Grid: Grid{Ns: []int{50, 100}, Lambdas: []float64{0.5, 1, 2}, Kappas: []int{1, 3}},
		Correct: [][][]int{
			{{5, 7, 7}, {7, 7, 7}}, // κ=1
			{{7, 7, 6}, {7, 7, 7}}, // κ=3
		}}
	b := selectBest(res, 10)
	if b.N != 50 || b.Lambda != 2 || b.Kappa != 1 || b.Correct != 7 {
		t.Errorf("best %+v, want N=50 λ=2 κ=1 (smallest N, largest λ, smallest κ)", b)
	}
}

// TestSearchWithBitsMatchesDeployedModel checks that a search with
// SearchOptions.Bits counts, at every grid point, the correct validation
// predictions of the model trained there with that rounded integer readout,
// for a primal (M ≥ N) and a dual (M < N) system, and that it refuses other
// networks and widths outside the quantiser's range.
func TestSearchWithBitsMatchesDeployedModel(t *testing.T) {
	u, err := dataset.LoadUCI(collection(t), "iris")
	if err != nil {
		t.Fatal(err)
	}
	sp := NewSplit(u)
	g := Grid{Ns: []int{20, 2 * sp.MTrain}, Lambdas: []float64{1.0 / 64, 0.25, 4}, Kappas: []int{1, 3}}
	k := u.Data.K()
	for _, bits := range []int{2, 5} {
		for _, reg := range []model.Regularizer{model.RegVariance, model.RegIdentity} {
			res, err := Search(context.Background(), u, IntRVFL, SearchOptions{Grid: g, Regularizer: reg, Bits: bits})
			if err != nil {
				t.Fatal(err)
			}
			if res.Bits != bits {
				t.Errorf("result records bits %d, want %d", res.Bits, bits)
			}
			for ki, kappa := range g.Kappas {
				for ni, n := range g.Ns {
					for li, lambda := range g.Lambdas {
						cfg := IntRVFL.Config(n, lambda, kappa)
						cfg.Regularizer, cfg.ReadoutBits = reg, bits
						d := model.Data{X: sp.XTrain, Y: sp.YTrain, ClassNames: u.Data.ClassNames}
						m, err := model.TrainNormalized(context.Background(), d, sp.XTrain, model.Normalizer{Min: make([]float64, k), Max: onesVec(k)}, cfg)
						if err != nil {
							t.Fatal(err)
						}
						want := int(math.Round(m.AccuracyNormalized(sp.XVal, sp.MVal, sp.YVal) * float64(sp.MVal)))
						if got := res.Correct[ki][ni][li]; got != want {
							t.Errorf("bits %d %s N=%d λ=%g κ=%d: search %d correct, deployed model %d", bits, reg, n, lambda, kappa, got, want)
						}
					}
				}
			}
		}
	}
	for _, tc := range []struct {
		nw   Network
		bits int
	}{{RVFL, 5}, {RVFL8, 5}, {IntRVFL, 1}, {IntRVFL, 17}} {
		if _, err := Search(context.Background(), u, tc.nw, SearchOptions{Grid: g, Bits: tc.bits}); err == nil {
			t.Errorf("%s with bits %d: no error", tc.nw, tc.bits)
		}
	}
}

func onesVec(k int) []float64 {
	v := make([]float64, k)
	for i := range v {
		v[i] = 1
	}
	return v
}

// TestSumSearches: the counts of two searches add up point by point, the
// best configuration is chosen on the sums (here one that is best in
// neither part), and parts over other grids are refused.
func TestSumSearches(t *testing.T) {
	g := Grid{Ns: []int{50, 100}, Lambdas: []float64{1, 2}}
	a := &SearchResult{Dataset: "d", Network: RVFL, Grid: g, Best: Best{ValRows: 10}, Correct: [][][]int{{{9, 1}, {5, 5}}}}
	b := &SearchResult{Dataset: "d", Network: RVFL, Grid: g, Best: Best{ValRows: 12}, Correct: [][][]int{{{1, 9}, {6, 7}}}}
	got, err := SumSearches([]*SearchResult{a, b})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([][][]int{{{10, 10}, {11, 12}}}, got.Correct); diff != "" {
		t.Errorf("summed counts (-want +got):\n%s", diff)
	}
	want := Best{N: 100, Lambda: 2, Correct: 12, ValRows: 22, ValAccuracy: 12.0 / 22}
	if diff := cmp.Diff(want, got.Best); diff != "" {
		t.Errorf("best (-want +got):\n%s", diff)
	}
	c := *b
	c.Grid = Grid{Ns: []int{50, 150}, Lambdas: g.Lambdas}
	if _, err := SumSearches([]*SearchResult{a, &c}); err == nil {
		t.Error("parts over different grids: no error")
	}
}

// TestSearchIndependentOfWorkers: the counts and the selection are the same
// with one worker and with several (the intRVFL's N side by side, the
// RVFL's linear algebra on several threads), for the exact and the
// pinv-cutoff solvers and the integer-readout search.
func TestSearchIndependentOfWorkers(t *testing.T) {
	u := syntheticUCI("search", 400, 6, 3, 0, 7, false)
	g := Grid{Ns: []int{20, 60, 150, 250}, Lambdas: []float64{1.0 / 64, 0.5, 8}, Kappas: []int{1, 3, 7}}
	for _, tc := range []struct {
		name string
		nw   Network
		so   SearchOptions
	}{
		{"intrvfl", IntRVFL, SearchOptions{Grid: g}},
		{"intrvfl/pinv-cutoff", IntRVFL, SearchOptions{Grid: g, Solver: model.Solver{Method: "pinv-cutoff"}}},
		{"intrvfl/5-bit", IntRVFL, SearchOptions{Grid: g, Bits: 5, Regularizer: model.RegIdentity}},
		{"rvfl", RVFL, SearchOptions{Grid: g}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var want *SearchResult
			for _, workers := range []int{1, 2, 3, 8} {
				so := tc.so
				so.Workers = workers
				got, err := Search(context.Background(), u, tc.nw, so)
				if err != nil {
					t.Fatal(err)
				}
				if want == nil {
					want = got
					continue
				}
				if diff := cmp.Diff(want.Correct, got.Correct); diff != "" {
					t.Errorf("%d workers: counts differ from one worker's (-1 +%d):\n%s", workers, workers, diff)
				}
				if want.Best != got.Best || want.Jittered != got.Jittered {
					t.Errorf("%d workers: best %+v (jittered %d), one worker %+v (%d)", workers, got.Best, got.Jittered, want.Best, want.Jittered)
				}
			}
		})
	}
}

// TestSearchSelectMatchesDirectTraining: with Select, every grid point's
// units are chosen on the split's training rows as training chooses them,
// so the counts equal what training the chosen conj at the point and scoring
// it gives; the drawn conj (Select 0) is the same check's other row. A
// type that cannot choose its units is refused.
func TestSearchSelectMatchesDirectTraining(t *testing.T) {
	u, err := dataset.LoadUCI(collection(t), "iris")
	if err != nil {
		t.Fatal(err)
	}
	g := Grid{Ns: []int{20, 40}, Lambdas: []float64{0.25, 4}, Kappas: []int{1}}
	sp := NewSplit(u)
	conj := Network(model.Conj)
	results := map[int]*SearchResult{}
	for _, sel := range []int{0, model.ConjSelect} {
		res, err := Search(context.Background(), u, conj, SearchOptions{Grid: g, Select: sel})
		if err != nil {
			t.Fatal(err)
		}
		if res.Select != sel {
			t.Errorf("select %d: the result records %d", sel, res.Select)
		}
		results[sel] = res
		for ki, depth := range res.Grid.Kappas {
			for ni, n := range g.Ns {
				for li, lambda := range g.Lambdas {
					cfg := conj.Config(n, lambda, depth)
					cfg.Select = sel
					want := directCorrect(t, u, sp, cfg)
					if got := res.Correct[ki][ni][li]; got != want {
						t.Errorf("select %d N=%d λ=%g D=%d: grid %d correct, direct training %d", sel, n, lambda, depth, got, want)
					}
				}
			}
		}
	}
	if cmp.Equal(results[0].Correct, results[model.ConjSelect].Correct) {
		t.Errorf("the chosen and the drawn conj scored alike at every grid point: the selection did not take part")
	}
	if _, err := Search(context.Background(), u, IntRVFL, SearchOptions{Grid: g, Select: model.ConjSelect}); err == nil {
		t.Errorf("an intRVFL search with select: no error")
	}
}
