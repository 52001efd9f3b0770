package cli

import (
	"context"
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/hdlgen/hdlgen/model"
	"github.com/hdlgen/hdlgen/power"
	"github.com/hdlgen/hdlgen/rtl/plan"
)

type sizeOptions struct {
	model    string
	budget   string
	features int
	classes  int
	arch     string
	kappa    int
	bits     int
	effBits  int
	maxN     int
	clockMHz float64
	toggle   float64
	budgetOn string
	json     bool
	adder    int
	argmax   int
	win      string
}

func newSizeCmd(app *App) *cobra.Command {
	o := &sizeOptions{}
	cmd := &cobra.Command{
		Use:   "size --budget ENERGY (--model model.json | --features K --num-classes L --arch " + archUsage(power.Networks()) + " [--kappa K --bits B]) [--json]",
		Short: "Find the largest network whose energy per classification fits a budget",
		Long: `Size returns the largest number of hidden neurons N (1 ≤ N ≤ --max-n, 4096 by
default) whose design fits the xc7z020 and whose energy per classification is
within the budget, with the parallelism P (from 1, 2, 3, 4, 6, 8, 12, …) that
minimises the energy for that N, and the estimate (analytic resource model,
exact latency; see "hdlgen power" and docs/energy-model.md).

Trained readouts use few of their levels (max-scaling: the median intRVFL's
5-bit codes are 97 % in {−1, 0, 1}); --eff-bits tells the model so (3 for such
5-bit readouts; "hdlgen power model.json" computes it from a trained model).
The default, the declared width, is the upper bound the calibration measures.

The budget constrains the dynamic energy per classification by default
(--budget-on total adds the PL static energy over the latency). Energies take a
unit: 3.2uJ, 3.2µJ, 3200nJ, 0.0032mJ, 3.2e-6J. A budget below the smallest
achievable energy is an error that names that energy.

With --model model.json the network type, K, L, κ and the readout bits come from
the model (an intRVFL needs its integer readout: quantize first), and --eff-bits
defaults to the effective width of its readout codes, as in "hdlgen power
model.json". A flag given as well must agree with the model; one that does not is
an error naming both values.`,
		Example: `  hdlgen size --budget 3.2uJ --features 16 --num-classes 4 --arch intrvfl --kappa 3 --bits 5
  hdlgen size --budget 3200nJ --features 16 --num-classes 4 --arch rvfl8 --json
  hdlgen size --budget 3.2uJ --model iris-5bit.json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return o.run(cmd.Context(), app, cmd.Flags().Changed) },
	}
	f := cmd.Flags()
	f.StringVar(&o.budget, "budget", "", "energy per classification, with a unit (e.g. 3.2uJ)")
	f.StringVar(&o.model, "model", "", "take the network type, K, L, κ, bits (and --eff-bits' default) from this model.json")
	f.IntVar(&o.features, "features", 0, "K, input features")
	f.IntVar(&o.classes, "num-classes", 0, "L, the number of classes")
	hiddenAlias(f, "classes", "num-classes")
	f.StringVar(&o.arch, "arch", "intrvfl", archHelp(power.Networks()))
	f.IntVar(&o.kappa, "kappa", 3, "intRVFL clip threshold κ")
	f.IntVar(&o.bits, "bits", 5, "intRVFL readout bits")
	f.IntVar(&o.effBits, "eff-bits", 0, "effective width of trained readout codes (99 % within ±(2^(b−1)−1)); 0 = --bits, the upper bound")
	f.IntVar(&o.maxN, "max-n", power.DefaultMaxN, "largest N considered")
	f.Float64Var(&o.clockMHz, "clock-mhz", power.DefaultClockHz/1e6, "PL clock in MHz")
	f.Float64Var(&o.toggle, "toggle", power.DefaultToggle, "average toggle rate of data signals, in (0, 1]")
	f.StringVar(&o.budgetOn, "budget-on", string(power.BudgetDynamic), "energy the budget constrains: dynamic or total (dynamic + PL static)")
	f.BoolVar(&o.json, "json", false, "print the answer as JSON")
	f.IntVar(&o.adder, "adder-levels", 0, "adder levels between pipeline registers of every candidate, as hdlgen emit --adder-levels (0: the default rule)")
	f.IntVar(&o.argmax, "argmax-levels", 0, "argmax levels between pipeline registers, as hdlgen emit --argmax-levels (0: the default rule)")
	f.StringVar(&o.win, "win", "stored", "intrvfl: size designs whose W_in is a ROM (stored) or generated on chip (lfsr, no W_in ROM); taken from --model when given")
	_ = cmd.MarkFlagRequired("budget")
	markInputs(cmd, "model")
	return cmd
}

// fromModel sets the shape flags from --model, refusing a flag given
// explicitly (changed) that disagrees with the model.
func (o *sizeOptions) fromModel(changed func(string) bool) error {
	m, err := model.ReadFile(o.model)
	if err != nil {
		return fmt.Errorf("size: --model: %w", err)
	}
	bits := 0
	switch {
	case m.Readout != nil:
		bits = m.Readout.Bits
	case m.Net.Readout().Allowed:
		return usagef("--model %s has a float readout: size needs the integer one (hdlgen quantize %s --bits B)", o.model, o.model)
	}
	type fact struct {
		flag, what string
		given      *int
		model      int
	}
	facts := []fact{
		{"features", "K", &o.features, m.K()},
		{"num-classes", "L", &o.classes, m.L()},
		{"kappa", "κ", &o.kappa, m.Kappa()},
		{"bits", "readout bits", &o.bits, bits},
	}
	for _, f := range facts {
		if changed(f.flag) && *f.given != f.model {
			return usagef("--%s %d disagrees with --model %s: its %s is %d", f.flag, *f.given, o.model, f.what, f.model)
		}
		*f.given = f.model
	}
	if changed("arch") && model.Arch(o.arch) != m.Arch() {
		return usagef("--arch %s disagrees with --model %s: it is an %s", o.arch, o.model, m.Arch())
	}
	o.arch = string(m.Arch())
	if in, ok := m.Net.(*model.IntNet); ok {
		if changed("win") && o.win != in.Gen.Flag() {
			return usagef("--win %s disagrees with --model %s: its W_in is %s", o.win, o.model, in.Gen.Flag())
		}
		o.win = in.Gen.Flag()
	}
	if !changed("eff-bits") && m.Readout != nil {
		o.effBits = power.EffectiveReadoutBits(m.Readout.Q, m.Readout.Bits)
	}
	return nil
}

func (o *sizeOptions) run(ctx context.Context, app *App, changed func(string) bool) error {
	if o.model != "" {
		if err := o.fromModel(changed); err != nil {
			return err
		}
	} else if !changed("features") || !changed("num-classes") {
		return usagef("size needs --model model.json, or --features K and --num-classes L")
	}
	budget, err := power.ParseEnergy(o.budget)
	if err != nil {
		return usagef("--budget: %v", err)
	}
	s, err := power.ShapeOf(model.Arch(o.arch), o.features, o.classes, o.kappa, o.bits)
	if err != nil {
		return usagef("--arch: %v", err)
	}
	if err := inRange("--features", o.features, 1, model.MaxFeatures); err != nil {
		return err
	}
	if err := inRange("--num-classes", o.classes, 2, model.MaxClasses); err != nil {
		return err
	}
	if err := inRange("--max-n", o.maxN, 1, model.MaxHidden); err != nil {
		return err
	}
	if !(o.clockMHz > 0) || !(o.toggle > 0 && o.toggle <= 1) {
		return usagef("--clock-mhz %v --toggle %v: want a positive clock and a rate in (0, 1]", o.clockMHz, o.toggle)
	}
	on, err := power.ParseBudgeted(o.budgetOn)
	if err != nil {
		return usagef("--budget-on: %v", err)
	}
	s.EffBits = o.effBits
	if s.Win, err = parseWin(o.win, model.Arch(o.arch)); err != nil {
		return err
	}
	if err := (power.Design{Shape: s, N: 1, Options: plan.Options{Parallel: 1}}).Check(); err != nil {
		return usagef("%v", err)
	}
	sz, err := interruptible(ctx, func() (power.Sizing, error) {
		return power.Size(budget, s, power.SizeOptions{Params: power.Params{ClockHz: o.clockMHz * 1e6, Toggle: o.toggle, BudgetOn: on}, MaxN: o.maxN, AdderLevels: o.adder, ArgmaxLevels: o.argmax})
	})
	var imp *power.ImpossibleError
	if errors.As(err, &imp) {
		return fmt.Errorf("size: %w", err)
	}
	if err != nil {
		return err
	}
	if o.json {
		return printJSON(app.Out, "size", sz)
	}
	fmt.Fprintf(app.Out, "budget %s on the %s energy per classification → N = %d, P = %d\n",
		power.FormatEnergy(budget), sz.BudgetOn, sz.N, sz.P)
	return writeEstimate(app.Out, sz.Estimate, "resources: analytic model; latency: exact (rtl/plan rules)")
}
