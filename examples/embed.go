// Package examples embeds small classic datasets as CSV files, so that the
// hdlgen command and the tests can run with no data files around. See
// README.md in this directory for their provenance and licence.
//
// Each file has a header row; all columns but the last are numeric features
// and the last column, "class", holds the class name (the CSV format read by
// dataset.ReadCSV):
//
//   - iris.csv: 150 rows, 4 features, 3 classes (setosa, versicolor, virginica; 50 each).
//   - breast-cancer-wisc.csv: 699 rows, 9 features, 2 classes (benign 458, malignant 241).
//
// Load one with dataset.LoadCSVFS(examples.FS, examples.Iris, dataset.CSVOptions{}).
package examples

import "embed"

// File names of the embedded datasets, valid for FS.
const (
	Iris         = "iris.csv"               // multi-class example
	BreastCancer = "breast-cancer-wisc.csv" // two-class example
)

// FS holds the embedded CSV files at its root.
//
//go:embed iris.csv breast-cancer-wisc.csv
var FS embed.FS

// Names returns the file names of the embedded datasets.
func Names() []string { return []string{Iris, BreastCancer} }
