package protocol

import (
	"fmt"
	"math"
	"math/bits"
	"slices"

	"github.com/hdlgen/hdlgen/dataset"
	"github.com/hdlgen/hdlgen/linalg"
	"github.com/hdlgen/hdlgen/model"
	"github.com/hdlgen/hdlgen/quant"
	"github.com/hdlgen/hdlgen/ridge"
)

// intEval is Evaluate's fast path for the intRVFL. It computes exactly what
// EvaluateBaseline computes — the same normalisers, levels, activations,
// ridge systems and predictions — with less work:
//
//   - the folds are grouped by their input levels (a fold's normaliser is
//     fitted on its training rows; folds whose normalisers give every row
//     the same levels form a group, and on data with discrete features all
//     folds usually do), and each seed's hidden layer of every row is
//     computed once per group, as int8; the other groups' from the first
//     group's hidden inputs, changed where the levels moved (exact integer
//     sums);
//   - within a group the rows are sorted into blocks by the set of folds
//     whose training rows they are; the Gram matrix of each block is
//     computed once (linalg.GramInt8Known: exact, on 8-bit integers, given
//     the activations' bound and column sums) and added into the Gram
//     matrix of each of those folds. Every product and sum is an integer
//     below 2⁵³, so the sums equal the Gram matrix of the fold's training
//     rows that model.Train computes, bit for bit; so does HᵀY, summed from
//     the blocks' integer class sums;
//   - the variance penalty is computed by ridge's own code on the fold's
//     rows in the fold's order (Regularizer.DiagInt8), and the system is
//     solved by ridge.Solver.SolveNormal as model.Train solves it. Folds
//     with fewer training rows than N (the dual system) are solved by
//     model.SolveReadout on the fold's activations, as model.Train does:
//     with the variance penalty their kernel depends on the fold's own
//     column scaling, so nothing of it is shared;
//   - predictions use model.MulRows's sums (linalg.RowScores: the same
//     operations, several rows and classes at once) and model.ArgmaxFloat
//     (float readout), or the rounded integer readout, as
//     model.PredictNormalized does.
type intEval struct {
	u      *dataset.UCIDataset
	cfg    model.Config
	k, n   int // features, hidden neurons
	l      int // classes
	clip   int // min(κ, K): the activations' bound
	solver ridge.Solver
	engine linalg.Engine
	groups []*foldGroup // 4-fold datasets
	// Two-file datasets: levels of the training file's rows under its own
	// normaliser, of the test file's under its own and the training file's.
	trainLv, testOwnLv, testTrainLv []int32
	testFilledLv                    []int32 // AutoFills only: filledNormalizedTest's levels
}

// foldGroup is a set of folds whose normalisers give every row of u.Data the
// same levels.
type foldGroup struct {
	folds  []int   // indices into u.Folds
	levels []int32 // M×K levels of the rows of u.Data
	order  []int   // the rows of u.Data sorted by block
	pos    []int   // pos[r] is the index of row r in order
	blocks []block
}

// block is a run order[lo:hi] of rows that are training rows of the same
// folds of a group: bit b of mask is set when they are in the training rows
// of the group's b-th fold.
type block struct {
	lo, hi int
	mask   uint64
}

// maxKappa is model.Train's largest κ.
const maxKappa = 1 << 15

