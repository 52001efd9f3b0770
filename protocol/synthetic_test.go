package protocol

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/hdlgen/hdlgen/dataset"
)

// syntheticUCI returns a dataset in the collection's shape, drawn from seed:
// m rows of k features, l classes, four folds drawn like the collection's
// (each a random 75 % training / 25 % test split, so test folds overlap),
// and, when testRows > 0, a separate test file instead of the folds. Each
// feature is a class mean plus Gaussian noise; half of them are
// continuous (so the folds' normalisers differ), the others rounded to
// the integers −3…3 (so they do not). With discrete, all are rounded.
func syntheticUCI(name string, m, k, l, testRows int, seed uint64, discrete bool) *dataset.UCIDataset {
	rng := rand.New(rand.NewPCG(seed, 99))
	centres := make([]float64, l*k)
	for i := range centres {
		centres[i] = rng.NormFloat64()
	}
	draw := func(rows int) *dataset.Dataset {
		d := &dataset.Dataset{Name: name, LabelName: "clase", X: make([]float64, rows*k), Y: make([]int, rows)}
		for j := 0; j < k; j++ {
			d.FeatureNames = append(d.FeatureNames, fmt.Sprintf("f%d", j+1))
		}
		for c := 0; c < l; c++ {
			d.ClassNames = append(d.ClassNames, fmt.Sprint(c))
		}
		for r := 0; r < rows; r++ {
			y := rng.IntN(l)
			d.Y[r] = y
			for j := 0; j < k; j++ {
				v := centres[y*k+j] + 1.5*rng.NormFloat64()
				if discrete || j%2 == 1 {
					v = min(max(math.Round(v), -3), 3)
				}
				d.X[r*k+j] = v
			}
		}
		return d
	}
	u := &dataset.UCIDataset{Data: draw(m)}
	u.Meta = dataset.UCIMeta{Name: name, Features: k, Classes: l, TrainRows: m}
	split := func(frac float64) dataset.Split {
		perm := rng.Perm(m)
		cut := int(math.Round(frac * float64(m)))
		return dataset.Split{Train: perm[:cut], Test: perm[cut:]}
	}
	u.Search = split(0.5)
	if testRows > 0 {
		u.TestData = draw(testRows)
		u.Meta.TestRows = testRows
		return u
	}
	for f := 0; f < 4; f++ {
		u.Folds = append(u.Folds, split(0.75))
	}
	return u
}
