package model

import (
	"math/bits"
	"runtime"

	"github.com/hdlgen/hdlgen/internal/parallel"
)

// BatchPredictor classifies many rows with an intRVFL's integer readout,
// bit-identical to Model.Predict, several times faster. Per row, the hidden
// layer is the hardware's: the K thermometer bits of neuron j are one word
// (features whose level v_i > j), XORed with the neuron's sign word and
// counted with one popcount, the features leaving the word in level order.
// The readout is folded into per-neuron tables: for a mismatch count c the
// neuron contributes Q[l][j]·clip(K − 2c, −κ, κ) to score l, and these L
// contributions (offset by κ·B to be non-negative) are packed side by side
// into W-bit lanes of 64-bit words (SWAR), so a neuron costs one table load
// and one add per word instead of L multiply-adds. W is the width of
// N·2κB, so no lane overflows into the next and each score is exact.
type BatchPredictor struct {
	m       *Model
	net     *IntNet
	l       int
	width   uint     // W, bits per lane
	perWord int      // lanes per 64-bit word
	words   int      // words per score vector
	table   []uint64 // [j][c][word]: N×(K+1)×words
}

// NewBatchPredictor returns a batch predictor for m, or nil when m is not an
// intRVFL with an integer readout and at most 64 features (Model.Predict
// then remains the way).
func NewBatchPredictor(m *Model) *BatchPredictor {
	net, ok := m.Net.(*IntNet)
	if !ok || m.Readout == nil || net.K > 64 || m.L() < 1 {
		return nil
	}
	k, n, l := net.K, net.N, m.L()
	off := int64(net.Kappa) * int64(m.Readout.Bound) // max |Q·h|
	width := uint(bits.Len64(uint64(int64(n) * 2 * off)))
	if width == 0 {
		width = 1
	}
	if width > 32 {
		return nil
	}
	b := &BatchPredictor{m: m, net: net, l: l, width: width, perWord: 64 / int(width)}
	b.words = (l + b.perWord - 1) / b.perWord
	b.table = make([]uint64, n*(k+1)*b.words)
	q := m.Readout.Q
	for j := 0; j < n; j++ {
		for c := 0; c <= k; c++ {
			h := int64(Clip(k-2*c, net.Kappa))
			e := b.table[(j*(k+1)+c)*b.words:][:b.words]
			for cl := 0; cl < l; cl++ {
				v := uint64(int64(q[cl*n+j])*h + off)
				e[cl/b.perWord] |= v << (uint(cl%b.perWord) * width)
			}
		}
	}
	return b
}

// Predict classifies rows raw rows of K features (row-major in x) into dst,
// with up to workers goroutines (≤ 0: GOMAXPROCS).
func (b *BatchPredictor) Predict(dst []int, x []float64, rows, workers int) {
	k := b.net.K
	if len(dst) < rows || len(x) < rows*k {
		panic("model: BatchPredictor.Predict: short dst or x")
	}
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	const chunk = 1024 // rows per task
	parallel.For(workers, (rows+chunk-1)/chunk, func(_, c int) {
		b.predictRange(dst, x, c*chunk, min((c+1)*chunk, rows))
	})
}

// predictRange classifies rows [from, to).
func (b *BatchPredictor) predictRange(dst []int, x []float64, from, to int) {
	net := b.net
	k, n, words := net.K, net.N, b.words
	xn := make([]float64, k)
	lv := make([]int, k)
	order := make([]int, k) // features by ascending level
	acc := make([]uint64, words)
	signs := net.Signs.bits[:n] // one word per neuron (K ≤ 64)
	all := uint64(1)<<uint(k) - 1
	if k == 64 {
		all = ^uint64(0)
	}
	stride := (k + 1) * words
	for r := from; r < to; r++ {
		b.m.Norm.ApplyTo(xn, x[r*k:(r+1)*k])
		net.LevelsTo(lv, xn)
		for i := range order { // insertion sort: K is small
			order[i] = i
			for p := i; p > 0 && lv[order[p-1]] > lv[i]; p-- {
				order[p], order[p-1] = order[p-1], order[p]
			}
		}
		clear(acc)
		// The mask is constant between two features' levels: neuron j sees
		// the features with v_i > j.
		mask, j, p := all, 0, 0
		for j < n {
			for p < k && lv[order[p]] <= j {
				mask &^= 1 << uint(order[p])
				p++
			}
			end := n
			if p < k {
				end = min(lv[order[p]], n)
			}
			if words == 1 {
				acc[0] = sumScores(acc[0], mask, signs[j:end], b.table[j*stride:end*stride], stride)
			} else {
				for jj := j; jj < end; jj++ {
					e := b.table[jj*stride+bits.OnesCount64(mask^signs[jj])*words:][:words]
					for w, v := range e {
						acc[w] += v
					}
				}
			}
			j = end
		}
		dst[r] = b.argmax(acc)
	}
}

// sumScores adds to a the packed scores of the neurons whose sign words are
// signs, all seeing the thermometer word mask; tbl holds their tables (stride
// words apart). A leaf, so that the loop keeps its values in registers.
func sumScores(a, mask uint64, signs, tbl []uint64, stride int) uint64 {
	for i, sg := range signs {
		a += tbl[i*stride+bits.OnesCount64(mask^sg)]
	}
	return a
}

// argmax returns the class of the largest packed score, the lowest on ties
// (the lanes share one offset, so comparing them compares the scores).
func (b *BatchPredictor) argmax(acc []uint64) int {
	lane := uint64(1)<<b.width - 1
	best, bestV := 0, uint64(0)
	for cl := 0; cl < b.l; cl++ {
		v := acc[cl/b.perWord] >> (uint(cl%b.perWord) * b.width) & lane
		if cl == 0 || v > bestV {
			best, bestV = cl, v
		}
	}
	return best
}
