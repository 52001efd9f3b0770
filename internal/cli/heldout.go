package cli

import (
	"fmt"
	"slices"

	"github.com/spf13/pflag"

	"github.com/hdlgen/hdlgen/dataset"
	"github.com/hdlgen/hdlgen/model"
	"github.com/hdlgen/hdlgen/tune"
)

// DefaultHoldout is the share of each class's rows that train and quantize
// hold out for validation unless --holdout or --test says otherwise.
const DefaultHoldout = 0.25

// collapseLoss is the held-out accuracy the integer readout may lose against
// the float readout before the commands warn that rounding collapsed it.
const collapseLoss = 0.05

// heldOutOptions are the flags that choose the rows a model is fitted on
// and the rows it is validated on (train, quantize).
type heldOutOptions struct {
	holdout   float64
	splitSeed uint64
	test      string
	labelCol  string
}

func (h *heldOutOptions) bind(f *pflag.FlagSet) {
	f.Float64Var(&h.holdout, "holdout", DefaultHoldout, "share of each class's rows held out for validation (stratified, drawn from --split-seed; 0: fit on all rows and report no held-out accuracy)")
	f.Uint64Var(&h.splitSeed, "split-seed", defaultSeed, "seed of the held-out split")
	f.StringVar(&h.test, "test", "", "a separate labelled CSV to validate on instead of a held-out share (same columns)")
	f.StringVar(&h.labelCol, "label-column", "", "CSV: the class label column, a header name or a 1-based number (default: the last column)")
}

// split is the data a command fits on and validates on.
type split struct {
	Fit, Held *dataset.Dataset // Held is nil without validation
	What      string           // how the held-out rows were chosen, for messages
}

// load reads --data (and --test), keeps only the classes keep (all when
// empty; see keepClasses) and splits off the held-out rows. The label
// warnings of dataset.LabelWarnings go to app.Err.
func (h *heldOutOptions) load(app *App, fl *pflag.FlagSet, data, name string, keep []string) (split, error) {
	if fl.Changed("holdout") && h.test != "" {
		return split{}, usagef("--holdout and --test are two ways to validate: give one")
	}
	if !(h.holdout >= 0 && h.holdout < 1) {
		return split{}, usagef("--holdout %v: want a share in [0, 1)", h.holdout)
	}
	d, err := loadLabelledColumn(data, name, h.labelCol)
	if err != nil {
		return split{}, err
	}
	for _, w := range dataset.LabelWarnings(d) {
		fmt.Fprintf(app.Err, "hdlgen: warning: --data %s: %s\n", data, w)
	}
	if len(keep) > 0 {
		if d, err = keepClasses(d, keep); err != nil {
			return split{}, err
		}
	}
	switch {
	case h.test != "":
		t, err := loadTestColumn(h.test, h.labelCol)
		if err != nil {
			return split{}, fmt.Errorf("--test: %w", err)
		}
		if len(keep) > 0 {
			if t, err = keepClasses(t, keep); err != nil {
				return split{}, fmt.Errorf("--test: %w", err)
			}
		}
		if t, err = matchColumns(d, t); err != nil {
			return split{}, fmt.Errorf("--test %s: %w", h.test, err)
		}
		return split{Fit: d, Held: t, What: fmt.Sprintf("the %d rows of %s", t.M(), h.test)}, nil
	case h.holdout > 0:
		v := tune.Validation{Holdout: h.holdout, Seed: h.splitSeed}
		ss, err := v.Splits(d)
		if err != nil {
			return split{}, usagef("--holdout on %s: %v", data, err)
		}
		return split{Fit: d.Subset(ss[0].Train), Held: d.Subset(ss[0].Test),
			What: fmt.Sprintf("%d rows held out (stratified share %g, split seed %d)", len(ss[0].Test), h.holdout, h.splitSeed)}, nil
	}
	return split{Fit: d}, nil
}

