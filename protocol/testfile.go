package protocol

import (
	"slices"

	"github.com/hdlgen/hdlgen/dataset"
	"github.com/hdlgen/hdlgen/model"
)

// ConstantInTestFile lists the features (0-based) of a two-file dataset that
// take one value in the test file but vary in the training file: min-max by
// the test file's own statistics has no range to scale them by (the
// normaliser maps them to 0, whatever the value). Nil for one-file datasets.
// Only features are looked at.
func ConstantInTestFile(u *dataset.UCIDataset) []int {
	if !u.HasTestFile() || u.TestData.M() < 1 || u.Data.M() < 1 {
		return nil
	}
	k := u.Data.K()
	train := model.FitNormalizer(u.Data.X, u.Data.M(), k)
	test := model.FitNormalizer(u.TestData.X, u.TestData.M(), k)
	var out []int
	for f := range k {
		if !(test.Max[f] > test.Min[f]) && train.Max[f] > train.Min[f] {
			out = append(out, f)
		}
	}
	return out
}

// AutoFills reports whether TestNormAuto's normalisation of u's test file
// differs from TestNormOwn's: the files are mismatched (FilesMismatched) and
// some feature is constant in the test file only (ConstantInTestFile). In
// the collection: annealing, whose 100-row test file is constant on 4
// features that are at their maximum on over 99% of the training rows.
func AutoFills(u *dataset.UCIDataset) bool {
	return FilesMismatched(u) && len(ConstantInTestFile(u)) > 0
}

// ownNormalizedTest is u's test file normalised by its own min/max, the
// published convention (TestNormOwn): a feature constant in the file maps
// to 0.
func ownNormalizedTest(u *dataset.UCIDataset) []float64 {
	t := u.TestData
	return model.FitNormalizer(t.X, t.M(), t.K()).Apply(t.X, t.M())
}

// filledNormalizedTest is TestNormAuto's normalisation of a mismatched test
// file: its own min/max, except that a feature constant in the test file
// (ConstantInTestFile) takes the median of the training file's normalised
// values of that feature (the lower median, a value the feature takes).
// A constant column carries no scale of its own, and 0 would place every
// test row at the training file's minimum; the median places it where the
// training rows mostly are. trainNorm is the training file's normaliser.
// Only features are looked at.
func filledNormalizedTest(u *dataset.UCIDataset, trainNorm model.Normalizer) []float64 {
	x := ownNormalizedTest(u)
	d, k, m := u.Data, u.Data.K(), u.TestData.M()
	train := trainNorm.Apply(d.X, d.M())
	col := make([]float64, d.M())
	for _, f := range ConstantInTestFile(u) {
		for r := range col {
			col[r] = train[r*k+f]
		}
		slices.Sort(col)
		median := col[(len(col)-1)/2]
		for r := range m {
			x[r*k+f] = median
		}
	}
	return x
}

// autoNormalizedTest is u's test file under TestNormAuto with the training
// file's normaliser trainNorm: filledNormalizedTest for mismatched files,
// the training file's statistics otherwise.
func autoNormalizedTest(u *dataset.UCIDataset, trainNorm model.Normalizer) []float64 {
	if FilesMismatched(u) {
		return filledNormalizedTest(u, trainNorm)
	}
	return trainNorm.Apply(u.TestData.X, u.TestData.M())
}
