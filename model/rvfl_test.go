package model

import (
	"math"
	"testing"
)

func TestFloatHiddenMatrixMatchesRowPath(t *testing.T) {
	d := blobs(50, 7, 3, 3)
	nz := FitNormalizer(d.X, 50, 7)
	xn := nz.Apply(d.X, 50)
	for _, net := range []*FloatNet{
		NewFloatNet(7, 40, 1),
		{K: 7, N: 40, Win: NewFloatNet(7, 40, 2).Win, Bias: NewFloatNet(7, 40, 2).Bias, DirectLinks: true},
		{K: 7, N: 40, Win: NewFloatNet(7, 40, 3).Win, Bias: NewFloatNet(7, 40, 3).Bias, InputLevels: 40},
	} {
		h := net.HiddenMatrix(xn, 50)
		row := make([]float64, net.Columns())
		for r := 0; r < 50; r++ {
			net.FeaturesTo(row, xn[r*7:(r+1)*7])
			for j, v := range row {
				if math.Abs(v-h[r*net.Columns()+j]) > 1e-12 {
					t.Fatalf("row %d col %d: matrix %v, row path %v", r, j, h[r*net.Columns()+j], v)
				}
			}
		}
	}
}
