package ridge

import (
	"encoding/binary"
	"hash/maphash"
	"math"
)

// Repeated hidden columns. Small or categorical data sets make many hidden
// neurons answer alike: on the training rows, column j of H equals column
// k or its negation (balloons: 8 distinct columns among 500). Such a
// group S of g columns with signs σ_j (h_j = σ_j·h_S) shrinks the primal
// pinv system exactly, in exact arithmetic:
//
//   - the g−1 directions u inside the group with Σ σ_j·u_j = 0 satisfy
//     H·u = 0 and R·u = r_S·u (the columns' variances are equal, bit for
//     bit), so they are eigenvectors of HᵀH + λR with the eigenvalue λ·r_S,
//     and HᵀY, whose rows j are σ_j·(HᵀY)_S, is orthogonal to them: they
//     take part in σ_max and in the dropped count, and add nothing to W;
//   - the remaining direction e_S = Σ σ_j·e_j/√g carries the group: the
//     reduced system has the column √g·h_S, the penalty r_S and the
//     right-hand side √g·(HᵀY)_S, and W's rows are σ_j·w̃_S/√g.
//
// So the pinv of the p×p system is that of a q×q one, q the number of
// groups, with the group's λ·r_S added to the spectrum g−1 times. The
// reduced system is rounded differently from the full one, so W agrees to
// rounding, not bit for bit; a prefix without repeated columns is solved
// exactly as before.

// columnGroups records, for the columns of H, which group each belongs to
// and with which sign. Groups are numbered in the order of their first
// column, so the groups of a prefix of the columns are a prefix of the
// groups.
type columnGroups struct {
	group []int     // group of column j
	sign  []float64 // h_j = sign[j]·h_rep(group[j])
	rep   []int     // first column of each group
}

// findColumnGroups groups the first p columns of the rows×ld row-major
// matrix h by equality up to sign, compared value by value, among columns
// of equal penalty r[j].
func findColumnGroups(h []float64, rows, ld, p int, r []float64) *columnGroups {
	cg := &columnGroups{group: make([]int, p), sign: make([]float64, p)}
	seed := maphash.MakeSeed()
	buckets := map[uint64][]int{} // hash of the sign-normalised column → groups
	norm := make([]float64, p)    // the sign that makes column j's first non-zero value positive
	col := make([]float64, rows)
	var buf [8]byte
	for j := 0; j < p; j++ {
		norm[j] = normalisingSign(h, rows, ld, j)
		var mh maphash.Hash
		mh.SetSeed(seed)
		for i := range col {
			col[i] = norm[j] * h[i*ld+j]
			if col[i] == 0 {
				col[i] = 0 // −0 and +0 are the same value
			}
			binary.LittleEndian.PutUint64(buf[:], math.Float64bits(col[i]))
			mh.Write(buf[:])
		}
		key := mh.Sum64()
		found := -1
		for _, g := range buckets[key] {
			if k := cg.rep[g]; r[k] == r[j] && sameColumn(h, ld, k, norm[k], col) {
				found = g
				break
			}
		}
		if found < 0 {
			found = len(cg.rep)
			cg.rep = append(cg.rep, j)
			buckets[key] = append(buckets[key], found)
		}
		cg.group[j] = found
		cg.sign[j] = norm[j] * norm[cg.rep[found]]
	}
	return cg
}

// normalisingSign returns −1 when column j's first non-zero value is
// negative, else 1.
func normalisingSign(h []float64, rows, ld, j int) float64 {
	for i := 0; i < rows; i++ {
		if v := h[i*ld+j]; v != 0 {
			if v < 0 {
				return -1
			}
			return 1
		}
	}
	return 1
}

// sameColumn reports whether column j of h times sign equals col.
func sameColumn(h []float64, ld, j int, sign float64, col []float64) bool {
	for i, c := range col {
		if sign*h[i*ld+j] != c {
			return false
		}
	}
	return true
}

// reduction is the grouped form of the first p columns: q groups with
// their sizes.
type reduction struct {
	nm   *Normal
	cg   *columnGroups
	p, q int
	size []int // columns of group S among the first p
}

// reduction returns the reduction of nm's first p columns, and false when
// nm has no groups or no group has two of the p columns (the system is
// solved unreduced).
func (nm *Normal) reduction(p int) (reduction, bool) {
	cg := nm.groups
	if cg == nil {
		return reduction{}, false
	}
	r := reduction{nm: nm, cg: cg, p: p}
	for j := 0; j < p; j++ {
		if g := cg.group[j]; g >= len(r.size) {
			r.size = append(r.size, 1)
		} else {
			r.size[g]++
		}
	}
	r.q = len(r.size)
	return r, r.q < p
}

// system writes the reduced q×q system's lower triangle,
// s_S·s_T·G[rep_S][rep_T] + λ·R[rep_S] on the diagonal (s = √size), into
// dst, and the reduced right-hand side s_S·(HᵀY)_rep_S into b (q×L).
func (r reduction) system(lambda float64, dst, b []float64) {
	nm, cg := r.nm, r.cg
	n, L := nm.N, nm.Classes
	for a := 0; a < r.q; a++ {
		ra, sa := cg.rep[a], math.Sqrt(float64(r.size[a]))
		for c := 0; c <= a; c++ {
			rc, sc := cg.rep[c], math.Sqrt(float64(r.size[c]))
			dst[a*r.q+c] = sa * sc * nm.Gram[ra*n+rc]
		}
		dst[a*r.q+a] += lambda * nm.RDiag[ra]
		for k := 0; k < L; k++ {
			b[a*L+k] = sa * nm.HtY[ra*L+k]
		}
	}
}

// expand writes W's rows σ_j·w̃_S/√size_S of the first p columns into dst
// (leading dimension ld, columns off…off+L) from the reduced w (q×L).
func (r reduction) expand(w []float64, dst []float64, ld, off int) {
	cg, L := r.cg, r.nm.Classes
	scale := make([]float64, r.q)
	for a := range scale {
		scale[a] = 1 / math.Sqrt(float64(r.size[a]))
	}
	for j := 0; j < r.p; j++ {
		g := cg.group[j]
		f := cg.sign[j] * scale[g]
		row := dst[j*ld+off : j*ld+off+L]
		for k, v := range w[g*L : g*L+L] {
			row[k] = f * v
		}
	}
}

// filter is the pinv filter of the reduced system's eigenvalues vals with
// the groups' eigenvalues λ·R added size−1 times each to the dropped
// count. They need not enter σ_max: the reduced system's largest
// eigenvalue is at least its largest diagonal element, which is at least
// every group's λ·R.
func (r reduction) filter(vals []float64, lambda, rtol float64) (g []float64, dropped int) {
	nm, cg := r.nm, r.cg
	g, dropped = filter(vals, 0, rtol, 0)
	tol := rtol * math.Max(math.Abs(vals[0]), math.Abs(vals[len(vals)-1]))
	for a, size := range r.size {
		if size > 1 && !(math.Abs(lambda*nm.RDiag[cg.rep[a]]) > tol) {
			dropped += size - 1
		}
	}
	return g, dropped
}
