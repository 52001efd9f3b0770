// Package flow is the one Yosys script of hdlgen: the commands that `hdlgen
// synth` (package synth) runs and that the emitted Makefile's `make synth`
// (package testbench) runs, with the paths of everything it writes inside an
// emitted design directory DIR. Both callers build their command line here,
// so the two cannot drift apart (they once did: the Makefile lacked -flatten
// and the rom_style attribute and reported 838 instead of 406 LUT6 sites for
// the median rvfl8 at P = 1).
//
// The script, run with DIR as the working directory so that the RTL's
// $readmemh("mem/…") paths resolve:
//
//	read_verilog -defer <the rtl/*.v files the top needs>
//	hierarchy -top <top>
//	setattr -set rom_style "logic" m:lut
//	synth_xilinx -family xc7 -noiopad -noclkbuf -flatten -top <top>
//	tee -q -o build/synth/yosys/stat.json stat -json -tech xilinx
//	tee -q -o build/synth/yosys/stat.txt stat -tech xilinx
//	write_json build/synth/yosys/netlist.json
//	splitnets
//	setundef -zero -params
//	write_verilog -noattr build/synth/yosys/netlist_sim.v
//
// The last three commands run after the statistics and the JSON netlist (what
// the resource report and the timing estimate read) and change only the
// simulation netlist: splitnets gives every internal bit its own wire (Icarus
// simulates a netlist whose multi-bit wires are driven bit by bit by separate
// cells about ten times slower), and setundef -zero -params gives flip-flops
// without an explicit initial value INIT = 0, the value a 7-series device
// loads into every flip-flop at configuration (so the gate-level simulation
// starts from the state the board would, where Yosys writes an unknown).
//
// This package has no dependencies; it holds strings only.
package flow
