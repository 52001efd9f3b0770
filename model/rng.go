package model

import "math/rand/v2"

// weightStream is the PCG stream constant for W_in and b ("hdlgen" + 0001);
// see docs/semantics.md §2.
const weightStream = 0x68646c67656e0001

// weightSource is the random source of a network's fixed weights. Only Uint64 of
// the PCG is used; floats are derived here so their algorithm is ours.
type weightSource struct{ pcg *rand.PCG }

func newWeightSource(seed uint64) weightSource {
	return weightSource{pcg: rand.NewPCG(seed, weightStream)}
}

// unit returns a uniform float64 in [0, 1) with 53 random bits.
func (s weightSource) unit() float64 {
	return float64(s.pcg.Uint64()>>11) * (1.0 / (1 << 53))
}

// uniform returns a uniform float64 in [lo, hi).
func (s weightSource) uniform(lo, hi float64) float64 {
	return lo + (hi-lo)*s.unit()
}
