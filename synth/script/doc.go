// Package script is the one Yosys script of hdlgen: the commands that `hdlgen
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
//	synth_xilinx -family xc7 -noiopad -noclkbuf -flatten -top <top> -run :map_luts
//	opt_expr -mux_undef -noclkinv; abc -luts 2:2,3,6:5,10,20; clean
//	techmap -map +/xilinx/ff_map.v
//	techmap -map +/xilinx/lut_map.v -map +/xilinx/cells_map.v -D LUT_WIDTH=6
//	xilinx_dffopt; opt_lut_ins -tech xilinx
//	synth_xilinx -family xc7 -noiopad -noclkbuf -flatten -top <top> -run finalize:
//	tee -q -o build/synth/yosys/stat.json stat -json -tech xilinx
//	tee -q -o build/synth/yosys/stat.txt stat -tech xilinx
//	write_json build/synth/yosys/netlist.json
//	splitnets
//	setundef -zero -params
//	write_verilog -noattr build/synth/yosys/netlist_sim.v
//
// The five commands after the first synth_xilinx are its own map_luts step
// (Yosys 0.23, xc7) without `xilinx_srl -fixed -minlen 3`: that pass turns a
// chain of three or more FDRE with a clock enable into an SRL16E whose CE is
// tied to 1 (YosysHQ/yosys#6058, fixed upstream by #6059), so the netlist's
// shift registers moved during pipeline stalls while the RTL held (campaign
// design d0074: intrvfl K=31 N=13 L=2, P=5, failed gate-level with the tags
// of hdlgen_delay in SRL16Es). Fixed-length chains therefore stay flip-flops:
// on d0074 FDRE 623 → 638 and SRL16E 3 → 0, the LUT counts unchanged.
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
// This package has no dependencies; it holds strings only (its test runs
// Yosys on an enabled shift register when yosys is installed).
package script
