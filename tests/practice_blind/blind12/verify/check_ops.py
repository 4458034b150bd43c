"""Op exercises (op-*): every learner file against torch float64 on suites of small graphs.

Correct files must match on all suites (random + special inputs); wrong files must differ on
their stated fails_on case. The fully written Value of the zero-grad stub (the reference
implementations the stubs carry) is run on the same suites first, to validate the suites.
"""
import math, random, sys
from common import *

R = random.Random(0)
anyv = lambda: R.uniform(-3, 3)
pos = lambda: R.uniform(0.05, 4)
nz = lambda: R.choice([-1, 1]) * R.uniform(0.2, 3)

SPECIAL_ANY = [0.0, 1.0, -1.0, 2.0, -2.0, 0.5, -0.5, 3.0]
SPECIAL_POS = [0.25, 0.5, 1.0, 2.0, 3.0, math.e]

# (name, build, arity, sampler, specials)
SUITES = {
    "op-add": [
        ("a+b", lambda a, b: a + b, 2, anyv, SPECIAL_ANY),
        ("a+a", lambda a: a + a, 1, anyv, SPECIAL_ANY),
        ("2+a", lambda a: 2 + a, 1, anyv, SPECIAL_ANY),
        ("a+3.5", lambda a: a + 3.5, 1, anyv, SPECIAL_ANY),
        ("(a+b)*c", lambda a, b, c: (a + b) * c, 3, anyv, SPECIAL_ANY),
        ("(a+a)*(b+a)", lambda a, b: (a + a) * (b + a), 2, anyv, SPECIAL_ANY),
        ("(a+b+1)*(a+2)", lambda a, b: (a + b + 1) * (a + 2), 2, anyv, SPECIAL_ANY),
    ],
    "op-mul": [
        ("a*b", lambda a, b: a * b, 2, anyv, SPECIAL_ANY),
        ("a*a", lambda a: a * a, 1, anyv, SPECIAL_ANY),
        ("3*a", lambda a: 3 * a, 1, anyv, SPECIAL_ANY),
        ("a*-2.5", lambda a: a * -2.5, 1, anyv, SPECIAL_ANY),
        ("(a*b)*(a+c)", lambda a, b, c: (a * b) * (a + c), 3, anyv, SPECIAL_ANY),
        ("-(a*b)+a", lambda a, b: -(a * b) + a, 2, anyv, SPECIAL_ANY),
    ],
    "op-pow": [
        *[(f"a**{k}", (lambda k: lambda a: a ** k)(k), 1, anyv, SPECIAL_ANY) for k in (1, 2, 3, 4)],
        *[(f"a**{k}", (lambda k: lambda a: a ** k)(k), 1, nz, [1.0, -1.0, 2.0, -2.0, 0.5]) for k in (-1, -2, 0)],
        *[(f"a**{k}", (lambda k: lambda a: a ** k)(k), 1, pos, SPECIAL_POS) for k in (0.5, 1.5, -0.5, 2.5, 2.0)],
        ("(a*b)**2*a", lambda a, b: (a * b) ** 2 * a, 2, anyv, SPECIAL_ANY),
        ("a/b", lambda a, b: a / b, 2, nz, [1.0, -2.0, 0.5]),
        ("3*a**2+a", lambda a: 3 * a ** 2 + a, 1, anyv, SPECIAL_ANY),
    ],
    "op-tanh": [
        ("tanh(a)", lambda a: a.tanh(), 1, anyv, SPECIAL_ANY + [6.0, -6.0, 20.0, -20.0, 400.0, -400.0, 800.0, -800.0, 1e-10, -1e-12]),
        ("tanh(a)+tanh(a)", lambda a: a.tanh() + a.tanh(), 1, anyv, SPECIAL_ANY),
        ("2*tanh(a)", lambda a: 2 * a.tanh(), 1, anyv, SPECIAL_ANY),
        ("tanh(a*b)*a", lambda a, b: (a * b).tanh() * a, 2, anyv, SPECIAL_ANY),
        ("tanh(tanh(a)+b)", lambda a, b: (a.tanh() + b).tanh(), 2, anyv, SPECIAL_ANY),
        ("tanh(4a)", lambda a: (a * 4).tanh(), 1, anyv, [2.0, -2.0, 10.0]),
    ],
    "op-exp": [
        ("exp(a)", lambda a: a.exp(), 1, anyv, SPECIAL_ANY),
        ("exp(2a)", lambda a: (a * 2).exp(), 1, anyv, SPECIAL_ANY),
        ("exp(a)*exp(a)", lambda a: a.exp() * a.exp(), 1, anyv, SPECIAL_ANY),
        ("exp(a*b)+a", lambda a, b: (a * b).exp() + a, 2, anyv, SPECIAL_ANY),
        ("3*exp(a)", lambda a: 3 * a.exp(), 1, anyv, SPECIAL_ANY),
    ],
    "op-relu": [
        ("relu(a)", lambda a: a.relu(), 1, anyv, SPECIAL_ANY),
        ("-relu(a)", lambda a: -a.relu(), 1, anyv, SPECIAL_ANY),
        ("relu(a*b)*c", lambda a, b, c: (a * b).relu() * c, 3, anyv, SPECIAL_ANY),
        ("relu(a)+relu(-a)", lambda a: a.relu() + (-a).relu(), 1, anyv, SPECIAL_ANY),
        ("relu(a)*a", lambda a: a.relu() * a, 1, anyv, SPECIAL_ANY),
    ],
    "op-sub": [
        ("a-b", lambda a, b: a - b, 2, anyv, SPECIAL_ANY),
        ("a-a", lambda a: a - a, 1, anyv, SPECIAL_ANY),
        ("a-2", lambda a: a - 2, 1, anyv, SPECIAL_ANY),
        ("2-a", lambda a: 2 - a, 1, anyv, SPECIAL_ANY),
        ("(a-b)*(b-a)", lambda a, b: (a - b) * (b - a), 2, anyv, SPECIAL_ANY),
        ("a-(b-a)", lambda a, b: a - (b - a), 2, anyv, SPECIAL_ANY),
        ("(a-b)*c", lambda a, b, c: (a - b) * c, 3, anyv, SPECIAL_ANY),
    ],
    "op-div": [
        ("a/b", lambda a, b: a / b, 2, nz, [1.0, -1.0, 2.0, 0.5, 4.0]),
        ("a/a", lambda a: a / a, 1, nz, [1.0, 2.0, -3.0]),
        ("a/2", lambda a: a / 2, 1, anyv, SPECIAL_ANY),
        ("2/a", lambda a: 2 / a, 1, nz, [1.0, -1.0, 2.0, 0.5]),
        ("a/b+b", lambda a, b: a / b + b, 2, nz, [1.0, 2.0, -0.5]),
        ("(a/b)/(b/a)", lambda a, b: (a / b) / (b / a), 2, nz, [1.0, 2.0, -0.5]),
        ("(a*c)/(b+5)", lambda a, b, c: (a * c) / (b + 5), 3, anyv, [0.0, 1.0, 2.0]),
    ],
    "op-log": [
        ("log(a)", lambda a: a.log(), 1, pos, SPECIAL_POS),
        ("3*log(a)", lambda a: 3 * a.log(), 1, pos, SPECIAL_POS),
        ("log(a*b)", lambda a, b: (a * b).log(), 2, pos, SPECIAL_POS),
        ("log(a)*log(a)", lambda a: a.log() * a.log(), 1, pos, SPECIAL_POS),
        ("-log(a)", lambda a: -a.log(), 1, pos, SPECIAL_POS),
    ],
    "op-pow-value": [
        ("a**b", lambda a, b: a ** b, 2, pos, SPECIAL_POS),
        ("a**a", lambda a: a ** a, 1, pos, SPECIAL_POS),
        ("a**(2b)", lambda a, b: a ** (b * 2), 2, pos, SPECIAL_POS),
        ("(a*b)**(c+a)", lambda a, b, c: (a * b) ** (c + a), 3, pos, SPECIAL_POS),
        ("3*a**b", lambda a, b: 3 * a ** b, 2, pos, SPECIAL_POS),
        ("a**b+a*b", lambda a, b: a ** b + a * b, 2, pos, SPECIAL_POS),
    ],
}

