package readout

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/hdlgen/hdlgen/model"
	"github.com/hdlgen/hdlgen/quant"
)

// Method is how the rounded readout is refined.
type Method string

// The refinement methods.
const (
	None      Method = "none"    // the rounded readout as is
	GARounded Method = "rounded" // GA seeded with the rounded readout (quant.Refine)
	GARandom  Method = "random"  // GA from random integers (quant.RandomGA)
)

// ParseMethod parses none, rounded or random.
func ParseMethod(s string) (Method, error) {
	switch m := Method(s); m {
	case None, GARounded, GARandom:
		return m, nil
	}
	return "", fmt.Errorf("%q: want none, rounded or random", s)
}

// Data is the training data: Rows raw rows of the model's K features
// (row-major in X) and their labels in [0, L).
type Data struct {
	X    []float64
	Rows int
	Y    []int
}

// Options configure Quantize.
type Options struct {
	Bound  int             // readout levels −Bound…Bound, in [1, quant.MaxBound]
	Method Method          // "" means None
	GA     quant.GAOptions // with a GA method; start from quant.DefaultGAOptions
	// GARows bounds the rows the GA's fitness is computed on (0:
	// DefaultGARows; negative: every row): above it, a sample of GARows
	// rows, stratified by class (each class its share, at least one row),
	// drawn with the GA's seed and kept in the rows' order. The GA's cost
	// grows with its rows, and a few thousand rows rank readouts as well as
	// tens of thousands (a 30,000-row build spent 615 s in it).
	GARows int
}

// DefaultGARows is the GA's row bound when Options.GARows is 0.
const DefaultGARows = 2000

// GASample is the rows of d the GA fits with a bound of limit rows (see
// Options.GARows) and seed: d itself when it has no more.
func GASample(d *Data, limit int, seed uint64) *Data {
	if limit == 0 {
		limit = DefaultGARows
	}
	if limit < 0 || d.Rows <= limit {
		return d
	}
	byClass := map[int][]int{}
	var classes []int
	for r, y := range d.Y {
		if byClass[y] == nil {
			classes = append(classes, y)
		}
		byClass[y] = append(byClass[y], r)
	}
	slices.Sort(classes)
	rng := rand.New(rand.NewPCG(seed, 0x6761726f7773)) // "garows"
	var keep []int
	for _, c := range classes {
		rows := byClass[c]
		n := min(len(rows), max(1, int(math.Round(float64(limit)*float64(len(rows))/float64(d.Rows)))))
		for i := range n { // a partial Fisher–Yates shuffle
			j := i + rng.IntN(len(rows)-i)
			rows[i], rows[j] = rows[j], rows[i]
		}
		keep = append(keep, rows[:n]...)
	}
	slices.Sort(keep)
	k := len(d.X) / d.Rows
	s := &Data{Rows: len(keep), X: make([]float64, 0, len(keep)*k), Y: make([]int, 0, len(keep))}
	for _, r := range keep {
		s.X = append(s.X, d.X[r*k:(r+1)*k]...)
		s.Y = append(s.Y, d.Y[r])
	}
	return s
}

// Thresholds of the rounding warning (see the package documentation).
const (
	WarnAccuracyLoss = 0.01 // training accuracy lost by the integer readout
	WarnSmallShare   = 0.90 // share of codes in {−1, 0, 1}
	WarnSmallBound   = 7    // smallest bound for which the share is judged
)

// Result reports what Quantize did.
type Result struct {
	Bound, Bits   int
	FloatAccuracy float64         // training accuracy with the float readout; NaN without data
	IntAccuracy   float64         // with the final integer readout; NaN without data
	SmallShare    float64         // share of the rounded codes in {−1, 0, 1}
	GA            *quant.GAResult // the GA run, nil with Method None
	Warning       string          // "" or the rounding warning with its advice
}

