package dataset

import (
	"fmt"
	"math"
)

// Thresholds of LabelWarnings.
const (
	// ManyNumericClasses is the number of distinct integer labels above which
	// a numeric label column looks like a count or a measurement.
	ManyNumericClasses = 20
	// MinRowsPerClass: fewer rows per class on average than this, and the
	// label column looks like an identifier.
	MinRowsPerClass = 2
)

// LabelWarnings returns what looks wrong with d's label column, one sentence
// each (nil when nothing does): as many classes as rows, fewer than
// MinRowsPerClass rows per class, numeric labels with a fractional part (a
// continuous target), or more than ManyNumericClasses distinct integer
// labels. These are warnings, not errors: such data can be meant, but a label
// in the wrong column gives a model with a class per row.
func LabelWarnings(d *Dataset) []string {
	var w []string
	m, l := d.M(), d.L()
	switch {
	case l == m:
		w = append(w, fmt.Sprintf("the label column %q has as many classes as rows (%d): every row is its own class; is the label in another column (--label-column)?", d.LabelName, l))
	case l*MinRowsPerClass > m:
		w = append(w, fmt.Sprintf("the label column %q has %d classes in %d rows (fewer than %d rows per class): is the label in another column (--label-column)?", d.LabelName, l, m, MinRowsPerClass))
	}
	numeric, fractional := true, false
	for _, c := range d.ClassNames {
		v, msg := parseFinite([]byte(c))
		if msg != "" {
			numeric = false
			break
		}
		if v != math.Trunc(v) {
			fractional = true
		}
	}
	switch {
	case numeric && fractional:
		w = append(w, fmt.Sprintf("the label column %q holds numbers with a fractional part (%d distinct values): it looks continuous, a regression target rather than classes", d.LabelName, l))
	case numeric && l > ManyNumericClasses:
		w = append(w, fmt.Sprintf("the label column %q holds %d distinct integers: it looks like a count or a measurement rather than classes", d.LabelName, l))
	}
	return w
}
