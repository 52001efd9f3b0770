package hwstudy

import (
	"testing"

	"github.com/hdlgen/hdlgen/model"
)

// TestShapeName: the design names that results/hardware's files and folders
// are keyed by.
func TestShapeName(t *testing.T) {
	for _, tc := range []struct {
		s    Shape
		want string
	}{
		{Shape{Arch: model.IntRVFL, K: 16, N: 512, L: 4, Kappa: 3, Bits: 5, P: 8}, "cal_intrvfl_k16_n512_l4_kappa3_b5_p8"},
		{Shape{Arch: model.RVFL8, K: 16, N: 512, L: 4, Bits: 8, P: 1}, "cal_rvfl8_k16_n512_l4_p1"},
		{Shape{Arch: model.IntRVFL, K: 3, N: 20, L: 2, Kappa: 1, Bits: 2, P: 20, AdderLevels: 2}, "cal_intrvfl_k3_n20_l2_kappa1_b2_p20"},
	} {
		if got := tc.s.Name(); got != tc.want {
			t.Errorf("%+v: %q, want %q", tc.s, got, tc.want)
		}
	}
}
