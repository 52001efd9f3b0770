package flow

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
		"synth_xilinx -family xc7 -noiopad -noclkbuf -flatten -top " + top,
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
