// Package hwstudy runs the hardware studies that need real synthesis runs:
//
//   - Calibrate: emits hwstudy.CalibrationMatrix (random-weight models of both
//     networks, small to the paper's median network and N = 4096, P = 1…64
//     including the sizer's non-powers of two 3, 6, 12, 24)
//     plus extra seeds of three shapes, and the range sections (range and
//     range-edges: the N, P, K and L the build report reads estimates over),
//     synthesises each with Yosys
//     (package synth, cached; CalibrateOptions.Sections redoes some sections
//     and keeps the other rows), and compares power.Analytic with Yosys
//     resource by resource; it writes calibration.{md,json}, with the
//     measured error bands (Calibration.MeasureBands) that power's
//     band_table.go is generated from (TestBandTable).
//   - FitLUTFactors: fits the analytic model's per-block LUT factors and its
//     few-groups α to a calibration (minimax relative error with a weak pull
//     towards 1, a linear program per α of a grid); the factors in package
//     power are this fit of results/hardware/calibration.json's rows but
//     the held-out sections' (Calibration.FitRows, TestLUTFactorsAreTheFit).
//   - MedianTable: the paper's median-network comparison (K=16, N=512, L=4):
//     trains an intRVFL (κ=3, 5-bit readout) and an 8-bit fixed-point RVFL on
//     pendigits restricted to digits 0–3, emits both for several P,
//     synthesises them and tabulates resources, cycles, power and energy per
//     classification, with the ratios next to the paper's 11× and 2.5×, both
//     at the same P and at (nearly) equal LUT area; it writes median.{md,json}.
//
// Units: energies in joules, power in watts, latency in cycles and seconds at
// the power.Params clock. Determinism: the same inputs give the same tables
// (the models are seeded; Yosys runs are deterministic for identical RTL), apart
// from the recorded wall-clock times and dates.
package hwstudy
