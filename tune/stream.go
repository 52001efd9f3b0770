package tune

import (
	"context"
	"fmt"
	"math"
	"time"

	"github.com/hdlgen/hdlgen/dataset"
	"github.com/hdlgen/hdlgen/linalg"
	"github.com/hdlgen/hdlgen/model"
	"github.com/hdlgen/hdlgen/protocol"
	"github.com/hdlgen/hdlgen/quant"
	"github.com/hdlgen/hdlgen/ridge"
)

// chunkRows is the number of rows the streamed scorer holds at once (a
// variable for the tests).
var chunkRows = 2048

// gramRows is the number of training rows whose 8-bit activations the
// streamed scorer holds for one integer Gram product: two chunks (4,096
// rows, one depth block of linalg.GramInt8), a quarter of the bytes of a
// chunk of float64 activations.
func gramRows() int { return 2 * chunkRows }

// int8GramKappa is the largest κ whose activations the streamed scorer
// multiplies as 8-bit integers (a variable for the tests, which set it
// to 0 for the float Syrk).
var int8GramKappa = math.MaxInt8

// streamIntRVFL scores the intRVFL with n neurons on split s, every κ and λ
// of so's grid, as protocol.Search does, without holding every row's hidden
// layer: per κ, one pass over the training rows in chunks accumulates the
// Gram matrix HᵀH, the class sums HᵀY and the column sums (all exact: the
// activations are small integers, so every sum is an integer below 2⁵³ and
// the order of the additions does not matter), the readout of every λ is
// solved from them (ridge.Solver.SolveNormal, the primal system protocol's
// search solves when there are at least n training rows), and a pass over
// the validation rows counts the correct predictions. With a rounded readout
// (so.Bits) the counts equal protocol.Search's exactly; with the float
// readout the scores may differ from protocol's grid solver in the last
// bits, so a prediction may differ on a numerically exact tie. Memory: the
// Gram matrix and the solver's copy (16·n² bytes), the readouts of every λ,
// chunkRows rows of inputs and activations, and for the Gram matrix
// gramRows() rows of 8-bit activations and, with more training rows than
// that, a second n×n matrix for the Gram of each further block.
func (t *Task) streamIntRVFL(ctx context.Context, so protocol.SearchOptions, s dataset.Split, n int) (*protocol.SearchResult, error) {
	start := time.Now()
	d := t.Train
	k, l := d.K(), d.L()
	mt, mv := len(s.Train), len(s.Test)
	if mt < n {
		return nil, fmt.Errorf("tune: streamed search of N=%d on %d training rows (the primal system needs at least N)", n, mt)
	}
	g := so.Grid
	res := &protocol.SearchResult{Dataset: t.Name, Network: protocol.IntRVFL,
		Grid: protocol.Grid{Ns: []int{n}, Lambdas: g.Lambdas, Kappas: g.Kappas},
		Best: protocol.Best{ValRows: mv}, Bits: so.Bits, Solver: so.Solver, Win: so.Win}
	norm := fitRows(d, s.Train)
	net := model.NewIntNetGen(k, n, 1, so.Seed, so.Win)
	solver := so.Solver.Ridge(so.Regularizer, 1)
	e := linalg.Engine{Threads: 1}

	x := make([]float64, chunkRows*k)
	h := make([]float64, chunkRows*n)
	var in []int16
	// inputsTo writes the hidden inputs (|s_j| ≤ K, independent of κ) of
	// rows (at most chunkRows) into dst.
	inputsTo := func(dst []int16, rows []int) {
		c := len(rows)
		for i, r := range rows {
			norm.ApplyTo(x[i*k:(i+1)*k], d.Row(r))
		}
		protocol.HiddenInputsTo(dst[:c*n], net, x[:c*k], c)
	}
	// The hidden inputs of every training and validation row are computed
	// once and kept for every κ when they fit the memory budget (2 bytes per
	// row and neuron), else recomputed chunk by chunk for each κ.
	sets := [2][]int{s.Train, s.Test}
	var kept [2][]int16
	var hiddenTime time.Duration
	if keepInputs(mt+mv, n, t.memoryBudget()) {
		t0 := time.Now()
		for set, rows := range sets {
			kept[set] = make([]int16, len(rows)*n)
			for lo := 0; lo < len(rows); lo += chunkRows {
				hi := min(lo+chunkRows, len(rows))
				inputsTo(kept[set][lo*n:hi*n], rows[lo:hi])
			}
		}
		hiddenTime += time.Since(t0)
	} else {
		in = make([]int16, chunkRows*n)
	}
	// hidden writes the activations clipped at κ of the rows lo…hi−1 of set
	// (0: training, 1: validation) into h[:(hi−lo)*n].
	hidden := func(set, lo, hi, kappa int) {
		t0 := time.Now()
		c := hi - lo
		src := in
		if kept[set] != nil {
			src = kept[set][lo*n : hi*n]
		} else {
			inputsTo(in, sets[set][lo:hi])
		}
		protocol.ClipTo(h[:c*n], src[:c*n], kappa)
		hiddenTime += time.Since(t0)
	}

	// hidden8 writes the activations clipped at κ (≤ 127) of the training
	// rows lo…hi−1 (at most chunkRows) as 8-bit integers into dst.
	hidden8 := func(lo, hi, kappa int, dst []int8) {
		t0 := time.Now()
		c := hi - lo
		src := in
		if kept[0] != nil {
			src = kept[0][lo*n : hi*n]
		} else {
			inputsTo(in, sets[0][lo:hi])
		}
		linalg.ClipInt16ToInt8(dst[:c*n], src[:c*n], kappa)
		hiddenTime += time.Since(t0)
	}
	var h8 []int8      // gramRows rows of 8-bit activations
	var part []float64 // the Gram matrix of a block of rows after the first

	res.Correct = make([][][]int, len(g.Kappas))
	solvedAt := map[int]int{} // effective κ → index of the κ solved with it
	q := make([]float64, l*n)
	for ki, kappa := range g.Kappas {
		eff := min(kappa, k) // clipping at κ ≥ K changes nothing
		if prev, ok := solvedAt[eff]; ok {
			res.Correct[ki] = res.Correct[prev]
			continue
		}
		// Pass 1: the normal equations of the training rows.
		gram := make([]float64, n*n)
		byClass := make([]int64, l*n)
		colSum := make([]int64, n)
		if eff <= int8GramKappa {
			// The activations as 8-bit integers, the Gram matrix of
			// gramRows rows at a time by linalg.GramInt8Known: exact integer
			// sums, so the same matrix, bit for bit, as the float Syrk's
			// below, in about a third of its time where the integer tile
			// runs (AVX2, AVX-512 VNNI).
			if h8 == nil {
				h8 = make([]int8, min(gramRows(), mt)*n)
			}
			for lo := 0; lo < mt; lo += gramRows() {
				hi := min(lo+gramRows(), mt)
				blockSum := make([]int64, n)
				for clo := lo; clo < hi; clo += chunkRows {
					if err := ctx.Err(); err != nil {
						return nil, err
					}
					chi := min(clo+chunkRows, hi)
					hidden8(clo, chi, eff, h8[(clo-lo)*n:(chi-lo)*n])
				}
				for i, r := range s.Train[lo:hi] {
					dst := byClass[d.Y[r]*n : d.Y[r]*n+n]
					for j, v := range h8[i*n : i*n+n] {
						dst[j] += int64(v)
						blockSum[j] += int64(v)
					}
				}
				for j, v := range blockSum {
					colSum[j] += v
				}
				if lo == 0 {
					e.GramInt8Known(hi-lo, n, h8, n, max(eff, 1), blockSum, gram, n)
					continue
				}
				if part == nil {
					part = make([]float64, n*n)
				}
				e.GramInt8Known(hi-lo, n, h8, n, max(eff, 1), blockSum, part, n)
				for i, v := range part {
					gram[i] += v
				}
			}
		} else {
			for lo := 0; lo < mt; lo += chunkRows {
				if err := ctx.Err(); err != nil {
					return nil, err
				}
				hi := min(lo+chunkRows, mt)
				rows := s.Train[lo:hi]
				hidden(0, lo, hi, eff)
				e.Syrk(true, n, len(rows), 1, h, n, 1, gram, n)
				for i, r := range rows {
					dst := byClass[d.Y[r]*n : d.Y[r]*n+n]
					for j, v := range h[i*n : i*n+n] {
						dst[j] += int64(v)
						colSum[j] += int64(v)
					}
				}
			}
		}
		linalg.MirrorLower(n, gram, n)
		htY := make([]float64, n*l) // n×L, row-major, as ridge.NewNormal's
		for c := 0; c < l; c++ {
			for j := 0; j < n; j++ {
				htY[j*l+c] = float64(byClass[c*n+j])
			}
		}
		// R's diagonal: ones for the identity penalty; for the variance
		// penalty the squared deviations, row by row in order (DiagInt8 gives
		// Diag's bits), the rows recomputed chunk by chunk.
		row8 := make([]int8, n)
		cached := -1
		rdiag := solver.DiagInt8(mt, n, colSum, func(i int) []int8 {
			if c := i / chunkRows; c != cached {
				hidden(0, c*chunkRows, min(c*chunkRows+chunkRows, mt), eff)
				cached = c
			}
			for j, v := range h[(i%chunkRows)*n : (i%chunkRows)*n+n] {
				row8[j] = int8(v)
			}
			return row8
		})
		nm := &ridge.Normal{N: n, Classes: l, Gram: gram, HtY: htY, RDiag: rdiag}
		// Every λ's readout, rounded when the search scores the integer model.
		ws := make([][]float64, len(g.Lambdas))
		for li, lambda := range g.Lambdas {
			w, info, err := solver.SolveNormal(nm, lambda, n)
			if err != nil {
				return nil, fmt.Errorf("grid point N=%d κ=%d λ=%g: %w", n, kappa, lambda, err)
			}
			if info.Jitter > 0 {
				res.Jittered++
			}
			if so.Bits != 0 {
				r, err := quant.Quantize(w, l, n, quant.BoundForBits(so.Bits))
				if err != nil {
					return nil, fmt.Errorf("grid point N=%d κ=%d λ=%g: %w", n, kappa, lambda, err)
				}
				for i, v := range r.Weights {
					q[i] = float64(v)
				}
				w = append([]float64(nil), q...)
			}
			ws[li] = w
		}
		nm, gram = nil, nil
		// Pass 2: count the correct validation predictions of every λ.
		counts := make([]int, len(g.Lambdas))
		for lo := 0; lo < mv; lo += chunkRows {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			hi := min(lo+chunkRows, mv)
			rows := s.Test[lo:hi]
			hidden(1, lo, hi, eff)
			if so.Bits != 0 {
				countRounded(e, h[:len(rows)*n], len(rows), n, ws, l, func(i int) int { return d.Y[rows[i]] }, counts)
				continue
			}
			for li, w := range ws {
				for i, p := range ridge.Predict(h[:len(rows)*n], len(rows), n, w, l, 1) {
					if p == d.Y[rows[i]] {
						counts[li]++
					}
				}
			}
		}
		res.Correct[ki] = [][]int{counts}
		solvedAt[eff] = ki
	}
	res.Seconds = time.Since(start).Seconds()
	res.HiddenSeconds = hiddenTime.Seconds()
	res.SolveSeconds = res.Seconds - res.HiddenSeconds
	return res, nil
}

