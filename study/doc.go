// Package study runs the paper's studies over the UCI-121 collection, the
// work behind `hdlgen reproduce`. It is built in three layers:
//
//   - protocol (a top-level package): the benchmark protocol's building
//     blocks, shared with `hdlgen search`, `hdlgen eval` and `hdlgen build`: the networks (Network), the
//     hyperparameter grid and its one tie rule (Grid, Best, Better), the grid
//     search on the train/validation split (Search), the final accuracy by
//     4-fold cross-validation or train/test averaged over seeds (Evaluate), and
//     the statistics of the reports (Compare).
//   - internal/jobs: the job machinery every study shares: the store of one
//     JSON file per finished job under a fingerprint, the worker pool, the
//     sorting of failures into skipped datasets, and the run log.
//   - this package: four resumable studies of one shape, each a pair of files
//     named after it — the run (options, one job per dataset, stored as soon as
//     it is done) and the report (TSV, summary.json/.md, SVG plot):
//     accuracy.go (Fig. 5: search then evaluation of every network),
//     readout.go (Fig. 6: integer readouts of the intRVFL the accuracy study
//     selected), retune.go (λ re-chosen for the rounded readout) and budget.go
//     (Fig. 7: both hardware networks sized to an energy budget); reproduce.go
//     runs the chosen stages into one folder, as the command does.
//
// Layout of a study folder OUT: OUT/runs/<network>/<dataset>.{search,result,
// readout,retune}.json, OUT/budget/<budget>/runs/<network>/<dataset>.json,
// the reports beside them, and OUT/run-log.tsv (OUT/budget/run-log.tsv) with
// one line per invocation. A job is reused when its stored fingerprint equals
// the one of the current settings; anything else runs again.
//
// Accuracy of one seed is the mean of the fold accuracies (4-fold) or the test
// accuracy (train/test); reported means and standard deviations (n−1) are over
// seeds, and a study's headline is the mean over datasets. Two-file datasets
// normalise the test file with its own min/max unless protocol.TestNormTrain
// is chosen (docs/protocol.md explains why).
package study
