package tune

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/hdlgen/hdlgen/dataset"
	"github.com/hdlgen/hdlgen/internal/jobs"
	"github.com/hdlgen/hdlgen/protocol"
)

// DefaultMemoryBudget is the working memory one part of a search may hold
// with the protocol's search (every row's hidden layer at once: about 10
// bytes per row and neuron); a part that would hold more is scored in row
// chunks instead (streamed), in about 16·N² bytes plus the chunks. The data
// itself comes on top.
const DefaultMemoryBudget = 256 << 20

// partFormat versions the stored parts: a part stored by another version is
// scored again.
const partFormat = "hdlgen-search-part/1"

// Extension lets a search go beyond its grid's largest N while the best
// configuration sits there: accuracy still rising at the grid's edge means
// the grid stopped too early. Each round scores one more N, NextN of the
// largest so far, on every split and seed.
type Extension struct {
	// MaxN is the largest N to score (0: no extension).
	MaxN int
	// Fits, when set, says whether a network of N neurons is still within
	// the caller's budget (e.g. the LUTs of its smallest design).
	Fits func(n int) bool
	// WithinSE stops the extension when the largest N's validation accuracy
	// is within one standard error (Accuracy.StdErr of the best
	// configuration) of a smaller N's: the build's design step accepts those
	// N under its default tolerance anyway (EdgeWithinSE).
	WithinSE bool
}

// EdgeWithinSE reports whether the last point of curve (the largest N) has
// a validation accuracy within se of a smaller N's, and the best such
// smaller N (the one of highest accuracy). With fewer than two points it is
// false.
func EdgeWithinSE(curve []CurvePoint, se float64) (n int, within bool) {
	if len(curve) < 2 {
		return 0, false
	}
	edge := curve[len(curve)-1]
	best := -1
	for i, c := range curve[:len(curve)-1] {
		if best < 0 || c.Accuracy > curve[best].Accuracy {
			best = i
		}
	}
	// the same comparison as the design step's (buildflow.ChooseDesign)
	return curve[best].N, curve[best].Accuracy >= edge.Accuracy-se-1e-12
}

// NextN is the N an extension scores after n: 1.25·n rounded up to a
// multiple of 50 (1500 → 1900 → 2400 → 3000).
func NextN(n int) int {
	next := int(math.Ceil(1.25*float64(n)/50)) * 50
	if next <= n {
		next = n + 50
	}
	return next
}

// Searched is the outcome of Task.SearchMore.
type Searched struct {
	Sum      *protocol.SearchResult // the search summed over splits and seeds
	Accuracy Accuracy               // the chosen configuration on each split and seed
	Extended []int                  // the N scored beyond the grid, in order
	Stopped  string                 // why the extension stopped ("" without one)
	Scored   int                    // parts scored by this call
	Reused   int                    // parts taken from the store
	Streamed int                    // parts scored in row chunks (over the memory budget)
}

// Search runs the grid search of so (its Seed replaced by each seed) on every
// validation split and returns the search summed over them
// (protocol.SumSearches: the configuration with the most correct validation
// predictions in total, ties by protocol.Better), and the validation
// accuracy of that configuration on each split with each seed. It is
// SearchMore without an extension.
func (t *Task) Search(ctx context.Context, nw protocol.Network, so protocol.SearchOptions, seeds []uint64) (*protocol.SearchResult, Accuracy, error) {
	s, err := t.SearchMore(ctx, nw, so, seeds, Extension{})
	if err != nil {
		return nil, Accuracy{}, err
	}
	return s.Sum, s.Accuracy, nil
}

// part is one job of a search: one seed, one validation split and one N (0:
// every N of the grid, for the float RVFLs, whose networks of every N are
// prefixes of the largest one).
type part struct {
	seedIdx, split int
	seed           uint64
	n              int
	ns             []int // the N of an all-N part
}

// partKey identifies a part (its N list follows from the round).
type partKey struct {
	seedIdx, split, n int
	seed              uint64
}

func (p part) key() partKey { return partKey{p.seedIdx, p.split, p.n, p.seed} }

// partRecord is what the store keeps of a finished part.
type partRecord struct {
	Fingerprint string                 `json:"fingerprint"`
	Data        string                 `json:"data_sha256"`
	Seconds     float64                `json:"seconds"`
	Streamed    bool                   `json:"streamed,omitempty"`
	Result      *protocol.SearchResult `json:"result"`
}

