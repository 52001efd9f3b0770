package cli

import (
	"encoding/json"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/hdlgen/hdlgen/dataset"
	"github.com/hdlgen/hdlgen/study/protocol"
)

type evalOptions struct {
	train    trainOptions
	seeds    int
	testNorm string
	json     bool
}

func newEvalCmd(app *App) *cobra.Command {
	o := &evalOptions{}
	cmd := &cobra.Command{
		Use:   "eval --data DIR --dataset NAME --arch intrvfl|rvfl|rvfl8 --n N --lambda X [--kappa K] [--seeds 5] [--json]",
		Short: "Final accuracy of one configuration by the benchmark protocol",
		Long: `Eval runs the protocol's final step on a dataset of the UCI-121 collection:
4-fold cross-validation with conxuntos_kfold.dat (or train/test for datasets with a
separate test file), for seeds 0…S−1, and prints the mean and standard deviation of
the accuracy over seeds. A seed's accuracy is the mean of its fold accuracies.`,
		Example: `  hdlgen eval --data ../shared/uci121 --dataset iris --arch intrvfl --n 50 --lambda 4 --kappa 3 --seeds 5`,
		Args:    cobra.NoArgs,
		RunE:    func(cmd *cobra.Command, _ []string) error { return o.run(cmd, app) },
	}
	f := cmd.Flags()
	t := &o.train
	f.StringVar(&t.data, "data", "", "UCI-121 collection folder")
	f.StringVar(&t.dataset, "dataset", "", "dataset name inside the collection")
	f.StringVar(&t.arch, "arch", "intrvfl", "network: intrvfl, rvfl or rvfl8")
	f.IntVar(&t.n, "n", 0, "hidden neurons N")
	f.Float64Var(&t.lambda, "lambda", 1, "ridge regularisation λ")
	f.IntVar(&t.kappa, "kappa", 3, "intRVFL clip threshold κ")
	f.StringVar(&t.regularizer, "regularizer", "variance", "ridge penalty: variance or identity")
	f.IntVar(&t.bits, "bits", 0, "intRVFL: evaluate with a rounded integer readout of this many bits")
	f.BoolVar(&t.directLinks, "direct-links", false, "rvfl: add input→output links")
	f.BoolVar(&t.quantInputs, "quantized-inputs", false, "rvfl: quantise inputs to N levels")
	f.IntVar(&t.threads, "threads", 2, "threads for the linear algebra")
	f.IntVar(&o.seeds, "seeds", 5, "number of random initialisations (seeds 0…S−1)")
	f.StringVar(&o.testNorm, "test-norm", string(protocol.TestNormOwn), testNormHelp)
	f.BoolVar(&o.json, "json", false, "print one JSON object")
	for _, name := range []string{"data", "dataset", "n"} {
		_ = cmd.MarkFlagRequired(name)
	}
	return cmd
}

func (o *evalOptions) run(cmd *cobra.Command, app *App) error {
	cfg, err := o.train.config()
	if err != nil {
		return err
	}
	if o.seeds < 1 {
		return usagef("--seeds %d: want at least 1", o.seeds)
	}
	tn, err := protocol.ParseTestNorm(o.testNorm)
	if err != nil {
		return usagef("--test-norm: %v", err)
	}
	u, err := dataset.LoadUCI(o.train.data, o.train.dataset)
	if err != nil {
		return err
	}
	seeds := make([]uint64, o.seeds)
	for i := range seeds {
		seeds[i] = uint64(i)
	}
	res, err := protocol.Evaluate(cmd.Context(), u, cfg, protocol.EvalOptions{Seeds: seeds, TestNorm: tn})
	if err != nil {
		return err
	}
	if o.json {
		out := struct {
			*protocol.EvalResult
			Arch   string  `json:"arch"`
			N      int     `json:"n"`
			Lambda float64 `json:"lambda"`
			Kappa  int     `json:"kappa,omitempty"`
			Bits   int     `json:"bits,omitempty"`
		}{res, string(cfg.Arch), cfg.N, cfg.Lambda, 0, cfg.ReadoutBits}
		if cfg.Arch == "intrvfl" {
			out.Kappa = cfg.Kappa
		}
		enc := json.NewEncoder(app.Out)
		return enc.Encode(out)
	}
	fmt.Fprintf(app.Out, "%s %s N=%d λ=%g", res.Dataset, cfg.Arch, cfg.N, cfg.Lambda)
	if cfg.Arch == "intrvfl" {
		fmt.Fprintf(app.Out, " κ=%d", cfg.Kappa)
	}
	fmt.Fprintf(app.Out, " (%s, %d seeds): accuracy %.4f ± %.4f\n", res.Protocol, len(res.Seeds), res.Mean, res.Std)
	return nil
}
