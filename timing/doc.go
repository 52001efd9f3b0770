// Package timing estimates the clock frequency a synthesised design reaches
// on the target without vendor tools: a static timing analysis of the Yosys
// netlist (package synth) with a documented delay model of the 7-series −1
// fabric (Zynq7Minus1).
//
// Analyze walks every register-to-register path of the flattened netlist:
// a path starts at a clock-to-output (flip-flop Q, SRL Q, block-RAM DO,
// DSP48E1 P through its internal registers), passes LUTs, MUXF7/F8, CARRY4
// arcs and unregistered DSP48E1 arcs, with a routed-net delay between cells,
// and ends at a setup check (flip-flop D/CE/SR, block-RAM address/enable,
// DSP48E1 registered inputs). The worst path gives PeriodNS and FmaxMHz.
// Paths from the top-level inputs or to the top-level outputs are left out.
//
// The model: cell delays from Project X-Ray's timing database of the
// Zynq-7000 (Vivado's own numbers for the −1 speed grade, slow corner), DSP48E1
// arcs from Yosys's cell library (same database), and a stated rule for
// routing: a net costs one routing segment to a neighbouring tile plus one
// per doubling of its loads (slice control pins CE/SR count once per 8
// flip-flops), each segment the mean delay of the interconnect tile's
// programmable switches. Dedicated connections (carry chain, MUXF7/F8, DSP
// cascade, a LUT into its own slice's carry or flip-flop) cost no routing.
// docs/timing.md states every coefficient with its source and what the model
// leaves out (placement, congestion, clock skew and uncertainty): it is an
// estimate, not a sign-off.
//
// Units: nanoseconds and megahertz. Determinism: the same netlist and model
// give the same report (ties between equal paths go to the first endpoint in
// cell-name order).
package timing
