// Package verify runs the checks of an emitted design directory (DIR) and
// reports them as data: `hdlgen verify DIR`.
//
// Run works on any directory laid out by `hdlgen emit` (or by
// testbench/refdut): it needs DIR/Makefile and the testbench sources from
// package testbench, DIR/vectors from rtl/sim, and the RTL. It drives the
// Makefile, so `make verify` in DIR and Run do exactly the same thing. For each
// target (stream, axis when DIR/tb/tb_axis.v exists, system when
// DIR/tb/tb_system.v exists; Options.Targets
// narrows this) and each selected step it runs, with DIR as the working
// directory,
//
//	make -C DIR --no-print-directory lint-<target>       verilator --lint-only -Wall --language 1364-2005
//	make -C DIR --no-print-directory verilator-<target>  verilator --cc --exe --build, then the binary
//	make -C DIR --no-print-directory icarus-<target>     iverilog -g2005 -Wall, then vvp -n
//
// and, for the stream target only, the gate-level steps (Options.GateLevel,
// or StepGateVerilator / StepGateIcarus by name):
//
//	make -C DIR --no-print-directory gate-verilator-stream  the Verilator testbench on the netlist
//	make -C DIR --no-print-directory gate-icarus-stream     the Icarus testbench on the netlist
//
// which first synthesise DIR with synth.Run (the script of package
// synth/script, cached) and simulate its netlist (build/synth/yosys/
// netlist_sim.v) with Yosys's Xilinx cell models (cells_sim.v of the
// installed Yosys) and hdlgen's read models of RAMB18E1/RAMB36E1
// (DIR/tb/gate/: Yosys 0.23 declares them without behaviour). Icarus is slow
// on netlists (the median intRVFL at P = 1: about 175 simulated cycles per
// CPU second); Verilator's cost is the build (about 25 s of CPU).
//
// (with TRACE=1 for the Verilator runs when Options.Trace is set), captures
// the output, and parses the testbench lines of docs/rtl-interface.md §7
// (PASS, FAIL, MISMATCH, TIMEOUT, ERROR) and the Verilator testbenches'
// SIMRATE line (host time of the simulation loop: Result.SimWall and
// Result.CyclesPerSecond, the simulated cycles per second).
//
// Before them, in a directory written by hdlgen emit (it holds the marker
// file designdir.MarkerFile), the model step checks in Go that DIR/model.json is
// the model the design and the vectors came from: the plan derived again
// from it (with the P and pipeline rules that design.json records) must give
// design.json byte for byte and the parameters of vectors/tv_params.vh, and
// the Go simulator of that plan must give, for every input of
// vectors/tv_in.mem, the class and scores of vectors/tv_exp.mem (MISMATCH
// lines with expected = from model.json, got = from tv_exp.mem, at most 10).
// So a model.json copied in from another design, or vectors from another
// emit, fail verification. Reference directories (testbench/refdut) have no
// marker and no model step.
//
// A step passes when make exits 0 and, for lint, Verilator printed no
// %Warning/%Error line; for a simulation, the testbench printed PASS and no
// MISMATCH line. Any warning fails lint (and iverilog -Wall warnings fail the
// Icarus step: the Makefile treats them as errors).
//
// Errors versus failures: Run returns an error only when it cannot verify
// (DIR is not an emitted design, a tool is missing, the context ends); a
// design that fails verification gives a Report with Passed() == false, and
// Report.Err turns that into an error for a command line.
//
// Typical use (the hdlgen verify command):
//
//	rep, err := verify.Run(ctx, dir, verify.Options{Log: stderr})
//	if err != nil {
//		return err // could not verify
//	}
//	rep.WriteText(stdout)
//	return rep.Err() // nil when every step passed
//
// Build products go under DIR/build/ only. Without Options.KeepBuild, Run
// removes the build directories it created (DIR/build/verilator,
// DIR/build/icarus) when it is done; with it, a second Run reuses the
// Verilator builds, so only changed RTL is rebuilt (changed .mem files and
// vectors need no rebuild at all: they are read at run time).
package verify
