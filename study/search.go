package study

import (
	"context"
	"fmt"
	"math"
	"sync"
	"time"

	"github.com/hdlgen/hdlgen/dataset"
	"github.com/hdlgen/hdlgen/model"
	"github.com/hdlgen/hdlgen/quant"
	"github.com/hdlgen/hdlgen/ridge"
)

// Grid is a hyperparameter grid.
type Grid struct {
	Ns      []int     `json:"n"`
	Lambdas []float64 `json:"lambda"`
	Kappas  []int     `json:"kappa"`
}

// PaperGrid is the protocol's grid: N ∈ {50,…,1500} step 50, λ ∈ 2^{−10…5},
// κ ∈ {1, 3, 7, 15}.
func PaperGrid() Grid {
	g := Grid{Kappas: []int{1, 3, 7, 15}}
	for n := 50; n <= 1500; n += 50 {
		g.Ns = append(g.Ns, n)
	}
	for e := -10; e <= 5; e++ {
		g.Lambdas = append(g.Lambdas, math.Ldexp(1, e))
	}
	return g
}

// WideGridMaxExp is the largest λ exponent of WideGrid.
const WideGridMaxExp = 15

// WideGrid is PaperGrid with λ extended upwards to 2^WideGridMaxExp. The
// paper's λ range stops at 2^5, and on the UCI-121 collection the intRVFL's
// search selects that largest λ on most datasets (66 of 120 with the variance
// penalty, 83 of 120 with the identity penalty; results/uci121*/accuracy.tsv):
// its integer activations (up to ±κ, so HᵀH grows with κ²) want stronger
// regularisation than the grid offers. An option beyond the paper, reported
// apart from the paper-protocol reproduction.
func WideGrid() Grid {
	g := PaperGrid()
	for e := 6; e <= WideGridMaxExp; e++ {
		g.Lambdas = append(g.Lambdas, math.Ldexp(1, e))
	}
	return g
}

// Best is the selected configuration.
type Best struct {
	N           int     `json:"n"`
	Lambda      float64 `json:"lambda"`
	Kappa       int     `json:"kappa,omitempty"`
	Correct     int     `json:"correct"`
	ValRows     int     `json:"val_rows"`
	ValAccuracy float64 `json:"val_accuracy"`
}

// SearchResult is the outcome of a grid search on the train/validation split.
type SearchResult struct {
	Dataset string  `json:"dataset"`
	Network Network `json:"network"`
	Grid    Grid    `json:"grid"`
	Best    Best    `json:"best"`
	// Correct[κ index][N index][λ index] holds the correct validation predictions
	// of every grid point (one κ row for networks without κ).
	Correct [][][]int `json:"correct"`
	// Seconds is the wall time; HiddenSeconds the part spent computing hidden
	// layers, SolveSeconds the part in the ridge grid (Gram, factorisations, scoring).
	Seconds       float64 `json:"seconds"`
	HiddenSeconds float64 `json:"hidden_seconds"`
	SolveSeconds  float64 `json:"solve_seconds"`
	// Jittered counts the grid points whose ridge system needed a diagonal jitter.
	Jittered int `json:"jittered,omitempty"`
	// Bits is the integer readout the grid points were scored with (0: float).
	Bits int `json:"bits,omitempty"`
}

// searchSplit is the normalised train/validation split of conxuntos.dat.
type searchSplit struct {
	k, l             int
	xTrain, xVal     []float64 // normalised rows
	yTrain, yVal     []int
	mTrain, mVal     int
	classes          int
	trainIdx, valIdx []int
}

func newSearchSplit(u *dataset.UCIDataset) *searchSplit {
	tr := u.Data.Subset(u.Search.Train)
	va := u.Data.Subset(u.Search.Test)
	k := u.Data.K()
	norm := model.FitNormalizer(tr.X, tr.M(), k)
	return &searchSplit{k: k, l: u.Data.L(), classes: u.Data.L(),
		xTrain: norm.Apply(tr.X, tr.M()), xVal: norm.Apply(va.X, va.M()),
		yTrain: tr.Y, yVal: va.Y, mTrain: tr.M(), mVal: va.M()}
}

// SearchOptions configures Search.
type SearchOptions struct {
	Grid Grid
	// Seed of the networks scored (the protocol uses one initialisation, 0).
	Seed uint64
	// Regularizer of the ridge readout ("" means the authors' variance form).
	Regularizer model.Regularizer
	// Bits, when positive, scores every grid point by the validation accuracy
	// of its readout rounded to Bits bits (quant.BoundForBits: the deployed
	// integer model) instead of the float readout. intRVFL only.
	Bits int
}

