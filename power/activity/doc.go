// Package activity is the simulated half of hdlgen's power model: it turns a
// design folder into power.Resources from Yosys's report (YosysResources,
// EstimateDir), and replaces the flat toggle rate by switching activity
// counted on the gate-level netlist with Verilator over the design's own test
// vectors (the harness under harness/). Package power holds the analytic
// model and the energy arithmetic; this package adds what needs the tools.
package activity