// matchColumns returns test with its features in train's order (matched by
// name) and its labels numbered as train's classes.
func matchColumns(train, test *dataset.Dataset) (*dataset.Dataset, error) {
	if test.K() != train.K() {
		return nil, fmt.Errorf("%d features, the training data %d", test.K(), train.K())
	}
	col := make([]int, train.K())
	for i, n := range train.FeatureNames {
		if col[i] = slices.Index(test.FeatureNames, n); col[i] < 0 {
			return nil, fmt.Errorf("no column %q (the training data's feature %d)", n, i+1)
		}
	}
	label := make([]int, test.L())
	for c, n := range test.ClassNames {
		if label[c] = slices.Index(train.ClassNames, n); label[c] < 0 {
			return nil, fmt.Errorf("class %q is not one of the training data's classes %q", n, train.ClassNames)
		}
	}
	out := &dataset.Dataset{Name: test.Name, FeatureNames: train.FeatureNames, LabelName: train.LabelName,
		ClassNames: train.ClassNames, X: make([]float64, len(test.X)), Y: make([]int, test.M())}
	k := train.K()
	for r := 0; r < test.M(); r++ {
		for i, j := range col {
			out.X[r*k+i] = test.X[r*k+j]
		}
		out.Y[r] = label[test.Y[r]]
	}
	return out, nil
}

// accuracyRow is one readout's accuracy on the fitted and the held-out rows
// (NaN when not measured).
type accuracyRow struct {
	Readout   string
	Fit, Held float64
	HasHeld   bool
}

// accuracies measures m's float readout (when it has one) and its integer
// readout (when it has one) on s.
func accuracies(m *model.Model, s split) []accuracyRow {
	var rows []accuracyRow
	measure := func(name string, mm *model.Model) {
		r := accuracyRow{Readout: name, Fit: mm.Accuracy(s.Fit.X, s.Fit.M(), s.Fit.Y)}
		if s.Held != nil {
			r.HasHeld = true
			r.Held = mm.Accuracy(s.Held.X, s.Held.M(), s.Held.Y)
		}
		rows = append(rows, r)
	}
	if !m.Net.Readout().Required || m.Readout == nil { // a network type whose integer readout is required has no float one
		f := *m
		f.Readout = nil
		measure("float", &f)
	}
	if m.Readout != nil {
		measure(fmt.Sprintf("%d-bit integer", m.Readout.Bits), m)
	}
	return rows
}

// writeAccuracies prints the accuracy table of rows to app.Err and warns
// when the integer readout lost more than collapseLoss of the float
// readout's held-out (else training) accuracy.
func writeAccuracies(app *App, rows []accuracyRow) {
	fmt.Fprintf(app.Err, "  %-16s %10s %10s\n", "readout", "training", "held-out")
	for _, r := range rows {
		held := "—"
		if r.HasHeld {
			held = fmt.Sprintf("%.4f", r.Held)
		}
		fmt.Fprintf(app.Err, "  %-16s %10.4f %10s\n", r.Readout, r.Fit, held)
	}
	if w := collapseWarning(rows); w != "" {
		fmt.Fprintf(app.Err, "hdlgen: warning: %s\n", w)
	}
}

// collapseWarning says when the integer readout (the last row) lost more
// than collapseLoss against the float readout (the first), held-out when
// measured; "" otherwise.
func collapseWarning(rows []accuracyRow) string {
	if len(rows) < 2 {
		return ""
	}
	f, i := rows[0], rows[len(rows)-1]
	what, fa, ia := "held-out", f.Held, i.Held
	if !f.HasHeld {
		what, fa, ia = "training", f.Fit, i.Fit
	}
	if ia >= fa-collapseLoss {
		return ""
	}
	return fmt.Sprintf("rounding to the %s readout takes %s accuracy from %.4f to %.4f: try a larger --lambda, the identity penalty (--regularizer identity), more --bits, or hdlgen search --bits to choose λ by the rounded readout",
		i.Readout, what, fa, ia)
}