// Quantize replaces m's integer readout by the rounding of its float readout
// to −opt.Bound…opt.Bound, refined by the GA when opt.Method asks for it (d
// is then required; otherwise it may be nil, and only serves the accuracies).
func Quantize(ctx context.Context, m *model.Model, d *Data, opt Options) (Result, error) {
	if opt.Method == "" {
		opt.Method = None
	}
	if _, err := ParseMethod(string(opt.Method)); err != nil {
		return Result{}, fmt.Errorf("readout: method %w", err)
	}
	if opt.Bound < 1 || opt.Bound > quant.MaxBound {
		return Result{}, fmt.Errorf("readout: bound %d outside [1, %d]", opt.Bound, quant.MaxBound)
	}
	if opt.Method != None && d == nil {
		return Result{}, fmt.Errorf("readout: the GA (%s) needs the training data", opt.Method)
	}
	if d != nil && (d.Rows < 1 || len(d.X) != d.Rows*m.K() || len(d.Y) != d.Rows) {
		return Result{}, fmt.Errorf("readout: %d values and %d labels for %d rows of %d features", len(d.X), len(d.Y), d.Rows, m.K())
	}
	if err := ctx.Err(); err != nil {
		return Result{}, err
	}
	res := Result{Bound: opt.Bound, FloatAccuracy: math.NaN(), IntAccuracy: math.NaN()}
	work := *m // a shallow copy: m changes only on success
	if d != nil {
		work.Readout = nil // score with the float readout
		res.FloatAccuracy = work.Accuracy(d.X, d.Rows, d.Y)
	}
	if err := work.QuantizeReadout(opt.Bound); err != nil {
		return Result{}, fmt.Errorf("readout: %w", err)
	}
	res.SmallShare = SmallShare(work.Readout.Q)
	if opt.Method != None {
		g := GASample(d, opt.GARows, opt.GA.Seed)
		h, err := work.Activations(work.Norm.Apply(g.X, g.Rows), g.Rows)
		if err != nil {
			return Result{}, fmt.Errorf("readout: %w", err)
		}
		var ga quant.GAResult
		if opt.Method == GARounded {
			ga, err = quant.Refine(ctx, work.QuantReadout(), h, g.Y, opt.GA)
		} else {
			ga, err = quant.RandomGA(ctx, work.L(), opt.Bound, h, g.Y, opt.GA)
		}
		if err != nil {
			return Result{}, fmt.Errorf("readout: %w", err)
		}
		work.Readout = model.ReadoutFromQuant(ga.Readout)
		res.GA = &ga
	}
	res.Bits = work.Readout.Bits
	if d != nil {
		res.IntAccuracy = work.Accuracy(d.X, d.Rows, d.Y)
	}
	res.Warning = Warning(work.Training.Regularizer, opt.Bound, res.SmallShare, res.FloatAccuracy, res.IntAccuracy)
	m.Readout = work.Readout
	return res, nil
}

// SmallShare is the share of readout codes in {−1, 0, 1} (0 for no codes).
func SmallShare(q []int32) float64 {
	if len(q) == 0 {
		return 0
	}
	n := 0
	for _, v := range q {
		if v >= -1 && v <= 1 {
			n++
		}
	}
	return float64(n) / float64(len(q))
}

// Warning explains, when the rounded readout loses training accuracy or uses
// few of its levels, why and what helps (advice for the command line); ""
// when there is nothing to say. NaN accuracies mean the training data was not
// given.
func Warning(reg model.Regularizer, bound int, small, floatAcc, intAcc float64) string {
	var why string
	switch {
	case intAcc < floatAcc-WarnAccuracyLoss:
		why = fmt.Sprintf("the integer readout loses %.1f percentage points of training accuracy", 100*(floatAcc-intAcc))
	case bound >= WarnSmallBound && small >= WarnSmallShare:
		why = fmt.Sprintf("%.0f%% of the rounded weights are −1, 0 or 1: the readout uses few of its ±%d levels", 100*small, bound)
	default:
		return ""
	}
	if reg == model.RegIdentity {
		return why + "; a larger --lambda (hdlgen search --bits picks λ by the rounded readout's validation accuracy), more readout bits or --ga rounded may help"
	}
	return why + "; retraining with --regularizer identity (λ·I) usually rounds with far less loss"
}
