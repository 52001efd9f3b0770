// Package logreg is the baseline `hdlgen build` measures its networks
// against: a multinomial logistic regression (softmax regression) on the
// min-max normalised features, with an L2 penalty on the weights (not the
// biases), fitted by L-BFGS on the mean cross-entropy.
//
// Validate chooses the penalty λ on validation splits (the folds `hdlgen
// search` scores its networks on), each split fitted on its own training
// rows with their own minimum and maximum; Fit then fits the chosen λ on
// every training row. Everything is deterministic: the same rows give the
// same weights, whatever the number of workers (each fit runs on one
// goroutine; the splits run side by side through internal/parallel).
package logreg
