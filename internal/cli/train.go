package cli

import (
	"context"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/hdlgen/hdlgen/model"
)

type trainOptions struct {
	data, dataset string
	arch          string
	n             int
	lambda        float64
	kappa         int
	seed          uint64
	regularizer   string
	bits          int
	directLinks   bool
	quantInputs   bool
	threads       int
	classes       string
	out           string
}

func newTrainCmd(app *App) *cobra.Command {
	o := &trainOptions{}
	cmd := &cobra.Command{
		Use:   "train --data PATH [--dataset NAME] --arch intrvfl|rvfl|rvfl8 --n N --lambda X [--kappa K] [--seed S] -o model.json",
		Short: "Train a network on labelled data and write model.json",
		Long: `Train fits min-max normalisation on the data, draws the random hidden layer
from --seed, solves the ridge-regression readout and writes model.json (atomically).
With --bits B an intRVFL also gets a rounded B-bit integer readout, ready for
"hdlgen emit"; an rvfl8 always has its 8-bit readout.

` + dataHelp,
		Example: `  hdlgen train --data example:iris --arch intrvfl --n 50 --lambda 4 --kappa 3 --bits 5 -o iris.json
  hdlgen train --data ../shared/uci121 --dataset abalone --arch rvfl --n 500 --lambda 0.25 -o abalone.json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return o.run(app) },
	}
	f := cmd.Flags()
	f.StringVar(&o.data, "data", "", "CSV file, collection folder (with --dataset) or example:NAME")
	f.StringVar(&o.dataset, "dataset", "", "dataset name inside a UCI-121 collection folder")
	f.StringVar(&o.arch, "arch", "intrvfl", "network: intrvfl, rvfl or rvfl8")
	f.IntVar(&o.n, "n", 0, "hidden neurons N")
	f.Float64Var(&o.lambda, "lambda", 1, "ridge regularisation λ")
	f.IntVar(&o.kappa, "kappa", 3, "intRVFL clip threshold κ")
	f.Uint64Var(&o.seed, "seed", 0, "random seed of the hidden layer")
	f.StringVar(&o.regularizer, "regularizer", string(model.RegVariance), "ridge penalty: variance (λ·diag(var H), the authors' form) or identity (λ·I)")
	f.IntVar(&o.bits, "bits", 0, "intRVFL: also store a rounded integer readout of this many bits (2…16)")
	f.BoolVar(&o.directLinks, "direct-links", false, "rvfl: add input→output links")
	f.BoolVar(&o.quantInputs, "quantized-inputs", false, "rvfl: quantise inputs to N levels like the density encoding")
	f.IntVar(&o.threads, "threads", 2, "threads for the linear algebra")
	f.StringVar(&o.classes, "classes", "", "keep only these comma-separated classes, relabelled in this order")
	f.StringVarP(&o.out, "output", "o", "", "model.json to write")
	for _, name := range []string{"data", "n", "output"} {
		_ = cmd.MarkFlagRequired(name)
	}
	return cmd
}

func (o *trainOptions) config() (model.Config, error) {
	arch, err := model.ParseArch(o.arch)
	if err != nil {
		return model.Config{}, usagef("--arch: %v", err)
	}
	reg, err := model.ParseRegularizer(o.regularizer)
	if err != nil {
		return model.Config{}, usagef("--regularizer: %v", err)
	}
	if o.n < 1 {
		return model.Config{}, usagef("--n %d: want at least 1 hidden neuron", o.n)
	}
	return model.Config{Arch: arch, N: o.n, Kappa: o.kappa, Lambda: o.lambda, Regularizer: reg, Seed: o.seed,
		DirectLinks: o.directLinks, QuantizedInputs: o.quantInputs, ReadoutBits: o.bits, Threads: o.threads}, nil
}

func (o *trainOptions) run(app *App) error {
	cfg, err := o.config()
	if err != nil {
		return err
	}
	d, err := loadLabelled(o.data, o.dataset)
	if err != nil {
		return err
	}
	if o.classes != "" {
		if d, err = keepClasses(d, strings.Split(o.classes, ",")); err != nil {
			return err
		}
	}
	m, err := model.Train(context.Background(), model.Data{Name: d.Name, X: d.X, Y: d.Y, ClassNames: d.ClassNames,
		FeatureNames: d.FeatureNames, LabelName: d.LabelName}, cfg)
	if err != nil {
		return err
	}
	if err := model.WriteFile(o.out, m); err != nil {
		return err
	}
	acc := m.Accuracy(d.X, d.M(), d.Y)
	fmt.Fprintf(app.Err, "trained %s on %d rows of %s: training accuracy %.4f\n", m, d.M(), d.Name, acc)
	fmt.Fprintf(app.Out, "%s\n", o.out)
	return nil
}
