package quant

import (
	"context"
	"fmt"
	"math"
	"math/bits"
	"math/rand/v2"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
)

// GAOptions configures the genetic algorithm. Start from DefaultGAOptions and
// override fields; the zero value is invalid (Population 0).
type GAOptions struct {
	Population    int     // individuals per generation, ≥ 2
	Generations   int     // maximum number of generations, ≥ 0 (0 returns the initial best)
	Patience      int     // stop once the best cost has not improved for this many generations; ≤ 0 never stops early
	Elite         int     // best individuals copied unchanged into the next generation, 1 ≤ Elite < Population
	Tournament    int     // tournament size of parent selection, ≥ 1
	CrossoverRate float64 // probability that a child is a crossover of two parents (else a copy of one), in [0, 1]
	UniformRate   float64 // probability that a crossover is per-gene uniform rather than per class row, in [0, 1]
	Mutations     int     // each child gets k mutations, k uniform in 1…Mutations; ≥ 1
	RandomLevel   float64 // probability that a mutation draws a uniform level in [−B, B] instead of a ±1 step, in [0, 1]
	InitMutations int     // mutations in each of the Population−1 mutated copies of the seed (Refine only), ≥ 1
	Beta          float64 // steepness β of the GLVQ softsign, in (0, 2^20]
	Seed          uint64  // seed of every random choice
	Workers       int     // goroutines evaluating children; ≤ 0 means GOMAXPROCS. Results do not depend on it.
	// Progress, when set, is called after each generation with its number
	// and the best cost so far (from the GA's goroutine; keep it quick). It
	// does not change the result.
	Progress func(generation int, cost float64) `json:"-"`
}

// DefaultGAOptions returns the defaults documented in the package comment.
func DefaultGAOptions() GAOptions {
	return GAOptions{
		Population:    64,
		Generations:   2000,
		Patience:      200,
		Elite:         2,
		Tournament:    5,
		CrossoverRate: 0.8,
		UniformRate:   0.5,
		Mutations:     4,
		RandomLevel:   0.1,
		InitMutations: 8,
		Beta:          4,
		Seed:          1,
		Workers:       0,
	}
}

func (o GAOptions) validate() error {
	bad := func(name string, v any, want string) error {
		return fmt.Errorf("quant: GA option %s = %v, want %s (start from DefaultGAOptions)", name, v, want)
	}
	rate := func(x float64) bool { return x >= 0 && x <= 1 }
	switch {
	case o.Population < 2:
		return bad("Population", o.Population, "≥ 2")
	case o.Generations < 0:
		return bad("Generations", o.Generations, "≥ 0")
	case o.Elite < 1 || o.Elite >= o.Population:
		return bad("Elite", o.Elite, fmt.Sprintf("in [1, Population=%d)", o.Population))
	case o.Tournament < 1:
		return bad("Tournament", o.Tournament, "≥ 1")
	case !rate(o.CrossoverRate):
		return bad("CrossoverRate", o.CrossoverRate, "in [0, 1]")
	case !rate(o.UniformRate):
		return bad("UniformRate", o.UniformRate, "in [0, 1]")
	case o.Mutations < 1:
		return bad("Mutations", o.Mutations, "≥ 1")
	case !rate(o.RandomLevel):
		return bad("RandomLevel", o.RandomLevel, "in [0, 1]")
	case o.InitMutations < 1:
		return bad("InitMutations", o.InitMutations, "≥ 1")
	}
	return checkBeta(o.Beta)
}

// GAResult is the outcome of a GA run.
type GAResult struct {
	Readout      Readout   // the best readout seen (Method MethodGARounded or MethodGARandom)
	Cost         float64   // its GLVQ cost on the training data (Cost(h, Readout, labels, Beta))
	InitialCost  float64   // best cost of the initial population (History[0]); for Refine at most the seed's cost
	Generations  int       // generations run
	StoppedEarly bool      // true if Patience ended the run before Generations
	Evaluations  int       // fitness evaluations, including the initial population
	History      []float64 // best cost after initialisation (index 0) and after each generation (len = Generations+1), non-increasing
}

// Refine runs the GA seeded with seed (normally the rounded ridge solution,
// Quantize): the initial population is seed itself plus Population−1 copies
// of it with InitMutations mutations each. The returned readout is the best
// individual seen, so its cost is never above the seed's. It keeps the seed's
// Bound and Scale and has Method MethodGARounded. When ctx ends, Refine stops
// within one generation (or one evaluation of the initial population) and
// returns an error wrapping ctx.Err().
func Refine(ctx context.Context, seed Readout, h Activations, labels []int, opt GAOptions) (GAResult, error) {
	e, err := newEngine(h, seed, labels, opt)
	if err != nil {
		return GAResult{}, fmt.Errorf("quant: GA refine: %w", err)
	}
	res, err := e.run(ctx, seed.Weights)
	if err != nil {
		return GAResult{}, fmt.Errorf("quant: GA refine: %w", err)
	}
	res.Readout = seed.Clone()
	copy(res.Readout.Weights, e.best)
	res.Readout.Method = MethodGARounded
	return res, nil
}

