//go:build ignore

// Family-check is the quick accuracy screening of issue 35 ("grow the
// intRVFL family"): does a direct link, or an ensemble, pay? On the
// collection's first -folds folds (at most -rows training and test rows, a
// random sample of a longer index list: the lists are grouped by class) it
// compares, all with the identity ridge penalty λ·I and an exact float64
// readout (docs/semantics.md §3, §5):
//
//	(a) one intRVFL of N neurons;
//	(b) (a) with direct links: the readout sees [d; h], d_i = 2·v_i − N for
//	    each feature's level v_i (docs/semantics.md §3), i.e. minus the sum
//	    of its ±1 density code: an integer in [−N, N], centred (with
//	    -direct-range R the ridge fit sees d·R/N, which only changes the
//	    penalty on the direct weights: the readout still takes d);
//	(c) one intRVFL of 2N neurons;
//	(d) an ensemble of two intRVFLs of N neurons (seeds seed, seed+1), each
//	    with its own readout fitted independently, class scores summed;
//	(e) an ensemble of four intRVFLs of N/2 neurons (seeds seed … seed+3);
//	(f) N random conjunctions: unit u is 1 when all of its D terms hold,
//	    term t being "x_i ≥ θ" or its negation for a feature i, a threshold
//	    θ (that feature's value in a random fitting row, as ExtraTrees draws
//	    its splits) and a polarity drawn from seed; the readout sees the 0/1
//	    units. D (from -depths) takes κ's place in the grid; a unit's first
//	    D terms are the same for every D.
//	    With -conj-bipolar a unit is +1 or −1 instead of 1 or 0; with
//	    -conj-bias the readout also has a bias per class.
//	(g) N/2 intRVFL neurons and N/2 conjunctions in one readout, κ and D
//	    chosen together.
//
// With -ensemble (needs a and f among -variants) a last column sums the
// class scores of the rounded (a) and the rounded (f), each as validation
// chose it alone, dequantised (Q·s, each readout with its own scale s):
// two cores over one input, one readout each, their scores added — an
// upper bound for hardware that adds them with a shift for the ratio of the
// scales; then that hardware's sum, (a)'s integer scores shifted by the
// power of two nearest the ratio of the two scales and added to (f)'s; and
// the race of (a), (f) and that sum by the race's rule (each chosen on the
// validation split as above, the sum's validation accuracy that of the two
// readouts fitted on the split's fitting rows). -conj-bits rounds the conjunctions' readout to its own width (the
// conj member's 8 bits) while (a) keeps -bits.
//
// -variants picks the variants by letter (default abcde, the first
// screening's).
//
// κ and λ are chosen per variant (one pair shared by an ensemble's members)
// by the accuracy on a stratified 25 % validation split of each fold's
// training rows (tune.Validation, normaliser fitted on the remaining 75 %),
// the first best in grid order (κ ascending, then λ ascending); the chosen
// pair is refitted on all the fold's training rows and scored on its test
// rows. The test rows never choose anything. For (a) and (b) it also reports
// the readout rounded to -bits signed integers (quant.QuantizeBits: one
// max-scaling per readout matrix, the project's rounding), with κ and λ
// chosen again by the validation accuracy of the rounded readout (as
// `hdlgen search --bits` does); for (b) also with two scales, the direct
// block and the hidden block rounded separately (each by
// quant.QuantizeBits) and their dequantised scores added: not a scheme the
// project has, an upper bound for one that rescales one block's sum.
//
//	go run scripts/family-check.go [-data DIR] [-n 500] [-seed 1] [-folds 2] [-rows 6000] [-direct-range R] [DATASET ...]
//
// It prints one Markdown row per dataset with each variant's mean test
// accuracy over the folds, then the mean over all datasets and the mean
// over those not named by -large. Progress and the chosen κ, λ go to stderr.
package main

import (
	"cmp"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/hdlgen/hdlgen/dataset"
	"github.com/hdlgen/hdlgen/linalg"
	"github.com/hdlgen/hdlgen/model"
	"github.com/hdlgen/hdlgen/quant"
	"github.com/hdlgen/hdlgen/ridge"
	"github.com/hdlgen/hdlgen/tune"
)

// member is one network of a variant: n intRVFL neurons and conj random
// conjunctions, drawn from seed+off.
type member struct{ n, off, conj int }

// setting is one point of a variant's grid besides λ: κ of its intRVFL
// neurons, D of its conjunctions (0 when it has none of them).
type setting struct{ kappa, depth int }

