// Package study implements the benchmark protocol of the paper and of
// Fernández-Delgado et al. (JMLR 2014) on the UCI-121 collection: the
// hyperparameter grid search on the train/validation split, the final accuracy
// by 4-fold cross-validation (or train/test) averaged over seeds, and the
// resumable `hdlgen reproduce` study that runs both over the whole collection and
// writes TSVs, a summary and SVG plots.
//
// Accuracy of one seed is the mean of the fold accuracies (4-fold) or the test
// accuracy (train/test); the reported mean and standard deviation (n−1) are over
// seeds. Two-file datasets normalise the test file with its own min/max unless
// TestNormTrain is chosen (docs/benchmark.md explains why).
package study