# key -> (build description, build, inputs): the smallest concrete case where each wrong file goes wrong
FAILS = {
    4: ("a + a", lambda a: a + a, [1.0]),
    6: ("a * b", lambda a, b: a * b, [0.0, 3.0]),
    7: ("a * a", lambda a: a * a, [3.0]),
    8: ("a ** 2", lambda a: a ** 2, [0.0]),
    9: ("a ** -1", lambda a: a ** -1, [2.0]),
    10: ("a ** 2", lambda a: a ** 2, [-2.0]),
    12: ("a.tanh() + a.tanh()", lambda a: a.tanh() + a.tanh(), [0.5]),
    13: ("a.tanh()", lambda a: a.tanh(), [6.0]),
    14: ("2 * a.tanh()", lambda a: 2 * a.tanh(), [0.5]),
    16: ("a.exp()", lambda a: a.exp(), [0.0]),
    17: ("(a * 2).exp()", lambda a: (a * 2).exp(), [1.0]),
    18: ("a.relu()", lambda a: a.relu(), [-1.0]),
    19: ("-(a.relu())", lambda a: -a.relu(), [2.0]),
    20: ("a - a", lambda a: a - a, [1.0]),
    21: ("a - b", lambda a, b: a - b, [5.0, 3.0]),
    23: ("a / a", lambda a: a / a, [2.0]),
    24: ("a / b", lambda a, b: a / b, [2.0, 4.0]),
    25: ("a / b", lambda a, b: a / b, [1.0, 2.0]),
    27: ("a.log()", lambda a: a.log(), [2.0]),
    28: ("3 * a.log()", lambda a: 3 * a.log(), [2.0]),
    29: ("a ** (b * 2)", lambda a, b: a ** (b * 2), [2.0, 1.5]),
    30: ("a ** b", lambda a, b: a ** b, [2.0, 3.0]),
    31: ("a ** b", lambda a, b: a ** b, [2.0, 3.0]),
}


