package protocol

import (
	"math"
	"sort"

	"gonum.org/v1/gonum/stat/distuv"
)

// Comparison summarises two accuracy lists over the same datasets (a = baseline,
// b = challenger).
type Comparison struct {
	N            int     `json:"datasets"`
	MeanA, MeanB float64 `json:"-"`
	Pearson      float64 `json:"pearson"`
	// PairedT is the two-sided p-value of the paired t-test of b − a.
	PairedT float64 `json:"p_paired_t"`
	// TwoSampleT is the two-sided p-value of Student's two-sample t-test with
	// pooled variance (MATLAB ttest2's default, the paper's "two-sample test").
	TwoSampleT float64 `json:"p_two_sample_t"`
	// Wilcoxon is the two-sided p-value of the Wilcoxon signed-rank test (normal
	// approximation with tie and continuity corrections; zero differences dropped).
	Wilcoxon float64 `json:"p_wilcoxon"`
	// Wins, Ties, Losses count datasets where b is above, equal to (|Δ| < 1e-9) or
	// below a.
	Wins, Ties, Losses int `json:"-"`
}

// Compare computes the statistics for paired lists a and b.
func Compare(a, b []float64) Comparison {
	if len(a) != len(b) {
		panic("protocol: Compare of lists of different lengths")
	}
	c := Comparison{N: len(a), MeanA: Mean(a), MeanB: Mean(b), Pearson: pearson(a, b)}
	d := make([]float64, len(a))
	for i := range a {
		d[i] = b[i] - a[i]
		switch {
		case math.Abs(d[i]) < 1e-9:
			c.Ties++
		case d[i] > 0:
			c.Wins++
		default:
			c.Losses++
		}
	}
	c.PairedT = oneSampleT(d)
	c.TwoSampleT = twoSampleT(a, b)
	c.Wilcoxon = wilcoxon(d)
	return c
}

func pearson(a, b []float64) float64 {
	ma, mb := Mean(a), Mean(b)
	var sab, saa, sbb float64
	for i := range a {
		da, db := a[i]-ma, b[i]-mb
		sab += da * db
		saa += da * da
		sbb += db * db
	}
	return sab / math.Sqrt(saa*sbb)
}

// twoSidedT is the two-sided p-value of statistic t with df degrees of freedom.
func twoSidedT(t, df float64) float64 {
	if math.IsNaN(t) || df < 1 {
		return math.NaN()
	}
	dist := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: df}
	return 2 * dist.CDF(-math.Abs(t))
}

func oneSampleT(d []float64) float64 {
	n := float64(len(d))
	s := StdDev(d)
	if s == 0 {
		if Mean(d) == 0 {
			return 1
		}
		return 0
	}
	return twoSidedT(Mean(d)/(s/math.Sqrt(n)), n-1)
}

func twoSampleT(a, b []float64) float64 {
	na, nb := float64(len(a)), float64(len(b))
	va, vb := StdDev(a), StdDev(b)
	pooled := ((na-1)*va*va + (nb-1)*vb*vb) / (na + nb - 2)
	if pooled == 0 {
		if Mean(a) == Mean(b) {
			return 1
		}
		return 0
	}
	t := (Mean(b) - Mean(a)) / math.Sqrt(pooled*(1/na+1/nb))
	return twoSidedT(t, na+nb-2)
}

func wilcoxon(d []float64) float64 {
	type diff struct{ abs, sign float64 }
	var ds []diff
	for _, v := range d {
		if math.Abs(v) >= 1e-12 {
			ds = append(ds, diff{math.Abs(v), math.Copysign(1, v)})
		}
	}
	n := float64(len(ds))
	if n == 0 {
		return 1
	}
	sort.Slice(ds, func(i, j int) bool { return ds[i].abs < ds[j].abs })
	var wPlus, tieCorr float64
	for i := 0; i < len(ds); {
		j := i
		for j < len(ds) && ds[j].abs-ds[i].abs < 1e-12 {
			j++
		}
		rank := float64(i+j+1) / 2 // average of ranks i+1 … j
		t := float64(j - i)
		tieCorr += t*t*t - t
		for k := i; k < j; k++ {
			if ds[k].sign > 0 {
				wPlus += rank
			}
		}
		i = j
	}
	mu := n * (n + 1) / 4
	sigma := math.Sqrt(n*(n+1)*(2*n+1)/24 - tieCorr/48)
	if sigma == 0 {
		return 1
	}
	z := (math.Abs(wPlus-mu) - 0.5) / sigma
	if z < 0 {
		z = 0
	}
	return 2 * distuv.UnitNormal.CDF(-z)
}

// Mean is the arithmetic mean of v (NaN for an empty list).
func Mean(v []float64) float64 {
	if len(v) == 0 {
		return math.NaN()
	}
	var s float64
	for _, x := range v {
		s += x
	}
	return s / float64(len(v))
}

// StdDev is the sample standard deviation of v (n−1 denominator; 0 below two values).
func StdDev(v []float64) float64 {
	if len(v) < 2 {
		return 0
	}
	m := Mean(v)
	var s float64
	for _, x := range v {
		s += (x - m) * (x - m)
	}
	return math.Sqrt(s / float64(len(v)-1))
}

// Median of sorted values (0 for an empty list).
func Median(sorted []float64) float64 {
	n := len(sorted)
	if n == 0 {
		return 0
	}
	if n%2 == 1 {
		return sorted[n/2]
	}
	return (sorted[n/2-1] + sorted[n/2]) / 2
}