// keepInputs reports whether the hidden inputs of m rows and n neurons
// (int16) fit the memory budget.
func keepInputs(m, n int, budget int64) bool {
	return int64(m)*int64(n)*2 <= budget
}

// countRounded adds to counts[li] the correct predictions of the rows of h
// (rows×n activations) under the rounded readout ws[li] (classes×n integer
// values each) for every li, as ridge.Predict and a comparison with the
// label would: one product of h with every readout at once instead of one
// per readout. The scores are sums of products of small integers, exact in
// float64 in any order (below 2⁵³), so they, and the argmax with its lowest
// index on ties, are ridge.Predict's.
func countRounded(e linalg.Engine, h []float64, rows, n int, ws [][]float64, classes int, label func(i int) int, counts []int) {
	nl := len(ws)
	all := make([]float64, 0, nl*classes*n)
	for _, w := range ws {
		all = append(all, w...)
	}
	cols := nl * classes
	scores := make([]float64, rows*cols)
	e.Gemm(false, true, rows, cols, n, 1, h, n, all, n, 0, scores, cols)
	for i := 0; i < rows; i++ {
		y := label(i)
		for li := range ws {
			if ridge.Argmax(scores[i*cols+li*classes:i*cols+li*classes+classes]) == y {
				counts[li]++
			}
		}
	}
}

// fitRows is model.FitNormalizer of d's rows in the given order, without
// copying them.
func fitRows(d *dataset.Dataset, rows []int) model.Normalizer {
	k := d.K()
	nz := model.Normalizer{Min: make([]float64, k), Max: make([]float64, k)}
	copy(nz.Min, d.Row(rows[0]))
	copy(nz.Max, d.Row(rows[0]))
	for _, r := range rows[1:] {
		for i, v := range d.Row(r) {
			if v < nz.Min[i] {
				nz.Min[i] = v
			}
			if v > nz.Max[i] {
				nz.Max[i] = v
			}
		}
	}
	return nz
}