// newIntEval prepares the fast path, or returns nil when cfg or u is outside
// it (another network, an invalid configuration — EvaluateBaseline then
// reports the error as it always did —, or activations that do not fit
// int8, or hidden inputs int16).
func newIntEval(u *dataset.UCIDataset, cfg model.Config) *intEval {
	if cfg.Regularizer == "" {
		cfg.Regularizer = model.RegVariance
	}
	_, regErr := model.ParseRegularizer(string(cfg.Regularizer))
	k, l := u.Data.K(), u.Data.L()
	switch {
	// A shortcut of the paper's network, by name: every other network type
	// (one with κ too) takes the general path, which gives the same result.
	case cfg.Arch != model.IntRVFL, cfg.N < 1, cfg.N > model.MaxHidden, cfg.Kappa < 1, cfg.Kappa > maxKappa, regErr != nil, cfg.Solver.Check() != nil,
		!(cfg.Lambda > 0), math.IsInf(cfg.Lambda, 0), cfg.DirectLinks, cfg.QuantizedInputs,
		cfg.Win != model.WinStored && cfg.Win != model.WinPRBS31,
		cfg.ReadoutBits != 0 && (cfg.ReadoutBits < quant.MinBits || cfg.ReadoutBits > quant.MaxBits),
		k < 1, k > min(model.MaxFeatures, math.MaxInt16), l < 2, l > model.MaxClasses,
		min(cfg.Kappa, k) > 127, len(u.Folds) > 64:
		return nil
	}
	e := &intEval{u: u, cfg: cfg, k: k, n: cfg.N, l: l, clip: min(cfg.Kappa, k),
		solver: cfg.Solver.Ridge(cfg.Regularizer, cfg.Threads),
		engine: linalg.Engine{Threads: cfg.Threads}}
	d := u.Data
	if u.HasTestFile() {
		t := u.TestData
		if d.M() < 1 || t.M() < 1 {
			return nil
		}
		norm := model.FitNormalizer(d.X, d.M(), k)
		e.trainLv = levelsOf(d.X, d.M(), k, norm, e.n)
		e.testOwnLv = levelsOf(t.X, t.M(), k, model.FitNormalizer(t.X, t.M(), k), e.n)
		e.testTrainLv = levelsOf(t.X, t.M(), k, norm, e.n)
		if AutoFills(u) {
			e.testFilledLv = normalizedLevels(filledNormalizedTest(u, norm), e.n)
		}
		return e
	}
	for fi, f := range u.Folds {
		if len(f.Train) == 0 || len(f.Test) == 0 {
			return nil
		}
		tr := d.Subset(f.Train)
		lv := levelsOf(d.X, d.M(), k, model.FitNormalizer(tr.X, tr.M(), k), e.n)
		i := slices.IndexFunc(e.groups, func(g *foldGroup) bool { return slices.Equal(g.levels, lv) })
		if i < 0 {
			e.groups = append(e.groups, &foldGroup{levels: lv})
			i = len(e.groups) - 1
		}
		e.groups[i].folds = append(e.groups[i].folds, fi)
	}
	for _, g := range e.groups {
		g.sortRows(u)
	}
	return e
}

// sortRows orders the rows of u.Data by their block mask (stable, so each
// block keeps the data order) and records the blocks.
func (g *foldGroup) sortRows(u *dataset.UCIDataset) {
	m := u.Data.M()
	mask := make([]uint64, m)
	for b, fi := range g.folds {
		for _, r := range u.Folds[fi].Train {
			mask[r] |= 1 << b
		}
	}
	g.order = make([]int, m)
	for r := range g.order {
		g.order[r] = r
	}
	slices.SortStableFunc(g.order, func(a, b int) int {
		switch {
		case mask[a] < mask[b]:
			return -1
		case mask[a] > mask[b]:
			return 1
		}
		return 0
	})
	g.pos = make([]int, m)
	for p, r := range g.order {
		g.pos[r] = p
	}
	for lo := 0; lo < m; {
		hi := lo
		for hi < m && mask[g.order[hi]] == mask[g.order[lo]] {
			hi++
		}
		g.blocks = append(g.blocks, block{lo: lo, hi: hi, mask: mask[g.order[lo]]})
		lo = hi
	}
}

// network returns seed's hidden layer.
func (e *intEval) network(seed uint64) *intHidden {
	return newIntHidden(model.NewIntNetGen(e.k, e.n, e.cfg.Kappa, seed, e.cfg.Win), e.clip)
}