func (st setting) String() string {
	switch {
	case st.depth == 0:
		return fmt.Sprintf("κ=%d", st.kappa)
	case st.kappa == 0:
		return fmt.Sprintf("D=%d", st.depth)
	}
	return fmt.Sprintf("κ=%d D=%d", st.kappa, st.depth)
}

// variant is a readout over one network (with or without direct links) or an
// ensemble of networks whose class scores are summed.
type variant struct {
	name    string
	members []member
	direct  bool
	rounded bool // also score the readout rounded to -bits
}

// part is one set of normalised rows with labels.
type part struct {
	x []float64
	y []int
}

func (p part) rows() int { return len(p.y) }

var (
	solver = ridge.Solver{Reg: ridge.Identity, Threads: 1}
	engine = linalg.Engine{Threads: 1}
	bits   = 5
	// directRange is -direct-range.
	directRange float64
	// conjOff is a conjunction's value when a term fails: 0, or −1 with
	// -conj-bipolar (the units centred like the intRVFL's).
	conjOff = 0.0
	// conjBias is -conj-bias.
	conjBias bool
	// conjLevels is -conj-levels: Q > 0 compares integer codes
	// clamp(floor(x·Q + 0.5), 0, Q) with integer thresholds, as hardware
	// with Q-level inputs does; 0 compares the float values.
	conjLevels int
	// conjBits is -conj-bits: the rounded width of a readout over
	// conjunctions (0: bits).
	conjBits int
	// captured holds, per variant letter, the dequantised class scores of
	// its rounded readout on the test rows of the fold being scored (the
	// -ensemble column's inputs).
	captured = map[string][]float64{}
	// capturedVal holds the same on the validation rows (the readout
	// fitted on the validation split's fitting rows), capturedScale the
	// test readout's scale, capturedValScale the validation one's.
	capturedVal                     = map[string][]float64{}
	capturedScale, capturedValScale = map[string]float64{}, map[string]float64{}
	// capture, while set, makes run keep the dequantised scores of its
	// (single) rounded readout in lastScores and its scale in lastScale.
	capture    bool
	lastScores []float64
	lastScale  float64
	// conjUniform is -conj-thresholds uniform: a threshold drawn uniformly
	// over the normalised range (codes 1 … Q with -conj-levels) instead of
	// a random fitting row's value, so that drawing needs no data.
	conjUniform bool
	// conjDepthCycle is -conj-depth-cycle: unit u of the conjunctions has
	// 1 + u mod Dmax terms (Dmax the largest of -depths), so one draw holds
	// every depth and the readout weighs them; D leaves the grid.
	conjDepthCycle bool
	// conjSelect is -conj-select M: M > 1 draws M times the units and keeps
	// the units whose 0/1 values on the fitting rows depend most on the
	// class (correlation ratio η²).
	conjSelect int
)