// perN reports whether nw's networks of different N are scored apart (each
// N its own network: the intRVFL, and the RVFL with N input levels). Named
// because these are the paper's variants with shortcuts; any other network
// type is scored by protocol.Search's general path in either layout.
func perN(nw protocol.Network) bool { return nw == protocol.IntRVFL || nw == protocol.RVFLQuant }

// SearchMore is Search with an extension beyond the grid (intRVFL only), run
// in parts — one seed, split and N each (one seed and split with every N for
// the float RVFLs) — on t.Workers goroutines, largest first. With t.Store
// every finished part is kept there and a later call with the same data and
// settings reuses it, so an interrupted search resumes where it stopped.
// Progress reports each finished part with an estimate of the time left.
// The result does not depend on the workers, the store or the order.
func (t *Task) SearchMore(ctx context.Context, nw protocol.Network, so protocol.SearchOptions, seeds []uint64, ext Extension) (*Searched, error) {
	if len(seeds) == 0 {
		return nil, fmt.Errorf("search %s: no seed", t.Name)
	}
	if len(so.Grid.Ns) == 0 {
		return nil, fmt.Errorf("search %s: the grid has no N", t.Name)
	}
	if ext.MaxN > 0 && nw != protocol.IntRVFL { // the extension rides on the intRVFL's per-N scorers (dual, streamed)
		return nil, fmt.Errorf("search %s: extending N is for the intrvfl, not %s", t.Name, nw)
	}
	if err := protocol.CheckSearch(nw, so); err != nil {
		return nil, fmt.Errorf("search %s: %w", t.Name, err)
	}
	// κ where the variant has it: the grid's, or the type's own (the conj's depths).
	so.Grid.Kappas = nw.Traits().Kappas(so.Grid.Kappas)
	out := &Searched{}
	ns := slices.Clone(so.Grid.Ns)
	dataKey := t.dataKey()
	for {
		sum, acc, err := t.searchNs(ctx, nw, so, seeds, ns, dataKey, out)
		if err != nil {
			return nil, err
		}
		out.Sum, out.Accuracy = sum, acc
		if ext.MaxN <= 0 {
			return out, nil
		}
		last := ns[len(ns)-1]
		next := NextN(last)
		switch {
		case sum.Best.N != last:
			out.Stopped = fmt.Sprintf("the best N (%d) is below the largest scored (%d)", sum.Best.N, last)
		case next > ext.MaxN:
			out.Stopped = fmt.Sprintf("the best N is the largest scored (%d), and the next (%d) exceeds the limit %d", last, next, ext.MaxN)
		case ext.Fits != nil && !ext.Fits(next):
			out.Stopped = fmt.Sprintf("the best N is the largest scored (%d), and the next (%d) exceeds the LUT budget", last, next)
		case ext.WithinSE:
			if se, _, ok := acc.StdErr(); ok {
				if n, within := EdgeWithinSE(Curve(sum), se); within {
					out.Stopped = fmt.Sprintf("the best N is the largest scored (%d), but N=%d's validation accuracy is within one standard error (%.4f) of it", last, n, se)
				}
			}
		}
		if out.Stopped != "" {
			return out, nil
		}
		t.progress("search %s: the best N=%d is the largest scored: extending the search to N=%d", t.Name, last, next)
		ns = append(ns, next)
		out.Extended = append(out.Extended, next)
	}
}