// Search runs the grid search of the protocol for one network on the
// conxuntos.dat split and selects the best configuration: the most correct
// validation predictions; ties go to the smallest N, then the largest λ
// (cheapest, most regularised), then the smallest κ.
func Search(ctx context.Context, u *dataset.UCIDataset, nw Network, so SearchOptions) (*SearchResult, error) {
	g, seed := so.Grid, so.Seed
	start := time.Now()
	sp := newSearchSplit(u)
	res := &SearchResult{Dataset: u.Meta.Name, Network: nw, Grid: g, Bits: so.Bits}
	if !nw.HasKappa() {
		res.Grid.Kappas = nil
	}
	if so.Bits != 0 && nw != IntRVFL {
		return nil, fmt.Errorf("search %s %s: an integer-readout search (bits %d) is for the intrvfl only", u.Meta.Name, nw, so.Bits)
	}
	if so.Bits != 0 && (so.Bits < quant.MinBits || so.Bits > quant.MaxBits) {
		return nil, fmt.Errorf("search %s: readout bits %d outside [%d, %d]", u.Meta.Name, so.Bits, quant.MinBits, quant.MaxBits)
	}
	solver := ridge.Solver{Reg: ridge.Variance, Threads: 1}
	if so.Regularizer == model.RegIdentity {
		solver.Reg = ridge.Identity
	}
	grid := func(htr, hva []float64, cols int, prefixes []int) ([][]int, error) {
		t0 := time.Now()
		defer func() { res.SolveSeconds += time.Since(t0).Seconds() }()
		if so.Bits != 0 { // the intRVFL's one prefix is the whole H
			c, jittered, err := deployedCounts(solver, sp, htr, hva, cols, g.Lambdas, quant.BoundForBits(so.Bits))
			res.Jittered += jittered
			return [][]int{c}, err
		}
		gr, err := solver.Grid(ridge.Data{H: htr, Rows: sp.mTrain, Cols: cols, Labels: sp.yTrain},
			ridge.Data{H: hva, Rows: sp.mVal, Cols: cols, Labels: sp.yVal}, sp.classes, g.Lambdas, prefixes)
		if err != nil {
			return nil, err
		}
		for _, row := range gr.Jitter {
			for _, j := range row {
				if j > 0 {
					res.Jittered++
				}
			}
		}
		return gr.Correct, nil
	}
	hidden := func(f func()) {
		t0 := time.Now()
		f()
		res.HiddenSeconds += time.Since(t0).Seconds()
	}

	var err error
	switch nw {
	case IntRVFL:
		err = searchIntRVFL(ctx, sp, g, seed, res, grid, hidden)
	case RVFL, RVFLDirect, RVFL8:
		// The first N neurons of the largest network are an N-neuron network
		// (weights are drawn neuron by neuron), so one H serves every N.
		maxN := g.Ns[len(g.Ns)-1]
		var htr, hva []float64
		cols, off := maxN, 0
		hidden(func() {
			cfg := nw.Config(maxN, 1, 0)
			if nw == RVFL8 {
				net := model.QuantizeFloatNet(model.NewFloatNet(sp.k, maxN, seed))
				htr, hva = net.HiddenMatrix(sp.xTrain, sp.mTrain), net.HiddenMatrix(sp.xVal, sp.mVal)
				return
			}
			net := model.NewFloatNet(sp.k, maxN, seed)
			net.DirectLinks = cfg.DirectLinks
			cols = net.Columns()
			if net.DirectLinks {
				off = sp.k
			}
			htr, hva = net.HiddenMatrix(sp.xTrain, sp.mTrain), net.HiddenMatrix(sp.xVal, sp.mVal)
		})
		prefixes := make([]int, len(g.Ns))
		for i, n := range g.Ns {
			prefixes[i] = off + n
		}
		var c [][]int
		if c, err = grid(htr, hva, cols, prefixes); err == nil {
			res.Correct = [][][]int{c}
		}
	case RVFLQuant:
		// Inputs are quantised to N levels, so every N has its own H.
		res.Correct = [][][]int{make([][]int, len(g.Ns))}
		for i, n := range g.Ns {
			if err = ctx.Err(); err != nil {
				break
			}
			var htr, hva []float64
			hidden(func() {
				net := model.NewFloatNet(sp.k, n, seed)
				net.InputLevels = n
				htr, hva = net.HiddenMatrix(sp.xTrain, sp.mTrain), net.HiddenMatrix(sp.xVal, sp.mVal)
			})
			var c [][]int
			if c, err = grid(htr, hva, n, []int{n}); err != nil {
				break
			}
			res.Correct[0][i] = c[0]
		}
	default:
		err = fmt.Errorf("network %q has no search", nw)
	}
	if err != nil {
		return nil, fmt.Errorf("search %s %s: %w", u.Meta.Name, nw, err)
	}
	res.Best = selectBest(res, sp.mVal)
	res.Seconds = time.Since(start).Seconds()
	return res, nil
}

