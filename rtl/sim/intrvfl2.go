package sim

import (
	"slices"
	"sync"

	"github.com/hdlgen/hdlgen/model"
	"github.com/hdlgen/hdlgen/rtl/plan"
)

// intrvfl2 is the two-layer intRVFL as core_intrvfl2 computes it: neuron
// j < N1 is the first layer's h1_j (hdlgen_intrvfl_hidden), neuron j ≥ N1
// the second layer's clip(Σ_i W2[j−N1][i]·h1_i, ±κ2') (hdlgen_intrvfl2_layer2)
// over the first layer's values of the same vector.
type intrvfl2 struct {
	l1    *intrvfl
	n1    int
	clip2 int
	w2    *model.SignMatrix

	mu   sync.Mutex // the last vector's first layer, shared by its groups
	last []int
	h1   []int
}

func init() { hiddenLayers.Add(string(model.IntRVFL2), newIntrvfl2) }

func newIntrvfl2(m *model.Model, pl *plan.Plan) hiddenLayer {
	net := m.Net.(*model.Int2Net)
	l1pl := *pl
	l1pl.N = net.N1()
	return &intrvfl2{l1: newIntrvfl(&model.Model{Net: net.L1}, &l1pl).(*intrvfl),
		n1: net.N1(), clip2: pl.Int2.Clip2, w2: net.W2}
}

// layer1 returns the first layer's N1 values for in (not to be modified).
func (h *intrvfl2) layer1(in []int) []int {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.h1 != nil && slices.Equal(h.last, in) {
		return h.h1
	}
	h1 := make([]int, h.n1)
	for j := range h1 {
		h1[j] = h.l1.hidden(in, 0, j)
	}
	h.last, h.h1 = slices.Clone(in), h1
	return h1
}

func (h *intrvfl2) hidden(in []int, base, lane int) int {
	j := base + lane
	if j < h.n1 {
		return h.l1.hidden(in, base, lane)
	}
	h1 := h.layer1(in)
	s := 0
	for i, v := range h1 {
		if h.w2.Negative(j-h.n1, i) {
			s -= v
		} else {
			s += v
		}
	}
	return min(max(s, -h.clip2), h.clip2)
}
