// Package protocol holds the building blocks of the benchmark protocol of the
// paper (Kleyko et al., IEEE TNNLS 2020, Section IV) and of Fernández-Delgado
// et al. (JMLR 2014) on the UCI-121 collection:
//
//   - Network: the network variants and their training configuration;
//   - Grid, PaperGrid, WideGrid: hyperparameter grids (N, λ, κ);
//   - Search: the grid search on the train/validation split of conxuntos.dat
//     (seed 0), scored by correct validation predictions of the float readout
//     or, with SearchOptions.Bits, of the rounded integer readout;
//   - Better: the one tie rule for "best configuration" (most correct, then
//     the smallest N, the largest λ, the smallest κ);
//   - Evaluate: the final accuracy, 4-fold cross-validation (or train/test for
//     two-file datasets) averaged over seeds;
//   - Compare: paired statistics of two accuracy lists (Pearson, t-tests,
//     Wilcoxon).
//
// Units: accuracies are fractions in [0, 1]; λ is the ridge penalty of
// docs/semantics.md. Determinism: the same dataset, grid and seed give the
// same counts and the same selection, whatever the number of threads.
package protocol