// hidden returns the activations of hid for the rows rows of the level
// matrix lv (len(rows)×N, int8).
func (e *intEval) hidden(hid *intHidden, lv []int32, rows []int) []int8 {
	h := make([]int8, len(rows)*e.n)
	hid.matrixTo(h, lv, rows, e.cfg.Threads)
	return h
}

// withThreads returns e with its linear algebra and hidden layers on
// threads goroutines (a copy; the prepared groups and levels are shared,
// read only).
func (e *intEval) withThreads(threads int) *intEval {
	c := *e
	c.cfg.Threads = threads
	c.solver.Threads = threads
	c.engine = linalg.Engine{Threads: threads}
	return &c
}

func (e *intEval) folds(seed uint64, threads int) ([]float64, error) {
	e = e.withThreads(threads)
	acc := make([]float64, len(e.u.Folds))
	y := e.u.Data.Y
	hid := e.network(seed)
	var s0 []int16 // with several groups: the first group's hidden inputs
	for gi, g := range e.groups {
		h := make([]int8, len(g.order)*e.n)
		switch {
		case len(e.groups) == 1:
			hid.matrixTo(h, g.levels, g.order, e.cfg.Threads)
		case gi == 0:
			s0 = hid.inputsTo(h, g.levels, g.order, e.cfg.Threads)
		default: // the levels differ in a few features: update the first group's sums
			hid.shiftedTo(h, s0, e.groups[0].levels, g.levels, g.order, e.cfg.Threads)
		}
		primal := make([]bool, len(g.folds))
		for b, fi := range g.folds {
			primal[b] = len(e.u.Folds[fi].Train) >= e.n
		}
		grams, sums := e.blockSums(g, h, primal)
		for b, fi := range g.folds {
			f := e.u.Folds[fi]
			sys := trainRows{h: h, pos: g.pos, rows: f.Train, y: y}
			w, err := e.solve(sys, grams[b], sums[b])
			if err != nil {
				return nil, fmt.Errorf("fold %d: %w", fi+1, err)
			}
			a, err := e.accuracy(w, trainRows{h: h, pos: g.pos, rows: f.Test, y: y})
			if err != nil {
				return nil, fmt.Errorf("fold %d: %w", fi+1, err)
			}
			acc[fi] = a
		}
	}
	return acc, nil
}

func (e *intEval) trainTest(seed uint64, threads int, fill bool) (testFileAccuracy, error) {
	e = e.withThreads(threads)
	d, t := e.u.Data, e.u.TestData
	all := identity(d.M())
	hid := e.network(seed)
	h := e.hidden(hid, e.trainLv, all)
	sys := trainRows{h: h, rows: all, y: d.Y}
	var gram []float64
	var sums []int64
	if d.M() >= e.n {
		gram = make([]float64, e.n*e.n)
		sums = classSums(h, all, d.Y, e.n, e.l)
		e.engine.GramInt8Known(d.M(), e.n, h, e.n, e.clip, columnSums(sums, e.n, e.l), gram, e.n)
	}
	var out testFileAccuracy
	w, err := e.solve(sys, gram, sums)
	if err != nil {
		return out, err
	}
	testRows := identity(t.M())
	type norm struct {
		lv  []int32
		dst *float64
	}
	norms := []norm{{e.testOwnLv, &out.own}, {e.testTrainLv, &out.train}}
	if fill {
		norms = append(norms, norm{e.testFilledLv, &out.filled})
	}
	for _, s := range norms {
		if *s.dst, err = e.accuracy(w, trainRows{h: e.hidden(hid, s.lv, testRows), rows: testRows, y: t.Y}); err != nil {
			return out, err
		}
	}
	return out, nil
}

