package sim

import (
	"github.com/hdlgen/hdlgen/model"
	"github.com/hdlgen/hdlgen/rtl/plan"
)

// conj is the random-conjunction layer as hdlgen_conj_hidden computes it:
// per term the code of its feature compared with its threshold (a ≥ t),
// XOR its polarity; the unit is the AND of its D terms.
type conj struct {
	depth   int
	feature []int
	thresh  []int
	negate  []bool
}

func init() { hiddenLayers.Add(string(model.Conj), newConj) }

func newConj(m *model.Model, _ *plan.Plan) hiddenLayer {
	c := m.Net.(*model.ConjNet)
	return &conj{depth: c.Depth, feature: c.Feature, thresh: c.Threshold, negate: c.Negate}
}

func (h *conj) hidden(in []int, base, lane int) int {
	j := base + lane
	on := true
	for d := j * h.depth; d < (j+1)*h.depth; d++ {
		test := in[h.feature[d]] >= h.thresh[d]
		on = on && test != h.negate[d]
	}
	if on {
		return 1
	}
	return 0
}
