package ridge

import (
	"fmt"
	"math"
)

// Method selects how the ridge system is solved.
type Method int

const (
	// Exact solves the system by Cholesky factorisation, in the primal or
	// the dual form (the zero value, so the default).
	Exact Method = iota
	// PinvCutoff reproduces the authors' code (torchhd's ridge_regression,
	// the GLVQ-RVFL repository): W_outᵀ = pinv(HᵀH + λR)·HᵀY on the primal
	// n×n system, with the singular values at or below RTol·σ_max treated
	// as zero. The cutoff is a strong, data-dependent extra regulariser.
	PinvCutoff
)

// String returns "exact" or "pinv-cutoff".
func (m Method) String() string {
	switch m {
	case Exact:
		return "exact"
	case PinvCutoff:
		return "pinv-cutoff"
	}
	return fmt.Sprintf("Method(%d)", int(m))
}

// ParseMethod parses the names String returns.
func ParseMethod(s string) (Method, error) {
	switch s {
	case "exact":
		return Exact, nil
	case "pinv-cutoff":
		return PinvCutoff, nil
	}
	return 0, fmt.Errorf("ridge: unknown solver %q (want \"exact\" or \"pinv-cutoff\")", s)
}

// Float32Eps is 2⁻²³, the machine epsilon of float32.
const Float32Eps = 0x1p-23

// DefaultRTol returns n·2⁻²³: torch.linalg.pinv's (and scipy.linalg.pinv's)
// default relative tolerance for an n×n float32 matrix, max(rows, cols)
// times the dtype's epsilon.
func DefaultRTol(n int) float64 { return float64(n) * Float32Eps }

// rtol returns the relative tolerance of an n×n system.
func (s Solver) rtol(n int) float64 {
	if s.RTol == 0 {
		return DefaultRTol(n)
	}
	return s.RTol
}

// checkMethod validates the method and its tolerance.
func (s Solver) checkMethod() error {
	switch s.Method {
	case Exact, PinvCutoff:
	default:
		return fmt.Errorf("ridge: invalid solver method %d", int(s.Method))
	}
	if !(s.RTol >= 0) || math.IsInf(s.RTol, 1) {
		return fmt.Errorf("ridge: relative tolerance %v, want a finite value ≥ 0 (0: the default n·2⁻²³)", s.RTol)
	}
	return nil
}
