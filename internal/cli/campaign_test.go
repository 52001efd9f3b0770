package cli

import (
	"strings"
	"testing"
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
		{[]string{"campaign", "--designs", "3", "--workers", "0", "--out", "x"}, exitUsage, "--workers 0"},
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
	// --list is the draw: the same seed prints the same designs.
	_, a, _ := run(t, "campaign", "--designs", "20", "--seed", "4", "--list")
	_, b, _ := run(t, "campaign", "--designs", "20", "--seed", "4", "--list")
	if a != b || strings.Count(a, "\nd00") != 20 {
		t.Errorf("--list twice: equal %v, %d design lines; want equal and 20:\n%s", a == b, strings.Count(a, "\nd00"), a)
	}
}
