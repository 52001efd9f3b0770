package model

import "fmt"

// WinGen names where an intRVFL's W_in signs come from (docs/semantics.md §3a).
type WinGen string

// The W_in sources.
const (
	// WinStored (the zero value) draws W_in from the PCG weight stream
	// (docs/semantics.md §2); the RTL reads it from a ROM.
	WinStored WinGen = ""
	// WinPRBS31 takes W_in from one PRBS31 bit sequence (the Fibonacci LFSR
	// of x^31 + x^28 + 1), neuron j's row being the window x_j … x_{j+K−1};
	// the RTL generates it on chip (hdlgen_win_lfsr) and needs no W_in ROM.
	WinPRBS31 WinGen = "prbs31"
)

// ParseWinGen reads a --win flag value: "stored" (or "") and "lfsr" (or
// "prbs31", its model.json name).
func ParseWinGen(s string) (WinGen, error) {
	switch s {
	case "", "stored":
		return WinStored, nil
	case "lfsr", string(WinPRBS31):
		return WinPRBS31, nil
	}
	return "", fmt.Errorf("unknown W_in source %q (want stored or lfsr)", s)
}

// Flag is the --win flag value of g: "stored" or "lfsr".
func (g WinGen) Flag() string {
	if g == WinPRBS31 {
		return "lfsr"
	}
	return "stored"
}

// PRBS31 constants: the sequence x_t = x_{t−PRBSTap} XOR x_{t−PRBSLen} for
// t ≥ PRBSLen (the primitive trinomial x^31 + x^28 + 1, period 2^31 − 1).
const (
	PRBSLen = 31
	PRBSTap = 28
)

// PRBSSeed is the PRBS31 seed of a model seed: bit t of the result is x_t
// (t = 0…30). It is the first nonzero value of u >> 33 over the draws u of
// the model's PCG weight stream (docs/semantics.md §2), so it is never zero
// (a zero state would give the all-zero sequence).
func PRBSSeed(seed uint64) uint32 {
	src := newWeightSource(seed)
	for {
		if v := uint32(src.pcg.Uint64() >> 33); v != 0 {
			return v
		}
	}
}

// PRBSBits returns x_0 … x_{n−1} of the PRBS31 sequence that starts with the
// 31 bits of seed (bit t of seed is x_t), packed LSB first: x_t is bit t%64
// of word t/64. One spare zero word follows, so windows can be read with
// two-word shifts.
func PRBSBits(seed uint32, n int) []uint64 {
	if seed == 0 || seed>>PRBSLen != 0 {
		panic(fmt.Sprintf("model: PRBS31 seed %#x, want a nonzero 31-bit value", seed))
	}
	out := make([]uint64, (n+63)/64+1)
	get := func(t int) uint64 { return out[t/64] >> (t % 64) & 1 }
	for t := 0; t < n; t++ {
		var x uint64
		if t < PRBSLen {
			x = uint64(seed) >> t & 1
		} else {
			x = get(t-PRBSTap) ^ get(t-PRBSLen)
		}
		out[t/64] |= x << (t % 64)
	}
	return out
}

// PRBSWindow returns the width ≤ 64 bits x_at … x_{at+width−1} of a sequence
// packed by PRBSBits (x_at in bit 0).
func PRBSWindow(bits []uint64, at, width int) uint64 {
	w, sh := at/64, at%64
	v := bits[w] >> sh
	if sh != 0 && w+1 < len(bits) {
		v |= bits[w+1] << (64 - sh)
	}
	if width < 64 {
		v &= 1<<width - 1
	}
	return v
}

// PRBSSigns returns the n×k W_in of the PRBS31 generator from seed: row j,
// column i is −1 (bit 1) when x_{j+i} = 1, +1 otherwise (a Toeplitz matrix:
// each row is the previous one shifted by one bit of the sequence).
func PRBSSigns(seed uint32, n, k int) *SignMatrix {
	bits := PRBSBits(seed, n+k-1)
	s := NewSignMatrix(n, k)
	for j := 0; j < n; j++ {
		row := s.Row(j)
		for w := range row {
			row[w] = PRBSWindow(bits, j+64*w, min(64, k-64*w))
		}
	}
	return s
}

// NewIntNetGen draws an intRVFL's hidden layer with W_in from gen: WinStored
// is NewIntNet, WinPRBS31 the PRBS31 rows of PRBSSeed(seed).
func NewIntNetGen(k, n, kappa int, seed uint64, gen WinGen) *IntNet {
	switch gen {
	case WinStored:
		return NewIntNet(k, n, kappa, seed)
	case WinPRBS31:
		if k <= 0 || n <= 0 || kappa <= 0 {
			panic(fmt.Sprintf("model: intRVFL with K=%d N=%d κ=%d", k, n, kappa))
		}
		ps := PRBSSeed(seed)
		return &IntNet{K: k, N: n, Kappa: kappa, Signs: PRBSSigns(ps, n, k), Gen: WinPRBS31, PRBSSeed: ps}
	}
	panic(fmt.Sprintf("model: unknown W_in source %q", gen))
}
