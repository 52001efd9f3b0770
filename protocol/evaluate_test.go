package protocol

import (
	"context"
	"sort"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/hdlgen/hdlgen/dataset"
	"github.com/hdlgen/hdlgen/model"
)

// TestFilesMismatchedFindsTheCollectionsInconsistentFiles checks the label-free
// rule against the list in DESIGN.md: exactly these 11 two-file datasets have one
// file standardised and the other not.
func TestFilesMismatchedFindsTheCollectionsInconsistentFiles(t *testing.T) {
	var got []string
	for _, u := range twoFileDatasets(t) {
		if FilesMismatched(u) {
			got = append(got, u.Meta.Name)
		}
	}
	sort.Strings(got)
	want := []string{"annealing", "hayes-roth", "hill-valley", "horse-colic", "image-segmentation",
		"monks-1", "monks-2", "monks-3", "soybean", "spect", "spectf"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("mismatched files (-want +got):\n%s", diff)
	}
}

// twoFileDatasets loads the collection's datasets that have a separate test
// file.
func twoFileDatasets(t *testing.T) []*dataset.UCIDataset {
	t.Helper()
	dir := collection(t)
	names, err := dataset.ListUCI(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []*dataset.UCIDataset
	for _, n := range names {
		meta, err := dataset.ReadUCIMeta(dir, n)
		if err != nil || meta.TestFile == "" {
			continue
		}
		u, err := dataset.LoadUCI(dir, n)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, u)
	}
	return out
}

func TestEvaluateTwoFileReportsBothNormalisations(t *testing.T) {
	u, err := dataset.LoadUCI(collection(t), "image-segmentation")
	if err != nil {
		t.Fatal(err)
	}
	cfg := model.Config{Arch: model.IntRVFL, N: 100, Kappa: 3, Lambda: 1}
	for _, tc := range []struct {
		tn   TestNorm
		want func(r *EvalResult) float64
	}{
		{TestNormOwn, func(r *EvalResult) float64 { return r.Own.Mean }},
		{TestNormTrain, func(r *EvalResult) float64 { return r.Train.Mean }},
		{TestNormAuto, func(r *EvalResult) float64 { return r.Own.Mean }}, // mismatched files → own
	} {
		r, err := Evaluate(context.Background(), u, cfg, EvalOptions{Seeds: []uint64{0, 1}, TestNorm: tc.tn})
		if err != nil {
			t.Fatal(err)
		}
		if r.Own == nil || r.Train == nil || !r.Mismatched {
			t.Fatalf("%s: result lacks both normalisations: %+v", tc.tn, r)
		}
		if r.Mean != tc.want(r) {
			t.Errorf("%s: mean %.4f, want %.4f", tc.tn, r.Mean, tc.want(r))
		}
	}
}
