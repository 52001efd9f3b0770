package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hdlgen/hdlgen/campaign"
)

func TestCampaignFlags(t *testing.T) {
	tests := []struct {
		args []string
		code int
		want string // in stderr (usage errors) or stdout (--list)
	}{
		{[]string{"campaign", "--designs", "0", "--out", "x"}, exitUsage, "--designs 0"},
		{[]string{"campaign", "--designs", "3", "--vectors", "0", "--out", "x"}, exitUsage, "--vectors 0"},
		{[]string{"campaign", "--designs", "3", "--only", "3", "--out", "x"}, exitUsage, `--only "3"`},
		// Issue 26, item 16: --only "," (or any empty entry) ran every design.
		{[]string{"campaign", "--designs", "3", "--only", ",", "--out", "x"}, exitUsage, `--only ","`},
		{[]string{"campaign", "--designs", "3", "--only", "", "--out", "x"}, exitUsage, `--only ""`},
		{[]string{"campaign", "--designs", "3", "--only", "1,,2", "--out", "x"}, exitUsage, `--only "1,,2"`},
		{[]string{"campaign", "--designs", "3", "--workers", "0", "--out", "x"}, exitUsage, "--workers 0"},
		// --network: networks the campaign draws (those with RTL), each once.
		{[]string{"campaign", "--designs", "3", "--network", "rvfl", "--out", "x"}, exitUsage, `--network "rvfl": want comma-separated networks among`},
		{[]string{"campaign", "--designs", "3", "--network", "", "--out", "x"}, exitUsage, `--network "": want`},
		{[]string{"campaign", "--designs", "3", "--network", "intrvfl2,", "--out", "x"}, exitUsage, `--network "intrvfl2,": want`},
		{[]string{"campaign", "--designs", "3", "--network", "intrvfl2,intrvfl2", "--out", "x"}, exitUsage, "intrvfl2 given twice"},
		{[]string{"campaign", "--designs", "3"}, exitUsage, "--out DIR is required"},
		{[]string{"campaign", "--out", "x"}, exitUsage, `required flag(s) "designs" not set`},
		{[]string{"campaign", "--designs", "2", "--seed", "1", "--list"}, exitOK, "Designs 0…1 of seed 1"},
	}
	for _, tc := range tests {
		code, out, errs := run(t, tc.args...)
		got := errs
		if tc.code == exitOK {
			got = out
		}
		if code != tc.code || !strings.Contains(got, tc.want) {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit %d mentioning %q", tc.args, code, out, errs, tc.code, tc.want)
		}
	}
	// Issue 26, item 16: a rerun with another --seed into a campaign's folder
	// replaced its records one by one.
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "designs"), 0o755); err != nil {
		t.Fatal(err)
	}
	rec, err := json.Marshal(campaign.Record{Design: campaign.Draw(1, 0)})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "designs", "d0000.json"), rec, 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, errs := run(t, "campaign", "--designs", "1", "--seed", "2", "--out", dir)
	if code != exitUsage || !strings.Contains(errs, "holds the records of the campaign with --seed 1") {
		t.Errorf("another seed into a campaign's folder: exit %d, %q", code, errs)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "designs", "d0000.json")); err != nil || string(b) != string(rec) {
		t.Errorf("the record changed: %v", err)
	}
	// --list is the draw: the same seed prints the same designs.
	_, a, _ := run(t, "campaign", "--designs", "20", "--seed", "4", "--list")
	_, b, _ := run(t, "campaign", "--designs", "20", "--seed", "4", "--list")
	if a != b || strings.Count(a, "\nd00") != 20 {
		t.Errorf("--list twice: equal %v, %d design lines; want equal and 20:\n%s", a == b, strings.Count(a, "\nd00"), a)
	}
}