// blockSums returns, for each primal fold of g (primal[b]), the Gram matrix
// of its training rows and their integer class sums (L×N), summed from the
// blocks' exact Gram matrices and class sums; nil for the other folds. h
// holds the activations of the rows in g.order.
func (e *intEval) blockSums(g *foldGroup, h []int8, primal []bool) (grams [][]float64, sums [][]int64) {
	n := e.n
	var need uint64 // the folds that need a Gram matrix
	for b, p := range primal {
		if p {
			need |= 1 << b
		}
	}
	grams, sums = make([][]float64, len(primal)), make([][]int64, len(primal))
	for b, p := range primal {
		if p {
			sums[b] = make([]int64, e.l*n)
		}
	}
	var tmp []float64
	for _, bl := range g.blocks {
		into := bl.mask & need
		if into == 0 {
			continue
		}
		cs := classSums(h[bl.lo*n:bl.hi*n], identity(bl.hi-bl.lo), e.blockLabels(g, bl), n, e.l)
		// The first fold that has no Gram matrix yet takes the block's
		// directly; the others add it (or copy it, when it is their first).
		var dst []float64
		if b := bits.TrailingZeros64(into); grams[b] == nil {
			grams[b] = make([]float64, n*n)
			dst = grams[b]
			into &^= 1 << b
		} else {
			if tmp == nil {
				tmp = make([]float64, n*n)
			}
			dst = tmp
		}
		e.engine.GramInt8Known(bl.hi-bl.lo, n, h[bl.lo*n:bl.hi*n], n, e.clip, columnSums(cs, n, e.l), dst, n)
		for m := into; m != 0; m &= m - 1 {
			if b := bits.TrailingZeros64(m); grams[b] == nil {
				grams[b] = slices.Clone(dst)
			} else {
				addTo(grams[b], dst)
			}
		}
		for m := bl.mask & need; m != 0; m &= m - 1 {
			b := bits.TrailingZeros64(m)
			for i, v := range cs {
				sums[b][i] += v
			}
		}
	}
	for b, s := range sums {
		if s != nil && grams[b] == nil { // a fold without training rows cannot be primal
			panic("protocol: primal fold without a Gram matrix")
		}
	}
	return grams, sums
}

// blockLabels returns the labels of the rows of block bl of g.
func (e *intEval) blockLabels(g *foldGroup, bl block) []int {
	y := make([]int, bl.hi-bl.lo)
	for p := bl.lo; p < bl.hi; p++ {
		y[p-bl.lo] = e.u.Data.Y[g.order[p]]
	}
	return y
}

// trainRows is a list of rows of a dataset whose activations are rows of h:
// row rows[i] of the dataset is row pos[rows[i]] of h (pos nil: the identity).
type trainRows struct {
	h    []int8
	pos  []int
	rows []int
	y    []int // labels of the dataset's rows
}

func (t trainRows) row(i, n int) []int8 {
	p := t.rows[i]
	if t.pos != nil {
		p = t.pos[p]
	}
	return t.h[p*n : (p+1)*n]
}

// solve returns the ridge readout of the rows of t as model.Train solves it:
// the primal system from gram and sums (the Gram matrix and the L×N class
// sums of those rows) when there are at least N rows, else the dual system.
func (e *intEval) solve(t trainRows, gram []float64, sums []int64) ([]float64, error) {
	m, n := len(t.rows), e.n
	y := make([]int, m)
	for i, r := range t.rows {
		y[i] = t.y[r]
	}
	if m < n {
		hf := make([]float64, m*n)
		for i := 0; i < m; i++ {
			for j, v := range t.row(i, n) {
				hf[i*n+j] = float64(v)
			}
		}
		w, _, err := model.SolveReadout(hf, m, n, y, e.l, e.cfg.Lambda, e.cfg.Regularizer, e.cfg.Solver, e.cfg.Threads)
		if err != nil {
			return nil, fmt.Errorf("train %s N=%d λ=%g: %w", e.cfg.Arch, n, e.cfg.Lambda, err)
		}
		return w, nil
	}
	rd := e.solver.DiagInt8(m, n, columnSums(sums, n, e.l), func(i int) []int8 { return t.row(i, n) })
	nm := &ridge.Normal{N: n, Classes: e.l, Gram: gram, HtY: floatHtY(sums, n, e.l), RDiag: rd}
	w, _, err := e.solver.SolveNormal(nm, e.cfg.Lambda, n)
	if err != nil {
		return nil, fmt.Errorf("train %s N=%d λ=%g: %w", e.cfg.Arch, n, e.cfg.Lambda, err)
	}
	return w, nil
}