func main() {
	dir := flag.String("data", "../shared/uci121", "UCI-121 collection folder")
	n := flag.Int("n", 500, "N: neurons of (a), (b), and of each member of (d); (c) has 2N, (e) four of N/2")
	folds := flag.Int("folds", 2, "folds (the collection's first ones)")
	rows := flag.Int("rows", 6000, "at most this many training and test rows per fold")
	kappas := flag.String("kappa", "1,3,7,15", "κ grid")
	lambdas := flag.String("lambda", "-6,-4,-2,0,2,4,6,8,10,12", "λ grid as powers of two")
	seed := flag.Uint64("seed", 1, "the networks' seed (ensemble member m uses seed+m)")
	depthList := flag.String("depths", "1,2,3,4", "D grid of the conjunctions (f, g)")
	which := flag.String("variants", "abcde", "the variants to run, by letter")
	bipolar := flag.Bool("conj-bipolar", false, "conjunction units are ±1 (−1 when a term fails) instead of 0/1")
	flag.BoolVar(&conjBias, "conj-bias", false, "a readout over conjunctions also has a bias per class, rounded at the readout's scale but not bounded by -bits")
	splitSeed := flag.Uint64("split-seed", 1, "seed of the stratified validation split and of the -rows sample")
	holdout := flag.Float64("holdout", 0.25, "share of each class's training rows held out for validation")
	flag.IntVar(&bits, "bits", 5, "rounded readout width (signed bits)")
	flag.Float64Var(&directRange, "direct-range", 0, "R > 0: fit (b) on the direct links scaled to [−R, R] (a λ/(R/N)² penalty on the integer d's weights); 0: on the integer d")
	flag.IntVar(&conjLevels, "conj-levels", 0, "Q > 0: the conjunctions compare Q-level integer codes of the inputs; 0: float values")
	thresholds := flag.String("conj-thresholds", "rows", "conjunction thresholds: rows (a random fitting row's value) or uniform (drawn over the range, no data)")
	flag.IntVar(&conjBits, "conj-bits", 0, "rounded width of a readout over conjunctions (f); 0: -bits")
	flag.BoolVar(&conjDepthCycle, "conj-depth-cycle", false, "unit u of the conjunctions has 1 + u mod Dmax terms (Dmax the largest of -depths): one setting instead of the D grid")
	flag.IntVar(&conjSelect, "conj-select", 1, "M > 1: draw M times the conjunctions and keep the units with the largest η² against the class on the fitting rows")
	ensemble := flag.Bool("ensemble", false, "with a and f: a last column sums their rounded readouts' dequantised scores")
	large := flag.String("large", "nursery,chess-krvk,letter,wine-quality-white", "datasets left out of the second mean row")
	flag.Parse()
	if *bipolar {
		conjOff = -1
	}
	switch *thresholds {
	case "rows":
	case "uniform":
		conjUniform = true
	default:
		fail(fmt.Errorf("-conj-thresholds %q: want rows or uniform", *thresholds))
	}
	names := flag.Args()
	if len(names) == 0 {
		names = []string{"iris", "car"}
	}
	atoi := func(s string) (int, error) {
		var v int
		_, err := fmt.Sscan(s, &v)
		return v, err
	}
	ks, depths := parseList(*kappas, atoi), parseList(*depthList, atoi)
	ls := parseList(*lambdas, func(s string) (float64, error) {
		var v int
		_, err := fmt.Sscan(s, &v)
		return math.Ldexp(1, v), err
	})
	isLarge := map[string]bool{}
	for _, s := range strings.Split(*large, ",") {
		isLarge[s] = true
	}
	var vs []variant
	for _, v := range []variant{
		{name: fmt.Sprintf("(a) N=%d", *n), members: []member{{*n, 0, 0}}, rounded: true},
		{name: fmt.Sprintf("(b) N=%d + direct", *n), members: []member{{*n, 0, 0}}, direct: true, rounded: true},
		{name: fmt.Sprintf("(c) N=%d", 2**n), members: []member{{2 * *n, 0, 0}}},
		{name: fmt.Sprintf("(d) 2×%d", *n), members: []member{{*n, 0, 0}, {*n, 1, 0}}},
		{name: fmt.Sprintf("(e) 4×%d", *n/2), members: []member{{*n / 2, 0, 0}, {*n / 2, 1, 0}, {*n / 2, 2, 0}, {*n / 2, 3, 0}}},
		{name: fmt.Sprintf("(f) %d conj", *n), members: []member{{0, 0, *n}}, rounded: true},
		{name: fmt.Sprintf("(g) %d+%d conj", *n/2, *n/2), members: []member{{*n / 2, 0, *n / 2}}, rounded: true},
	} {
		if strings.Contains(*which, v.name[1:2]) {
			vs = append(vs, v)
		}
	}
	head := "| dataset |"
	cols := 0
	for _, v := range vs {
		head += " " + v.name + " |"
		cols++
		for _, r := range v.roundings() {
			head += fmt.Sprintf(" %s %s |", v.name[:3], r)
			cols++
		}
	}
	// With (a) and (f) both run, a last column races them as the race of
	// results/accuracy-race does, on the rounded readouts: per fold (a)
	// unless (f)'s best validation accuracy is more than 2 standard errors
	// (study.RaceKeepSE, at the larger accuracy) above (a)'s, then (f).
	race := strings.Contains(*which, "a") && strings.Contains(*which, "f")
	if race {
		head += " race (a, f), rounded |"
		cols++
	}
	ens := race && *ensemble
	if ens {
		head += " (a) + (f), rounded scores summed | (a) + (f), (a) shifted | race (a, f, (a) + (f) shifted) |"
		cols += 3
	}
	fmt.Println(head)
	fmt.Println("| --- |" + strings.Repeat(" --- |", cols))
	var all, small [][]float64
	var skipped []string
datasets:
	for _, name := range names {
		start := time.Now()
		u, err := dataset.LoadUCI(*dir, name)
		if err != nil {
			fail(err)
		}
		d := u.Data
		acc := make([]float64, cols)
		for f := 0; f < *folds; f++ {
			sp := u.Folds[f]
			// The collection's index lists are grouped by class: a prefix
			// would drop classes, so a larger list is sampled at random.
			tr, te := dataset.SampleIndices(sp.Train, *rows, *splitSeed), dataset.SampleIndices(sp.Test, *rows, *splitSeed)
			train := d.Subset(tr)
			for c, m := range train.ClassCounts() {
				if m == 0 {
					// A class too rare for the sample (or the fold): the
					// dataset is left out of the table and its means.
					fmt.Fprintf(os.Stderr, "%s fold %d: class %d has no training rows: skipped\n", name, f, c)
					skipped = append(skipped, name)
					continue datasets
				}
			}
			// The validation split of the fold's training rows.
			splits, err := tune.Validation{Holdout: *holdout, Seed: *splitSeed}.Splits(train)
			if err != nil {
				fail(fmt.Errorf("%s fold %d: %w", name, f, err))
			}
			vfit, vval := normalised(train, splits[0].Train, splits[0].Test)
			ffit, ftest := normalised(d, tr, te)
			c := 0
			// the rounded readout's best validation accuracy and its test
			// accuracy, per variant letter (for the race column)
			raced := map[string][2]float64{}
			for _, v := range vs {
				// validation grid: [setting][λ] accuracy of the float (and rounded) readout
				sets := v.settings(ks, depths)
				va, vr := v.run(vfit, vval, d.K(), d.L(), sets, ls, *seed)
				ki, li := best(va)
				ta, _ := v.run(ffit, ftest, d.K(), d.L(), sets[ki:ki+1], ls[li:li+1], *seed)
				acc[c] += ta[0][0] / float64(*folds)
				c++
				fmt.Fprintf(os.Stderr, "%s fold %d %s: %v λ=2^%d val %.3f test %.3f", name, f, v.name, sets[ki], math.Ilogb(ls[li]), va[ki][li], ta[0][0])
				for ri, r := range v.roundings() {
					ki, li := best(vr[ri])
					capture = ri == 0
					_, tq := v.run(ffit, ftest, d.K(), d.L(), sets[ki:ki+1], ls[li:li+1], *seed)
					if capture {
						captured[v.name[1:2]], capturedScale[v.name[1:2]] = lastScores, lastScale
						if ens {
							v.run(vfit, vval, d.K(), d.L(), sets[ki:ki+1], ls[li:li+1], *seed)
							capturedVal[v.name[1:2]], capturedValScale[v.name[1:2]] = lastScores, lastScale
						}
					}
					capture = false
					acc[c] += tq[ri][0][0] / float64(*folds)
					c++
					if ri == 0 {
						raced[v.name[1:2]] = [2]float64{vr[ri][ki][li], tq[ri][0][0]}
					}
					fmt.Fprintf(os.Stderr, "; %s %v λ=2^%d val %.3f test %.3f", r, sets[ki], math.Ilogb(ls[li]), vr[ri][ki][li], tq[ri][0][0])
				}
				fmt.Fprintln(os.Stderr)
			}
			if race {
				// study.RaceWinner's rule: the standard error at the
				// larger of the two accuracies.
				a, f := raced["a"], raced["f"]
				pick := a
				p := max(a[0], f[0])
				if se := math.Sqrt(p * (1 - p) / float64(vval.rows())); f[0] > a[0]+2*se {
					pick = f
				}
				acc[c] += pick[1] / float64(*folds)
				c++
			}
			if ens {
				sum := slices.Clone(captured["a"])
				for i, x := range captured["f"] {
					sum[i] += x
				}
				acc[c] += accuracy(sum, ftest.y, d.L()) / float64(*folds)
				c++
				// The hardware's sum: (a)'s integer scores shifted by the
				// power of two nearest the ratio of the scales, added to
				// (f)'s (all times (f)'s scale, which the argmax ignores).
				shifted := func(a, f []float64, sa, sf float64) []float64 {
					p := math.Ldexp(1, int(math.Round(math.Log2(sa/sf))))
					out := make([]float64, len(a))
					for i := range a {
						out[i] = a[i]*(sf*p/sa) + f[i]
					}
					return out
				}
				test := accuracy(shifted(captured["a"], captured["f"], capturedScale["a"], capturedScale["f"]), ftest.y, d.L())
				val := accuracy(shifted(capturedVal["a"], capturedVal["f"], capturedValScale["a"], capturedValScale["f"]), vval.y, d.L())
				acc[c] += test / float64(*folds)
				c++
				// The race of (a), (f) and the shifted sum by the race's
				// rule: (a) unless another validates more than 2 standard
				// errors above it, then the most correct.
				cands := [][2]float64{raced["a"], raced["f"], {val, test}}
				most := 0
				for i, x := range cands {
					if x[0] > cands[most][0] {
						most = i
					}
				}
				pick := cands[0]
				p := cands[most][0]
				if se := math.Sqrt(p * (1 - p) / float64(vval.rows())); p > cands[0][0]+2*se {
					pick = cands[most]
				}
				acc[c] += pick[1] / float64(*folds)
				fmt.Fprintf(os.Stderr, "%s fold %d (a)+(f) shifted: val %.3f test %.3f\n", name, f, val, test)
			}
		}
		fmt.Println(row(name, acc))
		fmt.Fprintf(os.Stderr, "%s: %s\n", name, time.Since(start).Round(time.Second))
		all = append(all, acc)
		if !isLarge[name] {
			small = append(small, acc)
		}
	}
	fmt.Println(row(fmt.Sprintf("**mean (%d)**", len(all)), mean(all, cols)))
	if len(small) != len(all) && len(small) > 0 {
		fmt.Println(row(fmt.Sprintf("**mean (%d small)**", len(small)), mean(small, cols)))
	}
	if len(skipped) > 0 {
		fmt.Printf("\nSkipped (a class without training rows in a fold's sample): %s\n", strings.Join(skipped, ", "))
	}
}

