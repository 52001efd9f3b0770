package plan

import (
	"strings"
	"testing"
)

func TestSanitizePrefix(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"plain", "iris", "iris"},
		{"upper", "Breast-Cancer-Wisc", "breast_cancer_wisc"},
		{"spaces and dots", "my model v1.2", "my_model_v1_2"},
		{"runs collapse", "a--b__c  d", "a_b_c_d"},
		{"leading digit", "2moons", "m_2moons"},
		{"only digits", "121", "m_121"},
		{"empty", "", "m"},
		{"all punctuation", "!!!", "m"},
		{"only underscores", "__", "m"},
		{"leading underscore kept", "_x", "_x"},
		{"unicode letters", "café-κ3", "caf_3"},
		{"cjk", "模型", "m"},
		{"emoji and digit", "🙂9", "_9"},
		{"verilog keyword", "module", "module_m"},
		{"verilog keyword upper", "WIRE", "wire_m"},
		{"systemverilog keyword", "logic", "logic_m"},
		{"sv keyword after mapping", "always-comb", "always_comb_m"},
		{"keyword prefix is fine", "modules", "modules"},
		{"tab and newline", "a\tb\nc", "a_b_c"},
		{"trailing punctuation", "net-", "net"},
		{"digit after trailing strip", "7-", "m_7"},
		{"keyword after trailing strip", "wire!", "wire_m"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := SanitizePrefix(tc.in)
			if got != tc.want {
				t.Errorf("SanitizePrefix(%q) = %q, want %q", tc.in, got, tc.want)
			}
			if again := SanitizePrefix(got); again != got {
				t.Errorf("not idempotent: %q → %q", got, again)
			}
			if strings.Contains(got+"_top", "__") {
				t.Errorf("%q_top has a double underscore", got)
			}
		})
	}
}