def run_suite(V, exercise, n_random=150, verbose=False):
    bad = []
    for name, build, k, sampler, specials in SUITES[exercise]:
        cases = [tuple(itertools.islice(itertools.cycle(specials[i:] + specials[:i]), k))
                 for i in range(len(specials))]
        cases += [tuple(s) for s in itertools.product(specials, repeat=k)][: 200]
        cases += [tuple(sampler() for _ in range(k)) for _ in range(n_random)]
        for xs in cases:
            try:
                want = run_torch(build, xs)
            except Exception:
                continue
            if not all(math.isfinite(g) for g in want[1]) or not math.isfinite(want[0]):
                continue
            got = run_value(V, build, xs)
            if not same(got, want):
                bad.append((name, xs, fmt(got), fmt(want)))
    return bad


if __name__ == "__main__":
    sys.setrecursionlimit(10000)
    ref = load(os.path.join(ROOT, "_stubs", "zero-grad.py")).Value
    ok = True
    for ex in SUITES:
        bad = run_suite(ref, ex)
        print(f"reference Value on {ex}: {len(bad)} mismatches", bad[:3])
        ok &= not bad
    from solutions import S
    for s in S:
        if s["exercise"] not in SUITES:
            continue
        V = load_key(s["key"]).Value
        bad = run_suite(V, s["exercise"])
        if s["correct"]:
            status = "OK" if not bad else "FAIL"
            print(f"[{status}] correct {INDEX[s['key']]}: {len(bad)} mismatches", bad[:3])
            ok &= not bad
        else:
            desc, build, xs = FAILS[s["key"]]
            got, want = run_value(V, build, xs), run_torch(build, xs)
            differs = not same(got, want)
            status = "OK" if differs and bad else "FAIL"
            print(f"[{status}] wrong {INDEX[s['key']]}: {desc} at {xs}: got {fmt(got)}; torch {fmt(want)}"
                  f"  (suite mismatches: {len(bad)})")
            ok &= differs
    print("ALL OK" if ok else "SOME FAILED")
