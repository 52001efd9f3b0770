package examples_test

import (
	"io/fs"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hdlgen/hdlgen/dataset"
	"github.com/hdlgen/hdlgen/examples"
	"github.com/hdlgen/hdlgen/internal/hwtest"
)

var want = map[string]struct {
	uci      string // name in the UCI-121 collection
	features []string
	classes  []string
	counts   []int
}{
	examples.Iris: {
		uci:      "iris",
		features: []string{"sepal_length", "sepal_width", "petal_length", "petal_width"},
		classes:  []string{"setosa", "versicolor", "virginica"},
		counts:   []int{50, 50, 50},
	},
	examples.BreastCancer: {
		uci: "breast-cancer-wisc",
		features: []string{"clump_thickness", "uniformity_cell_size", "uniformity_cell_shape", "marginal_adhesion",
			"single_epithelial_cell_size", "bare_nuclei", "bland_chromatin", "normal_nucleoli", "mitoses"},
		classes: []string{"benign", "malignant"},
		counts:  []int{458, 241},
	},
}

func TestEmbedded(t *testing.T) {
	files, err := fs.Glob(examples.FS, "*.csv")
	if err != nil {
		t.Fatal(err)
	}
	names := slices.Sorted(slices.Values(examples.Names()))
	if diff := cmp.Diff(names, files); diff != "" {
		t.Errorf("Names() and the embedded files differ (-Names +files):\n%s", diff)
	}
	for _, name := range examples.Names() {
		w := want[name]
		d, err := dataset.LoadCSVFS(examples.FS, name, dataset.CSVOptions{})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if diff := cmp.Diff(w.features, d.FeatureNames); diff != "" {
			t.Errorf("%s: feature names (-want +got):\n%s", name, diff)
		}
		if diff := cmp.Diff(w.classes, d.ClassNames); diff != "" {
			t.Errorf("%s: class names (-want +got):\n%s", name, diff)
		}
		if diff := cmp.Diff(w.counts, d.ClassCounts()); diff != "" {
			t.Errorf("%s: class counts (-want +got):\n%s", name, diff)
		}
		if d.LabelName != "class" || d.Name != w.uci {
			t.Errorf("%s: label column %q, name %q; want \"class\", %q", name, d.LabelName, d.Name, w.uci)
		}
	}
}

// TestExamplesMatchCollection checks that the embedded files hold the
// collection's values and labels (see README.md).
func TestExamplesMatchCollection(t *testing.T) {
	dir := hwtest.CollectionDir(t)
	for _, name := range examples.Names() {
		d, err := dataset.LoadCSVFS(examples.FS, name, dataset.CSVOptions{})
		if err != nil {
			t.Fatal(err)
		}
		u, err := dataset.LoadUCI(dir, want[name].uci)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(u.Data.X, d.X); diff != "" {
			t.Errorf("%s: values differ from the collection (-collection +embedded):\n%s", name, diff)
		}
		if diff := cmp.Diff(u.Data.Y, d.Y); diff != "" {
			t.Errorf("%s: labels differ from the collection (-collection +embedded):\n%s", name, diff)
		}
	}
}