// settings is the variant's grid besides λ: κ for intRVFL neurons alone, D
// for conjunctions alone, every pair for both.
func (v variant) settings(ks, depths []int) []setting {
	var hasNet, hasConj bool
	for _, m := range v.members {
		hasNet, hasConj = hasNet || m.n > 0, hasConj || m.conj > 0
	}
	switch {
	case !hasConj:
		depths = []int{0}
	case conjDepthCycle:
		depths = []int{slices.Max(depths)}
	}
	if !hasNet {
		ks = []int{0}
	}
	var out []setting
	for _, kappa := range ks {
		for _, depth := range depths {
			out = append(out, setting{kappa, depth})
		}
	}
	return out
}

// run fits the variant on fit for every setting in ks and λ in ls and
// returns the accuracy on eval of the float readout and (if v.rounded) of
// the rounded one, indexed [setting][λ].
func (v variant) run(fit, eval part, k, l int, ks []setting, ls []float64, seed uint64) (acc [][]float64, accR [][][]float64) {
	acc = grid(len(ks), len(ls))
	for range v.roundings() {
		accR = append(accR, grid(len(ks), len(ls)))
	}
	// summed class scores per κ and λ: [κ][λ][row·L + class]
	scores := make([][][]float64, len(ks))
	for ki := range scores {
		scores[ki] = make([][]float64, len(ls))
		for li := range scores[ki] {
			scores[ki][li] = make([]float64, eval.rows()*l)
		}
	}
	for _, m := range v.members {
		var sFit, dFit, sEval, dEval []int
		if m.n > 0 {
			net := model.NewIntNet(k, m.n, 1, seed+uint64(m.off))
			sFit, dFit = inputs(net, fit)
			sEval, dEval = inputs(net, eval)
		}
		terms := drawConjunctions(fit, k, m.conj*max(1, conjSelect), maxDepth(ks), seed+uint64(m.off))
		for ki, st := range ks {
			// -direct-range R > 0 fits on d·R/N and maps the weights back
			// onto d: the same readout over the integer d, with the
			// penalty on the direct weights changed.
			scale := 1.0
			if directRange > 0 {
				scale = directRange / float64(m.n)
			}
			hFit, c := columns(sFit, dFit, fit.rows(), m.n, k, st.kappa, v.direct, scale)
			hEval, _ := columns(sEval, dEval, eval.rows(), m.n, k, st.kappa, v.direct, 1)
			if m.conj > 0 {
				before := c
				units, depth := terms, st.depth
				if conjSelect > 1 {
					units, depth = selectConjunctions(fit, k, l, terms, st.depth, m.conj), 0
				}
				hFit, c = withConjunctions(hFit, c, fit, k, units, depth)
				hEval, _ = withConjunctions(hEval, before, eval, k, units, depth)
			}
			for li, w := range readouts(hFit, fit.rows(), c, fit.y, l, ls) {
				if v.direct {
					for i := 0; i < l; i++ {
						for j := 0; j < k; j++ {
							w[i*c+j] *= scale
						}
					}
				}
				engine.Gemm(false, true, eval.rows(), l, c, 1, hEval, c, w, c, 1, scores[ki][li], l)
				if v.rounded {
					if len(v.members) != 1 {
						panic("rounded readout of an ensemble")
					}
					// One scale for the whole readout matrix (the project's).
					s := make([]float64, eval.rows()*l)
					width := bits
					if m.conj > 0 && conjBits > 0 {
						width = conjBits
					}
					q, scale := rounded(w, l, c, 0, c, false, width)
					if m.conj > 0 && conjBias {
						q, scale = roundedWithBias(w, l, c, width)
					}
					engine.Gemm(false, true, eval.rows(), l, c, 1, hEval, c, q, c, 0, s, l)
					accR[0][ki][li] = accuracy(s, eval.y, l)
					if capture {
						for i := range s {
							s[i] *= scale
						}
						lastScores, lastScale = s, scale
					}
					if v.direct {
						// Two scales: the direct block [0, K) and the hidden
						// block [K, c) rounded separately, scores s_d·Q_d·d +
						// s_h·Q_h·h (an upper bound for a hardware that
						// multiplies one block's sum by a constant).
						two, _ := rounded(w, l, c, 0, k, true, bits)
						hid, _ := rounded(w, l, c, k, c, true, bits)
						for i, x := range hid {
							two[i] += x
						}
						engine.Gemm(false, true, eval.rows(), l, c, 1, hEval, c, two, c, 0, s, l)
						accR[1][ki][li] = accuracy(s, eval.y, l)
					}
				}
			}
		}
	}
	for ki := range ks {
		for li := range ls {
			acc[ki][li] = accuracy(scores[ki][li], eval.y, l)
		}
	}
	return acc, accR
}