// RandomGA runs the GA from a random initial population: every weight of every
// individual is uniform in [−bound, bound]. The readout has neurons = h.Cols,
// Scale 1 (it has no float counterpart) and Method MethodGARandom. It stops
// on ctx as Refine does.
func RandomGA(ctx context.Context, classes, bound int, h Activations, labels []int, opt GAOptions) (GAResult, error) {
	if bound < 1 || bound > MaxBound {
		return GAResult{}, fmt.Errorf("quant: random GA: bound %d outside [1, %d]", bound, MaxBound)
	}
	if classes < 1 || h.Cols < 1 {
		return GAResult{}, fmt.Errorf("quant: random GA: empty %d×%d readout", classes, h.Cols)
	}
	shape := Readout{
		Classes: classes,
		Neurons: h.Cols,
		Bound:   bound,
		Bits:    BitsForBound(bound),
		Scale:   1,
		Weights: make([]int32, classes*h.Cols),
		Method:  MethodGARandom,
	}
	e, err := newEngine(h, shape, labels, opt)
	if err != nil {
		return GAResult{}, fmt.Errorf("quant: random GA: %w", err)
	}
	res, err := e.run(ctx, nil)
	if err != nil {
		return GAResult{}, fmt.Errorf("quant: random GA: %w", err)
	}
	res.Readout = shape
	copy(res.Readout.Weights, e.best)
	return res, nil
}

// individual is a readout q (L×N row-major) with its scores s (L×M
// column-major: class l's scores of all rows are s[l*M:(l+1)*M]) and cost.
type individual struct {
	q    []int32
	s    []int32
	cost float64
}

type engine struct {
	m, n, l int
	bound   int32
	h       []int8  // M×N row-major
	hT      []int8  // N×M: column j of h is hT[j*M:(j+1)*M]
	labels  []int32 // M
	opt     GAOptions
	workers int

	pop, next []individual
	best      []int32
	bestCost  float64
	evals     atomic.Int64
}

func newEngine(h Activations, shape Readout, labels []int, opt GAOptions) (*engine, error) {
	if err := opt.validate(); err != nil {
		return nil, err
	}
	if err := checkPair(h, shape); err != nil {
		return nil, err
	}
	if shape.Classes < 2 {
		return nil, fmt.Errorf("GLVQ cost needs at least 2 classes, readout has %d", shape.Classes)
	}
	if err := checkLabels(labels, h.Rows, shape.Classes); err != nil {
		return nil, err
	}
	e := &engine{
		m: h.Rows, n: h.Cols, l: shape.Classes,
		bound:  int32(shape.Bound),
		h:      h.Data,
		hT:     make([]int8, len(h.Data)),
		labels: make([]int32, h.Rows),
		opt:    opt,
	}
	for i, c := range labels {
		e.labels[i] = int32(c)
	}
	for m := range e.m {
		for j := range e.n {
			e.hT[j*e.m+m] = h.Data[m*e.n+j]
		}
	}
	e.workers = opt.Workers
	if e.workers <= 0 {
		e.workers = runtime.GOMAXPROCS(0)
	}
	e.workers = min(e.workers, opt.Population)
	alloc := func() []individual {
		p := make([]individual, opt.Population)
		for i := range p {
			p[i] = individual{q: make([]int32, e.l*e.n), s: make([]int32, e.l*e.m)}
		}
		return p
	}
	e.pop, e.next = alloc(), alloc()
	e.best = make([]int32, e.l*e.n)
	return e, nil
}

