package protocol

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/hdlgen/hdlgen/dataset"
	"github.com/hdlgen/hdlgen/internal/parallel"
	"github.com/hdlgen/hdlgen/model"
	"github.com/hdlgen/hdlgen/quant"
	"github.com/hdlgen/hdlgen/ridge"
)

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
	// Solver is the ridge solver of the grid points (absent: exact).
	model.Solver
	// Win is the intRVFL's W_in source (absent: stored; "prbs31": generated).
	Win model.WinGen `json:"w_in_generator,omitempty"`
	// Select is the candidates per unit of a network that chooses its units
	// on the training rows (model.Config.Select; absent: drawn).
	Select int `json:"select,omitempty"`
	// Shard is where a shard of a search comes from (search --shard i/n).
	Shard *ShardInfo `json:"shard,omitempty"`
}

// Split is the normalised train/validation split of conxuntos.dat that the
// search scores on: min-max fitted on the training rows.
type Split struct {
	K, L         int       // features, classes
	XTrain, XVal []float64 // normalised rows, row-major M×K
	YTrain, YVal []int
	MTrain, MVal int
}

// NewSplit normalises the search split of u.
func NewSplit(u *dataset.UCIDataset) *Split {
	tr := u.Data.Subset(u.Search.Train)
	va := u.Data.Subset(u.Search.Test)
	k := u.Data.K()
	norm := model.FitNormalizer(tr.X, tr.M(), k)
	return &Split{K: k, L: u.Data.L(),
		XTrain: norm.Apply(tr.X, tr.M()), XVal: norm.Apply(va.X, va.M()),
		YTrain: tr.Y, YVal: va.Y, MTrain: tr.M(), MVal: va.M()}
}

// SearchOptions configures Search.
type SearchOptions struct {
	Grid Grid
	// Seed of the networks scored (the protocol uses one initialisation, 0).
	Seed uint64
	// Regularizer of the ridge readout ("" means the authors' variance form).
	Regularizer model.Regularizer
	// Solver of the ridge readout (zero value: exact).
	Solver model.Solver
	// Win is the intRVFL's W_in source (zero value: stored). intRVFL only.
	Win model.WinGen
	// Select, when > 1, chooses every grid point's units on the split's
	// training rows among Select candidates each (model.Config.Select), as
	// training does. The types that can (model.Traits.Selects) only.
	Select int
	// Bits, when positive, scores every grid point by the validation accuracy
	// of its readout rounded to Bits bits (quant.BoundForBits: the deployed
	// integer model) instead of the float readout. intRVFL only.
	Bits int
	// Ns, when not empty, restricts the scoring to these N of the grid (one
	// shard of `hdlgen search --shard`); the networks stay those of the whole
	// grid, so every count equals the whole search's and MergeSearches of the
	// shards gives the whole search.
	Ns []int
	// Workers is the number of goroutines (0 or 1: one). The intRVFL's
	// grid points (one N and its κ) run side by side, one thread each; the
	// other networks' one grid uses them in its linear algebra. The counts
	// do not depend on it.
	Workers int
}

// CheckSearch checks what Search checks before any work, from the network
// variant's traits (model.Traits): a generated W_in, a readout width and κ
// only where its network type takes them. The search package checks its
// parts with it too, so that a streamed part fails as a protocol part would.
func CheckSearch(nw Network, so SearchOptions) error {
	t := nw.Traits()
	if so.Win != model.WinStored && (!t.GeneratedWin || so.Win != model.WinPRBS31) {
		return fmt.Errorf("%s: W_in source %q (a generated W_in is for the %s only)", nw, so.Win,
			model.Alternatives(model.ArchsWith(func(t model.Traits) bool { return t.GeneratedWin })))
	}
	if so.Select != 0 && !t.Selects {
		return fmt.Errorf("%s: units chosen on the training rows (select %d) are for the %s only", nw, so.Select,
			model.Alternatives(model.ArchsWith(func(t model.Traits) bool { return t.Selects })))
	}
	if so.Select != 0 && (so.Select < 2 || so.Select > model.MaxSelect) {
		return fmt.Errorf("select %d outside [2, %d]", so.Select, model.MaxSelect)
	}
	if so.Bits != 0 && !t.ReadoutBits() {
		return fmt.Errorf("%s: an integer-readout search (bits %d) is for the %s only", nw, so.Bits,
			model.Alternatives(model.ArchsWith(model.Traits.ReadoutBits)))
	}
	if so.Bits != 0 && (so.Bits < quant.MinBits || so.Bits > quant.MaxBits) {
		return fmt.Errorf("readout bits %d outside [%d, %d]", so.Bits, quant.MinBits, quant.MaxBits)
	}
	if len(so.Grid.Lambdas) == 0 || (t.Kappa && len(so.Grid.Kappas) == 0) {
		return errors.New("the grid has no λ or no κ")
	}
	return so.Solver.Check()
}