// roundings names the rounded readouts the variant reports.
func (v variant) roundings() []string {
	switch {
	case !v.rounded:
		return nil
	case v.direct:
		return []string{fmt.Sprintf("%d-bit", bits), fmt.Sprintf("%d-bit, 2 scales", bits)}
	}
	if conjBits > 0 && v.conjOnly() {
		return []string{fmt.Sprintf("%d-bit", conjBits)}
	}
	return []string{fmt.Sprintf("%d-bit", bits)}
}

// conjOnly reports whether the variant's networks are conjunctions only.
func (v variant) conjOnly() bool {
	for _, m := range v.members {
		if m.n > 0 {
			return false
		}
	}
	return true
}

// rounded returns columns [a, b) of the L×c readout w rounded to width bits
// with one scale (quant.QuantizeBits), as an L×c matrix that is zero outside
// [a, b): the integer levels Q (exact integer scores, the hardware's), or
// with scaled the levels times the scale, so that two blocks rounded
// separately add up to their two-scale scores; and the scale.
func rounded(w []float64, l, c, a, b int, scaled bool, width int) ([]float64, float64) {
	n := b - a
	blk := make([]float64, l*n)
	for i := 0; i < l; i++ {
		copy(blk[i*n:(i+1)*n], w[i*c+a:i*c+b])
	}
	q, err := quant.QuantizeBits(blk, l, n, width)
	if err != nil {
		fail(err)
	}
	out := make([]float64, l*c)
	for i := 0; i < l; i++ {
		for j := 0; j < n; j++ {
			out[i*c+a+j] = float64(q.Weights[i*n+j])
			if scaled {
				out[i*c+a+j] *= q.Scale
			}
		}
	}
	return out, q.Scale
}

