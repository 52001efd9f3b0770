package script

import "strings"

// Paths of the Yosys products inside DIR (forward slashes, DIR-relative).
const (
	// WorkDir holds every file the script writes.
	WorkDir = "build/synth/yosys"
	// StatFile is `stat -json -tech xilinx` of the flattened netlist.
	StatFile = WorkDir + "/stat.json"
	// StatText is the same statistics as text, for people.
	StatText = WorkDir + "/stat.txt"
	// NetlistJSON is the mapped netlist (write_json): what the timing
	// estimate and the logic depth read.
	NetlistJSON = WorkDir + "/netlist.json"
	// NetlistSim is the mapped netlist as Verilog for gate-level simulation
	// (split nets, undefined initial values zero).
	NetlistSim = WorkDir + "/netlist_sim.v"
	// LogFile is Yosys's log (memory_libmap's ROM decisions are read from it).
	LogFile = WorkDir + "/synth.log"
)

// Script is the Yosys script for the module top read from rtlFiles
// (DIR-relative, in the order given): the commands joined by "; ".
func Script(top string, rtlFiles []string) string {
	return strings.Join([]string{
		"read_verilog -defer " + strings.Join(rtlFiles, " "),
		"hierarchy -top " + top,
		`setattr -set rom_style "logic" m:lut`,
		// synth_xilinx up to its map_luts step, then map_luts without
		// `xilinx_srl -fixed -minlen 3`: Yosys ≤ 0.67's xilinx_srl turns a
		// chain of ≥ 3 FDRE with a clock enable into an SRL16E whose CE is
		// tied to 1 (YosysHQ/yosys#6058, fixed by #6059), so the pipeline's
		// enabled delay chains shifted during stalls in the netlist (campaign
		// design d0074 failed gate-level). Those chains stay flip-flops.
		"synth_xilinx -family xc7 -noiopad -noclkbuf -flatten -top " + top + " -run :map_luts",
		"opt_expr -mux_undef -noclkinv",
		"abc -luts 2:2,3,6:5,10,20",
		"clean",
		"techmap -map +/xilinx/ff_map.v",
		"techmap -map +/xilinx/lut_map.v -map +/xilinx/cells_map.v -D LUT_WIDTH=6",
		"xilinx_dffopt",
		"opt_lut_ins -tech xilinx",
		"synth_xilinx -family xc7 -noiopad -noclkbuf -flatten -top " + top + " -run finalize:",
		"tee -q -o " + StatFile + " stat -json -tech xilinx",
		"tee -q -o " + StatText + " stat -tech xilinx",
		"write_json " + NetlistJSON,
		"splitnets",
		"setundef -zero -params",
		"write_verilog -noattr " + NetlistSim,
	}, "; ")
}

// Command is the full command line that runs Script in DIR with the given
// yosys program: quiet, with the log in LogFile.
func Command(yosys, top string, rtlFiles []string) []string {
	return []string{yosys, "-q", "-l", LogFile, "-p", Script(top, rtlFiles)}
}