// Search runs the grid search of the protocol for one network on the
// conxuntos.dat split and selects the best configuration by Better: the most
// correct validation predictions; ties go to the smallest N, then the largest
// λ (cheapest, most regularised), then the smallest κ.
func Search(ctx context.Context, u *dataset.UCIDataset, nw Network, so SearchOptions) (*SearchResult, error) {
	g, seed := so.Grid, so.Seed
	if len(g.Ns) == 0 {
		return nil, fmt.Errorf("search %s: the grid has no N", u.Meta.Name)
	}
	// The RVFL variants score prefixes of the whole grid's largest network.
	maxN := g.Ns[len(g.Ns)-1]
	if len(so.Ns) > 0 {
		for _, n := range so.Ns {
			if !slices.Contains(g.Ns, n) {
				return nil, fmt.Errorf("search %s: N=%d is not in the grid", u.Meta.Name, n)
			}
		}
		g.Ns = so.Ns
	}
	start := time.Now()
	sp := NewSplit(u)
	res := &SearchResult{Dataset: u.Meta.Name, Network: nw, Grid: g, Bits: so.Bits, Solver: so.Solver, Win: so.Win, Select: so.Select}
	if err := CheckSearch(nw, so); err != nil {
		return nil, fmt.Errorf("search %s: %w", u.Meta.Name, err)
	}
	// κ where the variant has it: the grid's, or the type's own (the conj's depths).
	g.Kappas = nw.Traits().Kappas(g.Kappas)
	res.Grid.Kappas = g.Kappas
	workers := max(so.Workers, 1)
	// The intRVFL's grid points run side by side (one thread each), the
	// other networks' one grid on all the workers.
	threads := workers
	if nw == IntRVFL {
		threads = 1
	}
	solver := so.Solver.Ridge(so.Regularizer, threads)
	var mu sync.Mutex // res's timings and jitter count, from several grid points
	grid := func(htr, hva []float64, cols int, prefixes []int) ([][]int, error) {
		t0 := time.Now()
		jittered := 0
		defer func() {
			mu.Lock()
			res.SolveSeconds += time.Since(t0).Seconds()
			res.Jittered += jittered
			mu.Unlock()
		}()
		if so.Bits != 0 { // the intRVFL's one prefix is the whole H
			c, j, err := DeployedCounts(solver, sp, htr, hva, cols, g.Lambdas, quant.BoundForBits(so.Bits))
			jittered = j
			return [][]int{c}, err
		}
		gr, err := solver.Grid(ridge.Data{H: htr, Rows: sp.MTrain, Cols: cols, Labels: sp.YTrain},
			ridge.Data{H: hva, Rows: sp.MVal, Cols: cols, Labels: sp.YVal}, sp.L, g.Lambdas, prefixes)
		if err != nil {
			return nil, err
		}
		for _, row := range gr.Jitter {
			for _, j := range row {
				if j > 0 {
					jittered++
				}
			}
		}
		return gr.Correct, nil
	}
	hidden := func(f func()) {
		t0 := time.Now()
		f()
		mu.Lock()
		res.HiddenSeconds += time.Since(t0).Seconds()
		mu.Unlock()
	}

	var err error
	switch nw {
	case IntRVFL:
		err = searchIntRVFL(ctx, sp, g, seed, so.Win, workers, res, grid, hidden)
	case RVFL, RVFLDirect, RVFL8:
		// The first N neurons of the largest network are an N-neuron network
		// (weights are drawn neuron by neuron), so one H serves every N.
		var htr, hva []float64
		cols, off := maxN, 0
		hidden(func() {
			cfg := nw.Config(maxN, 1, 0)
			if nw == RVFL8 {
				net := model.QuantizeFloatNet(model.NewFloatNet(sp.K, maxN, seed))
				htr, hva = net.HiddenMatrix(sp.XTrain, sp.MTrain), net.HiddenMatrix(sp.XVal, sp.MVal)
				return
			}
			net := model.NewFloatNet(sp.K, maxN, seed)
			net.DirectLinks = cfg.DirectLinks
			cols = net.Columns()
			if net.DirectLinks {
				off = sp.K
			}
			htr, hva = net.HiddenMatrix(sp.XTrain, sp.MTrain), net.HiddenMatrix(sp.XVal, sp.MVal)
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
				net := model.NewFloatNet(sp.K, n, seed)
				net.InputLevels = n
				htr, hva = net.HiddenMatrix(sp.XTrain, sp.MTrain), net.HiddenMatrix(sp.XVal, sp.MVal)
			})
			var c [][]int
			if c, err = grid(htr, hva, n, []int{n}); err != nil {
				break
			}
			res.Correct[0][i] = c[0]
		}
	default: // a network type with no shortcut: every grid point its own network (variants.go)
		err = searchEach(ctx, sp, nw, g, seed, res, grid, hidden)
	}
	if err != nil {
		return nil, fmt.Errorf("search %s %s: %w", u.Meta.Name, nw, err)
	}
	res.Best = selectBest(res, sp.MVal)
	res.Seconds = time.Since(start).Seconds()
	return res, nil
}

