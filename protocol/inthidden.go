package protocol

import (
	"fmt"
	"math/bits"
	"slices"

	"github.com/hdlgen/hdlgen/internal/parallel"
	"github.com/hdlgen/hdlgen/linalg"
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
	order []int64 // level<<32 | feature, sorted
	mask  []uint64
}

func (h *intHidden) scratch() *hiddenScratch {
	return &hiddenScratch{order: make([]int64, h.k), mask: make([]uint64, h.words)}
}

// rowTo writes the N activations clip(s_j, −clip, clip) of one row of K
// levels into dst.
func (h *intHidden) rowTo(dst []int8, lv []int32, sc *hiddenScratch) {
	sweep(h, dst, lv, sc, h.clip)
}

// inputsRowTo writes the N hidden inputs s_j (|s_j| ≤ K, unclipped) of one
// row of K levels into dst.
func (h *intHidden) inputsRowTo(dst []int16, lv []int32, sc *hiddenScratch) {
	sweep(h, dst, lv, sc, h.k)
}

// sweep writes clip(s_j, −c, c) for one row of levels into dst: bit i of
// the mask is (j < v_i), so s_j = K − 2·popcount(mask XOR signs_j); the mask
// only changes at the levels, so the neurons are swept in runs between
// consecutive levels.
func sweep[T int8 | int16](h *intHidden, dst []T, lv []int32, sc *hiddenScratch, c int) {
	k, n := h.k, h.n
	order, mask := sc.order, sc.mask
	for i := range order {
		order[i] = int64(lv[i])<<32 | int64(i)
	}
	slices.Sort(order)
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
			end = min(int(order[p]>>32), n)
		}
		if h.words == 1 {
			m := mask[0]
			for ; j < end; j++ {
				s := k - 2*bits.OnesCount64(m^h.signs[j])
				dst[j] = T(min(max(s, -c), c))
			}
		} else {
			for ; j < end; j++ {
				row := h.signs[j*h.words : (j+1)*h.words]
				cnt := 0
				for w, m := range mask {
					cnt += bits.OnesCount64(m ^ row[w])
				}
				s := k - 2*cnt
				dst[j] = T(min(max(s, -c), c))
			}
		}
		if p == k {
			return
		}
		i := uint32(order[p])
		mask[i/64] &^= 1 << (i % 64)
	}
}

// shiftedRowTo writes the activations of a row whose levels are lv into
// dst, from the hidden inputs s0 of the same row at the levels lv0: where
// v_i moves from v0 to v1 > v0, the neurons v0 ≤ j < v1 see −W_in[j][i]
// instead of +W_in[j][i] (s_j changes by −2·W_in[j][i]), and the other way
// round for v1 < v0. The sums are integers, so this is exactly rowTo's
// result, at the cost of the neurons between the moved levels. buf holds N
// values.
func (h *intHidden) shiftedRowTo(dst []int8, s0 []int16, lv0, lv []int32, buf []int16) {
	copy(buf, s0)
	for i, v1 := range lv {
		v0 := lv0[i]
		if v0 == v1 {
			continue
		}
		sign := int16(-2) // v1 > v0: s_j += −2·w_ji
		lo, hi := int(v0), int(v1)
		if v1 < v0 {
			sign, lo, hi = 2, int(v1), int(v0)
		}
		word, bit := i/64, uint(i%64)
		for j := lo; j < min(hi, h.n); j++ {
			w := 1 - 2*int16(h.signs[j*h.words+word]>>bit&1) // W_in[j][i] = ±1
			buf[j] += sign * w
		}
	}
	linalg.ClipInt16ToInt8(dst[:h.n], buf, h.clip)
}

// forRows calls fn on a split of rows 0…count−1 into at most threads
// consecutive ranges, each on its own goroutine with its own scratch (on the
// calling goroutine when there is one range).
func (h *intHidden) forRows(count, threads int, fn func(lo, hi int, sc *hiddenScratch)) {
	parallel.Ranges(max(1, min(threads, count/64)), count, func(lo, hi int) {
		fn(lo, hi, h.scratch())
	})
}

// matrixTo writes the activations of the rows rows[0], rows[1], … of the
// M×K level matrix lv into dst (len(rows)×N, in that order).
func (h *intHidden) matrixTo(dst []int8, lv []int32, rows []int, threads int) {
	h.forRows(len(rows), threads, func(lo, hi int, sc *hiddenScratch) {
		for p := lo; p < hi; p++ {
			r := rows[p]
			h.rowTo(dst[p*h.n:(p+1)*h.n], lv[r*h.k:(r+1)*h.k], sc)
		}
	})
}

// inputsTo returns the hidden inputs (unclipped) of every row of the M×K
// level matrix lv (M×N, in row order) and writes the activations of the
// rows rows[0], rows[1], … into dst, as matrixTo.
func (h *intHidden) inputsTo(dst []int8, lv []int32, rows []int, threads int) []int16 {
	m := len(lv) / h.k
	s := make([]int16, m*h.n)
	h.forRows(m, threads, func(lo, hi int, sc *hiddenScratch) {
		for r := lo; r < hi; r++ {
			h.inputsRowTo(s[r*h.n:(r+1)*h.n], lv[r*h.k:(r+1)*h.k], sc)
		}
	})
	for p, r := range rows {
		linalg.ClipInt16ToInt8(dst[p*h.n:(p+1)*h.n], s[r*h.n:(r+1)*h.n], h.clip)
	}
	return s
}

// shiftedTo writes the activations of the rows rows[0], rows[1], … at the
// levels lv into dst, from their hidden inputs s0 at the levels lv0 (as
// inputsTo returns them), as matrixTo would.
func (h *intHidden) shiftedTo(dst []int8, s0 []int16, lv0, lv []int32, rows []int, threads int) {
	h.forRows(len(rows), threads, func(lo, hi int, _ *hiddenScratch) {
		buf := make([]int16, h.n)
		for p := lo; p < hi; p++ {
			r := rows[p]
			h.shiftedRowTo(dst[p*h.n:(p+1)*h.n], s0[r*h.n:(r+1)*h.n], lv0[r*h.k:(r+1)*h.k], lv[r*h.k:(r+1)*h.k], buf)
		}
	})
}

// normalizedLevels is the density encoder's level of every normalised value
// of xn (N levels).
func normalizedLevels(xn []float64, n int) []int32 {
	lv := make([]int32, len(xn))
	for i, v := range xn {
		lv[i] = int32(model.Level(v, n))
	}
	return lv
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
