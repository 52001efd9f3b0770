// Package quant turns a float readout into the small signed integers the
// intRVFL hardware stores, scores integer activations with it, and refines it
// with a genetic algorithm (GA). It is a leaf: it knows float matrices,
// integer activation matrices and labels, not networks or model files.
//
// # Shapes and units
//
// L classes, N hidden neurons, M rows. A float readout W is L×N row-major
// []float64. Activations h are M×N row-major int8 (Activations); for an
// intRVFL |h| ≤ κ. An integer readout (Readout) holds Q as L×N row-major
// []int32: Q[l][j] = Weights[l*N+j]. Scores y[m][l] = Σ_j Q[l][j]·h[m][j]
// are exact int32 (M×L row-major from Scores); the predicted class is
// argmax_l y[m][l] with ties to the lowest index (Argmax).
//
// # Quantisation
//
// Bound B ≥ 1 gives the levels −B…B; a b-bit word (2 ≤ b ≤ 16) has
// B = 2^(b−1) − 1 (BoundForBits); BitsForBound(B) is the minimal signed width
// holding ±B (bits.Len(B) + 1). Quantize: s = max|W| / B,
// Q = round(W / s) with math.Round (half away from zero), clamped to [−B, B]
// (a guard: |W/s| ≤ B up to one rounding). All-zero W gives Q = 0 and s = 1.
// NaN/Inf weights, or a max|W| so small that s underflows to 0, are errors.
// The scale is informational: argmax is invariant to it.
//
// AccumulatorBits(N, κ, B) is the minimal signed width w with
// 2^(w−1) − 1 ≥ N·κ·B, the adder width that can never overflow. Scores
// refuses inputs that would need more than 32 bits.
//
// # Fitness (generalised LVQ cost, Sato & Yamada 1996)
//
// For row m with label c, y⁺ = y[m][c] and y⁻ = max_{l≠c} y[m][l]:
//
//	μ = (y⁻ − y⁺) / (|y⁻| + |y⁺|)            (μ = 0 when y⁻ = y⁺ = 0), μ ∈ [−1, 1]
//	f(μ) = ½·(1 + βμ / (1 + β|μ|))           softsign sigmoid, f ∈ [1/(2(1+β)), (1+2β)/(2(1+β))]
//	cost = Σ_{m=0}^{M−1} f(μ_m)               lower is better
//
// μ < 0 exactly when row m is classified correctly with a strict margin
// (a tie y⁻ = y⁺ gives μ = 0, f = ½; argmax would pick the lowest index).
// Note μ = −1 as soon as y⁺ > 0 ≥ y⁻: the cost rewards sign separation, not
// margin beyond it; and μ = +1 whenever y⁻ ≥ 0 ≥ y⁺ (not both 0), so such a
// misclassified row is a plateau that only a sign change of y⁺ or y⁻ leaves
// (the GA crosses it by drift and RandomLevel jumps).
//
// f is evaluated (RowCost) as a rational function of the integers
// p = y⁻ − y⁺ and q = |y⁻| + |y⁺| (|p| ≤ q < 2^32):
//
//	t = β·|p|
//	p < 0:  f = q / (2(q + t))
//	p ≥ 0:  f = (q + 2t) / (2(q + t))
//
// using +, −, ×, ÷ only, each rounded separately (explicit float64
// conversions forbid FMA fusion), and the row costs are added in row order
// 0…M−1. So the cost is bit-identical on every platform and for every worker
// count. With an integer β ≤ 2^20 every operand is exact and f is the
// correctly rounded value of the rational. Default β = 4.
//
// # Genetic algorithm
//
// Genome: Q (L·N genes, each in [−B, B]). Each individual also carries its
// score matrix (L×M, class-major) so that children are evaluated
// incrementally: changing gene (l, j) by δ adds δ·h[:, j] to class l's M
// scores (setGene), then the cost is recomputed from the scores (O(M·L)).
// A full evaluation (O(M·N·L)) is needed only for the initial population of
// RandomGA and the seed of Refine. Integer scores are exact, so incremental
// and full evaluation agree bit for bit.
//
// Initialisation: Refine (Method "ga-rounded") uses the seed (normally the
// rounded ridge solution) plus Population−1 copies of it with InitMutations
// mutations each; RandomGA (Method "ga-random") draws every gene uniformly
// from [−B, B].
//
// One generation: the individuals are ranked by cost (ties keep the lower
// index, stable sort). The Elite best are copied unchanged. Each of the
// other Population−Elite children:
//  1. parent a by tournament selection (best of Tournament uniform draws,
//     with replacement);
//  2. with probability CrossoverRate a second parent b (also by tournament)
//     and a crossover: with probability UniformRate per-gene uniform (every
//     gene where a and b differ is taken from b with probability ½), else
//     class-row (each class row l of Q, with its score column, comes from a
//     or b with probability ½; no score recomputation at all); otherwise
//     the child is a copy of a;
//  3. k mutations, k uniform in 1…Mutations: a uniform gene either takes a
//     uniform level in [−B, B] (probability RandomLevel) or moves one level
//     up or down (equiprobable; a step that would leave [−B, B] goes the
//     other way, so with B ≥ 1 a step always changes the gene).
//
// The best individual never gets worse (elitism), the result is the best
// individual seen (for Refine it includes the seed, so the result is never
// worse than the seed by this cost), History[g] is the best cost after
// generation g (History[0]: initial population), and the run stops after
// Generations generations or, early, once the best cost has not strictly
// decreased for Patience generations.
//
// Cancellation: Refine and RandomGA take a context. It is checked before
// every evaluation of the initial population and before every child of a
// generation, so a run stops within one evaluation once the context ends
// and returns an error wrapping ctx.Err() (no partial result).
//
// Determinism: every random choice for individual i of generation g (g = 0
// is the initial population) comes from a math/rand/v2 PCG stream seeded
// with (Seed, SplitMix64(g<<32 ^ i)), and a child reads only the previous
// generation. Children are evaluated by Workers goroutines in any order, so
// results are identical for any Workers and GOMAXPROCS. Bounded draws are
// made from PCG.Uint64 alone (Lemire's multiply-shift with rejection; a rate
// test compares 53 random bits / 2^53 with the rate), not with Rand.IntN,
// whose algorithm differs on 32-bit platforms. TestGAGolden pins the bits of
// a small run; it passes with GOAMD64=v1, v3 and v4.
//
// Defaults (DefaultGAOptions): Population 64, Generations 2000, Patience 200,
// Elite 2, Tournament 5, CrossoverRate 0.8, UniformRate 0.5, Mutations 4,
// RandomLevel 0.1, InitMutations 8, Beta 4, Seed 1, Workers 0 (GOMAXPROCS).
// At most Population + Generations·(Population−Elite) evaluations
// (≈ 124 000). On M = 1000, N = 500, L = 4 a run takes a median 1.25 s with
// Workers = 1 and about 0.9–1.1 s with Workers = 2 on the 2-core development
// machine (BenchmarkGA); that is 90–130 times faster than evaluating every
// child from scratch. The cost of a child is about
// M·(2L + k + d + L) int32 operations for d genes taken in a uniform
// crossover, so run time grows linearly with M and L and hardly with N.
// The operators and defaults were chosen on intRVFL readouts of ten UCI
// datasets: a larger budget lowered the training cost further but moved test
// accuracy by less than 0.005 on average.
package quant
