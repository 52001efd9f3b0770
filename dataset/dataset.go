package dataset

import (
	"fmt"
	"math"
	"slices"
)

// Dataset is a table of M rows of K numeric features, each row with a class
// label in [0, L).
//
// Invariants (checked by Validate, guaranteed for every Dataset returned by
// this package):
//   - len(FeatureNames) == K ≥ 1, names unique;
//   - len(ClassNames) == L, names unique; L ≥ 1 for labelled data;
//   - len(X) == M·K, row-major: feature j of row i is X[i*K+j]; all finite;
//   - len(Y) == M and 0 ≤ Y[i] < L.
//
// Unlabelled data (ReadFeaturesCSV) has Y == nil and ClassNames == nil.
// Not every class needs to occur in the rows (a test file may lack some).
type Dataset struct {
	Name         string    // dataset name, e.g. "iris"
	FeatureNames []string  // K names, in column order
	LabelName    string    // name of the label column ("clase" in UCI-121 files)
	ClassNames   []string  // L names; Y[i] indexes this slice
	X            []float64 // M×K features, row-major
	Y            []int     // M labels in [0, L); nil for unlabelled data
}

// K returns the number of features.
func (d *Dataset) K() int { return len(d.FeatureNames) }

// L returns the number of classes (0 for unlabelled data).
func (d *Dataset) L() int { return len(d.ClassNames) }

// M returns the number of rows.
func (d *Dataset) M() int {
	if len(d.FeatureNames) == 0 {
		return 0
	}
	return len(d.X) / len(d.FeatureNames)
}

// Labelled reports whether the rows carry class labels.
func (d *Dataset) Labelled() bool { return d.Y != nil }

// Row returns the K features of row i. The slice aliases d.X (capacity
// limited to K, so appending to it cannot overwrite the next row).
func (d *Dataset) Row(i int) []float64 {
	k := d.K()
	if i < 0 || i >= d.M() {
		panic(fmt.Sprintf("dataset: Row(%d) out of range [0,%d)", i, d.M()))
	}
	return d.X[i*k : (i+1)*k : (i+1)*k]
}

// ClassCounts returns the number of rows of each class (length L).
func (d *Dataset) ClassCounts() []int {
	c := make([]int, d.L())
	for _, y := range d.Y {
		c[y]++
	}
	return c
}

// Subset returns a new Dataset holding copies of the rows idx[0], idx[1], …
// in that order (indices may repeat). Names are shared with d (treat them as
// read-only). It panics if an index is out of range.
func (d *Dataset) Subset(idx []int) *Dataset {
	k, m := d.K(), d.M()
	out := &Dataset{
		Name:         d.Name,
		FeatureNames: d.FeatureNames,
		LabelName:    d.LabelName,
		ClassNames:   d.ClassNames,
		X:            make([]float64, len(idx)*k),
	}
	if d.Y != nil {
		out.Y = make([]int, len(idx))
	}
	for r, i := range idx {
		if i < 0 || i >= m {
			panic(fmt.Sprintf("dataset: Subset: index %d out of range [0,%d)", i, m))
		}
		copy(out.X[r*k:(r+1)*k], d.X[i*k:(i+1)*k])
		if d.Y != nil {
			out.Y[r] = d.Y[i]
		}
	}
	return out
}

// Clone returns a deep copy of d.
func (d *Dataset) Clone() *Dataset {
	return &Dataset{
		Name:         d.Name,
		FeatureNames: slices.Clone(d.FeatureNames),
		LabelName:    d.LabelName,
		ClassNames:   slices.Clone(d.ClassNames),
		X:            slices.Clone(d.X),
		Y:            slices.Clone(d.Y),
	}
}

// View returns a zero-copy view of the rows idx[0], idx[1], … of d. The
// index list is copied; the rows are not. It panics if an index is out of
// range.
func (d *Dataset) View(idx []int) View {
	m := d.M()
	for _, i := range idx {
		if i < 0 || i >= m {
			panic(fmt.Sprintf("dataset: View: index %d out of range [0,%d)", i, m))
		}
	}
	return View{d: d, idx: slices.Clone(idx)}
}

// View is a selection of rows of a Dataset by an index list, without
// copying the rows. The zero View is empty and has no Dataset.
type View struct {
	d   *Dataset
	idx []int
}

// Dataset returns the underlying dataset.
func (v View) Dataset() *Dataset { return v.d }

// Len returns the number of selected rows.
func (v View) Len() int { return len(v.idx) }

// Index returns the row number in the underlying dataset of the i-th row of v.
func (v View) Index(i int) int { return v.idx[i] }

// Row returns the features of the i-th selected row (aliasing the dataset).
func (v View) Row(i int) []float64 { return v.d.Row(v.idx[i]) }

// Label returns the label of the i-th selected row.
func (v View) Label(i int) int { return v.d.Y[v.idx[i]] }

// Copy returns the selected rows as a new Dataset (see Dataset.Subset).
func (v View) Copy() *Dataset {
	if v.d == nil {
		return nil
	}
	return v.d.Subset(v.idx)
}

// Validate checks the invariants listed on Dataset.
func (d *Dataset) Validate() error {
	k := len(d.FeatureNames)
	if k == 0 {
		return fmt.Errorf("dataset %q: no features", d.Name)
	}
	if err := uniqueNames(d.FeatureNames); err != nil {
		return fmt.Errorf("dataset %q: feature names: %w", d.Name, err)
	}
	if err := uniqueNames(d.ClassNames); err != nil {
		return fmt.Errorf("dataset %q: class names: %w", d.Name, err)
	}
	if len(d.X)%k != 0 {
		return fmt.Errorf("dataset %q: len(X) = %d is not a multiple of K = %d", d.Name, len(d.X), k)
	}
	for i, x := range d.X {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return fmt.Errorf("dataset %q: row %d feature %d (%s) is %v", d.Name, i/k, i%k, d.FeatureNames[i%k], x)
		}
	}
	m := len(d.X) / k
	if d.Y == nil {
		if len(d.ClassNames) != 0 {
			return fmt.Errorf("dataset %q: %d class names but no labels", d.Name, len(d.ClassNames))
		}
		return nil
	}
	if len(d.Y) != m {
		return fmt.Errorf("dataset %q: %d labels for %d rows", d.Name, len(d.Y), m)
	}
	l := len(d.ClassNames)
	if l == 0 {
		return fmt.Errorf("dataset %q: labelled data without class names", d.Name)
	}
	for i, y := range d.Y {
		if y < 0 || y >= l {
			return fmt.Errorf("dataset %q: row %d: label %d outside [0,%d)", d.Name, i, y, l)
		}
	}
	return nil
}

func uniqueNames(names []string) error {
	seen := make(map[string]int, len(names))
	for i, n := range names {
		if j, ok := seen[n]; ok {
			return fmt.Errorf("name %q at positions %d and %d", n, j, i)
		}
		seen[n] = i
	}
	return nil
}
