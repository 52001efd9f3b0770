// Package tune chooses and evaluates hyperparameters on a user's own labelled
// data (a CSV file), with the building blocks of the benchmark protocol
// (package protocol): the same networks, grids, tie rule (protocol.Better)
// and final evaluation.
//
//   - Validation splits the training rows: stratified k-fold (every row is
//     validated once, each class spread over the folds as evenly as its
//     count allows) or one stratified holdout split, drawn from a split
//     seed.
//   - Task.Search (Task.SearchMore) scores every grid point on every
//     validation split and network seed and chooses the configuration with
//     the most correct validation predictions in total: the hyperparameters
//     see the training rows only. It runs in parts — one split, seed and N
//     each (one split and seed with every N for the float RVFLs, whose
//     networks are prefixes of the largest) — on Task.Workers goroutines,
//     largest first, reporting each with an estimate of the time left; with
//     Task.Store every finished part is kept (internal/jobs) and reused by a
//     later search with the same data and settings, so an interrupted search
//     resumes. An intRVFL part is scored by protocol.Search, or, when it has
//     more neurons than training rows and a rounded readout, by the dual
//     scorer that forms each hidden layer's kernel once for all λ, or, when
//     the protocol's buffers would exceed Task.MemoryBudget, by a row-chunked
//     scorer; all give the same counts (exactly, with a rounded readout).
//     An Extension scores larger N while the best N is the largest scored.
//     Curve is the accuracy-versus-N curve of a search.
//   - Task.ChooseReadout validates the rounded and the GA-refined integer
//     readout of one configuration on the same splits (each fold's GA fitted
//     on its own training rows) and chooses the GA only when it validates
//     strictly better.
//   - Task.Linear is the baseline: a ridge classifier on the normalised
//     features, λ chosen on the splits.
//   - Task.Evaluate gives one configuration's validation accuracy on the
//     same splits (protocol.Evaluate) and, with a separate test file, its
//     accuracy there: trained on all training rows, the test file
//     normalised with the training rows' statistics, once per seed.
//   - Result is the JSON document `hdlgen search` and `hdlgen eval` write
//     for a CSV (format FormatVersion, docs/protocol.md), for the commands
//     that build a design from it.
//
// Units: accuracies are fractions in [0, 1], their spread the sample
// standard deviation (n−1) over the validation splits × seeds, or over the
// seeds for the test file. Memory: a search holds the data and, per part
// being scored, at most about Task.MemoryBudget (or 16·N² bytes and 2,048
// rows when streamed). Determinism: the same data, splits, seeds and grid
// give the same Result, byte for byte, whatever the number of workers, the
// store or the order of the parts.
package tune
