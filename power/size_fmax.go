package power

import "math"

// Analytic Fmax estimate. The sizer cannot synthesise the thousands of designs
// it compares, so it predicts the clock period that the static timing estimate
// (package timing, docs/timing.md) would give the synthesised design from two
// structural numbers:
//
//   - S, the most adder levels one register-to-register segment of the
//     datapath holds (fmaxLevels): a reduction tree of depth D with a register
//     every R levels has segments of R levels and a last one of D − c·R
//     levels (c its internal registers); the last segment shares its cycle
//     with what follows the tree (the intRVFL's clip, the rvfl8's clamp and
//     sigmoid address, the accumulator), one more level, and the intRVFL's
//     first popcount segment starts with the thermometer XOR leaves, one more;
//   - log2(P): the nets that feed the lanes (thermometer flags, the stall
//     enable) fan out to P loads, and the net delay grows with the log of the
//     fanout.
//
// period = base + FmaxPerLevel·S + FmaxPerDoubling·log2(P) ns, with base the
// network type's intercept (its fmaxBase). The coefficients are least-squares
// fits to the timing estimates of the designs listed in docs/timing.md
// ("Analytic estimate for the sizer") and testdata/fmax_fit.txt, which
// TestFmaxFit refits; docs/timing.md also states the error.
const (
	FmaxPerLevel    = 1.160 // ns per adder level of the longest segment
	FmaxPerDoubling = 0.216 // ns per doubling of P
	// FmaxCalibrationError bounds |analytic − timing estimate| / timing
	// estimate of Fmax over the calibration designs (worst: 15.4 %).
	FmaxCalibrationError = 0.16
)

// fmaxLevels is S, the most adder levels of one register-to-register segment
// (see above).
func fmaxLevels(d Design, st structure) int {
	r := d.adderLevels()
	seg := func(depth, cuts, lead int) int {
		if cuts == 0 {
			return lead + depth + 1
		}
		return max(lead+r, depth-cuts*r+1)
	}
	return max(seg(st.HiddenDepth, st.HiddenCut, d.net().fmaxLead()), seg(st.LaneDepth, st.LaneCut, 0))
}

// AnalyticFmaxMHz is the analytic estimate of the Fmax that the static timing
// model would give design d, in MHz (see the constants above).
func AnalyticFmaxMHz(d Design) float64 { return analyticFmaxMHz(d, newStructure(d)) }

func analyticFmaxMHz(d Design, st structure) float64 {
	period := d.net().fmaxBase() + FmaxPerLevel*float64(fmaxLevels(d, st)) + FmaxPerDoubling*math.Log2(float64(d.P()))
	return 1000 / period
}
