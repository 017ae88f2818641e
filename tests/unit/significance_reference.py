"""Reference p-values for tests/unit/significance_test.ts, computed without SciPy
(unavailable here) and independently of the TypeScript code:

- Student's t tail for integer df from the closed-form finite series of
  Abramowitz & Stegun 26.7.3 (odd df) and 26.7.4 (even df), in exact rationals
  where possible and mpmath-free float otherwise;
- the normal tail from Python's math.erfc;
- exact null distributions (Kendall's discordant pairs, Wilcoxon's signed-rank
  sums) by counting with integers and fractions.Fraction.
Formulas for statistics and variances follow SciPy's documented definitions
(kendalltau tau-b with the tie-corrected variance, spearmanr's t transform,
ttest_rel, wilcoxon with zero_method="wilcox", correction=False and SciPy 1.17's
method="auto": exact without zeros or ties, every sign flip with them up to
n = 13, the normal approximation above).

Run: python3 tests/unit/significance_reference.py
"""
import math
from fractions import Fraction
from itertools import combinations


def t_sf_two_sided(t, df):
    """P(|T| >= |t|), A&S 26.7.3/26.7.4 (A(t|v) = P(|T| < |t|))."""
    theta = math.atan(abs(t) / math.sqrt(df))
    s, c = math.sin(theta), math.cos(theta)
    if df % 2 == 1:
        total, term = 0.0, c
        if df > 1:
            total = term
            for k in range(1, (df - 3) // 2 + 1):
                term *= c * c * (2 * k) / (2 * k + 1)
                total += term
        a = 2 / math.pi * (theta + s * total)
    else:
        term, total = 1.0, 1.0
        for k in range(1, (df - 2) // 2 + 1):
            term *= c * c * (2 * k - 1) / (2 * k)
            total += term
        a = s * total
    return 1 - a


def norm_two_sided(z):
    return math.erfc(abs(z) / math.sqrt(2))


def avg_ranks(values):
    order = sorted(range(len(values)), key=lambda i: values[i])
    ranks = [0.0] * len(values)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        for k in range(i, j + 1):
            ranks[order[k]] = (i + j + 2) / 2
        i = j + 1
    return ranks


def pearson(x, y):
    mx, my = sum(x) / len(x), sum(y) / len(y)
    sxy = sum((a - mx) * (b - my) for a, b in zip(x, y))
    sxx = sum((a - mx) ** 2 for a in x)
    syy = sum((b - my) ** 2 for b in y)
    return sxy / math.sqrt(sxx * syy)


def spearman(x, y):
    rho = pearson(avg_ranks(x), avg_ranks(y))
    df = len(x) - 2
    t = rho * math.sqrt(df / ((rho + 1) * (1 - rho)))
    return rho, t_sf_two_sided(t, df)


def tie_sums(values):
    counts = {}
    for v in values:
        counts[v] = counts.get(v, 0) + 1
    cs = [c for c in counts.values() if c > 1]
    return (sum(c * (c - 1) // 2 for c in cs), sum(c * (c - 1) * (c - 2) for c in cs),
            sum(c * (c - 1) * (2 * c + 5) for c in cs))


def kendall(x, y):
    n = len(x)
    con = dis = 0
    for i, j in combinations(range(n), 2):
        s = (x[i] - x[j]) * (y[i] - y[j])
        con += s > 0
        dis += s < 0
    tot = n * (n - 1) // 2
    xt, x0, x1 = tie_sums(x)
    yt, y0, y1 = tie_sums(y)
    tau = (con - dis) / math.sqrt((tot - xt) * (tot - yt))
    if xt == 0 and yt == 0 and n <= 33:
        c = min(dis, tot - dis)
        # permutations of n with <= c inversions, by counting
        counts = [1]
        for j in range(2, n + 1):
            new = [0] * (len(counts) + j - 1)
            for s, v in enumerate(counts):
                for k in range(j):
                    new[s + k] += v
            counts = new
        p = min(Fraction(1), 2 * Fraction(sum(counts[: c + 1]), math.factorial(n)))
        return tau, float(p)
    m = n * (n - 1)
    var = (m * (2 * n + 5) - x1 - y1) / 18 + 2 * xt * yt / m + x0 * y0 / (9 * m * (n - 2))
    return tau, norm_two_sided((con - dis) / math.sqrt(var))


def ttest_rel(a, b):
    d = [p - q for p, q in zip(a, b)]
    n = len(d)
    mean = math.fsum(d) / n
    var = math.fsum((v - mean) ** 2 for v in d) / (n - 1)
    t = mean / math.sqrt(var / n)
    return t, t_sf_two_sided(t, n - 1)


def wilcoxon(a, b):
    d_all = [p - q for p, q in zip(a, b)]
    d = [v for v in d_all if v != 0]
    n = len(d)
    r = avg_ranks([abs(v) for v in d])
    plus = sum(rk for rk, v in zip(r, d) if v > 0)
    minus = sum(rk for rk, v in zip(r, d) if v < 0)
    stat = min(plus, minus)
    tied = len(set(abs(v) for v in d)) < n
    if len(d_all) <= 13 and (tied or n < len(d_all)):
        # SciPy 1.17's method="auto" with zeros or ties and n <= 13: every sign flip.
        observed = plus
        at_most = at_least = 0
        for mask in range(2 ** n):
            s = sum(rk for i, rk in enumerate(r) if mask >> i & 1)
            at_most += s <= observed
            at_least += s >= observed
        return stat, float(min(Fraction(1), 2 * Fraction(min(at_most, at_least), 2 ** n)))
    if n == len(d_all) and not tied and n <= 50:
        count = 0
        for mask in range(2 ** n) if n <= 20 else []:
            if sum(i + 1 for i in range(n) if mask >> i & 1) <= stat:
                count += 1
        return stat, float(min(Fraction(1), 2 * Fraction(count, 2 ** n)))
    counts = {}
    for v in d:
        counts[abs(v)] = counts.get(abs(v), 0) + 1
    corr = sum(c ** 3 - c for c in counts.values())
    mean = n * (n + 1) / 4
    var = n * (n + 1) * (2 * n + 1) / 24 - corr / 48
    return stat, norm_two_sided((stat - mean) / math.sqrt(var))


if __name__ == "__main__":
    cases = {
        "kendall docs": kendall([12, 2, 1, 12, 2], [1, 4, 7, 1, 0]),
        "kendall exact": kendall([1, 2, 3, 4, 5, 6, 7, 8], [2, 1, 4, 3, 6, 5, 8, 7]),
        "kendall ties": kendall([1, 1, 2, 3, 3, 3, 4, 5, 6, 6], [2, 1, 1, 3, 4, 3, 5, 7, 6, 6]),
        "spearman docs": spearman([1, 2, 3, 4, 5], [5, 6, 7, 8, 7]),
        "spearman ties": spearman([1, 1, 2, 3, 3, 3, 4, 5, 6, 6], [2, 1, 1, 3, 4, 3, 5, 7, 6, 6]),
        "ttest_rel": ttest_rel([0.61, 0.72, 0.55, 0.80, 0.47, 0.66, 0.71, 0.59],
                               [0.52, 0.70, 0.41, 0.77, 0.50, 0.58, 0.62, 0.55]),
        "ttest_rel df1": ttest_rel([3, 5], [1, 2]),
        "wilcoxon docs": wilcoxon([6, 8, 14, 16, 23, 24, 28, 29, 41, -48, 49, 56, 60, -67, 75],
                                  [0] * 15),
        "wilcoxon ties+zeros": wilcoxon([0.5, 0.5, 0.3, 0.0, -0.2, 0.5, 0.1, 0.3, -0.1, 0.4],
                                        [0, 0, 0, 0, 0, 0, 0, 0, 0, 0]),
        "wilcoxon n=5 zeros": wilcoxon([0, 1, 0, 0, 1], [0] * 5),
        "wilcoxon n=8 zeros+ties": wilcoxon([0, 2, -1, 2, 3, 0, -2, 4], [0] * 8),
        "wilcoxon n=12 zeros+ties": wilcoxon([1.5, -0.5, 0, 2, 2, -2, 3.5, 0, 1, 1.5, -1, 4],
                                             [0] * 12),
        "wilcoxon n=14 zeros (normal)": wilcoxon([0, 0, 1, 2, 3, 4, 5, 5, -7, 8, 9, 10, 11, -12],
                                                 [0] * 14),
    }
    for name, (stat, p) in cases.items():
        print(f"{name}: statistic={stat!r} p={p!r}")