// streamSeed derives the PCG stream of child i of generation g (g = 0 is the
// initial population) with the SplitMix64 finaliser.
func streamSeed(g, i int) uint64 {
	z := uint64(g)<<32 ^ uint64(i) + 0x9e3779b97f4a7c15
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

// stream is a PCG random stream with the few draws the GA needs, all built
// on Uint64 alone so the sequence is the same on 32- and 64-bit platforms
// (math/rand/v2's IntN switches to a 32-bit algorithm on 32-bit platforms).
type stream struct{ pcg rand.PCG }

// intN returns a uniform integer in [0, n), n ≥ 1 (Lemire's multiply-shift
// with rejection).
func (r *stream) intN(n int) int {
	un := uint64(n)
	hi, lo := bits.Mul64(r.pcg.Uint64(), un)
	if lo < un {
		thresh := -un % un
		for lo < thresh {
			hi, lo = bits.Mul64(r.pcg.Uint64(), un)
		}
	}
	return int(hi)
}

// float64 returns a uniform float64 in [0, 1) (53 random bits).
func (r *stream) float64() float64 {
	return float64(r.pcg.Uint64()>>11) / (1 << 53)
}

// bit returns a uniform bool.
func (r *stream) bit() bool { return r.pcg.Uint64()>>63 == 1 }

// parallel calls f(i, rng) for i in [lo, hi) on e.workers goroutines; rng is
// reseeded from (Seed, g, i) before each call, so the results do not depend
// on which goroutine runs which i. Once ctx ends no further call starts and
// parallel returns ctx.Err() (the generation is then incomplete).
func (e *engine) parallel(ctx context.Context, g, lo, hi int, f func(i int, rng *stream)) error {
	var next atomic.Int64
	next.Store(int64(lo))
	work := func() {
		var rng stream
		for ctx.Err() == nil {
			i := int(next.Add(1) - 1)
			if i >= hi {
				return
			}
			rng.pcg.Seed(e.opt.Seed, streamSeed(g, i))
			f(i, &rng)
		}
	}
	if e.workers == 1 || hi-lo == 1 {
		work()
		return ctx.Err()
	}
	var wg sync.WaitGroup
	for range e.workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			work()
		}()
	}
	wg.Wait()
	return ctx.Err()
}

func (e *engine) run(ctx context.Context, seed []int32) (GAResult, error) {
	if err := ctx.Err(); err != nil {
		return GAResult{}, err
	}
	opt := e.opt
	P := opt.Population
	if seed != nil {
		s0 := &e.pop[0]
		copy(s0.q, seed)
		scoreCols(s0.s, e.h, e.m, e.n, s0.q, e.l)
		s0.cost = e.fitness(s0.s)
		e.evals.Add(1)
		err := e.parallel(ctx, 0, 1, P, func(i int, rng *stream) {
			ind := &e.pop[i]
			copy(ind.q, s0.q)
			copy(ind.s, s0.s)
			e.mutate(ind, opt.InitMutations, rng)
			ind.cost = e.fitness(ind.s)
			e.evals.Add(1)
		})
		if err != nil {
			return GAResult{}, err
		}
	} else {
		span := int(2*e.bound + 1)
		err := e.parallel(ctx, 0, 0, P, func(i int, rng *stream) {
			ind := &e.pop[i]
			for k := range ind.q {
				ind.q[k] = int32(rng.intN(span)) - e.bound
			}
			scoreCols(ind.s, e.h, e.m, e.n, ind.q, e.l)
			ind.cost = e.fitness(ind.s)
			e.evals.Add(1)
		})
		if err != nil {
			return GAResult{}, err
		}
	}

	order := make([]int, P)
	rank := func() {
		for i := range order {
			order[i] = i
		}
		slices.SortStableFunc(order, func(a, b int) int {
			ca, cb := e.pop[a].cost, e.pop[b].cost
			switch {
			case ca < cb:
				return -1
			case ca > cb:
				return 1
			}
			return 0
		})
	}
	rank()
	e.bestCost = e.pop[order[0]].cost
	copy(e.best, e.pop[order[0]].q)
	res := GAResult{InitialCost: e.bestCost, History: []float64{e.bestCost}}

	lastImprove := 0
	g := 0
	for g < opt.Generations {
		if opt.Patience > 0 && g-lastImprove >= opt.Patience {
			res.StoppedEarly = true
			break
		}
		g++
		for k := range opt.Elite {
			src, dst := &e.pop[order[k]], &e.next[k]
			copy(dst.q, src.q)
			copy(dst.s, src.s)
			dst.cost = src.cost
		}
		err := e.parallel(ctx, g, opt.Elite, P, func(i int, rng *stream) {
			e.child(&e.next[i], order, rng)
		})
		if err != nil {
			return GAResult{}, err
		}
		e.pop, e.next = e.next, e.pop
		rank()
		if c := e.pop[order[0]].cost; c < e.bestCost {
			e.bestCost = c
			copy(e.best, e.pop[order[0]].q)
			lastImprove = g
		}
		res.History = append(res.History, e.bestCost)
		if opt.Progress != nil {
			opt.Progress(g, e.bestCost)
		}
	}
	res.Generations = g
	res.Cost = e.bestCost
	res.Evaluations = int(e.evals.Load())
	return res, nil
}

