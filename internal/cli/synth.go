package cli

import (
	"context"
	"errors"
	"fmt"
	"os/exec"

	"github.com/spf13/cobra"

	"github.com/hdlgen/hdlgen/synth"
	"github.com/hdlgen/hdlgen/timing"
)

type synthOptions struct {
	json     bool
	force    bool
	cacheDir string
	yosys    string
	clockMHz float64
	byModule bool
	route    bool
}

func newSynthCmd(app *App) *cobra.Command {
	o := &synthOptions{}
	cmd := &cobra.Command{
		Use:   "synth DIR",
		Short: "Synthesise an emitted design with Yosys and report its Xilinx 7-series resources",
		Long: `Synth runs Yosys (synth_xilinx -family xc7, never -abc9) on the design that
"hdlgen emit" wrote to DIR, with DIR as the working directory so that the ROMs'
$readmemh paths resolve, and reports the mapped cells: LUTs by size and Yosys's
estimate of occupied LUT6 sites, flip-flops, CARRY4, MUXF7/F8, DSP48E1, block RAM,
LUTRAM/SRL, the longest register-to-register logic depth, and whether each ROM
went to LUTs or block RAM. "LUT cells" counts the LUT1…LUT6 cells of the netlist,
"LC" is Yosys's estimate of occupied LUT6 sites (small LUTs pair up in one site).

It then estimates the clock frequency: a static timing analysis of the mapped
netlist with hdlgen's delay model of the xc7z020 -1 (package timing,
docs/timing.md: Vivado's cell delays as published by Project X-Ray, a stated
net-delay rule by fanout). It prints the worst register-to-register path cell by
cell and the estimated Fmax against --clock-mhz. It is an estimate, not a
sign-off: no placement, congestion or clock skew.

The same Yosys script runs in "make synth" of the emitted directory (package
synth/script); both write DIR/build/synth/yosys/.

The report is written to DIR/build/synth/report.json and cached under a SHA-256 of
the Verilog and .mem files, the Yosys version and the command, so a second call
on an unchanged design returns at once (--force runs Yosys again). Yosys comes
from the Debian/Ubuntu package "yosys" (apt-get install yosys).

--by-module adds where the cells are: every cell of the flattened netlist
attributed to the instance that made it (u_issue, u_core.u_mac, …), by the
deepest named net it drives, or else by the named nets, registers and ports its
outputs reach (split evenly when they reach several instances). Generate blocks
fold into their instance, so the P lanes of the hidden layer add up in one row.

For a design emitted with --board icebreaker it then compares, when the design
has a routed result (make bitstream; --route runs it: Yosys synth_ice40,
nextpnr-ice40, icepack), hdlgen's estimate of the iCE40 netlist (logic cells,
EBR, DSP, Fmax: Yosys's iCE40 UltraPlus cell delays and hdlgen's net rule)
with nextpnr-ice40's routed figures of the same netlist (docs/timing.md).`,
		Example: `  hdlgen synth build/iris
  hdlgen synth build/iris --json > iris-synth.json
  hdlgen synth build/iris --by-module`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error { return o.run(cmd, app, args[0]) },
	}
	f := cmd.Flags()
	f.BoolVar(&o.json, "json", false, "print the report as JSON")
	f.BoolVar(&o.force, "force", false, "ignore cached reports and run Yosys again")
	f.StringVar(&o.cacheDir, "cache", "", "also cache reports in this directory (e.g. ~/.cache/hdlgen/synth)")
	f.StringVar(&o.yosys, "yosys", "yosys", "the yosys command")
	f.Float64Var(&o.clockMHz, "clock-mhz", 100, "the clock the timing estimate is checked against, in MHz")
	f.BoolVar(&o.byModule, "by-module", false, "also attribute the netlist's cells to the design's instances (a Markdown table)")
	f.BoolVar(&o.route, "route", false, "an --board icebreaker design: place and route it first (make bitstream: yosys, nextpnr-ice40, icepack)")
	argsAreInputs(cmd, "DIR")
	markOutput(cmd, "cache", outputDir)
	return cmd
}