// roundedWithBias rounds an L×c readout whose last column is a bias: the
// other columns to width-bit levels with one scale (quant.QuantizeBits), the
// bias to an integer at that scale, of any width; and the scale.
func roundedWithBias(w []float64, l, c, width int) ([]float64, float64) {
	blk := make([]float64, l*(c-1))
	for i := 0; i < l; i++ {
		copy(blk[i*(c-1):(i+1)*(c-1)], w[i*c:i*c+c-1])
	}
	q, err := quant.QuantizeBits(blk, l, c-1, width)
	if err != nil {
		fail(err)
	}
	out := make([]float64, l*c)
	for i := 0; i < l; i++ {
		for j := 0; j < c-1; j++ {
			out[i*c+j] = float64(q.Weights[i*(c-1)+j])
		}
		out[i*c+c-1] = math.Round(w[i*c+c-1] / q.Scale)
	}
	return out, q.Scale
}

// inputs returns the hidden inputs s_j (rows×n, before the clip) and the
// centred direct-link values 2·v_i − N (rows×K) of the rows of p.
func inputs(net *model.IntNet, p part) (s, d []int) {
	k, n := net.K, net.N
	s = make([]int, p.rows()*n)
	d = make([]int, p.rows()*k)
	for r := 0; r < p.rows(); r++ {
		lv := d[r*k : (r+1)*k]
		net.LevelsTo(lv, p.x[r*k:(r+1)*k])
		net.HiddenInputsTo(s[r*n:(r+1)*n], lv)
		for i, v := range lv {
			lv[i] = 2*v - n
		}
	}
	return s, d
}

