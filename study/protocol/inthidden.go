package protocol

import (
	"fmt"
	"math/bits"
	"slices"
	"sync"

	"github.com/hdlgen/hdlgen/model"
)

// intHidden computes the intRVFL's clipped hidden activations of rows given
// by their input levels, with model.IntNet's method — the thermometer masks
// swept in level order, one XOR and popcount per neuron — into int8, the
// type of the exact Gram kernel (linalg.GramInt8). The values equal
// model.IntNet.HiddenTo's (TestIntHiddenMatchesModel).
type intHidden struct {
	k, n, words int
	clip        int      // clip threshold min(κ, K) ≤ 127
	signs       []uint64 // n×words: bit i of neuron j is 1 when W_in[j][i] = −1
}

// newIntHidden copies the sign matrix of net for activations clipped at
// clip (≤ 127, so that they fit int8 without −128).
func newIntHidden(net *model.IntNet, clip int) *intHidden {
	if clip < 1 || clip > 127 {
		panic(fmt.Sprintf("protocol: int8 hidden layer with clip %d", clip))
	}
	h := &intHidden{k: net.K, n: net.N, words: (net.K + 63) / 64, clip: clip}
	h.signs = make([]uint64, 0, net.N*h.words)
	for j := 0; j < net.N; j++ {
		h.signs = append(h.signs, net.Signs.Row(j)...)
	}
	return h
}

// hiddenScratch is the per-goroutine working memory of intHidden.rowTo.
type hiddenScratch struct {
	order []int32
	mask  []uint64
}

func (h *intHidden) scratch() *hiddenScratch {
	return &hiddenScratch{order: make([]int32, h.k), mask: make([]uint64, h.words)}
}

// rowTo writes the N activations clip(s_j, −clip, clip) of one row of K
// levels into dst: bit i of the mask is (j < v_i), so s_j = K − 2·popcount(mask
// XOR signs_j); the mask only changes at the levels, so the neurons are
// swept in runs between consecutive levels.
func (h *intHidden) rowTo(dst []int8, lv []int32, sc *hiddenScratch) {
	k, n, c := h.k, h.n, h.clip
	order, mask := sc.order, sc.mask
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortFunc(order, func(a, b int32) int { return int(lv[a] - lv[b]) })
	for w := range mask {
		mask[w] = ^uint64(0)
	}
	if r := k % 64; r != 0 {
		mask[h.words-1] = 1<<r - 1
	}
	j := 0
	for p := 0; ; p++ {
		end := n
		if p < k {
			end = min(int(lv[order[p]]), n)
		}
		if h.words == 1 {
			m := mask[0]
			for ; j < end; j++ {
				s := k - 2*bits.OnesCount64(m^h.signs[j])
				dst[j] = int8(min(max(s, -c), c))
			}
		} else {
			for ; j < end; j++ {
				row := h.signs[j*h.words : (j+1)*h.words]
				cnt := 0
				for w, m := range mask {
					cnt += bits.OnesCount64(m ^ row[w])
				}
				s := k - 2*cnt
				dst[j] = int8(min(max(s, -c), c))
			}
		}
		if p == k {
			return
		}
		i := order[p]
		mask[i/64] &^= 1 << (i % 64)
	}
}

// matrixTo writes the activations of the rows rows[0], rows[1], … of the
// M×K level matrix lv into dst (len(rows)×N, in that order), the rows split
// over threads goroutines.
func (h *intHidden) matrixTo(dst []int8, lv []int32, rows []int, threads int) {
	threads = max(1, min(threads, len(rows)/64))
	if threads == 1 {
		sc := h.scratch()
		for p, r := range rows {
			h.rowTo(dst[p*h.n:(p+1)*h.n], lv[r*h.k:(r+1)*h.k], sc)
		}
		return
	}
	var wg sync.WaitGroup
	for t := 0; t < threads; t++ {
		lo, hi := len(rows)*t/threads, len(rows)*(t+1)/threads
		wg.Add(1)
		go func() {
			defer wg.Done()
			sc := h.scratch()
			for p := lo; p < hi; p++ {
				r := rows[p]
				h.rowTo(dst[p*h.n:(p+1)*h.n], lv[r*h.k:(r+1)*h.k], sc)
			}
		}()
	}
	wg.Wait()
}

// levelsOf returns the M×K input levels v = Level(x', N) of every row of x
// (M×K raw values) under the normaliser nz.
func levelsOf(x []float64, m, k int, nz model.Normalizer, n int) []int32 {
	lv := make([]int32, m*k)
	xn := make([]float64, k)
	for r := 0; r < m; r++ {
		nz.ApplyTo(xn, x[r*k:(r+1)*k])
		for i, v := range xn {
			lv[r*k+i] = int32(model.Level(v, n))
		}
	}
	return lv
}
