package ridge

import "math"

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
// of equal penalty r[j]. It reads h row by row (its columns are strided):
// the sign-normalised columns are hashed side by side and grouped by hash
// and penalty, and one more pass compares every column with its group's
// first column; should two different columns share a hash, the columns
// are grouped again one by one (exactColumnGroups).
func findColumnGroups(h []float64, rows, ld, p int, r []float64) *columnGroups {
	norm := normalisingSigns(h, rows, ld, p)
	keys := columnKeys(h, rows, ld, p, norm)
	type bucket struct{ key, penalty uint64 }
	first := map[bucket]int{} // → group
	cg := &columnGroups{group: make([]int, p), sign: make([]float64, p)}
	for j := 0; j < p; j++ {
		b := bucket{keys[j], math.Float64bits(r[j])}
		g, ok := first[b]
		if !ok {
			g = len(cg.rep)
			cg.rep = append(cg.rep, j)
			first[b] = g
		}
		cg.group[j] = g
		cg.sign[j] = norm[j] * norm[cg.rep[g]]
	}
	if len(cg.rep) < p && !cg.verify(h, rows, ld, norm) {
		return exactColumnGroups(h, rows, ld, p, r, norm)
	}
	return cg
}

// normalisingSigns returns, per column, −1 when its first non-zero value
// is negative, else 1.
func normalisingSigns(h []float64, rows, ld, p int) []float64 {
	norm := make([]float64, p)
	found := make([]bool, p)
	left := p
	for i := 0; i < rows && left > 0; i++ {
		for j, v := range h[i*ld : i*ld+p] {
			if v != 0 && !found[j] {
				found[j], left = true, left-1
				norm[j] = math.Copysign(1, v)
			}
		}
	}
	for j, f := range found {
		if !f {
			norm[j] = 1 // the zero column
		}
	}
	return norm
}

// columnKeys hashes the sign-normalised columns (−0 as +0), all side by
// side, row by row. A variable so that a test can make keys collide.
var columnKeys = func(h []float64, rows, ld, p int, norm []float64) []uint64 {
	keys := make([]uint64, p)
	for i := 0; i < rows; i++ {
		for j, v := range h[i*ld : i*ld+p] {
			x := norm[j]*v + 0                                        // −0 + 0 = +0
			k := (keys[j] ^ math.Float64bits(x)) * 0xff51afd7ed558ccd // MurmurHash3's finaliser steps
			keys[j] = k ^ k>>33
		}
	}
	return keys
}

// verify reports whether every column equals its group's first column
// times its sign, value by value.
func (cg *columnGroups) verify(h []float64, rows, ld int, norm []float64) bool {
	for i := 0; i < rows; i++ {
		row := h[i*ld : i*ld+len(cg.group)]
		for j, v := range row {
			if k := cg.rep[cg.group[j]]; k != j && norm[j]*v != norm[k]*row[k] {
				return false
			}
		}
	}
	return true
}

// exactColumnGroups groups the columns one by one, comparing each with
// the first column of every group so far (strided reads).
func exactColumnGroups(h []float64, rows, ld, p int, r, norm []float64) *columnGroups {
	cg := &columnGroups{group: make([]int, p), sign: make([]float64, p)}
	for j := 0; j < p; j++ {
		found := -1
		for g, k := range cg.rep {
			if r[k] == r[j] && sameColumn(h, rows, ld, j, norm[j], k, norm[k]) {
				found = g
				break
			}
		}
		if found < 0 {
			found = len(cg.rep)
			cg.rep = append(cg.rep, j)
		}
		cg.group[j] = found
		cg.sign[j] = norm[j] * norm[cg.rep[found]]
	}
	return cg
}

// sameColumn reports whether columns j and k of h, times their signs, are
// equal.
func sameColumn(h []float64, rows, ld, j int, sj float64, k int, sk float64) bool {
	for i := 0; i < rows; i++ {
		if sj*h[i*ld+j] != sk*h[i*ld+k] {
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
	size []int     // columns of group S among the first p
	root []float64 // √size
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
	r.root = make([]float64, r.q)
	for a, size := range r.size {
		r.root[a] = math.Sqrt(float64(size))
	}
	return r, r.q < p
}

// system writes the reduced q×q system's lower triangle,
// s_S·s_T·G[rep_S][rep_T] + λ·R[rep_S] on the diagonal (s = √size), into
// dst, and the reduced right-hand side s_S·(HᵀY)_rep_S into b (q×L).
func (r reduction) system(lambda float64, dst, b []float64) {
	nm, cg := r.nm, r.cg
	n, L := nm.N, nm.Classes
	for a := 0; a < r.q; a++ {
		ra, sa := cg.rep[a], r.root[a]
		for c := 0; c <= a; c++ {
			dst[a*r.q+c] = sa * r.root[c] * nm.Gram[ra*n+cg.rep[c]]
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
	for j := 0; j < r.p; j++ {
		g := cg.group[j]
		f := cg.sign[j] / r.root[g]
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
