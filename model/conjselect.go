package model

import (
	"cmp"
	"slices"
)

// MaxSelect is the largest Config.Select: candidates per unit.
const MaxSelect = 64

// ConjSelect is the candidates per unit of the race's chosen conjunctions
// (the member conj+sel4): 4 gained 0.24 points over the drawn conj on the
// collection's screening, 1.0 on the datasets of at least 1,000 rows, and
// 16 chose worse than 4 (results/family-check/README.md, "Chosen
// conjunctions").
const ConjSelect = 4

// fitConjNet is the conj with chosen units (docs/semantics.md §3c.2): it
// draws M·(N−1) candidate units of depth D from the seed, as NewConjNet
// draws a layer of that many units, scores each by the correlation ratio
// of its 0/1 values on the training rows with the class,
//
//	η² = Σ_c n_c·(p_c − p)² / (n·p·(1 − p)),
//
// p_c the share of class c's n_c rows on which the unit is on and p the
// share of all n rows (0 for a unit that is on everywhere or nowhere), and
// keeps the N−1 highest (ties: the earlier candidate) in candidate order,
// then the constant unit. The layer is a conj like any other: model.json
// stores its terms, and the RTL and the simulator read them.
func fitConjNet(k int, c Config, xnorm []float64, y []int, l int) Network {
	n, depth, m := c.N, c.Kappa, c.Select
	cands := NewConjNet(k, (n-1)*m+1, depth, c.Seed)
	units := n - 1
	score := conjScores(cands, units*m, xnorm, y, l)
	order := make([]int, units*m)
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(score[b], score[a]) })
	kept := order[:units]
	slices.Sort(kept)
	out := newConjTerms(k, n, depth, cands.CodeMax)
	for j, u := range kept {
		copy(out.Feature[j*depth:(j+1)*depth], cands.Feature[u*depth:(u+1)*depth])
		copy(out.Threshold[j*depth:(j+1)*depth], cands.Threshold[u*depth:(u+1)*depth])
		copy(out.Negate[j*depth:(j+1)*depth], cands.Negate[u*depth:(u+1)*depth])
	}
	return out // unit N−1 keeps newConjTerms's terms: the constant unit
}

// conjScores is the correlation ratio η² of the first units of c with the
// class over the rows xnorm (labels y in [0, l)).
func conjScores(c *ConjNet, units int, xnorm []float64, y []int, l int) []float64 {
	rows := len(y)
	classRows := make([]float64, l)
	for _, v := range y {
		classRows[v]++
	}
	// on[u·l + class]: the rows of the class on which unit u is on.
	on := make([]float64, units*l)
	codes := make([]int, c.K)
	for r := 0; r < rows; r++ {
		c.InputsTo(codes, xnorm[r*c.K:(r+1)*c.K])
		for u := 0; u < units; u++ {
			if c.UnitTo(u, codes) == 1 {
				on[u*l+y[r]]++
			}
		}
	}
	score := make([]float64, units)
	for u := range score {
		total := 0.0
		for _, v := range on[u*l : (u+1)*l] {
			total += v
		}
		p := total / float64(rows)
		if total == 0 || total == float64(rows) {
			continue
		}
		s := 0.0
		for class, v := range on[u*l : (u+1)*l] {
			if classRows[class] > 0 {
				d := v/classRows[class] - p
				s += classRows[class] * d * d
			}
		}
		score[u] = s / (float64(rows) * p * (1 - p))
	}
	return score
}
