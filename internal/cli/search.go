package cli

import (
	"encoding/json"
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"github.com/hdlgen/hdlgen/dataset"
	"github.com/hdlgen/hdlgen/internal/jobs"
	"github.com/hdlgen/hdlgen/model"
	"github.com/hdlgen/hdlgen/quant"
	"github.com/hdlgen/hdlgen/study/protocol"
)

type searchOptions struct {
	data, dataset, arch string
	grid                string
	seed                uint64
	reg                 string
	json                bool
	bits                int
	shard               string
}

func newSearchCmd(app *App) *cobra.Command {
	o := &searchOptions{}
	cmd := &cobra.Command{
		Use:   "search --data DIR --dataset NAME --arch intrvfl|rvfl|rvfl-qin|rvfl-direct|rvfl8 [--json]",
		Short: "Grid-search N, λ (and κ) on the dataset's train/validation split",
		Long: `Search runs the protocol's hyperparameter grid search on the train/validation
split of conxuntos.dat: N ∈ {50,…,1500} step 50, λ ∈ 2^{−10…5}, and κ ∈ {1,3,7,15}
for the intRVFL, with the networks of seed 0 scored by validation accuracy. Ties go
to the smallest N, then the largest λ (cheapest, most regularised), then the
smallest κ. It prints the best configuration and its validation accuracy.

With --bits B (intRVFL only) every grid point is scored by the validation accuracy
of its readout rounded to B bits, the integer model the hardware runs, rather
than by the float readout: the λ best for the float readout can be too weak for
the rounded one (docs/semantics.md).`,
		Example: `  hdlgen search --data ../shared/uci121 --dataset abalone --arch intrvfl
  hdlgen search --data ../shared/uci121 --dataset tic-tac-toe --arch intrvfl --regularizer identity --bits 5`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			nw, err := protocol.ParseNetwork(o.arch)
			if err != nil {
				return usagef("--arch: %v", err)
			}
			if o.bits != 0 && (o.bits < quant.MinBits || o.bits > quant.MaxBits) {
				return usagef("--bits %d: want %d…%d, or 0 for the float readout", o.bits, quant.MinBits, quant.MaxBits)
			}
			if o.bits != 0 && nw != protocol.IntRVFL {
				return usagef("--bits: the integer-readout search is for --arch intrvfl, not %s", nw)
			}
			g, err := parseGrid(o.grid)
			if err != nil {
				return err
			}
			u, err := dataset.LoadUCI(o.data, o.dataset)
			if err != nil {
				return err
			}
			reg, err := model.ParseRegularizer(o.reg)
			if err != nil {
				return usagef("--regularizer: %v", err)
			}
			so := protocol.SearchOptions{Grid: g, Seed: o.seed, Regularizer: reg, Bits: o.bits}
			if o.shard != "" {
				shard, err := jobs.ParseShard(o.shard)
				if err != nil {
					return usagef("--shard: %v", err)
				}
				// Balanced by the cost of an N, about N² (the hidden layer and the Gram matrix).
				if so.Ns = jobs.Select(shard, g.Ns, func(n int) float64 { return float64(n) * float64(n) }); len(so.Ns) == 0 {
					return usagef("--shard %s: the grid has only %d values of N", o.shard, len(g.Ns))
				}
			}
			res, err := protocol.Search(cmd.Context(), u, nw, so)
			if err != nil {
				return err
			}
			if o.shard != "" { // the counts, for search merge
				return json.NewEncoder(app.Out).Encode(res)
			}
			return printSearch(app, res, o.json)
		},
	}
	cmd.AddCommand(newSearchMergeCmd(app))
	f := cmd.Flags()
	f.StringVar(&o.data, "data", "", "UCI-121 collection folder")
	f.StringVar(&o.dataset, "dataset", "", "dataset name inside the collection")
	f.StringVar(&o.arch, "arch", "intrvfl", "network: intrvfl, rvfl, rvfl-qin (quantised inputs), rvfl-direct (direct links) or rvfl8")
	f.StringVar(&o.grid, "grid", "paper", "grid: paper (the protocol's), wide (the paper's with λ up to 2^15) or small (N ∈ {50,100,150}, λ ∈ 2^{−2,0,2}, κ ∈ {1,3}; for quick tests)")
	f.Uint64Var(&o.seed, "seed", 0, "seed of the networks scored in the search")
	f.StringVar(&o.reg, "regularizer", string(model.RegVariance), "ridge penalty: variance (λ·diag(var H), the authors' form) or identity (λ·I)")
	f.BoolVar(&o.json, "json", false, "print the result as JSON")
	f.IntVar(&o.bits, "bits", 0, "intRVFL: score the grid by the validation accuracy of the readout rounded to this many bits (2…16; 0: the float readout)")
	f.StringVar(&o.shard, "shard", "", "score only shard i of n of the grid's N values (i/n, 0 ≤ i < n) and print its counts as JSON, for search merge")
	_ = cmd.MarkFlagRequired("data")
	_ = cmd.MarkFlagRequired("dataset")
	return cmd
}

func newSearchMergeCmd(app *App) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "merge SHARD.json...",
		Short: "Combine the shards of a search (search --shard i/n) into the whole grid's search",
		Long: `Merge reads the JSON that each shard of one search printed (hdlgen search
--shard i/n … > shard-i.json), combines their validation counts into those of
the whole grid and prints the search result exactly as one search would: the
same best configuration by the same tie rule.`,
		Example: `  for i in 0 1 2; do hdlgen search --data ../shared/uci121 --dataset letter --shard $i/3 > s$i.json & done; wait
  hdlgen search merge s0.json s1.json s2.json`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(_ *cobra.Command, args []string) error {
			var parts []*protocol.SearchResult
			for _, p := range args {
				data, err := os.ReadFile(p)
				if err != nil {
					return err
				}
				r := new(protocol.SearchResult)
				if err := json.Unmarshal(data, r); err != nil {
					return fmt.Errorf("%s: %w", p, err)
				}
				parts = append(parts, r)
			}
			res, err := protocol.MergeSearches(parts)
			if err != nil {
				return err
			}
			return printSearch(app, res, asJSON)
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the result as JSON")
	return cmd
}

// printSearch prints a search's best configuration, or the result as JSON
// (without the counts).
func printSearch(app *App, res *protocol.SearchResult, asJSON bool) error {
	if asJSON {
		res.Correct = nil
		return json.NewEncoder(app.Out).Encode(res)
	}
	b := res.Best
	fmt.Fprintf(app.Out, "%s %s: N=%d λ=%g", res.Dataset, res.Network, b.N, b.Lambda)
	if b.Kappa != 0 {
		fmt.Fprintf(app.Out, " κ=%d", b.Kappa)
	}
	readout := ""
	if res.Bits != 0 {
		readout = fmt.Sprintf(" (%d-bit rounded readout)", res.Bits)
	}
	fmt.Fprintf(app.Out, " validation accuracy%s %.4f (%d/%d) in %.1fs\n", readout, b.ValAccuracy, b.Correct, b.ValRows, res.Seconds)
	return nil
}

// parseGrid maps a --grid name to a grid.
func parseGrid(name string) (protocol.Grid, error) {
	switch name {
	case "paper":
		return protocol.PaperGrid(), nil
	case "wide":
		return protocol.WideGrid(), nil
	case "small":
		return protocol.Grid{Ns: []int{50, 100, 150}, Lambdas: []float64{0.25, 1, 4}, Kappas: []int{1, 3}}, nil
	}
	return protocol.Grid{}, usagef("--grid %q: want paper, wide or small", name)
}
