package model

import (
	"fmt"
	"math/bits"
	"strings"
)

// SignMatrix is the intRVFL's bipolar N×K input matrix packed one neuron per row:
// bit i of row j is 1 when W_in[j][i] = −1 and 0 when it is +1.
type SignMatrix struct {
	rows, cols int
	words      int      // 64-bit words per row
	bits       []uint64 // rows×words
}

// NewSignMatrix returns an all-(+1) n×k matrix.
func NewSignMatrix(n, k int) *SignMatrix {
	if n <= 0 || k <= 0 {
		panic(fmt.Sprintf("model: sign matrix of %d×%d", n, k))
	}
	w := (k + 63) / 64
	return &SignMatrix{rows: n, cols: k, words: w, bits: make([]uint64, n*w)}
}

// Dims returns the number of neurons (rows) and features (columns).
func (s *SignMatrix) Dims() (n, k int) { return s.rows, s.cols }

// Negative reports whether W_in[j][i] = −1.
func (s *SignMatrix) Negative(j, i int) bool {
	return s.bits[j*s.words+i/64]>>(i%64)&1 == 1
}

// Weight returns W_in[j][i] as ±1.
func (s *SignMatrix) Weight(j, i int) int {
	if s.Negative(j, i) {
		return -1
	}
	return 1
}

// SetNegative sets W_in[j][i] to −1 (neg) or +1.
func (s *SignMatrix) SetNegative(j, i int, neg bool) {
	m := uint64(1) << (i % 64)
	if neg {
		s.bits[j*s.words+i/64] |= m
	} else {
		s.bits[j*s.words+i/64] &^= m
	}
}

// Row returns the packed words of neuron j (shared, do not modify).
func (s *SignMatrix) Row(j int) []uint64 { return s.bits[j*s.words : (j+1)*s.words] }

// HexRow renders neuron j's K sign bits as a big-endian hex string of ⌈K/4⌉ digits:
// the integer Σ_i bit_i·2^i, so feature 0 is the least significant bit of the last
// digit. This is also the word format of the emitted W_in ROM (.mem) for P = 1.
func (s *SignMatrix) HexRow(j int) string {
	digits := (s.cols + 3) / 4
	var b strings.Builder
	b.Grow(digits)
	for d := digits - 1; d >= 0; d-- {
		v := 0
		for t := 0; t < 4; t++ {
			if i := 4*d + t; i < s.cols && s.Negative(j, i) {
				v |= 1 << t
			}
		}
		b.WriteByte("0123456789abcdef"[v])
	}
	return b.String()
}

// ParseSignRows builds an n×k matrix from hex rows as written by HexRow. Digits
// beyond bit k−1 must be zero.
func ParseSignRows(rows []string, k int) (*SignMatrix, error) {
	if len(rows) == 0 {
		return nil, fmt.Errorf("no rows")
	}
	if k <= 0 {
		return nil, fmt.Errorf("feature count %d", k)
	}
	s := NewSignMatrix(len(rows), k)
	digits := (k + 3) / 4
	for j, r := range rows {
		if len(r) != digits {
			return nil, fmt.Errorf("row %d: %d hex digits, want %d for %d features", j, len(r), digits, k)
		}
		for p := 0; p < digits; p++ {
			c := r[p]
			var v int
			switch {
			case c >= '0' && c <= '9':
				v = int(c - '0')
			case c >= 'a' && c <= 'f':
				v = int(c-'a') + 10
			case c >= 'A' && c <= 'F':
				v = int(c-'A') + 10
			default:
				return nil, fmt.Errorf("row %d: %q is not a hex digit", j, c)
			}
			d := digits - 1 - p
			for t := 0; t < 4; t++ {
				if v>>t&1 == 0 {
					continue
				}
				i := 4*d + t
				if i >= k {
					return nil, fmt.Errorf("row %d: bit %d set beyond the %d features", j, i, k)
				}
				s.SetNegative(j, i, true)
			}
		}
	}
	return s, nil
}

// popcountXor returns popcount(a XOR b) over equal-length word slices.
func popcountXor(a, b []uint64) int {
	n := 0
	for w := range a {
		n += bits.OnesCount64(a[w] ^ b[w])
	}
	return n
}

// MulInts writes dst[j] = Σ_i W[j][i]·x[i] for every row j (len(dst) rows,
// len(x) = the matrix's columns). It works on the bit planes of x − min(x):
// Σ_i W[j][i]·x[i] = Σ_i x[i] − 2·Σ_{i: W[j][i] = −1} x[i], and the second
// sum is Σ_b 2^b·popcount(row_j AND plane_b) + min(x)·popcount(row_j), so a
// row costs (planes + 1)·⌈K/64⌉ word operations instead of K. It suits
// small-range integers such as clipped activations (a range of r needs
// ⌈log2(r+1)⌉ planes); the result is exact for any int values.
func (s *SignMatrix) MulInts(dst, x []int) {
	if len(x) != s.cols || len(dst) > s.rows {
		panic(fmt.Sprintf("model: MulInts of a %d×%d sign matrix with %d values into %d", s.rows, s.cols, len(x), len(dst)))
	}
	lo, hi, total := x[0], x[0], 0
	for _, v := range x {
		lo, hi, total = min(lo, v), max(hi, v), total+v
	}
	nplanes := bits.Len64(uint64(hi - lo))
	planes := make([]uint64, nplanes*s.words)
	for i, v := range x {
		u := uint64(v - lo)
		for b := 0; u != 0; b, u = b+1, u>>1 {
			planes[b*s.words+i/64] |= (u & 1) << (i % 64)
		}
	}
	last := ^uint64(0)
	if r := s.cols % 64; r != 0 {
		last = 1<<r - 1
	}
	for j := range dst {
		row := s.Row(j)
		negatives := 0
		for w, v := range row {
			if w == s.words-1 {
				v &= last
			}
			negatives += bits.OnesCount64(v)
		}
		neg := lo * negatives
		for b := 0; b < nplanes; b++ {
			plane := planes[b*s.words : (b+1)*s.words]
			c := 0
			for w, v := range row {
				c += bits.OnesCount64(v & plane[w])
			}
			neg += c << b
		}
		dst[j] = total - 2*neg
	}
}
