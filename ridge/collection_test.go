package ridge_test

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/hdlgen/hdlgen/dataset"
	"github.com/hdlgen/hdlgen/internal/hwtest"
	"github.com/hdlgen/hdlgen/model"
	"github.com/hdlgen/hdlgen/protocol"
	"github.com/hdlgen/hdlgen/ridge"
)

// TestPinvFilterApplyCollection: on collection datasets, the PinvCutoff
// grid with the variance penalty (as `hdlgen search/reproduce --solver
// pinv-cutoff` computes it: the protocol's split and networks, seed 0, the
// paper's 16 λ) gives the same correct counts and dropped counts through
// SymFilterApply, on the system of the groups where columns repeat, as
// through SymEigen's eigenvectors of the full system; it logs the groups
// of each intRVFL case (go test -v). The RVFL uses the
// prefixes N = 50…500 (step 50) of one network, the intRVFL N ∈ {50, 200,
// 500} with the paper's κ; a smaller grid than the paper's to keep the test
// short. Needs HDLGEN_UCI121; balloons and teaching in the full tier only.
func TestPinvFilterApplyCollection(t *testing.T) {
	dir := hwtest.CollectionDir(t)
	lambdas := protocol.PaperGrid().Lambdas
	kappas := protocol.PaperGrid().Kappas
	var rvflNs []int
	for n := 50; n <= 500; n += 50 {
		rvflNs = append(rvflNs, n)
	}
	intNs := []int{50, 200, 500}
	for _, name := range []string{"iris", "balloons", "teaching"} {
		t.Run(name, func(t *testing.T) {
			if name != "iris" {
				// The full eigendecomposition of each grid point is most of
				// a dataset's 12–15 s: iris in the standard tier.
				hwtest.Require(t, hwtest.Full)
			}
			u, err := dataset.LoadUCI(dir, name)
			if err != nil {
				t.Fatal(err)
			}
			sp := protocol.NewSplit(u)
			fast := ridge.Solver{Reg: ridge.Variance, Method: ridge.PinvCutoff, Threads: 1}
			full := ridge.WithFullEigen(fast)
			compare := func(what string, htr, hva []float64, cols int, prefixes []int) {
				t.Helper()
				train := ridge.Data{H: htr, Rows: sp.MTrain, Cols: cols, Labels: sp.YTrain}
				val := ridge.Data{H: hva, Rows: sp.MVal, Cols: cols, Labels: sp.YVal}
				want, err := full.Grid(train, val, sp.L, lambdas, prefixes)
				if err != nil {
					t.Fatal(err)
				}
				got, err := fast.Grid(train, val, sp.L, lambdas, prefixes)
				if err != nil {
					t.Fatal(err)
				}
				if diff := cmp.Diff(want.Correct, got.Correct); diff != "" {
					t.Errorf("%s: correct counts differ from the SymEigen route (-want +got):\n%s", what, diff)
				}
				if diff := cmp.Diff(want.Dropped, got.Dropped); diff != "" {
					t.Errorf("%s: dropped counts differ from the SymEigen route (-want +got):\n%s", what, diff)
				}
			}
			maxN := rvflNs[len(rvflNs)-1]
			net := model.NewFloatNet(sp.K, maxN, 0)
			compare("rvfl", net.HiddenMatrix(sp.XTrain, sp.MTrain), net.HiddenMatrix(sp.XVal, sp.MVal), maxN, rvflNs)
			for _, n := range intNs {
				inet := model.NewIntNetGen(sp.K, n, 1, 0, model.WinStored)
				str, sva := make([]int16, sp.MTrain*n), make([]int16, sp.MVal*n)
				protocol.HiddenInputsTo(str, inet, sp.XTrain, sp.MTrain)
				protocol.HiddenInputsTo(sva, inet, sp.XVal, sp.MVal)
				htr, hva := make([]float64, len(str)), make([]float64, len(sva))
				solved := map[int]bool{}
				for _, kappa := range kappas {
					eff := min(kappa, sp.K) // clipping at κ ≥ K changes nothing
					if solved[eff] {
						continue
					}
					solved[eff] = true
					protocol.ClipTo(htr, str, eff)
					protocol.ClipTo(hva, sva, eff)
					what := fmt.Sprintf("intrvfl N=%d κ=%d", n, eff)
					t.Logf("%s: %d distinct columns (up to sign) on the %d training rows", what, ridge.ColumnGroups(htr, sp.MTrain, n), sp.MTrain)
					compare(what, htr, hva, n, []int{n})
				}
			}
		})
	}
}