// accuracy returns the share of the rows of t that readout w (L×N) classifies
// as labelled: with the readout rounded to cfg.ReadoutBits when set, as
// model.PredictNormalized does.
func (e *intEval) accuracy(w []float64, t trainRows) (float64, error) {
	n, l := e.n, e.l
	ok := 0
	if e.cfg.ReadoutBits > 0 {
		q, err := quant.QuantizeBits(w, l, n, e.cfg.ReadoutBits)
		if err != nil {
			return 0, fmt.Errorf("train: %w", err)
		}
		ro := model.ReadoutFromQuant(q)
		hi := make([]int, n)
		for i, r := range t.rows {
			for j, v := range t.row(i, n) {
				hi[j] = int(v)
			}
			if model.ArgmaxInt(ro.Scores(hi, l)) == t.y[r] {
				ok++
			}
		}
		return float64(ok) / float64(len(t.rows)), nil
	}
	// The float scores of a chunk of rows at once: linalg.RowScores gives
	// model.MulRows's sums bit for bit (each product rounded, added in
	// order), several rows and classes side by side.
	const chunk = 256
	rows := min(chunk, len(t.rows))
	hf := make([]float64, rows*n)
	scores := make([]float64, rows*l)
	for lo := 0; lo < len(t.rows); lo += chunk {
		hi := min(lo+chunk, len(t.rows))
		for i := lo; i < hi; i++ {
			dst := hf[(i-lo)*n : (i-lo+1)*n]
			for j, v := range t.row(i, n) {
				dst[j] = float64(v)
			}
		}
		e.engine.RowScores(hi-lo, n, l, hf, n, w, n, scores, l)
		for i := lo; i < hi; i++ {
			if model.ArgmaxFloat(scores[(i-lo)*l:(i-lo+1)*l]) == t.y[t.rows[i]] {
				ok++
			}
		}
	}
	return float64(ok) / float64(len(t.rows)), nil
}

// classSums returns the L×N integer class sums of the activation rows
// h[p·N:(p+1)·N] for p in rows, row p labelled y[p].
func classSums(h []int8, rows []int, y []int, n, l int) []int64 {
	// int32 sums (|h| ≤ 127, so 2²⁴ rows at a time cannot overflow),
	// widened at the end and every 2²⁴ rows.
	const flush = 1 << 24
	s := make([]int64, l*n)
	acc := make([]int32, l*n)
	widen := func() {
		for i, v := range acc {
			s[i] += int64(v)
		}
		clear(acc)
	}
	for i, p := range rows {
		if i > 0 && i%flush == 0 {
			widen()
		}
		linalg.AddInt8To32(acc[y[p]*n:(y[p]+1)*n], h[p*n:(p+1)*n])
	}
	widen()
	return s
}

// columnSums adds L×N class sums over the classes.
func columnSums(s []int64, n, l int) []int64 {
	out := make([]int64, n)
	for c := 0; c < l; c++ {
		for j, v := range s[c*n : (c+1)*n] {
			out[j] += v
		}
	}
	return out
}

// floatHtY converts L×N class sums into ridge.Normal's HᵀY (N×L).
func floatHtY(s []int64, n, l int) []float64 {
	out := make([]float64, n*l)
	for c := 0; c < l; c++ {
		for j, v := range s[c*n : (c+1)*n] {
			out[j*l+c] = float64(v)
		}
	}
	return out
}

// addTo adds src into dst elementwise.
func addTo(dst, src []float64) {
	for i, v := range src {
		dst[i] += v
	}
}

// identity returns 0, 1, …, m−1.
func identity(m int) []int {
	r := make([]int, m)
	for i := range r {
		r[i] = i
	}
	return r
}
