// Package testbench writes the verification and build files of an emitted
// design directory (DIR): the Verilator (C++) and Icarus (Verilog-2005)
// testbenches, the Makefile and the Vivado non-project Tcl flow.
//
// The contract these files implement is docs/rtl-interface.md: the ports of
// the stream top and of the AXI4-Stream wrapper (§3, §4), the test-vector
// files in DIR/vectors (§5), the driver (§6) and the report lines (§7); for a
// Zynq system top (Design.SystemTop) docs/system-interface.md, "Test vectors",
// with the reusable C++ driver class tb::SystemHarness (tb/system_harness.h).
// The two testbenches are independent implementations of the same driver and
// checks and print the same lines, so a disagreement between the simulators
// is itself visible:
//
//	MISMATCH vector=<v> field=<name> expected=<x> got=<y>
//	TIMEOUT vector=<v> cycles=<c>
//	FAIL vectors=<transferred> cycles=<c> mismatches=<n>
//	PASS vectors=<V> cycles=<C> latency=<cycles>
//
// The Verilator testbenches also print, just before PASS or FAIL,
//
//	SIMRATE cycles=<C> wall_ns=<host nanoseconds of the simulation loop>
//
// from which package verify derives the simulated cycles per second. Icarus
// has no host clock and prints no such line, so a comparison of the two
// simulators' reports leaves it out.
//
// Units: cycles are rising clock edges after reset (cycle 0 is the first edge
// with rst_ni = 1); ClockPeriodNS is in nanoseconds.
//
// Invariants: Files is a pure function of its Design (same Design, same
// bytes; no timestamps); every path it returns is relative to DIR and uses
// forward slashes; build products of every Makefile target go under
// DIR/build/ only. The testbench sources are real files under tb/ and
// templates/, embedded with embed.FS.
//
// The sub-package refdut holds a small hand-written reference DUT with a Go
// cycle model, used to test this package and package verify without the real
// emitter.
package testbench
