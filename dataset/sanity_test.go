package dataset

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestLabelColumn(t *testing.T) {
	const in = "species,a,b\nx,1,2\ny,3,4\nx,5,6\n"
	tests := []struct {
		col      string
		features []string
		label    string
		x        []float64
		classes  []string
		wantErr  string
	}{
		{col: "", features: []string{"species", "a"}, wantErr: `field 1 (species): not a number`},
		{col: "species", features: []string{"a", "b"}, label: "species", x: []float64{1, 2, 3, 4, 5, 6}, classes: []string{"x", "y"}},
		{col: "1", features: []string{"a", "b"}, label: "species", x: []float64{1, 2, 3, 4, 5, 6}, classes: []string{"x", "y"}},
		{col: "2", features: []string{"b"}, label: "a", wantErr: "field 1 (species): not a number"},
		{col: "4", wantErr: "label column 4: the header has columns 1…3"},
		{col: "kind", wantErr: `label column "kind": no such column`},
	}
	for _, tc := range tests {
		t.Run(tc.col, func(t *testing.T) {
			d, err := ReadCSV(strings.NewReader(in), "f.csv", CSVOptions{LabelColumn: tc.col})
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("err = %v, want it to contain %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			got := struct {
				F, C []string
				L    string
				X    []float64
			}{d.FeatureNames, d.ClassNames, d.LabelName, d.X}
			want := struct {
				F, C []string
				L    string
				X    []float64
			}{tc.features, tc.classes, tc.label, tc.x}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
}

func TestMissingHeader(t *testing.T) {
	tests := []struct {
		name, in, wantErr string
	}{
		{"numeric first row", "1,2,0\n3,4,1\n", `f.csv:1: the first row "1", "2", "0" looks like data`},
		{"string label first row", "1,2,a\n3,4,b\n", ""}, // a header named 1, 2, a: accepted
		{"header", "x,y,c\n3,4,b\n5,6,a\n", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ReadCSV(strings.NewReader(tc.in), "f.csv", CSVOptions{})
			_, ferr := ReadFeaturesCSV(strings.NewReader(tc.in), "f.csv", FeatureOptions{})
			for _, e := range []error{err, ferr} {
				if tc.wantErr == "" {
					if e != nil && strings.Contains(e.Error(), "looks like data") {
						t.Errorf("unexpected %v", e)
					}
					continue
				}
				if e == nil || !strings.Contains(e.Error(), tc.wantErr) {
					t.Errorf("err = %v, want %q", e, tc.wantErr)
				}
			}
		})
	}
}

func TestLabelWarnings(t *testing.T) {
	classes := func(n int, f func(i int) string) []string {
		var c []string
		for i := 0; i < n; i++ {
			c = append(c, f(i))
		}
		return c
	}
	ds := func(rows int, names []string) *Dataset {
		d := &Dataset{FeatureNames: []string{"a"}, LabelName: "y", ClassNames: names, X: make([]float64, rows), Y: make([]int, rows)}
		for i := range d.Y {
			d.Y[i] = i % len(names)
		}
		return d
	}
	tests := []struct {
		name string
		d    *Dataset
		want []string
	}{
		{"fine", ds(100, []string{"a", "b", "c"}), nil},
		{"fine numeric", ds(100, classes(10, func(i int) string { return fmt.Sprint(i) })), nil},
		{"class per row", ds(30, classes(30, func(i int) string { return fmt.Sprintf("id%d", i) })),
			[]string{`the label column "y" has as many classes as rows (30): every row is its own class; is the label in another column (--label-column)?`}},
		{"few rows per class", ds(30, classes(16, func(i int) string { return fmt.Sprintf("id%d", i) })),
			[]string{`the label column "y" has 16 classes in 30 rows (fewer than 2 rows per class): is the label in another column (--label-column)?`}},
		{"continuous", ds(100, []string{"0.5", "1.25", "2"}),
			[]string{`the label column "y" holds numbers with a fractional part (3 distinct values): it looks continuous, a regression target rather than classes`}},
		{"counts", ds(100, classes(21, func(i int) string { return fmt.Sprint(i) })),
			[]string{`the label column "y" holds 21 distinct integers: it looks like a count or a measurement rather than classes`}},
		{"both", ds(10, classes(10, func(i int) string { return fmt.Sprintf("%d.5", i) })),
			[]string{
				`the label column "y" has as many classes as rows (10): every row is its own class; is the label in another column (--label-column)?`,
				`the label column "y" holds numbers with a fractional part (10 distinct values): it looks continuous, a regression target rather than classes`,
			}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, LabelWarnings(tc.d)); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
}
