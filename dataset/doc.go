// Package dataset loads classification data for training and for the
// benchmark: the UCI-121 collection of Fernández-Delgado et al. (JMLR 2014)
// and users' own CSV files. It depends on the standard library only.
//
// # In memory
//
// A Dataset holds M rows of K float64 features, row-major in one flat slice
// X (feature j of row i is X[i*K+j]), and M class labels Y in [0, L), with K
// feature names and L class names. Values are finite. Subset copies rows
// selected by an index list; View selects them without copying. The loaders
// do not normalise anything: values are as in the file.
//
// # The UCI-121 collection
//
// A collection folder (the shared copy, or the extracted data.tar.gz of the
// study, whose layout is the same) holds one folder per dataset:
//
//	<name>/<name>.txt            metadata: "key= value" lines
//	<name>/<fich1>               data file, e.g. <name>_R.dat or <name>_train_R.dat
//	<name>/<fich2>               separate test file, if n_arquivos = 2
//	<name>/conxuntos.dat         search split: line 1 training, line 2 validation indices
//	<name>/conxuntos_kfold.dat   4 folds: lines 2f+1 training, 2f+2 test indices of fold f
//
// A data file is tab-separated: a header (empty cell, f1 … fK, clase), then
// per row the 1-based row number, K values and the 0-based integer label.
// Indices are 0-based and refer to the rows of fich1, also for two-file
// datasets, whose final evaluation trains on fich1 and tests on fich2.
//
// ListUCI lists the datasets of a folder, ReadUCIMeta reads one metadata
// file, LoadUCI loads and checks a dataset. LoadUCI checks: the metadata
// keys (n_entradas, n_clases, n_arquivos ∈ {1,2}, fich1/fich2,
// n_patrons1/n_patrons2, n_patrons_entrena/n_patrons_valida); the header
// column count; per row the row number, the column count, each value
// (a finite number) and the label (an integer in [0, n_clases)); the row
// count of each file against n_patrons1/2; the index lists (integers in
// [0, n_patrons1), no index twice in a list, 2 resp. 8 lines, line lengths
// n_patrons_entrena/n_patrons_valida, training and validation/test lists of
// a split disjoint, no empty fold list). Not every class needs to occur in
// a file (two test files of the collection lack classes). Class names are
// "0", "1", …, the label name is the header's last cell ("clase").
//
// A data file that does not exist (miniboone in the shipped copy) yields a
// *MissingDataError, for which errors.Is(err, ErrDataFileMissing) holds, so
// that a benchmark run can report the dataset as skipped.
//
// # Numbers
//
// A value (in CSV and .dat files alike) is a number as spreadsheets and
// numeric programs write it: an optional sign, decimal digits with an
// optional decimal point (at least one digit before or after it), and an
// optional exponent (e or E, an optional sign, digits): 12, -0.5, .5, 5.,
// +1.5E+10, 1e-05. It must be finite in float64. Go's other literal forms,
// which strconv.ParseFloat also takes (1_000, 0x1p4, 0X1.8P1), are refused
// with a message that says so; NaN, Inf and Infinity (any case or sign) are
// "not a finite number"; thousands separators, 0b1 and 0o7 are not numbers.
// The same rule decides whether class labels sort as numbers.
//
// # CSV files
//
// ReadCSV / LoadCSV / LoadCSVFS read labelled data: a header row, numeric
// feature columns, the class label in the last column (text or number) or
// in the column CSVOptions.LabelColumn names (a header name, else a 1-based
// column number). A first row whose every field is a number is taken for a
// missing header and refused (it would otherwise be silently dropped as
// column names); one non-numeric name makes it a header. LabelWarnings
// flags label columns that look wrong: as many classes as rows, fewer than
// two rows per class, fractional numbers (a continuous target) or more than
// 20 distinct integers.
// Classes are numbered in sorted order: numerically if every label is a
// finite number, else by byte order of the label text. ReadFeaturesCSV /
// LoadFeaturesCSV read unlabelled data for prediction: with expected feature
// names (FeatureOptions.Names, a model's) the columns are matched by name in
// any order, a column named like the label is ignored, and a header that is
// not a permutation of the names is a *ColumnsError naming the missing and
// unexpected columns; without names, by position, optionally ignoring a
// trailing label column. The separator is ',' unless given, or detected
// from the header line among ',', ';' and tab (see CSVOptions). A UTF-8 BOM,
// CRLF line ends, quoted fields and blank lines are accepted; fields are
// trimmed of white space.
//
// # Errors
//
// Malformed content yields a *ParseError whose message names the file, the
// 1-based line and, where it applies, the 1-based field and its name:
//
//	dataset: iris/iris_R.dat:12: field 3 (f2): not a number: "x"
//	dataset: data.csv:7: wrong number of fields: got 4, want 5 (as in the header)
//	dataset: iris/conxuntos.dat:2: field 9: index 42 duplicated (first at field 3)
//	dataset: iris/iris.txt: n_clases: missing key
//
// Problems with the whole file omit the line (for example a row count that
// disagrees with the metadata). Errors opening files wrap the *fs.PathError.
package dataset
