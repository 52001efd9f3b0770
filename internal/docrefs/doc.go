// Package docrefs holds the test that keeps the documentation from going
// stale: every file, folder, package, exported identifier and test that the
// hand-written Markdown of the repository names (README.md, CONTRIBUTING.md,
// docs/, examples/ and the READMEs under results/) must exist in the tree.
//
// What it reads as a reference:
//
//   - a Markdown link to a relative target (resolved from the document's
//     folder; an anchor after # is not checked);
//   - inside `code`: a path whose first element is a top-level entry of the
//     repository (`rtl/templates/core_intrvfl.v.tmpl`, `go run
//     scripts/cmdbench.go`, `power/activity`), without wildcards or
//     placeholders (*, <…>, …, {…}, NAME in capitals), other than the files
//     of an emitted design that share a folder name with the repository
//     (rtl/*.v, vivado/*.tcl) and the files scripts/third-network.sh writes
//     into its throwaway worktree;
//   - inside `code`: pkg.Name and pkg.Type.Member, where pkg is the name of a
//     package of the module, Name exported (a top-level declaration, or a
//     method of one of its types: model.QuantizeReadout) and Member a method
//     or field of Type;
//   - inside `code`: a test, benchmark or fuzz function (TestName, or the
//     beginning of one, as go test -run TestName matches it).
//
// What it does not read: fenced code blocks' output paths outside the
// repository, and the measured tables between <!-- testtimes:LABEL -->
// markers (docs/testing.md): they record a past run at the commit they
// name, with the package names of that commit, as results/ records its runs;
// regenerating them is how they change. The generated results (summary.md,
// REPORT.md, results/tests and results/cmdbench) are records in the same way.
// Other generated sections (the import list, the layer table, the robustness
// table) are checked like any text: they are regenerated from today's tree.
//
// The headline figures the docs repeat (the intRVFL's mean accuracies, the
// 5-bit readout's, the energy-budget study's) have one source: a table in
// results/README.md generated from the committed summaries' JSON
// (headline_test.go). Every copy is marked VALUE<!-- headline:NAME -->;
// TestHeadlineFigures fails when a copy differs from the summaries, and
// go test ./internal/docrefs -update rewrites the table and every copy.
package docrefs
