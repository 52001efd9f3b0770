package model

// goldenStream is the output of TestRandomStreamGolden for seed 1 (K=5, N=4 signs;
// a 2×2 float RVFL), recorded once with Go 1.26. math/rand/v2's PCG is the
// specified PCG-DXSM algorithm, so these values must never change.
var goldenStream = struct {
	Rows []string
	Win  []float64
	Bias []float64
}{
	Rows: []string{"18", "06", "0d", "09"},
	Win:  []float64{0.6225908700471792, 0.5424242682665608, -0.6992822629822835, 0.5895430441030005},
	Bias: []float64{-0.07513916100434566, -0.03284911100135966},
}
