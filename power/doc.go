// Package power estimates the energy per classification of an emitted
// intRVFL or 8-bit fixed-point RVFL design on the Zynq-7020
// (xc7z020clg484-1), predicts its FPGA resources without synthesis, and
// sizes networks to an energy budget. docs/energy-model.md states the model
// with the source of every number.
//
// Parts:
//
//   - energy.go: Evaluate turns resource counts (from a Yosys report or from
//     Analytic), the clock and the toggle rate into dynamic power (logic and
//     clock), PL-static power and the three energies per classification:
//     dynamic, PL static and their total. DefaultCoefficients are the
//     per-resource coefficients, a stated, calibrated assumption (Xilinx
//     publishes none).
//   - analytic.go, arith.go, rom.go: Analytic, the analytic resource model.
//     FF, CARRY4, DSP48E1 and block-RAM counts are derived from the design's
//     structure as Yosys 0.23 maps it (register bits it keeps, carry chains of
//     its adders and comparisons, memory_libmap's ROM placement); LUT counts
//     are structural counts times per-block factors fitted to Yosys.
//     hwstudy.Calibrate compares the model with Yosys over
//     hwstudy.CalibrationMatrix; hwstudy.Claimed holds the tolerances.
//   - structure.go: the widths and exact latency of a design without a
//     model, so that the sizer can evaluate about 10⁵ designs per shape
//     quickly: the hidden layer's widths from rtl/plan's own rule
//     (plan.HiddenWidths), the shared pipeline by the plan's rules.
//   - size.go: Size, the largest N (and its best P) whose budgeted energy fits
//     a budget, among the designs that fit the device.
//   - units.go: parsing and formatting of energies and powers.
//
// Units: power in watts, energy in joules, time in seconds, clock in hertz,
// toggle rate as a fraction of cycles (0.125 = 12.5 %). Coefficients are
// watts at the reference point 100 MHz and 12.5 % toggle (clock terms at
// 100 MHz); data terms scale with clock × toggle, block-RAM reads and clock
// terms with the clock only. Resources are cell counts: LUT = occupied LUT6
// sites (Yosys's estimated_num_lc), LUTRAM = LUTs used as distributed RAM or
// shift registers, MUXF = MUXF7 + MUXF8, BRAM36 = RAMB36E1 + ½·RAMB18E1.
// Latency is in cycles of the stream top (rtl/plan's Latency), converted to
// seconds at the clock.
//
// Invariants:
//   - every function is deterministic: the same design and parameters give
//     the same numbers, independent of GOMAXPROCS;
//   - the dynamic energy per classification does not depend on the clock
//     (power ∝ f, latency ∝ 1/f), the PL-static energy falls as 1/f
//     (TestEvaluate);
//   - newStructure agrees with plan.New on every width and on the latency
//     (TestStructureMatchesPlan);
//   - the analytic model's CARRY4, DSP48E1 and block-RAM counts are exact and
//     its FF counts within a few per cent over the calibration matrix; its LUT
//     counts are within hwstudy.Claimed (results/hardware/calibration.md;
//     TestCommittedCalibration in hwstudy re-derives it);
//   - Size is monotone: a larger budget never gives a smaller N
//     (TestSizeMonotone), and every answer fits its budget and the device.
package power
