package rtl

import (
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	testmodel "github.com/hdlgen/hdlgen/internal/randmodel"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/golden")

// ownFile reports whether rtl itself generates the file (the testbench and
// constraints packages have their own golden tests).
func ownFile(name string) bool {
	for _, p := range []string{"rtl/", "mem/", "vectors/"} {
		if strings.HasPrefix(name, p) {
			return true
		}
	}
	return name == "design.json" || name == "model.json" || name == MarkerFile
}

// TestGolden compares a tiny intRVFL and a tiny rvfl8 emit byte for byte with
// testdata/golden; `go test ./rtl -run TestGolden -update` rewrites them.
func TestGolden(t *testing.T) {
	cases := map[string]struct {
		shape testmodel.Shape
		p     int
	}{
		"tiny_intrvfl": {intShape(3, 5, 3, 2, 4), 2},
		"tiny_rvfl8":   {r8Shape(2, 3, 2), 2},
	}
	for name, tc := range cases {
		// A random model (exact integers, no floating-point training) and rows
		// built by exact arithmetic, so the files are the same on every machine.
		m := testmodel.Random(tc.shape, name, 7)
		var rows [][]float64
		for r := 0; r < 10; r++ {
			row := make([]float64, tc.shape.K)
			for i := range row {
				row[i] = float64((r*7+i*3)%16) / 16
			}
			rows = append(rows, row)
		}
		files, _, err := Generate(m, Options{Parallel: tc.p, Axis: true, Vectors: 12, Seed: 1, Rows: rows})
		if err != nil {
			t.Fatal(err)
		}
		dir := filepath.Join("testdata", "golden", name)
		var names []string
		for f := range files {
			if ownFile(f) {
				names = append(names, f)
			}
		}
		slices.Sort(names)
		if *update {
			if err := os.RemoveAll(dir); err != nil {
				t.Fatal(err)
			}
			for _, f := range names {
				p := filepath.Join(dir, filepath.FromSlash(f))
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, files[f], 0o644); err != nil {
					t.Fatal(err)
				}
			}
			continue
		}
		var want []string
		err = filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			rel, _ := filepath.Rel(dir, p)
			want = append(want, filepath.ToSlash(rel))
			return nil
		})
		if err != nil {
			t.Fatalf("%s: %v (run with -update to create the golden files)", name, err)
		}
		slices.Sort(want)
		if diff := cmp.Diff(want, names); diff != "" {
			t.Errorf("%s: file list (-golden +emitted):\n%s", name, diff)
			continue
		}
		for _, f := range names {
			golden, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(f)))
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(string(golden), string(files[f])); diff != "" {
				t.Errorf("%s/%s differs from the golden file (-golden +emitted):\n%s", name, f, diff)
			}
		}
	}
}