// searchNs scores every part of the grid with N values ns (loading stored
// parts) and sums them.
func (t *Task) searchNs(ctx context.Context, nw protocol.Network, so protocol.SearchOptions, seeds []uint64, ns []int, dataKey string, out *Searched) (*protocol.SearchResult, Accuracy, error) {
	var all []part
	for si, seed := range seeds {
		for f := range t.Splits {
			if perN(nw) {
				for _, n := range ns {
					all = append(all, part{seedIdx: si, split: f, seed: seed, n: n})
				}
			} else {
				all = append(all, part{seedIdx: si, split: f, seed: seed, ns: ns})
			}
		}
	}
	results := make(map[partKey]*protocol.SearchResult, len(all))
	var store *jobs.Store
	if t.Store != "" {
		store = &jobs.Store{Dir: t.Store, Sealed: true} // a changed part is scored again
	}
	fingerprint := func(p part) string {
		parts := []any{partFormat, nw, so.Grid.Lambdas, so.Grid.Kappas, so.Bits, so.Regularizer, so.Solver, so.Win,
			p.seed, t.splitKey(p.split), p.n, p.ns}
		if so.Select != 0 { // so that the parts of a search without it keep their fingerprints
			parts = append(parts, "select", so.Select)
		}
		return jobs.Fingerprint(parts...)
	}
	rel := func(p part) string {
		if p.n == 0 {
			return fmt.Sprintf("%s/seed%d-split%d-all.json", nw, p.seed, p.split+1)
		}
		return fmt.Sprintf("%s/seed%d-split%d-n%d.json", nw, p.seed, p.split+1, p.n)
	}
	var todo []part
	for _, p := range all {
		if _, done := results[p.key()]; done {
			continue
		}
		if store != nil {
			var rec partRecord
			ok, err := store.Load(rel(p), fingerprint(p), dataKey, &rec)
			if err != nil {
				return nil, Accuracy{}, fmt.Errorf("search %s: stored part: %w", t.Name, err)
			}
			if ok && rec.Result != nil {
				results[p.key()] = rec.Result
				out.Reused++
				continue
			}
		}
		todo = append(todo, p)
	}
	cost := func(p part) float64 {
		if p.n > 0 {
			return t.partCost(so, p.n)
		}
		c := 0.0
		for _, n := range p.ns {
			c += t.partCost(so, n)
		}
		return c
	}
	total := jobs.LargestFirst(todo, cost)
	if len(todo) > 0 && len(results) > 0 {
		t.progress("search %s %s: %d of %d parts kept from an earlier run, %d to score", t.Name, nw, len(results), len(all), len(todo))
	}
	start := time.Now()
	done, doneCost := 0, 0.0
	var firstErr error
	type scored struct {
		res      *protocol.SearchResult
		streamed bool
		seconds  float64
	}
	jobs.Run(ctx, t.Workers, todo, func(p part) (scored, error) {
		t0 := time.Now()
		res, streamed, err := t.scorePart(ctx, nw, so, p)
		return scored{res, streamed, time.Since(t0).Seconds()}, err
	}, func(p part, s scored, err error) {
		if err == nil && store != nil {
			err = store.Save(rel(p), partRecord{Fingerprint: fingerprint(p), Data: dataKey, Seconds: s.seconds, Streamed: s.streamed, Result: s.res})
		}
		if err != nil {
			if firstErr == nil {
				firstErr = err
			}
			return
		}
		results[p.key()] = s.res
		done++
		out.Scored++
		if s.streamed {
			out.Streamed++
		}
		doneCost += cost(p)
		what := "every N"
		if p.n > 0 {
			what = fmt.Sprintf("N=%d", p.n)
		}
		t.progress("search %s %s: split %d/%d, seed %d, %s: %.1fs; %d/%d parts, about %s left", t.Name, nw, p.split+1, len(t.Splits), p.seed, what,
			s.seconds, done, len(todo), jobs.TimeLeft(start, doneCost, total))
	})
	if err := ctx.Err(); err != nil {
		return nil, Accuracy{}, fmt.Errorf("search %s: stopped after %d of %d parts (kept for a rerun: %v): %w", t.Name, done, len(todo), store != nil, err)
	}
	if firstErr != nil {
		return nil, Accuracy{}, fmt.Errorf("search %s: %w", t.Name, firstErr)
	}
	return t.assemble(nw, seeds, ns, results)
}

// assemble merges the parts of each split and seed and sums them.
func (t *Task) assemble(nw protocol.Network, seeds []uint64, ns []int, results map[partKey]*protocol.SearchResult) (*protocol.SearchResult, Accuracy, error) {
	var splits []*protocol.SearchResult
	for si, seed := range seeds {
		for f := range t.Splits {
			var parts []*protocol.SearchResult
			if perN(nw) {
				for _, n := range ns {
					parts = append(parts, results[partKey{si, f, n, seed}])
				}
			} else {
				parts = append(parts, results[partKey{si, f, 0, seed}])
			}
			merged, err := joinNs(parts)
			if err != nil {
				return nil, Accuracy{}, fmt.Errorf("search %s: split %d seed %d: %w", t.Name, f+1, seed, err)
			}
			splits = append(splits, merged)
		}
	}
	sum, err := protocol.SumSearches(splits)
	if err != nil {
		return nil, Accuracy{}, err
	}
	ki, ni, li := gridIndex(sum.Grid, sum.Best)
	per := make([][]float64, len(seeds))
	for s := range seeds {
		for i := range t.Splits {
			p := splits[s*len(t.Splits)+i]
			per[s] = append(per[s], float64(p.Correct[ki][ni][li])/float64(p.Best.ValRows))
		}
	}
	return sum, accuracyOf(per), nil
}