// searchIntRVFL fills res.Correct for the intRVFL: one hidden-input matrix S per
// N (it does not depend on κ), clipped for each κ; κ values that cannot clip
// (κ ≥ K) give the same H and are solved once.
func searchIntRVFL(ctx context.Context, sp *searchSplit, g Grid, seed uint64, res *SearchResult,
	grid func(htr, hva []float64, cols int, prefixes []int) ([][]int, error), hidden func(func())) error {
	res.Correct = make([][][]int, len(g.Kappas))
	for ki := range g.Kappas {
		res.Correct[ki] = make([][]int, len(g.Ns))
	}
	// Buffers for the largest N, reused for every (N, κ): fresh multi-hundred-MB
	// allocations per grid point cost more in page faults than the work itself.
	maxN := g.Ns[len(g.Ns)-1]
	str, sva := make([]int16, sp.mTrain*maxN), make([]int16, sp.mVal*maxN)
	htr, hva := make([]float64, sp.mTrain*maxN), make([]float64, sp.mVal*maxN)
	for ni, n := range g.Ns {
		if err := ctx.Err(); err != nil {
			return err
		}
		str, sva := str[:sp.mTrain*n], sva[:sp.mVal*n]
		htr, hva := htr[:sp.mTrain*n], hva[:sp.mVal*n]
		hidden(func() {
			net := model.NewIntNet(sp.k, n, 1, seed)
			hiddenInputsTo(str, net, sp.xTrain, sp.mTrain)
			hiddenInputsTo(sva, net, sp.xVal, sp.mVal)
		})
		solvedAt := map[int]int{} // effective κ → index of the κ solved with it
		for ki, kappa := range g.Kappas {
			eff := min(kappa, sp.k) // clipping at κ ≥ K changes nothing
			if prev, ok := solvedAt[eff]; ok {
				res.Correct[ki][ni] = res.Correct[prev][ni]
				continue
			}
			hidden(func() { clipTo(htr, str, eff); clipTo(hva, sva, eff) })
			c, err := grid(htr, hva, n, []int{n})
			if err != nil {
				return fmt.Errorf("N=%d κ=%d: %w", n, kappa, err)
			}
			res.Correct[ki][ni] = c[0]
			solvedAt[eff] = ki
		}
	}
	return nil
}

// hiddenInputsTo writes the M×N matrix of hidden inputs s_j (|s_j| ≤ K) into dst,
// splitting the rows over two goroutines.
func hiddenInputsTo(dst []int16, net *model.IntNet, xnorm []float64, m int) {
	const workers = 2
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		lo, hi := m*w/workers, m*(w+1)/workers
		wg.Add(1)
		go func() {
			defer wg.Done()
			lv := make([]int, net.K)
			row := make([]int, net.N)
			for r := lo; r < hi; r++ {
				net.LevelsTo(lv, xnorm[r*net.K:(r+1)*net.K])
				net.HiddenInputsTo(row, lv)
				out := dst[r*net.N : (r+1)*net.N]
				for j, v := range row {
					out[j] = int16(v)
				}
			}
		}()
	}
	wg.Wait()
}

// clipTo writes clip(s, −κ, κ) as float64 into dst.
func clipTo(dst []float64, s []int16, kappa int) {
	k := int16(kappa)
	for i, v := range s {
		dst[i] = float64(min(max(v, -k), k))
	}
}

// selectBest applies the tie rule: most correct; then smallest N; then largest λ;
// then smallest κ.
func selectBest(res *SearchResult, valRows int) Best {
	g := res.Grid
	best := Best{Correct: -1, ValRows: valRows}
	for ni, n := range g.Ns {
		for li := len(g.Lambdas) - 1; li >= 0; li-- {
			for ki := range res.Correct {
				c := res.Correct[ki][ni][li]
				if c > best.Correct {
					best.N, best.Lambda, best.Correct = n, g.Lambdas[li], c
					best.Kappa = 0
					if len(g.Kappas) > 0 {
						best.Kappa = g.Kappas[ki]
					}
				}
			}
		}
	}
	best.ValAccuracy = float64(best.Correct) / float64(valRows)
	return best
}
