package power

import "github.com/hdlgen/hdlgen/model"

// The paper's median network, its "network with typical parameters"
// (DESIGN.md, "Energy"): K=16 features, N=512 hidden neurons, L=4 classes,
// κ=3 and a 5-bit readout. It is the one definition: hwstudy's median table
// and the budget study's median budget use these.
const (
	MedianK     = 16
	MedianN     = 512
	MedianL     = 4
	MedianKappa = 3
	MedianBits  = 5
)

// MedianShape is the median intRVFL's shape (N = MedianN).
var MedianShape = Shape{Arch: model.IntRVFL, K: MedianK, L: MedianL, Kappa: MedianKappa, Bits: MedianBits}
