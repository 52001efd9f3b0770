package rtl

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hdlgen/hdlgen/designdir"
	"github.com/hdlgen/hdlgen/internal/golden"
	"github.com/hdlgen/hdlgen/model"
	"github.com/hdlgen/hdlgen/rtl/plan"

	testmodel "github.com/hdlgen/hdlgen/internal/randmodel"
)

// ownFile reports whether rtl itself generates the file (the testbench and
// constraints packages have their own golden tests).
func ownFile(name string) bool {
	for _, p := range []string{"rtl/", "mem/", "vectors/"} {
		if strings.HasPrefix(name, p) {
			return true
		}
	}
	return name == "design.json" || name == "model.json" || name == designdir.MarkerFile
}

// TestGolden compares a tiny intRVFL, rvfl8, conj and intconj emit byte for byte with
// testdata/golden; `go test ./rtl -run TestGolden -update` rewrites them
// (internal/golden).
func TestGolden(t *testing.T) {
	cases := map[string]struct {
		shape testmodel.Shape
		p     int
	}{
		"tiny_intrvfl": {intShape(3, 5, 3, 2, 4), 2},
		"tiny_rvfl8":   {r8Shape(2, 3, 2), 2},
		"tiny_conj":    {testmodel.Shape{Arch: model.Conj, K: 3, N: 5, L: 3, Kappa: 2}, 2},
		// N1 = 3 neurons and N2 = 3 units: group 1 holds both kinds.
		"tiny_intconj": {testmodel.Shape{Arch: model.IntConj, K: 3, N: 6, L: 3, Kappa: 2}, 2},
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
		files, _, err := Generate(context.Background(), m, Options{Options: plan.Options{Parallel: tc.p}, Axis: true, Vectors: 12, Seed: 1, Rows: rows})
		if err != nil {
			t.Fatal(err)
		}
		own := map[string][]byte{}
		for f, b := range files {
			if ownFile(f) {
				own[f] = b
			}
		}
		golden.CheckDir(t, filepath.Join("testdata", "golden", name), own)
	}
}
