// Package tune chooses and evaluates hyperparameters on a user's own labelled
// data (a CSV file), with the building blocks of the benchmark protocol
// (package protocol): the same networks, grids, tie rule (protocol.Better)
// and final evaluation.
//
//   - Validation splits the training rows: stratified k-fold (every row is
//     validated once, each class spread over the folds as evenly as its
//     count allows) or one stratified holdout split, drawn from a split
//     seed.
//   - Task.Search scores every grid point on every validation split and
//     network seed (protocol.Search on each, protocol.SumSearches over
//     them) and chooses the configuration with the most correct validation
//     predictions in total: the hyperparameters see the training rows only.
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
// seeds for the test file. Determinism: the same data, splits, seeds and
// grid give the same Result, byte for byte, whatever the number of threads.
package tune
