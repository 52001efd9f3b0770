package hwstudy

import (
	"context"
	"encoding/json"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/hdlgen/hdlgen/internal/hwtest"
	"github.com/hdlgen/hdlgen/model"
	"github.com/hdlgen/hdlgen/power/activity"
)

func TestMedianRegularizer(t *testing.T) {
	tests := []struct {
		in      model.Regularizer
		want    model.Regularizer
		wantErr bool
	}{
		{"", model.RegIdentity, false}, // the recommendation for integer readouts, not model.Train's default
		{model.RegIdentity, model.RegIdentity, false},
		{model.RegVariance, model.RegVariance, false},
		{"tikhonov", "", true},
	}
	for _, tc := range tests {
		got, err := medianRegularizer(tc.in)
		if (err != nil) != tc.wantErr || got != tc.want {
			t.Errorf("medianRegularizer(%q) = %q, %v; want %q, error %v", tc.in, got, err, tc.want, tc.wantErr)
		}
	}
}

// TestMedianRecordsPenalty: median.md names the penalty with its formula and
// median.json carries it.
func TestMedianRecordsPenalty(t *testing.T) {
	tests := []struct {
		reg    model.Regularizer
		wantMD string
	}{
		{model.RegIdentity, "Ridge penalty of both networks: identity, λ·I (`--regularizer identity`)."},
		{model.RegVariance, "Ridge penalty of both networks: variance, λ·diag(var H) (`--regularizer variance`)."},
	}
	for _, tc := range tests {
		res := &MedianResult{Regularizer: tc.reg}
		if md := string(res.Markdown()); !strings.Contains(md, tc.wantMD) {
			t.Errorf("%s: markdown lacks %q", tc.reg, tc.wantMD)
		}
		js, err := json.Marshal(res)
		if err != nil {
			t.Fatal(err)
		}
		var back struct {
			Regularizer model.Regularizer `json:"regularizer"`
		}
		if err := json.Unmarshal(js, &back); err != nil {
			t.Fatal(err)
		}
		if back.Regularizer != tc.reg {
			t.Errorf("median.json regularizer %q, want %q", back.Regularizer, tc.reg)
		}
	}
}

func readCommittedMedian(t *testing.T) *MedianResult {
	t.Helper()
	b, err := os.ReadFile("../results/hardware/median.json")
	if err != nil {
		t.Fatalf("%v (run: hdlgen power --median-table --out results/hardware)", err)
	}
	var res MedianResult
	if err := json.Unmarshal(b, &res); err != nil {
		t.Fatalf("median.json: %v", err)
	}
	return &res
}

// TestCommittedMedianModels retrains the two median networks with the
// penalty results/hardware/median.json records and compares λ, accuracies and
// effective readout widths with the committed table: a change of the training,
// the λ search or the data handling without a new table fails here. It also
// checks that both networks really were trained with that penalty.
func TestCommittedMedianModels(t *testing.T) {
	dir := hwtest.CollectionDir(t)
	res := readCommittedMedian(t)
	if res.Regularizer == "" {
		t.Fatal("median.json records no ridge penalty; rerun hdlgen power --median-table")
	}
	train, test, search, err := LoadMedianData(dir)
	if err != nil {
		t.Fatal(err)
	}
	intM, r8M, intInfo, r8Info, err := trainMedianNets(context.Background(), train, test, search, res.Regularizer)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([]NetInfo{res.Int, res.RVFL8}, []NetInfo{intInfo, r8Info}); d != "" {
		t.Errorf("median networks (-results/hardware/median.json +trained now):\n%s", d)
	}
	for _, m := range []*model.Model{intM, r8M} {
		if m.Training.Regularizer != res.Regularizer {
			t.Errorf("%s trained with %q, want %q", m.Arch(), m.Training.Regularizer, res.Regularizer)
		}
		if !slices.Contains(MedianLambdas(), m.Training.Lambda) {
			t.Errorf("%s: λ=%g is not on the grid", m.Arch(), m.Training.Lambda)
		}
	}
}

