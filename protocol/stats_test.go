package protocol

import (
	"math"
	"testing"
)

func near(a, b, tol float64) bool { return math.Abs(a-b) <= tol }

func TestCompareKnownValues(t *testing.T) {
	// Reference values from the textbook formulas, integrated independently (Simpson's
	// rule on the t density in Python):
	// a = 1..5, b = a + (0.1, 0.3, 0.2, 0.5, 0.4): d mean 0.3, sd 0.1581, t = 4.2426, df 4.
	a := []float64{1, 2, 3, 4, 5}
	b := []float64{1.1, 2.3, 3.2, 4.5, 5.4}
	c := Compare(a, b)
	if c.Wins != 5 || c.Losses != 0 || c.Ties != 0 {
		t.Errorf("win/tie/loss = %d/%d/%d", c.Wins, c.Ties, c.Losses)
	}
	if !near(c.PairedT, 0.0132356, 1e-6) { // 2·P(T4 > 4.2426)
		t.Errorf("paired t p = %v, want 0.01324", c.PairedT)
	}
	if !near(c.Pearson, 10.8/math.Sqrt(117), 1e-12) { // Σdadb = 10.8, Σda² = 10, Σdb² = 11.7
		t.Errorf("pearson = %v", c.Pearson)
	}
	// Two-sample pooled t: means 3 and 3.3, variances 2.5 and 2.925: t = 0.28801, df 8 → p = 0.780660.
	if !near(c.TwoSampleT, 0.780660, 1e-5) {
		t.Errorf("two-sample p = %v, want 0.780660", c.TwoSampleT)
	}
	// Wilcoxon, n = 5 all positive: W+ = 15, mu = 7.5, sigma = sqrt(13.75) → z = (7.5−0.5)/3.708 = 1.8878.
	if !near(c.Wilcoxon, 0.0590582, 1e-6) {
		t.Errorf("wilcoxon p = %v, want 0.05906", c.Wilcoxon)
	}
}

func TestCompareIdentical(t *testing.T) {
	a := []float64{0.5, 0.6, 0.7}
	c := Compare(a, a)
	if c.Ties != 3 || c.PairedT != 1 || c.Wilcoxon != 1 || !near(c.TwoSampleT, 1, 1e-12) {
		t.Errorf("identical lists: %+v", c)
	}
}
