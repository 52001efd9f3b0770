package sim

import (
	"github.com/hdlgen/hdlgen/model"
	"github.com/hdlgen/hdlgen/rtl/plan"
)

// intconj is the mixed network as core_intconj computes it: unit j < N1 is
// the intRVFL's neuron (hdlgen_intrvfl_hidden), unit j ≥ N1 the conjunction
// j − N1 over the same levels (hdlgen_conj_hidden).
type intconj struct {
	neurons *intrvfl
	units   *conj
	n1      int
}

func init() { hiddenLayers.Add(string(model.IntConj), newIntconj) }

func newIntconj(m *model.Model, pl *plan.Plan) hiddenLayer {
	net := m.Net.(*model.IntConjNet)
	l1pl := *pl
	l1pl.N = net.N1()
	return &intconj{neurons: newIntrvfl(&model.Model{Net: net.L1}, &l1pl).(*intrvfl),
		units: newConj(&model.Model{Net: net.Units}, nil).(*conj), n1: net.N1()}
}

func (h *intconj) hidden(in []int, base, lane int) int {
	if j := base + lane; j >= h.n1 {
		return h.units.hidden(in, 0, j-h.n1)
	}
	return h.neurons.hidden(in, base, lane)
}
