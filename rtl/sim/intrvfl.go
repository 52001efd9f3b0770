package sim

import (
	"math/bits"

	"github.com/hdlgen/hdlgen/model"
	"github.com/hdlgen/hdlgen/rtl/plan"
)

// intrvfl is the intRVFL hidden layer as hdlgen_intrvfl_hidden computes it.
type intrvfl struct {
	k     int
	clip  int      // κ' = min(κ, K)
	words int      // 64-bit words per neuron's sign row
	signs []uint64 // N×words
}

func init() { hiddenLayers.Add(string(model.IntRVFL), newIntrvfl) }

func newIntrvfl(m *model.Model, pl *plan.Plan) hiddenLayer {
	net := m.Net.(*model.IntNet)
	h := &intrvfl{k: pl.K, clip: pl.ClipBound, words: (pl.K + 63) / 64}
	h.signs = make([]uint64, 0, pl.N*h.words)
	for j := 0; j < pl.N; j++ {
		h.signs = append(h.signs, net.Signs.Row(j)...)
	}
	return h
}

func (h *intrvfl) hidden(in []int, base, lane int) int {
	j := base + lane
	row := h.signs[j*h.words : (j+1)*h.words]
	count := 0
	for w := range row {
		var thermo uint64
		lo := w * 64
		hi := min(lo+64, h.k)
		for i := lo; i < hi; i++ {
			// hdlgen_intrvfl_lane: (d_i > p) with d_i = v_i − base.
			if in[i]-base > lane {
				thermo |= 1 << (i - lo)
			}
		}
		count += bits.OnesCount64(thermo ^ row[w])
	}
	s := h.k - 2*count
	return min(max(s, -h.clip), h.clip)
}
