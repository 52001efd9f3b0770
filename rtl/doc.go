// Package rtl turns a trained intRVFL or 8-bit fixed-point RVFL (model.Model) into a
// synthesizable Verilog-2005 design with everything needed to verify it.
//
// Emit (or Generate, in memory) writes into DIR:
//
//	rtl/hdlgen_*.v         hand-written primitives (rtl/templates), unchanged
//	rtl/<prefix>_core.v    the datapath, from a template
//	rtl/<prefix>_top.v     the valid/ready stream top (docs/rtl-interface.md §3)
//	rtl/<prefix>_axis.v    the AXI4-Stream wrapper (§4), with Options.Axis
//	rtl/<prefix>_system.v  the Zynq system top (docs/system-interface.md), with Options.System:
//	                       AXI4-Stream batches with robust framing, AXI4-Lite registers
//	                       (rtl/regmap), and with Options.ReloadableReadout a two-bank
//	                       readout RAM the host rewrites at run time
//	mem/<prefix>_*.mem     ROM contents ($readmemh): W_in (and biases), readout, sigmoid LUT
//	vectors/               test vectors and expectations (§5), computed by rtl/sim;
//	                       vectors/sys_* the system top's scripted run
//	design.json            the plan (rtl/plan): widths, stages, latency, ROMs, resources
//	model.json             the model
//	tb/, Makefile, vivado/, constraints/   from the testbench and constraints packages
//
// The micro-architecture (rtl/plan computes the numbers, rtl/templates holds the
// modules): hdlgen_issue takes a vector into its input register and issues its
// G = ⌈N/P⌉ groups of P hidden neurons, one per clock, into a pipeline that ends in
// an output register (hdlgen_outreg) held until it is taken:
//
//	A      W_in ROM word g (synchronous read) and the level offsets d_i = v_i − g·P
//	       (intrvfl) or a copy of the input codes (rvfl8)
//	       [rvfl8: the P·K products a_i·w_ji, registered]
//	       the popcount (intrvfl) / pre-activation (rvfl8) trees, a register every
//	       R = 4 adder levels except after the last
//	H      the activations: clip(K − 2·popcount) (intrvfl), the sigmoid LUT's read
//	       register (rvfl8); the readout ROM word g arrives with them
//	MAC    the P·L readout products, registered; per class a lane-sum tree
//	ACC    L accumulators (AW bits, cannot overflow); after group G−1 they hold the scores
//	       the argmax tree (ties to the lowest index), a register every 2 levels
//	OUT    the output register {scores, class}
//
// Every register advances on one enable that is 0 only while a finished result
// waits for a full output register, so no combinational path runs from out_ready_i
// anywhere. A new vector is accepted while the previous one issues its last group:
// one vector every max(G, 2) cycles. Latency from the input transfer to the first
// cycle of out_valid_o, for a vector that finds the output free, is
// G + F + T_argmax + 2 cycles (plan.Plan.Latency, F the flight stages from A to the
// lane-sum tree). The AXI4-Stream wrapper adds a deserialiser that holds K−1 beats
// and passes the K-th straight into the input register (no extra latency; a frame
// of the wrong length is dropped at its TLAST and counted) and an (L+1)-beat
// serialiser that sends straight from the output register.
//
// What differs between network types — the hidden layer from stage A to H, its
// ROM words, its primitives and its core template — is the network's
// plan.Layer (rtl/plan/<net>.go) and simulator (rtl/sim/<net>.go); the
// readout, lane sums, accumulators and argmax after H are one shared template
// (templates/core_readout.v.tmpl). docs/architecture.md lists what a new
// network type touches.
//
// ROM files are found through the MemDir parameter of every top ("mem/" by default,
// with a trailing slash): it is relative to the simulator's working directory, which
// is DIR for the emitted Makefile; pass an absolute path (e.g. Vivado's
// `synth_design -generic MemDir=…` or `set_property generic`) when the tool runs
// elsewhere.
//
// Guarantees: output is byte-identical for identical inputs (no timestamps, sorted
// file lists, PCG-derived random numbers); nothing is written outside DIR except a
// temporary sibling directory renamed into place at the end, so a failed emit
// leaves no partial DIR; module names are valid Verilog whatever the model is called
// (plan.SanitizePrefix). Every expected value is checked against the model
// package's arithmetic before anything is written.
package rtl
