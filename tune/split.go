package tune

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/hdlgen/hdlgen/dataset"
)

// DefaultFolds is the number of folds of the default validation, as in the
// protocol's final evaluation.
const DefaultFolds = 4

// splitStream is the PCG stream of the split seed's generator (any fixed
// value; it keeps the split apart from the networks' seeds).
const splitStream = 0x73706c6974 // "split"

// Validation selects how the training rows are split for validation.
type Validation struct {
	// Folds is k of stratified k-fold cross-validation, used when Holdout
	// is 0.
	Folds int
	// Holdout, when positive, is the share of each class's rows held out
	// in one validation split (0 < Holdout < 1).
	Holdout float64
	// Seed draws the split.
	Seed uint64
}

// Check validates v.
func (v Validation) Check() error {
	switch {
	case v.Holdout != 0 && !(v.Holdout > 0 && v.Holdout < 1):
		return fmt.Errorf("holdout share %v: want a value strictly between 0 and 1", v.Holdout)
	case v.Holdout == 0 && v.Folds < 2:
		return fmt.Errorf("%d folds: want at least 2", v.Folds)
	}
	return nil
}

// heldOut is how many of a class's n rows a holdout split validates.
func (v Validation) heldOut(n int) int {
	return max(min(int(math.Round(v.Holdout*float64(n))), n-1), 0)
}

// TrainingOnly names the classes of d that a holdout split validates none
// of (so few rows that the share rounds to none, or one row): they are
// fitted but not measured. Nil for k-fold.
func (v Validation) TrainingOnly(d *dataset.Dataset) []string {
	if v.Holdout <= 0 {
		return nil
	}
	count := make([]int, d.L())
	for _, y := range d.Y {
		count[y]++
	}
	var names []string
	for c, n := range count {
		if n > 0 && v.heldOut(n) == 0 {
			names = append(names, fmt.Sprintf("%s (%d row%s)", d.ClassNames[c], n, map[bool]string{true: "s"}[n != 1]))
		}
	}
	return names
}

// Method names the validation: "4-fold" or "holdout 0.25".
func (v Validation) Method() string {
	if v.Holdout > 0 {
		return fmt.Sprintf("holdout %g", v.Holdout)
	}
	return fmt.Sprintf("%d-fold", v.Folds)
}

// Splits returns the validation splits of d's rows (Train: the rows fitted,
// Test: the rows validated, both in increasing row order). The rows of each
// class are shuffled with the seed; k-fold deals them to the folds in turn,
// continuing from class to class, so fold sizes differ by at most one row;
// holdout takes round(Holdout·m_c) rows of each class of m_c rows, but
// leaves at least one for training (heldOut): a class the training rows
// lacked would be one the model cannot predict, and every command that
// fits on them refuses a test file with it.
func (v Validation) Splits(d *dataset.Dataset) ([]dataset.Split, error) {
	if err := v.Check(); err != nil {
		return nil, err
	}
	m := d.M()
	rng := rand.New(rand.NewPCG(v.Seed, splitStream))
	byClass := make([][]int, d.L())
	for r, y := range d.Y {
		byClass[y] = append(byClass[y], r)
	}
	for _, rows := range byClass {
		rng.Shuffle(len(rows), func(i, j int) { rows[i], rows[j] = rows[j], rows[i] })
	}
	k := v.Folds
	if v.Holdout > 0 {
		k = 1
	}
	val := make([][]int, k)
	if v.Holdout > 0 {
		for _, rows := range byClass {
			val[0] = append(val[0], rows[:v.heldOut(len(rows))]...)
		}
	} else {
		next := 0
		for _, rows := range byClass {
			for _, r := range rows {
				val[next] = append(val[next], r)
				next = (next + 1) % k
			}
		}
	}
	splits := make([]dataset.Split, k)
	for f, test := range val {
		if len(test) == 0 || len(test) == m {
			return nil, fmt.Errorf("%s of %d rows: split %d validates %d rows and fits %d; want both non-empty",
				v.Method(), m, f+1, len(test), m-len(test))
		}
		slices.Sort(test)
		in := make([]bool, m)
		for _, r := range test {
			in[r] = true
		}
		train := make([]int, 0, m-len(test))
		for r := 0; r < m; r++ {
			if !in[r] {
				train = append(train, r)
			}
		}
		splits[f] = dataset.Split{Train: train, Test: test}
	}
	return splits, nil
}
