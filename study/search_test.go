package study

import (
	"context"
	"os"
	"testing"

	"github.com/hdlgen/hdlgen/dataset"
	"github.com/hdlgen/hdlgen/model"
)

func collection(t testing.TB) string {
	dir := os.Getenv("HDLGEN_UCI121")
	if dir == "" {
		t.Skip("HDLGEN_UCI121 not set: the UCI-121 collection is not available")
	}
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
	sp := newSearchSplit(u)
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
					cfg := nw.Config(n, lambda, kappa)
					tr := u.Data.Subset(u.Search.Train)
					m, err := model.TrainNormalized(trainData(tr), sp.xTrain, model.FitNormalizer(tr.X, tr.M(), tr.K()), cfg)
					if err != nil {
						t.Fatal(err)
					}
					m.Readout = nil // the search scores the float readout
					want := 0
					for r, p := range m.PredictNormalized(sp.xVal, sp.mVal) {
						if p == sp.yVal[r] {
							want++
						}
					}
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
