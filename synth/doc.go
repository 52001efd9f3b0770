// Package synth runs Yosys on a design emitted by `hdlgen emit` and reports the
// Xilinx 7-series resources it maps to, without vendor tools.
//
// The flow (Script) is, with DIR as the working directory so that the RTL's
// $readmemh("mem/…") paths resolve:
//
//	read_verilog -defer <the rtl/*.v files the top needs>
//	hierarchy -top <prefix>_top
//	setattr -set rom_style "logic" m:lut
//	synth_xilinx -family xc7 -noiopad -noclkbuf -flatten -top <prefix>_top
//	    (its map_luts step without xilinx_srl -fixed: Yosys's SRL16E
//	    drops the clock enable, YosysHQ/yosys#6058; see package flow)
//	tee -q -o build/synth/yosys/stat.json stat -json -tech xilinx
//	write_json build/synth/yosys/netlist.json
//
// Choices, each forced by Yosys 0.23 (Debian's package):
//   - only the files that define <prefix>_top and the modules it instantiates
//     (found by scanning the sources, deps.go), not every file of rtl/: modules
//     that hierarchy -top removes still change the order in which Yosys builds
//     the netlist, and ABC's LUT mapping depends on that order (the median
//     intRVFL at P = 8 gave 1508 instead of 1241 LUT6 sites with the unused
//     AXI4-Stream files of `hdlgen emit --axis`);
//   - never -abc9: it drops DSP48E1s that only feed a DSP cascade (DESIGN.md);
//   - read_verilog -defer: without it Yosys elaborates every module once with its
//     default parameters as well, work that hierarchy -top then throws away
//     (hdlgen_rom's default MemFile is empty, so that elaboration reads no file);
//   - rom_style "logic" on the rvfl8 sigmoid LUT (the memory named lut, read by
//     all P lanes): memory_libmap enumerates BRAM candidates for a memory with P
//     read ports combinatorially and was killed at 17 GB for P = 32; Yosys's own
//     cost rule always picks logic for this 256×8 ROM (2 kbit / 64 = 32 against
//     ≥ 131 for a RAMB18), so the attribute only skips the search;
//   - -flatten: `stat -json` of a hierarchical design prints the hierarchy as
//     plain text inside the JSON (invalid JSON), and the logic depth is only
//     meaningful on the whole netlist. Flattening also matches Vivado's default
//     (-flatten_hierarchy rebuilt). It changes cell counts by a few percent
//     against the hierarchical flow of the emitted Makefile's `make synth`.
//
// Units and meanings in Report: cell counts are Yosys cells after
// synth_xilinx; LUTs counts LUT1…LUT6 cells, EstimatedLCs is Yosys's own
// estimate of occupied LUT6 sites (`estimated_num_lc`, see EstimateLCs: LUT1
// and LUT2 cells share the sites of LUT3…LUT5 as LUT6_2), which is the number
// to compare with Vivado's "Slice LUTs"; BRAM36 counts RAMB36E1 + ½·RAMB18E1;
// LogicDepth is the longest register-to-register path in LUT, MUXF7/F8 and
// CARRY4 levels (each CARRY4 of a chain one level, INV cells not counted).
//
// Invariants: the report is a pure function of the RTL files the top needs,
// the .mem files, the Yosys version and the script (other files of rtl/ do not
// change it); Run caches it under DIR/build/synth/ (and,
// optionally, a user cache directory) keyed by a SHA-256 of exactly those, so a
// second call with unchanged inputs does not start Yosys for synthesis (it asks
// `yosys -V` once per process). report.json is written atomically.
package synth
