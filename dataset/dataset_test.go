package dataset

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func tiny() *Dataset {
	return &Dataset{
		Name:         "tiny",
		FeatureNames: []string{"a", "b"},
		LabelName:    "class",
		ClassNames:   []string{"x", "y"},
		X:            []float64{0, 1, 10, 11, 20, 21},
		Y:            []int{0, 1, 1},
	}
}

func TestDatasetAccessors(t *testing.T) {
	d := tiny()
	if d.K() != 2 || d.L() != 2 || d.M() != 3 || !d.Labelled() {
		t.Fatalf("K, L, M, Labelled = %d, %d, %d, %v; want 2, 2, 3, true", d.K(), d.L(), d.M(), d.Labelled())
	}
	if diff := cmp.Diff([]float64{10, 11}, d.Row(1)); diff != "" {
		t.Errorf("Row(1) (-want +got):\n%s", diff)
	}
	if got := cap(d.Row(1)); got != 2 {
		t.Errorf("cap(Row(1)) = %d, want 2", got)
	}
	if diff := cmp.Diff([]int{1, 2}, d.ClassCounts()); diff != "" {
		t.Errorf("ClassCounts (-want +got):\n%s", diff)
	}
	if err := d.Validate(); err != nil {
		t.Errorf("Validate: %v", err)
	}
}

func TestSubsetAndView(t *testing.T) {
	d := tiny()
	idx := []int{2, 0, 2}
	want := &Dataset{
		Name: "tiny", FeatureNames: []string{"a", "b"}, LabelName: "class", ClassNames: []string{"x", "y"},
		X: []float64{20, 21, 0, 1, 20, 21},
		Y: []int{1, 0, 1},
	}
	s := d.Subset(idx)
	if diff := cmp.Diff(want, s); diff != "" {
		t.Errorf("Subset (-want +got):\n%s", diff)
	}
	s.X[0] = -1 // a copy: d unchanged
	if d.X[4] != 20 {
		t.Errorf("Subset aliases the source rows")
	}

	v := d.View(idx)
	idx[0] = 1 // the view keeps its own copy of the index list
	if v.Len() != 3 || v.Index(0) != 2 || v.Label(1) != 0 {
		t.Errorf("View: Len, Index(0), Label(1) = %d, %d, %d; want 3, 2, 0", v.Len(), v.Index(0), v.Label(1))
	}
	if diff := cmp.Diff([]float64{0, 1}, v.Row(1)); diff != "" {
		t.Errorf("View.Row(1) (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(want, v.Copy()); diff != "" {
		t.Errorf("View.Copy (-want +got):\n%s", diff)
	}
	if v.Dataset() != d {
		t.Errorf("View.Dataset is not the source")
	}
	d.X[0] = 5 // a view: sees the change
	if v.Row(1)[0] != 5 {
		t.Errorf("View does not alias the rows")
	}

	c := d.Clone()
	c.X[0], c.FeatureNames[0] = 99, "z"
	if d.X[0] != 5 || d.FeatureNames[0] != "a" {
		t.Errorf("Clone shares memory with the source")
	}
}

func TestSubsetPanics(t *testing.T) {
	for _, tc := range []struct {
		name string
		f    func(d *Dataset)
		want string
	}{
		{"Subset", func(d *Dataset) { d.Subset([]int{0, 3}) }, "dataset: Subset: index 3 out of range [0,3)"},
		{"View", func(d *Dataset) { d.View([]int{-1}) }, "dataset: View: index -1 out of range [0,3)"},
		{"Row", func(d *Dataset) { d.Row(3) }, "dataset: Row(3) out of range [0,3)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			defer func() {
				r := recover()
				if s, _ := r.(string); s != tc.want {
					t.Errorf("panic %v, want %q", r, tc.want)
				}
			}()
			tc.f(tiny())
		})
	}
}

func TestValidate(t *testing.T) {
	for _, tc := range []struct {
		name   string
		modify func(d *Dataset)
		want   string // "" = valid
	}{
		{"ok", func(d *Dataset) {}, ""},
		{"unlabelled", func(d *Dataset) { d.Y, d.ClassNames = nil, nil }, ""},
		{"no features", func(d *Dataset) { d.FeatureNames = nil }, "no features"},
		{"dup feature", func(d *Dataset) { d.FeatureNames[1] = "a" }, `feature names: name "a" at positions 0 and 1`},
		{"dup class", func(d *Dataset) { d.ClassNames[1] = "x" }, `class names: name "x"`},
		{"ragged X", func(d *Dataset) { d.X = d.X[:5] }, "len(X) = 5 is not a multiple of K = 2"},
		{"NaN", func(d *Dataset) { d.X[3] = nan() }, "row 1 feature 1 (b) is NaN"},
		{"labels count", func(d *Dataset) { d.Y = d.Y[:2] }, "2 labels for 3 rows"},
		{"label range", func(d *Dataset) { d.Y[2] = 2 }, "row 2: label 2 outside [0,2)"},
		{"no class names", func(d *Dataset) { d.ClassNames = nil }, "labelled data without class names"},
		{"names no labels", func(d *Dataset) { d.Y = nil }, "2 class names but no labels"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := tiny()
			tc.modify(d)
			err := d.Validate()
			switch {
			case tc.want == "" && err != nil:
				t.Errorf("Validate: %v", err)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Errorf("Validate = %v, want an error containing %q", err, tc.want)
			}
		})
	}
}
