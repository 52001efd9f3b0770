// Package sim is the golden, cycle-accurate Go model of the designs rtl emits. It
// holds the same registers as the Verilog — the input register and group counter
// of hdlgen_issue, every pipeline stage between issue and the accumulators, the
// accumulators, the argmax pipeline, the output register, the AXI4-Stream
// wrapper's deserialiser and beat counters, and the Zynq system top's framing,
// record queue, record serialiser, register file, AXI4-Lite channels and readout
// banks (System) — and steps them one rising edge at a time with the same enables,
// so its outputs and cycle numbers are those the RTL must produce
// (docs/rtl-interface.md §6 defines the driver used here and in the testbenches;
// docs/system-interface.md the system's, RunSystem).
//
// Values: a group's contribution to the scores (Σ over its P lanes of Q[l][j]·h_j)
// is computed with the RTL's arithmetic (intrvfl: thermometer bit (v_i − g·P > p)
// XOR sign, K − 2·popcount, clip; rvfl8: exact 8×8 products, >>> 11, saturation,
// sigmoid LUT) when the group is issued and then carried through the pipeline
// stages: every register between issue and the accumulators holds a pure function
// of the group it carries, so computing the value early changes nothing observable,
// while the stage-by-stage valid bits and the stall are modelled exactly.
//
// Units: cycles count rising edges after reset (cycle 0 is the first edge with
// rst_ni = 1); scores are exact integers (int64); inputs are levels 0…N (intrvfl)
// or 8-bit codes (rvfl8), one int per feature.
//
// Invariants (tested): scores equal model.IntScores for every input; the latency of
// an unstalled vector, from its transfer, equals plan.Plan.AcceptLatency (AxisLatency
// for the wrapper); from its offer to an idle pipeline, plan.Plan.Latency.
package sim
