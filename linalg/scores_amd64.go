//go:build amd64

package linalg

// scoreKernelAVX512 and scoreKernelAVX2 compute, for four rows h0…h3 of n
// values and one panel w of eight classes (n×8), out[r·8+i] = Σ_j
// fl(w[j·8+i]·h_r[j]) added in order of j (VMULPD then VADDPD, no FMA).
//
//go:noescape
func scoreKernelAVX512(n int, h0, h1, h2, h3, w, out *float64)

//go:noescape
func scoreKernelAVX2(n int, h0, h1, h2, h3, w, out *float64)

// scoreKernel returns the score kernel of this CPU, nil for none.
func scoreKernel() scoreKern {
	switch {
	case hasAVX512:
		return scoreKernelAVX512
	case hasAVX2FMA:
		return scoreKernelAVX2
	}
	return nil
}

// scoreKernels lists every score kernel this CPU can run (nil: the Go loop).
func scoreKernels() []scoreKern {
	ks := []scoreKern{nil}
	if hasAVX2FMA {
		ks = append(ks, scoreKernelAVX2)
	}
	if hasAVX512 {
		ks = append(ks, scoreKernelAVX512)
	}
	return ks
}
