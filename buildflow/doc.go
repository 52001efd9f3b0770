// Package buildflow is `hdlgen build`: the whole flow from a user's labelled
// CSV file to a verified, synthesised design and a report of its
// trade-offs — split, search (or eval of a given N, λ, κ), baseline (a
// multinomial logistic regression, package logreg), design (N and P
// chosen together: the objective's pick among the N within a tolerance of
// the best validation accuracy, every resource counted), validate (eval of
// the chosen N, λ, κ with the readout choice), train, quantize (rounded or
// GA readout, chosen on validation folds of the training rows), score,
// sizes over P, emit, verify (Verilator on every test vector, Icarus on a
// corner-complete prefix, both tops), synth, power — and DIR/REPORT.md
// (REPORT.html, self-contained, with its pictures inline).
//
// Every step but six is one ordinary hdlgen command line, run through the
// Runner the caller provides (the command line runs them in-process) and
// listed in the report exactly as run, so any step can be repeated by hand.
// The six done here: the held-out split (two CSV files, label last, so that
// every later command can be rerun on them), the baseline (package logreg),
// the design and the sizes over P (hdlgen's analytic power model, the
// numbers `hdlgen power model.json --parallel P` prints), and the two
// verifications (package verify, the checks `hdlgen
// verify DIR --steps …` runs, whose results the report needs as values).
// Every number in the report is read as a value: JSON written by the
// commands (search, predict --score --json, synth --json, power --json) or
// the Go results of the steps done here; no command's text is parsed.
//
// Output folder DIR: refused when it is not empty and not a build folder
// (DIR/.build), unless Options.Force; locked for the run (internal/jobs), so
// a second build into it fails at once naming the first; paths that make
// cannot work in (spaces, shell characters) are refused before any work.
//
// Resumable: a step's fingerprint is the SHA-256 of its name, its command
// line and the fingerprints of the steps whose outputs it reads; its record
// (DIR/.build/steps/<step>.json, a jobs.Store) holds the fingerprint and the
// SHA-256 of every file the step wrote (jobs.Outputs). A step is skipped only
// when its record's fingerprint is the current one and every output is
// present and unchanged; otherwise it runs again (and the steps after it
// see its new fingerprint only if its command or inputs changed). The
// search keeps its finished parts in DIR/search-parts, so an interrupted
// search resumes without losing finished folds. Steps with no dependency on
// each other (the two verifications and the synthesis) run at once.
//
// The final model is fitted on the training share only (not refitted on all
// rows): the held-out accuracy in the report is that of the model and the
// hardware in DIR. The held-out rows play no part in any choice — N, λ, κ,
// the readout, P — which are made on validation folds of the training rows.
package buildflow
