package dataset

import (
	"math/rand/v2"
	"slices"
)

// SampleIndices returns idx itself when it holds at most n entries, else n
// of them drawn at random with seed, in increasing order. A quick check that
// caps its rows uses it rather than the first n: the collection's folds
// list their rows grouped by class, so a prefix can leave whole classes out.
func SampleIndices(idx []int, n int, seed uint64) []int {
	if len(idx) <= n {
		return idx
	}
	s := slices.Clone(idx)
	rand.New(rand.NewPCG(seed, 0x726f7773)).Shuffle(len(s), func(i, j int) { s[i], s[j] = s[j], s[i] })
	s = s[:max(n, 0)]
	slices.Sort(s)
	return s
}