func (o *synthOptions) run(cmd *cobra.Command, app *App, dir string) error {
	if o.yosys == "" {
		return usagef("--yosys: empty command")
	}
	if !(o.clockMHz > 0) {
		return usagef("--clock-mhz %v: want > 0", o.clockMHz)
	}
	if o.route && !synth.HasICE40(dir) {
		return usagef("--route: %s was not emitted with --board icebreaker (it has no %s)", dir, synth.ICE40Make)
	}
	r, err := synth.Run(cmd.Context(), dir, synth.Options{Yosys: o.yosys, CacheDir: o.cacheDir, Force: o.force, Log: app.Err})
	if err != nil {
		return err
	}
	t, err := timing.ForDir(dir, r, &timing.Zynq7Minus1)
	if err != nil {
		return err
	}
	var byModule []synth.ModuleShare
	if o.byModule {
		nl, err := synth.LoadNetlist(dir, r)
		if err != nil {
			return err
		}
		byModule = nl.ByModule()
	}
	ice40, ice40Note, err := o.ice40(cmd, app, dir)
	if err != nil {
		return err
	}
	if o.json {
		return printJSON(app.Out, "synth", struct {
			*synth.Report
			Timing   *timing.Report      `json:"timing"`
			ByModule []synth.ModuleShare `json:"by_module,omitempty"`
			ICE40    *synth.ICE40        `json:"ice40,omitempty"`
		}{r, t, byModule, ice40})
	}
	if err := r.WriteText(app.Out); err != nil {
		return err
	}
	if err := t.WriteText(app.Out, o.clockMHz); err != nil {
		return err
	}
	if ice40 != nil {
		if err := ice40.WriteText(app.Out); err != nil {
			return err
		}
	} else if ice40Note != "" {
		if _, err := fmt.Fprintf(app.Out, "\n%s\n", ice40Note); err != nil {
			return err
		}
	}
	if !o.byModule {
		return nil
	}
	if _, err := fmt.Fprintf(app.Out, "\nCells by instance (attributed by the nets they drive; docs/energy-model.md):\n\n"); err != nil {
		return err
	}
	return synth.WriteByModule(app.Out, byModule)
}

// ice40 is the iCEBreaker comparison of an --board icebreaker design (nil
// for another design), after routing it with --route; without a routed
// result it says so in the note.
func (o *synthOptions) ice40(cmd *cobra.Command, app *App, dir string) (*synth.ICE40, string, error) {
	if !synth.HasICE40(dir) {
		return nil, "", nil
	}
	return routedICE40(cmd.Context(), app, dir, o.route)
}

// routedICE40 reads the iCE40 comparison of dir, routing it first when
// route; without a routed result the note says how to make one.
func routedICE40(ctx context.Context, app *App, dir string, route bool) (*synth.ICE40, string, error) {
	if route {
		for _, tool := range []string{"make", "yosys", "nextpnr-ice40", "icepack"} {
			if _, err := exec.LookPath(tool); err != nil {
				return nil, "", fmt.Errorf("--route needs %s (apt-get install yosys nextpnr-ice40 fpga-icestorm): %w", tool, err)
			}
		}
		fmt.Fprintf(app.Err, "hdlgen: placing and routing %s for the iCE40 UP5K (make bitstream)\n", dir)
		if err := synth.RouteICE40(ctx, dir, app.Err); err != nil {
			return nil, "", err
		}
	}
	r, err := synth.ReadICE40(dir)
	if errors.Is(err, synth.ErrNoRoute) {
		return nil, "iCE40 UP5K: " + err.Error() + "; then hdlgen's estimate and nextpnr's routed figures are compared here.", nil
	}
	return r, "", err
}