// term is one condition of a conjunction: x_feature ≥ threshold, or its
// negation when negate.
type term struct {
	feature   int
	threshold float64
	negate    bool
}

// drawConjunctions draws units conjunctions of depth terms each from seed:
// for each term a feature, the value of that feature in a random row of fit
// as its threshold, and a polarity.
func drawConjunctions(fit part, k, units, depth int, seed uint64) [][]term {
	rng := rand.New(rand.NewPCG(seed, 0x636f6e6a))
	out := make([][]term, units)
	for u := range out {
		out[u] = make([]term, depth)
		for t := range out[u] {
			i := rng.IntN(k)
			var th float64
			switch {
			case conjUniform && conjLevels > 0:
				th = float64(1 + rng.IntN(conjLevels))
			case conjUniform:
				th = rng.Float64()
			default:
				th = conjValue(fit.x[rng.IntN(fit.rows())*k+i])
			}
			out[u][t] = term{feature: i, threshold: th, negate: rng.IntN(2) == 1}
		}
	}
	return out
}

// selectConjunctions keeps the units of the candidates (each of depth
// terms, or 1 + u mod depth with -conj-depth-cycle) whose 0/1 values on the
// rows of fit have the largest correlation ratio η² = Σ_c n_c (p_c − p)² /
// (n p (1 − p)) with the class, p_c the unit's share of class c rows that it
// is on; the kept units are returned truncated to their depth, in candidate
// order.
func selectConjunctions(fit part, k, l int, cands [][]term, depth, units int) [][]term {
	cut := make([][]term, len(cands))
	for u, ts := range cands {
		d := depth
		if conjDepthCycle {
			d = 1 + u%depth
		}
		cut[u] = ts[:d]
	}
	n := fit.rows()
	classN := make([]float64, l)
	for _, y := range fit.y {
		classN[y]++
	}
	score := make([]float64, len(cut))
	on := make([]float64, l)
	for u, ts := range cut {
		clear(on)
		for r := 0; r < n; r++ {
			x := fit.x[r*k : (r+1)*k]
			hit := true
			for _, t := range ts {
				if (conjValue(x[t.feature]) >= t.threshold) == t.negate {
					hit = false
					break
				}
			}
			if hit {
				on[fit.y[r]]++
			}
		}
		total := 0.0
		for _, o := range on {
			total += o
		}
		p := total / float64(n)
		if p == 0 || p == 1 {
			continue
		}
		for c, o := range on {
			if classN[c] > 0 {
				dp := o/classN[c] - p
				score[u] += classN[c] * dp * dp
			}
		}
		score[u] /= float64(n) * p * (1 - p)
	}
	idx := make([]int, len(cut))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int { return cmp.Compare(score[b], score[a]) })
	idx = idx[:min(units, len(idx))]
	slices.Sort(idx)
	out := make([][]term, len(idx))
	for i, u := range idx {
		out[i] = cut[u]
	}
	return out
}

// conjValue is what a conjunction's term compares for a normalised value x:
// x itself, or its -conj-levels code.
func conjValue(x float64) float64 {
	if conjLevels == 0 {
		return x
	}
	return math.Max(0, math.Min(float64(conjLevels), math.Floor(x*float64(conjLevels)+0.5)))
}

// maxDepth is the largest D of the settings.
func maxDepth(sets []setting) int {
	d := 0
	for _, st := range sets {
		d = max(d, st.depth)
	}
	return d
}

