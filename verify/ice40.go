package verify

// The iCEBreaker target (hdlgen emit --board icebreaker, docs/ice40.md): a
// design with the UART top <prefix>_ice40 has the target "ice40", checked by
// the lint and Icarus steps (make lint-ice40, icarus-ice40: the UART top's own
// testbench on the RTL) and by StepRouted, the routed netlist's simulation.

// StepRouted places and routes the UART top for the iCE40 UP5K (Yosys
// synth_ice40, nextpnr-ice40 at the board's 12 MHz, icepack) and simulates
// the routed netlist — nextpnr's, turned back into Verilog by Yosys, with
// Yosys's iCE40 cell models — in Icarus through the UART: every response
// against the Go simulator's expected outputs, and tx_o, cycle for cycle,
// against the RTL's (make routed-ice40). Only the ice40 target has it; Run
// adds it to the default steps of a design that has that target.
const StepRouted Step = "routed"

// targetICE40 is the UART top's target name; ice40TB marks a design that has it.
const (
	targetICE40 = "ice40"
	ice40TB     = "tb/tb_ice40.v"
)

func init() {
	order = append(order, StepRouted)
	stepTools[StepRouted] = []string{"yosys", "nextpnr-ice40", "icepack", "python3", "iverilog", "vvp"}
	toolPackage["nextpnr-ice40"] = "nextpnr-ice40"
	toolPackage["icepack"] = "fpga-icestorm"
	toolPackage["python3"] = "python3"
}

// skipJob reports whether step does not apply to target: the routed step is
// the ice40 target's only, and the UART top has no Verilator testbench.
func skipJob(step Step, target string) bool {
	switch {
	case step == StepRouted:
		return target != targetICE40
	case target == targetICE40:
		return step == StepVerilator || step.IsGate()
	}
	return false
}
