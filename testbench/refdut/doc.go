// Package refdut is a small hand-written reference design for testing the
// testbenches (package testbench) and `hdlgen verify` (package verify)
// without the real emitter.
//
// rtl/ref_top.v has the ports of a stream top (docs/rtl-interface.md §3) and
// computes class scores as fixed weighted sums of its K = 24 levels with a
// fixed latency; rtl/ref_axis.v wraps it in the AXI4-Stream wrapper's ports
// (§4). Their widths are chosen to exercise every Verilator port type: the
// input bus is 72 bits (VlWide), the scores 60 bits (QData), the class 3 bits.
// The Go functions here are a register-level model of both, so Generate
// returns expected results and cycle numbers exactly as rtl/sim does for a
// real design, and Write lays out a directory exactly as `hdlgen emit` does.
//
// Faults are selected at run time through mem/ref_mode.mem (see Mode), so a
// single Verilator build serves every test.
package refdut