// tournament returns the index of the best of opt.Tournament uniformly drawn
// individuals (ties: the one ranked first).
func (e *engine) tournament(order []int, rng *stream) int {
	// order[r] is the individual of rank r, so the best of k drawn ranks wins.
	r := rng.intN(len(order))
	for range e.opt.Tournament - 1 {
		r = min(r, rng.intN(len(order)))
	}
	return order[r]
}

// child builds one child into dst from the current population (e.pop, ranked
// by order) and evaluates it.
func (e *engine) child(dst *individual, order []int, rng *stream) {
	a := &e.pop[e.tournament(order, rng)]
	switch {
	case rng.float64() >= e.opt.CrossoverRate:
		copy(dst.q, a.q)
		copy(dst.s, a.s)
	case rng.float64() < e.opt.UniformRate:
		// Per-gene uniform crossover: each gene in which the parents differ
		// comes from b with probability ½; the scores follow incrementally,
		// one setGene per taken gene.
		b := &e.pop[e.tournament(order, rng)]
		copy(dst.q, a.q)
		copy(dst.s, a.s)
		for k, qb := range b.q {
			if qb != dst.q[k] && rng.bit() {
				e.setGene(dst, k, qb)
			}
		}
	default:
		// Class-row crossover: each class row comes from b with probability
		// ½, together with its score column (scores of class l depend only
		// on row l of Q).
		b := &e.pop[e.tournament(order, rng)]
		for l := range e.l {
			p := a
			if rng.bit() {
				p = b
			}
			copy(dst.q[l*e.n:(l+1)*e.n], p.q[l*e.n:(l+1)*e.n])
			copy(dst.s[l*e.m:(l+1)*e.m], p.s[l*e.m:(l+1)*e.m])
		}
	}
	e.mutate(dst, 1+rng.intN(e.opt.Mutations), rng)
	dst.cost = e.fitness(dst.s)
	e.evals.Add(1)
}

// mutate applies k mutations to ind: a uniformly chosen gene either moves one
// level up or down (equiprobable; a step that would leave [−B, B] goes the
// other way) or, with probability RandomLevel, takes a uniform level in
// [−B, B].
func (e *engine) mutate(ind *individual, k int, rng *stream) {
	B := e.bound
	for range k {
		g := rng.intN(len(ind.q))
		old := ind.q[g]
		var v int32
		if rng.float64() < e.opt.RandomLevel {
			v = int32(rng.intN(int(2*B+1))) - B
		} else {
			v = old + 1
			if rng.bit() {
				v = old - 1
			}
			if v > B {
				v = old - 1
			} else if v < -B {
				v = old + 1
			}
		}
		if v != old {
			e.setGene(ind, g, v)
		}
	}
}

// setGene sets gene k = l*N + j to v and updates class l's scores by
// (v − old)·h[:, j].
func (e *engine) setGene(ind *individual, k int, v int32) {
	d := v - ind.q[k]
	ind.q[k] = v
	l, j := k/e.n, k%e.n
	axpy(ind.s[l*e.m:(l+1)*e.m], d, e.hT[j*e.m:(j+1)*e.m])
}

// axpy does col += d·h elementwise.
func axpy(col []int32, d int32, h []int8) {
	h = h[:len(col)]
	m := 0
	for ; m+4 <= len(col); m += 4 {
		c := col[m : m+4 : m+4]
		x := h[m : m+4 : m+4]
		c[0] += d * int32(x[0])
		c[1] += d * int32(x[1])
		c[2] += d * int32(x[2])
		c[3] += d * int32(x[3])
	}
	for ; m < len(col); m++ {
		col[m] += d * int32(h[m])
	}
}

// fitness returns Σ_m f(μ_m) in row order over column-major scores s. It is
// rowCost inlined by hand (the same operations in the same order, so the
// same bits; TestEngineFitnessMatchesCost checks it).
func (e *engine) fitness(s []int32) float64 {
	M, beta := e.m, e.opt.Beta
	labels := e.labels[:M]
	sum := 0.0
	for m, c := range labels {
		ym := int32(math.MinInt32)
		for l := range e.l {
			if v := s[l*M+m]; l != int(c) && v > ym {
				ym = v
			}
		}
		yp := int64(s[int(c)*M+m])
		p := int64(ym) - yp
		q := abs64(int64(ym)) + abs64(yp)
		if q == 0 {
			sum += 0.5
			continue
		}
		t := float64(beta * float64(abs64(p)))
		fq := float64(q)
		den := float64(2 * float64(fq+t))
		if p < 0 {
			sum += fq / den
		} else {
			sum += float64(fq+float64(2*t)) / den
		}
	}
	return sum
}
