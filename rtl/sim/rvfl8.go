package sim

import (
	"github.com/hdlgen/hdlgen/model"
	"github.com/hdlgen/hdlgen/rtl/plan"
)

// rvfl8 is the 8-bit RVFL hidden layer as hdlgen_rvfl8_hidden computes it.
type rvfl8 struct {
	k    int
	win  []int8  // N×K
	bias []int8  // N
	lut  []uint8 // 256
}

func init() { hiddenLayers.Add(string(model.RVFL8), newRvfl8) }

func newRvfl8(m *model.Model, pl *plan.Plan) hiddenLayer {
	net := m.Net.(*model.FixedNet)
	return &rvfl8{k: pl.K, win: net.Win, bias: net.Bias, lut: net.LUT}
}

func (h *rvfl8) hidden(in []int, base, lane int) int {
	j := base + lane
	z := int32(h.bias[j]) << model.BiasShift
	w := h.win[j*h.k : (j+1)*h.k]
	for i, a := range in {
		z += int32(a) * int32(w[i])
	}
	t := min(max(z>>model.LUTAddrShift, -128), 127)
	return int(h.lut[t+128])
}
