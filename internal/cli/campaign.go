package cli

import (
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/hdlgen/hdlgen/campaign"
	"github.com/hdlgen/hdlgen/model"
	"github.com/hdlgen/hdlgen/rtl/plan"
)

type campaignOptions struct {
	designs, vectors, gateEvery, workers int
	seed                                 uint64
	out                                  string
	only                                 string
	networks                             string
	keepWork                             bool
	verbose                              bool
	list                                 bool
}

func newCampaignCmd(app *App) *cobra.Command {
	o := &campaignOptions{}
	cmd := &cobra.Command{
		Use:   "campaign --designs N --vectors V --seed S --out DIR [--gate-level-every M] [--workers W] [--network NAMES]",
		Short: "Draw random legal designs, emit and verify each one, and record every result",
		Long: `Campaign draws N random legal designs from the seed S (both networks, odd and tiny
K and N, P from 1 to N and P not dividing N, κ = 1 and κ = 32768, readout bits 2 to 16,
the AXI4-Stream wrapper, the Zynq system top with and without a reloadable readout and
scores, random back-pressure, pipeline levels per stage; docs/campaign.md gives the
distribution), emits each one with V test vectors and runs "hdlgen verify" on it
(model check, lint, Verilator and Icarus on every top; every M-th design also at gate
level). Design i depends on S and i only; --network runs only the drawn designs
of the networks named (the same draw, the same indices).

DIR/designs/dNNNN.json records each design as soon as it is done; DIR/results.tsv
(one row per design) and DIR/summary.md are written at the end. The same command
continues an interrupted campaign (recorded designs are kept). A failing design is
recorded and the campaign goes on; the command exits non-zero if any failed. Each
design is built in a temporary directory, removed when the design passes and kept
(its path in the record) when it fails; "hdlgen verify" on it reproduces the failure.`,
		Example: `  hdlgen campaign --designs 300 --vectors 1000 --seed 1 --out results/campaign --gate-level-every 25
  hdlgen campaign --designs 300 --vectors 1000 --seed 1 --out results/campaign --gate-level-every 25 --network intrvfl2
  hdlgen campaign --designs 300 --vectors 1000 --seed 1 --only 17 --keep-work --out /tmp/repro`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error { return o.run(cmd, app) },
	}
	f := cmd.Flags()
	f.IntVar(&o.designs, "designs", 0, "N: number of designs to draw")
	f.IntVar(&o.vectors, "vectors", 1000, "V: test vectors per design")
	f.Uint64Var(&o.seed, "seed", defaultSeed, "S: seed of the draw")
	f.StringVarP(&o.out, "out", "o", "", "DIR: where the records, results.tsv and summary.md go")
	f.IntVar(&o.gateEvery, "gate-level-every", 0, "M: every M-th design also runs the gate-level steps (0: none)")
	intIn(f, &o.workers, "workers", 1, 1, 64, "designs verified at once")
	f.StringVar(&o.only, "only", "", "comma-separated design indices to run (a reproducer); default all")
	f.StringVar(&o.networks, "network", "", "comma-separated networks ("+model.Alternatives(plan.Archs())+
		"): run only the drawn designs of these (the same draw and indices); default all")
	f.BoolVar(&o.keepWork, "keep-work", false, "keep every design's work directory (kept anyway when it fails)")
	f.BoolVar(&o.list, "list", false, "print the drawn designs and their distribution, run nothing")
	f.BoolVarP(&o.verbose, "verbose", "v", false, "print every tool's output to stderr")
	_ = cmd.MarkFlagRequired("designs")

	markOutput(cmd, "out", outputDir)
	return cmd
}

func (o *campaignOptions) run(cmd *cobra.Command, app *App) error {
	if err := inRange("--designs", o.designs, 1, 1_000_000); err != nil {
		return err
	}
	if err := inRange("--vectors", o.vectors, 1, maxVectors); err != nil {
		return err
	}
	if err := inRange("--gate-level-every", o.gateEvery, 0, 1_000_000); err != nil {
		return err
	}
	if o.list {
		_, err := app.Out.Write(campaign.DrawTable(o.seed, o.designs))
		return err
	}
	if o.out == "" {
		return usagef("--out DIR is required")
	}
	c := campaign.Config{Designs: o.designs, Vectors: o.vectors, Seed: o.seed, Out: o.out,
		GateLevelEvery: o.gateEvery, Workers: o.workers, KeepWork: o.keepWork, Progress: app.Err,
		Command: "hdlgen " + strings.Join(os.Args[1:], " ")}
	if o.verbose {
		c.Log = app.Err
	}
	if cmd.Flags().Changed("only") {
		for _, s := range strings.Split(o.only, ",") {
			i, err := strconv.Atoi(strings.TrimSpace(s))
			if err != nil || i < 0 || i >= o.designs {
				return usagef("--only %q: want comma-separated design indices in [0, %d), got %q", o.only, o.designs, s)
			}
			c.Only = append(c.Only, i)
		}
	}
	if cmd.Flags().Changed("network") {
		nws, err := campaignNetworks(o.networks)
		if err != nil {
			return err
		}
		c.Networks = nws
	}
	if err := campaign.CheckFolder(o.out, o.seed); err != nil {
		return usageError{err}
	}
	sum, err := campaign.Run(cmd.Context(), c)
	if sum != nil {
		fmt.Fprintf(app.Out, "%s: %d recorded, %d passed, %d failed, %d mismatches, %d not yet run\n",
			o.out, len(sum.Records), sum.Passed, sum.Failed, sum.Mismatches, sum.Missing)
	}
	if err != nil {
		return err
	}
	if sum.Failed > 0 {
		return fmt.Errorf("campaign: %d of %d designs failed (see %s/summary.md)", sum.Failed, len(sum.Records), o.out)
	}
	return nil
}

// campaignNetworks parses --network: comma-separated names of networks the
// campaign draws (plan.Archs), each at most once.
func campaignNetworks(list string) ([]string, error) {
	var out []string
	for _, s := range strings.Split(list, ",") {
		name := strings.TrimSpace(s)
		if !slices.Contains(plan.Archs(), model.Arch(name)) {
			return nil, usagef("--network %q: want comma-separated networks among %s, got %q",
				list, model.Alternatives(plan.Archs()), name)
		}
		if slices.Contains(out, name) {
			return nil, usagef("--network %q: %s given twice", list, name)
		}
		out = append(out, name)
	}
	return out, nil
}
