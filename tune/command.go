package tune

import (
	"context"
	"fmt"

	"github.com/hdlgen/hdlgen/dataset"
	"github.com/hdlgen/hdlgen/internal/jobs"
	"github.com/hdlgen/hdlgen/protocol"
	"github.com/hdlgen/hdlgen/quant"
)

// CollectionSearch is `hdlgen search` on a dataset of the UCI-121
// collection, its flags checked: the protocol's search of Network on the
// dataset's train/validation split.
type CollectionSearch struct {
	Dir, Dataset string
	Network      protocol.Network
	// Options are the search's grid, seed, penalty, solver, readout width,
	// W_in source and workers (Options.Ns is set from Shard).
	Options protocol.SearchOptions
	// Shard, when not nil, scores only its share of the grid's N values and
	// records where its counts come from, for search merge.
	Shard *jobs.Shard
}

// SearchCollection loads the dataset and runs the search; a shard's result
// carries its ShardInfo.
func SearchCollection(ctx context.Context, s CollectionSearch) (*protocol.SearchResult, error) {
	u, err := dataset.LoadUCI(s.Dir, s.Dataset)
	if err != nil {
		return nil, err
	}
	so := s.Options
	if s.Shard != nil {
		if so.Ns = ShardNs(*s.Shard, so.Grid); len(so.Ns) == 0 {
			return nil, fmt.Errorf("search %s: shard %d/%d: the grid has only %d values of N", s.Dataset, s.Shard.Index, s.Shard.Count, len(so.Grid.Ns))
		}
	}
	res, err := protocol.Search(ctx, u, s.Network, so)
	if err != nil {
		return nil, err
	}
	if s.Shard != nil {
		res.Shard = &protocol.ShardInfo{Index: s.Shard.Index, Count: s.Shard.Count, Ns: so.Grid.Ns, Seed: so.Seed,
			Regularizer: so.Regularizer, Data: protocol.DataFingerprint(u)}
	}
	return res, nil
}

// CSVSearch is `hdlgen search` on a CSV file, its flags checked.
type CSVSearch struct {
	Network protocol.Network
	// GridName names the grid in the result (paper, wide, small).
	GridName string
	// Options are the grid, penalty, solver, readout width and W_in source.
	Options protocol.SearchOptions
	// Seeds are the network seeds scored on every split.
	Seeds []uint64
	// ExtendN scores N beyond the grid up to it (0: the grid only).
	ExtendN int
	// ExtendSE stops the extension early (Extension.WithinSE).
	ExtendSE bool
	// GA, when not nil, also validates the GA-refined readout of the chosen
	// configuration on the same splits.
	GA *quant.GAOptions
}

// SearchCSV runs a search on the task's validation splits (SearchMore),
// then the readout choice (GA) and the test accuracy (with a test file), and
// fills res — made with the data and validation described — with the
// search, the chosen configuration and its accuracies.
func (t *Task) SearchCSV(ctx context.Context, s CSVSearch, res *Result) error {
	s2, err := t.SearchMore(ctx, s.Network, s.Options, s.Seeds, Extension{MaxN: s.ExtendN, WithinSE: s.ExtendSE})
	if err != nil {
		return err
	}
	sum := s2.Sum
	b := sum.Best
	cfg := s.Network.Config(b.N, b.Lambda, b.Kappa)
	cfg.Regularizer, cfg.Solver, cfg.ReadoutBits, cfg.Win, cfg.Select = s.Options.Regularizer, s.Options.Solver, s.Options.Bits, s.Options.Win, s.Options.Select
	res.Command, res.Search, res.Config, res.Validated = "search", DescribeSearch(s.GridName, sum), DescribeConfig(cfg), s2.Accuracy
	res.Curve = Curve(sum)
	if s.ExtendN > 0 {
		res.Extension = &ExtensionInfo{MaxN: s.ExtendN, Extended: s2.Extended, Stopped: s2.Stopped}
	}
	if s.GA != nil {
		if res.Readout, err = t.ChooseReadout(ctx, cfg, quant.BoundForBits(s.Options.Bits), *s.GA, s.Seeds); err != nil {
			return err
		}
	}
	if t.Test != nil {
		if res.Tested, err = t.TestAccuracy(ctx, cfg, s.Seeds); err != nil {
			return err
		}
	}
	return nil
}

// ShardNs are the grid's values of N that shard scores, balanced by the cost
// of an N, about N² (the hidden layer and the Gram matrix); none when the
// grid has too few.
func ShardNs(shard jobs.Shard, g protocol.Grid) []int {
	return jobs.Select(shard, g.Ns, func(n int) float64 { return float64(n) * float64(n) })
}