// TestMedianScriptMatchesTable: scripts/median.sh trains with the penalty and
// the λ values the committed median table chose, and quotes its test
// accuracies, so that `make median` verifies the table's models.
func TestMedianScriptMatchesTable(t *testing.T) {
	res := readCommittedMedian(t)
	b, err := os.ReadFile("../scripts/median.sh")
	if err != nil {
		t.Fatal(err)
	}
	vars := map[string]string{}
	for _, m := range regexp.MustCompile(`(?m)^([A-Z0-9_]+)=(\S+)$`).FindAllStringSubmatch(string(b), -1) {
		vars[m[1]] = m[2]
	}
	num := func(name string) float64 {
		v, err := strconv.ParseFloat(vars[name], 64)
		if err != nil {
			t.Errorf("scripts/median.sh: %s=%q: %v", name, vars[name], err)
		}
		return v
	}
	type setting struct {
		Regularizer              string
		LambdaInt, LambdaRVFL8   float64
		TestAccInt, TestAccRVFL8 string
	}
	want := setting{string(res.Regularizer), res.Int.Lambda, res.RVFL8.Lambda,
		strconv.FormatFloat(res.Int.TestAcc, 'f', 4, 64), strconv.FormatFloat(res.RVFL8.TestAcc, 'f', 4, 64)}
	got := setting{vars["REGULARIZER"], num("LAMBDA_INT"), num("LAMBDA_RVFL8"), vars["TEST_ACC_INT"], vars["TEST_ACC_RVFL8"]}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("scripts/median.sh against results/hardware/median.json (-table +script):\n%s", d)
	}
	if n := strings.Count(string(b), `--regularizer "$REGULARIZER"`); n != 2 {
		t.Errorf("scripts/median.sh passes --regularizer \"$REGULARIZER\" to %d trainings, want 2", n)
	}
}

// TestMedianActivityColumns: with activity on both designs of a pair, the
// comparison carries the activity-based ratios and the table its section.
func TestMedianActivityColumns(t *testing.T) {
	withAct := func(r MedianRow, singleJ, streamJ, vlStreamJ float64) MedianRow {
		r.Activity = &MedianActivity{Vectors: 16, VectorlessStreamJ: vlStreamJ,
			Single: activity.ActivityPower{Mode: "single", EnergyJ: singleJ, DynamicW: 1e-3},
			Stream: activity.ActivityPower{Mode: "stream", EnergyJ: streamJ, DynamicW: 1e-3}}
		return r
	}
	res := &MedianResult{Designs: []MedianRow{
		withAct(medianRow(model.IntRVFL, 8, 1800, 69, 0.006), 5e-9, 4e-9, 3e-9),
		withAct(medianRow(model.RVFL8, 8, 4000, 71, 0.045), 60e-9, 50e-9, 30e-9),
		medianRow(model.IntRVFL, 1, 500, 517, 0.004), // no activity: no activity ratios
		medianRow(model.RVFL8, 1, 400, 519, 0.010),
	}}
	res.compare()
	got := [][3]float64{}
	for _, c := range res.SameP {
		got = append(got, [3]float64{c.ActivityRatioLatency, c.ActivityRatioStream, c.VectorlessRatioStream})
	}
	want := [][3]float64{{0, 0, 0}, {12, 12.5, 10}}
	if res.SameP[0].IntP != 1 {
		want[0], want[1] = want[1], want[0]
	}
	if d := cmp.Diff(want, got, cmpopts.EquateApprox(1e-12, 0)); d != "" {
		t.Errorf("activity ratios (-want +got):\n%s", d)
	}
	md := string(res.Markdown())
	for _, s := range []string{"## Activity-based energy", "| intrvfl | 8 | 16 |", "| 8 | 8 | 7.7× | 12.0× | 10.0× | 12.5× |"} {
		if !strings.Contains(md, s) {
			t.Errorf("markdown lacks %q", s)
		}
	}
	if strings.Contains(md, "| intrvfl | 1 | 16 |") {
		t.Error("a design without activity has an activity row")
	}
}