// withConjunctions appends to each row of h (rows of c columns) the 0/1
// values of the conjunctions' first depth terms on the rows of p.
func withConjunctions(h []float64, c int, p part, k int, units [][]term, depth int) ([]float64, int) {
	cc := c + len(units)
	if conjBias {
		cc++ // the constant column, last
	}
	out := make([]float64, p.rows()*cc)
	for r := 0; r < p.rows(); r++ {
		copy(out[r*cc:r*cc+c], h[r*c:(r+1)*c])
		x := p.x[r*k : (r+1)*k]
		for u, ts := range units {
			on := 1.0
			d := depth
			switch {
			case depth == 0: // selected units, each of its own depth
				d = len(ts)
			case conjDepthCycle:
				d = 1 + u%depth
			}
			for _, t := range ts[:d] {
				if (conjValue(x[t.feature]) >= t.threshold) == t.negate {
					on = conjOff
					break
				}
			}
			out[r*cc+c+u] = on
		}
		if conjBias {
			out[r*cc+cc-1] = 1
		}
	}
	return out, cc
}

// columns builds the readout's input matrix: [d·scale; clip(s, κ)] with
// direct links, clip(s, κ) without.
func columns(s, d []int, rows, n, k, kappa int, direct bool, scale float64) ([]float64, int) {
	c := n
	if direct {
		c += k
	}
	h := make([]float64, rows*c)
	for r := 0; r < rows; r++ {
		row := h[r*c : (r+1)*c]
		if direct {
			for i, v := range d[r*k : (r+1)*k] {
				row[i] = float64(v) * scale
			}
			row = row[k:]
		}
		for j, v := range s[r*n : (r+1)*n] {
			row[j] = float64(model.Clip(v, kappa))
		}
	}
	return h, c
}

// readouts solves the exact ridge readout (λ·I) for every λ, sharing the
// Gram matrix in the primal case.
func readouts(h []float64, rows, c int, y []int, l int, ls []float64) [][]float64 {
	data := ridge.Data{H: h, Rows: rows, Cols: c, Labels: y}
	out := make([][]float64, len(ls))
	var nm *ridge.Normal
	if rows >= c {
		var err error
		if nm, err = solver.NewNormal(data, l); err != nil {
			fail(err)
		}
	}
	for i, lambda := range ls {
		var err error
		if nm != nil {
			out[i], _, err = solver.SolveNormal(nm, lambda, c)
		} else {
			out[i], _, err = solver.Solve(data, l, lambda)
		}
		if err != nil {
			fail(err)
		}
	}
	return out
}

// normalised returns the rows fit and eval of d, normalised with the
// statistics of the rows fit.
func normalised(d *dataset.Dataset, fit, eval []int) (part, part) {
	xf, yf := pick(d, fit)
	xe, ye := pick(d, eval)
	norm := model.FitNormalizer(xf, len(yf), d.K())
	return part{norm.Apply(xf, len(yf)), yf}, part{norm.Apply(xe, len(ye)), ye}
}

// pick returns the features and labels of rows idx of d.
func pick(d *dataset.Dataset, idx []int) ([]float64, []int) {
	s := d.Subset(idx)
	return s.X, s.Y
}

// accuracy is the share of rows whose argmax (ties to the lowest class)
// is the label.
func accuracy(scores []float64, y []int, l int) float64 {
	ok := 0
	for r, label := range y {
		if model.ArgmaxFloat(scores[r*l:(r+1)*l]) == label {
			ok++
		}
	}
	return float64(ok) / float64(len(y))
}

// best returns the first maximum in grid order.
func best(a [][]float64) (int, int) {
	bi, bj := 0, 0
	for i := range a {
		for j := range a[i] {
			if a[i][j] > a[bi][bj] {
				bi, bj = i, j
			}
		}
	}
	return bi, bj
}

func grid(n, m int) [][]float64 {
	g := make([][]float64, n)
	for i := range g {
		g[i] = make([]float64, m)
	}
	return g
}

func mean(rows [][]float64, cols int) []float64 {
	m := make([]float64, cols)
	for _, r := range rows {
		for i, v := range r {
			m[i] += v / float64(len(rows))
		}
	}
	return m
}

func row(name string, acc []float64) string {
	s := "| " + name + " |"
	for _, a := range acc {
		s += fmt.Sprintf(" %.3f |", a)
	}
	return s
}

func parseList[T any](s string, parse func(string) (T, error)) []T {
	var out []T
	for _, f := range strings.Split(s, ",") {
		v, err := parse(strings.TrimSpace(f))
		if err != nil {
			fail(fmt.Errorf("%q: %w", f, err))
		}
		out = append(out, v)
	}
	return out
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, err)
	os.Exit(1)
}