// searchIntRVFL fills res.Correct for the intRVFL: one hidden-input matrix S per
// N (it does not depend on κ), clipped for each κ; κ values that cannot clip
// (κ ≥ K) give the same H and are solved once. The N run on up to workers
// goroutines, largest first; each writes only its own counts.
func searchIntRVFL(ctx context.Context, sp *Split, g Grid, seed uint64, win model.WinGen, workers int, res *SearchResult,
	grid func(htr, hva []float64, cols int, prefixes []int) ([][]int, error), hidden func(func())) error {
	res.Correct = make([][][]int, len(g.Kappas))
	for ki := range g.Kappas {
		res.Correct[ki] = make([][]int, len(g.Ns))
	}
	workers = min(workers, len(g.Ns))
	errs := make([]error, len(g.Ns))
	var failed atomic.Bool
	// Buffers for the largest N, one set per worker, reused for every
	// (N, κ) it runs: fresh multi-hundred-MB allocations per grid point cost
	// more in page faults than the work itself.
	type buffers struct {
		str, sva []int16
		htr, hva []float64
	}
	bufs := make([]*buffers, max(workers, 1))
	parallel.For(workers, len(g.Ns), func(w, t int) {
		if failed.Load() {
			return
		}
		if bufs[w] == nil {
			maxN := g.Ns[len(g.Ns)-1]
			bufs[w] = &buffers{make([]int16, sp.MTrain*maxN), make([]int16, sp.MVal*maxN),
				make([]float64, sp.MTrain*maxN), make([]float64, sp.MVal*maxN)}
		}
		b := bufs[w]
		ni := t
		if workers > 1 {
			ni = len(g.Ns) - 1 - t // the largest first: the last to start are the cheapest
		}
		if err := ctx.Err(); err != nil {
			errs[ni] = err
			failed.Store(true)
			return
		}
		if err := searchIntRVFLAt(sp, g, ni, seed, win, res, b.str, b.sva, b.htr, b.hva, grid, hidden); err != nil {
			errs[ni] = err
			failed.Store(true)
		}
	})
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// searchIntRVFLAt fills the counts of the grid's ni-th N for every κ, with
// the buffers of the largest N.
func searchIntRVFLAt(sp *Split, g Grid, ni int, seed uint64, win model.WinGen, res *SearchResult, str, sva []int16, htr, hva []float64,
	grid func(htr, hva []float64, cols int, prefixes []int) ([][]int, error), hidden func(func())) error {
	n := g.Ns[ni]
	str, sva = str[:sp.MTrain*n], sva[:sp.MVal*n]
	htr, hva = htr[:sp.MTrain*n], hva[:sp.MVal*n]
	hidden(func() {
		net := model.NewIntNetGen(sp.K, n, 1, seed, win)
		HiddenInputsTo(str, net, sp.XTrain, sp.MTrain)
		HiddenInputsTo(sva, net, sp.XVal, sp.MVal)
	})
	solvedAt := map[int]int{} // effective κ → index of the κ solved with it
	for ki, kappa := range g.Kappas {
		eff := min(kappa, sp.K) // clipping at κ ≥ K changes nothing
		if prev, ok := solvedAt[eff]; ok {
			res.Correct[ki][ni] = res.Correct[prev][ni]
			continue
		}
		hidden(func() { ClipTo(htr, str, eff); ClipTo(hva, sva, eff) })
		c, err := grid(htr, hva, n, []int{n})
		if err != nil {
			return fmt.Errorf("grid point N=%d κ=%d: %w", n, kappa, err)
		}
		res.Correct[ki][ni] = c[0]
		solvedAt[eff] = ki
	}
	return nil
}

// HiddenInputsTo writes the M×N matrix of hidden inputs s_j (|s_j| ≤ K) into dst,
// splitting the rows over two goroutines.
func HiddenInputsTo(dst []int16, net *model.IntNet, xnorm []float64, m int) {
	parallel.Ranges(2, m, func(lo, hi int) {
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
	})
}

// ClipTo writes clip(s, −κ, κ) as float64 into dst.
func ClipTo(dst []float64, s []int16, kappa int) {
	k := int16(kappa)
	for i, v := range s {
		dst[i] = float64(min(max(v, -k), k))
	}
}

// selectBest returns the grid point that Better ranks first.
func selectBest(res *SearchResult, valRows int) Best {
	g := res.Grid
	best := Best{Correct: -1, ValRows: valRows}
	for ki := range res.Correct {
		for ni, n := range g.Ns {
			for li, lambda := range g.Lambdas {
				c := Best{N: n, Lambda: lambda, Correct: res.Correct[ki][ni][li], ValRows: valRows}
				if len(g.Kappas) > 0 {
					c.Kappa = g.Kappas[ki]
				}
				if Better(c, best) {
					best = c
				}
			}
		}
	}
	best.ValAccuracy = float64(best.Correct) / float64(valRows)
	return best
}

// DeployedCounts trains the ridge readout on htr (mTrain×n) for every λ — the
// primal system with one Gram matrix for all λ when mTrain ≥ n, else the dual,
// exactly as model.Train solves it — rounds it to levels −bound…bound, and
// counts the correct validation predictions of that integer readout. The
// scores are computed in float64 and are exact: the intRVFL's products are
// small integers, the rvfl8's multiples of 2⁻⁸ far below 2⁵³.
func DeployedCounts(solver ridge.Solver, sp *Split, htr, hva []float64, n int, lambdas []float64, bound int) ([]int, int, error) {
	d := ridge.Data{H: htr, Rows: sp.MTrain, Cols: n, Labels: sp.YTrain}
	var nm *ridge.Normal
	var dual *ridge.Dual // the kernel, formed once for every λ
	var err error
	switch {
	case d.Rows >= n:
		if nm, err = solver.NewNormal(d, sp.L); err != nil {
			return nil, 0, err
		}
	case solver.Method != ridge.PinvCutoff:
		if dual, err = solver.NewDual(d, sp.L); err != nil {
			return nil, 0, err
		}
	}
	correct := make([]int, len(lambdas))
	jittered := 0
	q := make([]float64, sp.L*n)
	for li, lambda := range lambdas {
		var w []float64
		var info ridge.Info
		switch {
		case nm != nil:
			w, info, err = solver.SolveNormal(nm, lambda, n)
		case dual != nil:
			w, info, err = solver.SolveKernel(dual, lambda)
		default:
			w, info, err = solver.SolveDual(d, sp.L, lambda)
		}
		if err != nil {
			return nil, 0, err
		}
		if info.Jitter > 0 {
			jittered++
		}
		r, err := quant.Quantize(w, sp.L, n, bound)
		if err != nil {
			return nil, 0, fmt.Errorf("λ=%g: %w", lambda, err)
		}
		for i, v := range r.Weights {
			q[i] = float64(v)
		}
		for i, p := range ridge.Predict(hva, sp.MVal, n, q, sp.L, 1) {
			if p == sp.YVal[i] {
				correct[li]++
			}
		}
	}
	return correct, jittered, nil
}

// MergeSearches combines the searches of one dataset and network over parts
// of a grid's N values (the shards of `hdlgen search --shard`) into the search
// of the whole grid: the counts of every N, in increasing N, and the best
// configuration chosen again by Better. The parts must share the dataset,
// network, λ and κ values, readout bits and validation rows, and no N may be
// in two parts. Timings and jitter counts add up.
func MergeSearches(parts []*SearchResult) (*SearchResult, error) {
	if len(parts) == 0 {
		return nil, fmt.Errorf("merge searches: no search")
	}
	for i, p := range parts {
		if err := p.Check(); err != nil {
			return nil, fmt.Errorf("merge searches: part %d: %w", i+1, err)
		}
	}
	if err := checkShards(parts); err != nil {
		return nil, fmt.Errorf("merge searches: %w", err)
	}
	first := parts[0]
	out := &SearchResult{Dataset: first.Dataset, Network: first.Network, Bits: first.Bits, Solver: first.Solver, Win: first.Win, Select: first.Select,
		Grid: Grid{Lambdas: first.Grid.Lambdas, Kappas: first.Grid.Kappas}}
	type col struct {
		n      int
		counts [][]int // [κ][λ]
	}
	var cols []col
	seen := map[int]bool{}
	for i, p := range parts {
		switch {
		case p.Dataset != first.Dataset || p.Network != first.Network || p.Bits != first.Bits || p.Solver != first.Solver || p.Win != first.Win ||
			p.Select != first.Select:
			return nil, fmt.Errorf("merge searches: part %d is %s %s bits %d solver %s, part 1 %s %s bits %d solver %s",
				i+1, p.Dataset, p.Network, p.Bits, p.Solver, first.Dataset, first.Network, first.Bits, first.Solver)
		case !slices.Equal(p.Grid.Lambdas, first.Grid.Lambdas) || !slices.Equal(p.Grid.Kappas, first.Grid.Kappas):
			return nil, fmt.Errorf("merge searches: part %d has another λ or κ grid than part 1", i+1)
		case p.Best.ValRows != first.Best.ValRows:
			return nil, fmt.Errorf("merge searches: part %d has %d validation rows, part 1 %d", i+1, p.Best.ValRows, first.Best.ValRows)
		case len(p.Correct) == 0:
			return nil, fmt.Errorf("merge searches: part %d holds no validation counts", i+1)
		}
		for ni, n := range p.Grid.Ns {
			if seen[n] {
				return nil, fmt.Errorf("merge searches: N=%d is in two parts", n)
			}
			seen[n] = true
			c := col{n: n}
			for ki := range p.Correct {
				c.counts = append(c.counts, p.Correct[ki][ni])
			}
			cols = append(cols, c)
		}
		out.Seconds += p.Seconds
		out.HiddenSeconds += p.HiddenSeconds
		out.SolveSeconds += p.SolveSeconds
		out.Jittered += p.Jittered
	}
	slices.SortFunc(cols, func(a, b col) int { return a.n - b.n })
	var ns []int
	for _, c := range cols {
		ns = append(ns, c.n)
	}
	if want := slices.Sorted(slices.Values(first.Shard.Ns)); !slices.Equal(ns, want) {
		return nil, fmt.Errorf("merge searches: the shards hold N = %v, the search's grid is %v", ns, want)
	}
	out.Correct = make([][][]int, len(cols[0].counts))
	for _, c := range cols {
		out.Grid.Ns = append(out.Grid.Ns, c.n)
		for ki := range out.Correct {
			out.Correct[ki] = append(out.Correct[ki], c.counts[ki])
		}
	}
	out.Best = selectBest(out, first.Best.ValRows)
	return out, nil
}

// SumSearches combines searches of one network over the same grid on
// several validation splits (the folds, and the seeds, of a cross-validated
// search) into one: the correct validation predictions of every grid point
// added up, the validation rows added up, and the best configuration chosen
// again by Better on the sums. The parts must share the network, the grid
// and the readout bits. The result is named after the first part; timings
// and jitter counts add up.
func SumSearches(parts []*SearchResult) (*SearchResult, error) {
	if len(parts) == 0 {
		return nil, fmt.Errorf("sum searches: no search")
	}
	first := parts[0]
	out := &SearchResult{Dataset: first.Dataset, Network: first.Network, Grid: first.Grid, Bits: first.Bits, Solver: first.Solver, Win: first.Win,
		Select: first.Select}
	valRows := 0
	for i, p := range parts {
		switch {
		case p.Network != first.Network || p.Bits != first.Bits || p.Solver != first.Solver || p.Win != first.Win || p.Select != first.Select:
			return nil, fmt.Errorf("sum searches: part %d is %s bits %d solver %s, part 1 %s bits %d solver %s",
				i+1, p.Network, p.Bits, p.Solver, first.Network, first.Bits, first.Solver)
		case !slices.Equal(p.Grid.Ns, first.Grid.Ns) || !slices.Equal(p.Grid.Lambdas, first.Grid.Lambdas) || !slices.Equal(p.Grid.Kappas, first.Grid.Kappas):
			return nil, fmt.Errorf("sum searches: part %d has another grid than part 1", i+1)
		case len(p.Correct) == 0:
			return nil, fmt.Errorf("sum searches: part %d holds no validation counts", i+1)
		}
		if out.Correct == nil {
			out.Correct = make([][][]int, len(p.Correct))
			for ki, rows := range p.Correct {
				out.Correct[ki] = make([][]int, len(rows))
				for ni, c := range rows {
					out.Correct[ki][ni] = make([]int, len(c))
				}
			}
		}
		for ki, rows := range p.Correct {
			for ni, c := range rows {
				for li, v := range c {
					out.Correct[ki][ni][li] += v
				}
			}
		}
		valRows += p.Best.ValRows
		out.Seconds += p.Seconds
		out.HiddenSeconds += p.HiddenSeconds
		out.SolveSeconds += p.SolveSeconds
		out.Jittered += p.Jittered
	}
	out.Best = selectBest(out, valRows)
	return out, nil
}