// joinNs joins the parts of one split and seed, each over some of the N
// (in increasing order across the parts), into one search over all of them.
func joinNs(parts []*protocol.SearchResult) (*protocol.SearchResult, error) {
	first := parts[0]
	out := &protocol.SearchResult{Dataset: first.Dataset, Network: first.Network, Bits: first.Bits, Solver: first.Solver, Win: first.Win,
		Select: first.Select, Grid: protocol.Grid{Lambdas: first.Grid.Lambdas, Kappas: first.Grid.Kappas}, Best: protocol.Best{ValRows: first.Best.ValRows},
		Correct: make([][][]int, len(first.Correct))}
	for i, p := range parts {
		if err := p.Check(); err != nil {
			return nil, fmt.Errorf("part %d: %w", i+1, err)
		}
		switch {
		case p.Network != first.Network || p.Bits != first.Bits || p.Solver != first.Solver || p.Win != first.Win || p.Select != first.Select ||
			!slices.Equal(p.Grid.Lambdas, first.Grid.Lambdas) || !slices.Equal(p.Grid.Kappas, first.Grid.Kappas) ||
			p.Best.ValRows != first.Best.ValRows || len(p.Correct) != len(first.Correct):
			return nil, fmt.Errorf("part %d (N=%v) was scored with other settings than part 1", i+1, p.Grid.Ns)
		case len(out.Grid.Ns) > 0 && p.Grid.Ns[0] <= out.Grid.Ns[len(out.Grid.Ns)-1]:
			return nil, fmt.Errorf("part %d: N=%v out of order", i+1, p.Grid.Ns)
		}
		out.Grid.Ns = append(out.Grid.Ns, p.Grid.Ns...)
		for ki := range p.Correct {
			out.Correct[ki] = append(out.Correct[ki], p.Correct[ki]...)
		}
		out.Seconds += p.Seconds
		out.HiddenSeconds += p.HiddenSeconds
		out.SolveSeconds += p.SolveSeconds
		out.Jittered += p.Jittered
	}
	return out, nil
}

// scorePart scores one part: for an intRVFL part with more neurons than
// training rows and a rounded readout, the dual scorer that forms each
// kernel once (dualIntRVFL); for one with at least as many training rows
// and a rounded readout, or one over the memory budget, the row-chunked
// scorer (streamIntRVFL: the hidden inputs computed once for every κ, every
// λ's predictions in one product); else protocol.Search on the split. All
// three give the same counts with a rounded readout
// (TestStreamedPartEqualsProtocol, TestDualPartEqualsProtocol).
func (t *Task) scorePart(ctx context.Context, nw protocol.Network, so protocol.SearchOptions, p part) (*protocol.SearchResult, bool, error) {
	s := t.Splits[p.split]
	so.Seed = p.seed
	if p.n > 0 {
		so.Grid.Ns = []int{p.n}
	} else {
		so.Grid.Ns = p.ns
	}
	if nw == protocol.IntRVFL && dualScored(so, s, p.n) {
		res, err := t.dualIntRVFL(ctx, so, s, p.n)
		if err != nil {
			return nil, false, fmt.Errorf("split %d seed %d N=%d: %w", p.split+1, p.seed, p.n, err)
		}
		return res, false, nil
	}
	if nw == protocol.IntRVFL && (t.streams(s, p.n) || chunkScored(so, s, p.n)) {
		streamed := t.streams(s, p.n)
		res, err := t.streamIntRVFL(ctx, so, s, p.n)
		if err != nil {
			return nil, streamed, fmt.Errorf("split %d seed %d N=%d (row chunks): %w", p.split+1, p.seed, p.n, err)
		}
		return res, streamed, nil
	}
	res, err := protocol.Search(ctx, t.split(s), nw, so)
	if err != nil {
		return nil, false, fmt.Errorf("split %d seed %d: %w", p.split+1, p.seed, err)
	}
	return res, false, nil
}

// memoryBudget is t.MemoryBudget or the default.
func (t *Task) memoryBudget() int64 {
	if t.MemoryBudget > 0 {
		return t.MemoryBudget
	}
	return DefaultMemoryBudget
}

// ProtocolPartBytes estimates the working memory of the protocol's search
// of one intRVFL with n neurons on mt training and mv validation rows: the
// hidden inputs (int16) and activations (float64) of every row, and the
// Gram matrix and its factor.
func ProtocolPartBytes(mt, mv, n int) int64 {
	return int64(mt+mv)*int64(n)*10 + 16*int64(n)*int64(n)
}

// chunkScored reports whether the intRVFL part with n neurons on split s
// is scored by streamIntRVFL within the memory budget too: a rounded
// readout (its counts are then protocol.Search's exactly), at least n
// training rows (the primal system), the exact solver.
func chunkScored(so protocol.SearchOptions, s dataset.Split, n int) bool {
	return so.Bits != 0 && len(s.Train) >= n && so.Solver.Exact()
}

// streams reports whether the intRVFL part with n neurons on split s is
// scored in row chunks: the protocol's search would hold more than the
// memory budget, and the primal system applies (at least n training rows).
func (t *Task) streams(s dataset.Split, n int) bool {
	return len(s.Train) >= n && ProtocolPartBytes(len(s.Train), len(s.Test), n) > t.memoryBudget()
}

// partCost estimates the work of one part with n neurons, in arbitrary
// units (for the order of the parts and the estimate of the time left): the
// hidden layer, and per κ the Gram matrix or kernel and one factorisation
// per λ.
func (t *Task) partCost(so protocol.SearchOptions, n int) float64 {
	mt := float64(len(t.Splits[0].Train))
	mv := float64(len(t.Splits[0].Test))
	r := math.Min(float64(n), mt) // rank of the system solved
	kappas := math.Max(1, float64(len(so.Grid.Kappas)))
	lambdas := float64(len(so.Grid.Lambdas))
	return (mt+mv)*float64(n) + kappas*(mt*r*float64(n)+lambdas*(r*r*r/3+mv*float64(n)))
}

func (t *Task) progress(format string, args ...any) {
	if t.Progress != nil {
		t.Progress(format, args...)
	}
}

// dataKey is the SHA-256 of the training rows: feature and class names,
// values and labels.
func (t *Task) dataKey() string {
	h := sha256.New()
	d := t.Train
	var b [8]byte
	word := func(v uint64) {
		binary.LittleEndian.PutUint64(b[:], v)
		h.Write(b[:])
	}
	str := func(s string) { word(uint64(len(s))); h.Write([]byte(s)) }
	word(uint64(len(d.FeatureNames)))
	for _, s := range d.FeatureNames {
		str(s)
	}
	word(uint64(len(d.ClassNames)))
	for _, s := range d.ClassNames {
		str(s)
	}
	word(uint64(len(d.X)))
	for _, v := range d.X {
		word(math.Float64bits(v))
	}
	for _, y := range d.Y {
		word(uint64(y))
	}
	return hex.EncodeToString(h.Sum(nil))
}

// splitKey identifies validation split f by its rows.
func (t *Task) splitKey(f int) string {
	h := sha256.New()
	var b [8]byte
	for _, rows := range [][]int{t.Splits[f].Train, t.Splits[f].Test} {
		binary.LittleEndian.PutUint64(b[:], uint64(len(rows)))
		h.Write(b[:])
		for _, r := range rows {
			binary.LittleEndian.PutUint64(b[:], uint64(r))
			h.Write(b[:])
		}
	}
	return hex.EncodeToString(h.Sum(nil)[:8])
}

// CurvePoint is the best validation result of one N of a search: the
// accuracy-versus-size curve of the search's networks.
type CurvePoint struct {
	N        int     `json:"n"`
	Kappa    int     `json:"kappa,omitempty"`
	Lambda   float64 `json:"lambda"`
	Correct  int     `json:"correct"`  // correct validation predictions, all splits and seeds
	Accuracy float64 `json:"accuracy"` // Correct / validation rows
}

// Curve returns, for every N of a summed search in increasing order, the κ
// and λ that protocol.Better ranks first among that N's grid points.
func Curve(sum *protocol.SearchResult) []CurvePoint {
	g := sum.Grid
	var out []CurvePoint
	for ni, n := range g.Ns {
		best := protocol.Best{Correct: -1, ValRows: sum.Best.ValRows}
		for ki := range sum.Correct {
			for li, lambda := range g.Lambdas {
				c := protocol.Best{N: n, Lambda: lambda, Correct: sum.Correct[ki][ni][li], ValRows: sum.Best.ValRows}
				if len(g.Kappas) > 0 {
					c.Kappa = g.Kappas[ki]
				}
				if protocol.Better(c, best) {
					best = c
				}
			}
		}
		out = append(out, CurvePoint{N: n, Kappa: best.Kappa, Lambda: best.Lambda, Correct: best.Correct,
			Accuracy: float64(best.Correct) / float64(best.ValRows)})
	}
	return out
}
