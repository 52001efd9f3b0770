#!/usr/bin/python3
"""Same-protocol baselines on the UCI-121 collection (issue 35).

Runs four classifiers of scikit-learn (Debian's python3-sklearn; `make
baselines-deps` installs it, nothing else in the repository needs it) over the
collection's own folds, with the normalisation hdlgen's protocol uses, and
writes one JSON file per dataset under --out (default results/baselines/):

  rf      random forest, 500 trees, scikit-learn's defaults otherwise (no grid)
  logreg  multinomial logistic regression, C in {0.01, 0.1, 1, 10, 100}
  mlp     one hidden layer of 100 ReLU units (adam, 200 epochs), alpha in {1e-4, 1e-2, 1}
  svm     RBF SVM, C in {1, 10, 100} x gamma in {0.25, 1, 4} x 'scale'

The protocol (docs/protocol.md, "Baselines"):

- four-fold datasets: conxuntos_kfold.dat's folds (line 2f+1 training rows,
  line 2f+2 test rows); two-file datasets: train on the train file, test on the
  test file, normalised by its own min/max ("own") and by the train file's
  ("train"), both recorded, and where some feature is constant in the test
  file but not in the train file also "own_filled": its own min/max with those
  features at the median of the train file's normalised values (hdlgen's
  protocol.AutoFills); the summary applies hdlgen's --test-norm rules.
- min-max normalisation fitted on the training rows, clamped to [0, 1];
  a constant feature maps to 0 (model.Normalizer).
- hyperparameters chosen on the training rows only: a seeded 75/25 split of
  them, the grid point with the most correct validation predictions (ties to
  the earlier point; the grids are ordered most regularised first), then refit
  on the training rows. conxuntos.dat is not used (hdlgen's search uses it;
  its rows overlap the test folds).
- cost cap: the SVM and the MLP see at most --max-rows training rows (a seeded
  random subset, in the grid and in the final fit); the forest and the
  logistic regression see every row. One thread (n_jobs=1).
- one seed (0) for everything random (subsets, split, forest, MLP).

Resumable: a dataset whose file exists is skipped. Shardable: --shard i/n
takes every n-th dataset (by size, largest first) starting at the i-th
(1-based). Progress goes to stderr. Each file records the command, date,
scikit-learn version, chosen hyperparameters and per-fold accuracies.
"""
import argparse
import datetime
import json
import os
import shlex
import sys
import tempfile
import time
import warnings

import numpy as np
import sklearn
from sklearn.ensemble import RandomForestClassifier
from sklearn.exceptions import ConvergenceWarning
from sklearn.linear_model import LogisticRegression
from sklearn.neural_network import MLPClassifier
from sklearn.svm import SVC

SEED = 0
VAL_FRACTION = 0.25
MODELS = ["rf", "logreg", "mlp", "svm"]


def grid(name, k):
    """The grid of one model, most regularised first; each point is (label, factory)."""
    if name == "rf":
        return [({"trees": 500}, lambda: RandomForestClassifier(n_estimators=500, n_jobs=1, random_state=SEED))]
    if name == "logreg":
        return [({"C": c}, lambda c=c: LogisticRegression(C=c, max_iter=1000)) for c in (0.01, 0.1, 1, 10, 100)]
    if name == "mlp":
        return [({"alpha": a}, lambda a=a: MLPClassifier(hidden_layer_sizes=(100,), alpha=a, max_iter=200, random_state=SEED))
                for a in (1, 1e-2, 1e-4)]
    if name == "svm":
        return [({"C": c, "gamma_scale": g}, lambda c=c, g=g: SVC(C=c, gamma=g, kernel="rbf"))
                for c in (1, 10, 100) for g in (0.25, 1, 4)]
    raise ValueError(f"unknown model {name!r} (want {', '.join(MODELS)})")


def read_meta(folder, name):
    path = os.path.join(folder, name, name + ".txt")
    meta = {}
    with open(path) as f:
        for lineno, line in enumerate(f, 1):
            line = line.strip()
            if not line:
                continue
            if "=" not in line:
                raise SystemExit(f"{path}:{lineno}: want key= value, got {line!r}")
            key, value = line.split("=", 1)
            meta[key.strip()] = value.strip()
    return meta


def read_data(path, k):
    """Rows of a _R.dat file: a header line, then index, k features, class."""
    a = np.loadtxt(path, skiprows=1, ndmin=2)
    if a.shape[1] != k + 2:
        raise SystemExit(f"{path}: {a.shape[1]} columns, want {k + 2} (index, {k} features, class)")
    return a[:, 1:k + 1], a[:, k + 1].astype(int)


def read_lists(path, n):
    with open(path) as f:
        lines = [ln.split() for ln in f if ln.strip()]
    if len(lines) != n:
        raise SystemExit(f"{path}: {len(lines)} lines of indices, want {n}")
    return [np.array([int(v) for v in ln], dtype=int) for ln in lines]


class MinMax:
    """model.Normalizer: min-max fitted on rows, clamped to [0, 1], constant features to 0."""

    def __init__(self, x):
        self.lo, self.hi = x.min(axis=0), x.max(axis=0)

    def __call__(self, x):
        width = self.hi - self.lo
        ok = width > 0
        z = np.zeros_like(x, dtype=float)
        z[:, ok] = (x[:, ok] - self.lo[ok]) / width[ok]
        z = np.nan_to_num(z, nan=0.0)
        return np.clip(z, 0.0, 1.0)


def own_filled(x, xt):
    """protocol.filledNormalizedTest: the test file xt by its own min/max, a
    feature constant in it (and not in the train file x) at the lower median
    of the train file's normalised values; None when no feature is."""
    const = (xt.max(axis=0) == xt.min(axis=0)) & (x.max(axis=0) > x.min(axis=0))
    if not const.any():
        return None
    z, train = MinMax(xt)(xt), MinMax(x)(x)
    for f in np.flatnonzero(const):
        col = np.sort(train[:, f])
        z[:, f] = col[(len(col) - 1) // 2]
    return z


def cap(x, y, rows, rng):
    if rows <= 0 or len(y) <= rows:
        return x, y
    keep = np.sort(rng.choice(len(y), rows, replace=False))
    return x[keep], y[keep]


def fit_one(name, x, y, max_rows):
    """Chooses the grid point on a 75/25 split of (x, y), refits on (x, y); returns the model and its choice."""
    rng = np.random.default_rng(SEED)
    if name in ("mlp", "svm"):
        x, y = cap(x, y, max_rows, rng)
    points = grid(name, x.shape[1])
    if len(np.unique(y)) == 1:  # one class in the training rows: every model predicts it
        return ConstantModel(y[0]), {"constant": int(y[0])}
    choice, make = points[0]
    if len(points) > 1:
        perm = rng.permutation(len(y))
        nval = max(1, int(round(VAL_FRACTION * len(y))))
        val, tr = perm[:nval], perm[nval:]
        best = -1
        for label, this in points:
            if len(np.unique(y[tr])) < 2:
                break
            correct = int((fit(this(), name, label, x[tr], y[tr]).predict(x[val]) == y[val]).sum())
            if correct > best:
                best, choice, make = correct, label, this
    return fit(make(), name, choice, x, y), choice


def fit(model, name, label, x, y):
    if name == "svm":
        var = x.var()
        model.set_params(gamma=label["gamma_scale"] / (x.shape[1] * var) if var > 0 else label["gamma_scale"])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        model.fit(x, y)
    return model


class ConstantModel:
    def __init__(self, c):
        self.c = c

    def predict(self, x):
        return np.full(len(x), self.c)


def run_dataset(folder, name, models, max_rows, log):
    meta = read_meta(folder, name)
    k = int(meta["n_entradas"])
    d = os.path.join(folder, name)
    x, y = read_data(os.path.join(d, meta["fich1"]), k)
    out = {"dataset": name, "features": k, "classes": int(meta["n_clases"]), "rows": int(len(y)), "models": {}}
    two_file = int(meta.get("n_arquivos", "1")) == 2
    if two_file:
        xt, yt = read_data(os.path.join(d, meta["fich2"]), k)
        out["protocol"], out["test_rows"] = "train/test", int(len(yt))
    else:
        lists = read_lists(os.path.join(d, "conxuntos_kfold.dat"), 8)
        folds = [(lists[2 * f], lists[2 * f + 1]) for f in range(4)]
        out["protocol"] = "4-fold"
    for m in models:
        start = time.time()
        rec = {}
        if two_file:
            nz = MinMax(x)
            model, choice = fit_one(m, nz(x), y, max_rows)
            rec["test_norm_own"] = float((model.predict(MinMax(xt)(xt)) == yt).mean())
            rec["test_norm_train"] = float((model.predict(nz(xt)) == yt).mean())
            filled = own_filled(x, xt)
            if filled is not None:
                rec["test_norm_own_filled"] = float((model.predict(filled) == yt).mean())
            rec["chosen"] = [choice]
        else:
            accs, chosen = [], []
            for f, (tr, te) in enumerate(folds):
                nz = MinMax(x[tr])
                model, choice = fit_one(m, nz(x[tr]), y[tr], max_rows)
                accs.append(float((model.predict(nz(x[te])) == y[te]).mean()))
                chosen.append(choice)
                log(f"  {name} {m} fold {f + 1}: {accs[-1]:.4f} {choice}")
            rec["per_fold"], rec["accuracy"], rec["chosen"] = accs, float(np.mean(accs)), chosen
        rec["seconds"] = round(time.time() - start, 1)
        out["models"][m] = rec
        log(f"  {name} {m}: {rec.get('accuracy', rec.get('test_norm_own')):.4f} in {rec['seconds']} s")
    return out


def write_atomic(path, obj):
    fd, tmp = tempfile.mkstemp(dir=os.path.dirname(path), prefix=".tmp-")
    with os.fdopen(fd, "w") as f:
        json.dump(obj, f, indent=1, sort_keys=True)
        f.write("\n")
    os.replace(tmp, path)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--data", required=True, help="the UCI-121 collection folder")
    ap.add_argument("--out", default="results/baselines", help="one <dataset>.json per dataset")
    ap.add_argument("--datasets", default="", help="comma-separated names (default: every dataset)")
    ap.add_argument("--models", default=",".join(MODELS))
    ap.add_argument("--max-rows", type=int, default=5000, help="training rows the SVM and the MLP see at most")
    ap.add_argument("--shard", default="1/1", help="i/n: every n-th dataset, largest first, from the i-th")
    a = ap.parse_args()
    models = [m for m in a.models.split(",") if m]
    for m in models:
        grid(m, 1)
    try:
        i, n = (int(v) for v in a.shard.split("/"))
        assert 1 <= i <= n
    except (ValueError, AssertionError):
        ap.error(f"--shard {a.shard!r}: want i/n with 1 <= i <= n")
    names = sorted(e for e in os.listdir(a.data) if os.path.isfile(os.path.join(a.data, e, e + ".txt")))
    if a.datasets:
        want = [s for s in a.datasets.split(",") if s]
        for s in want:
            if s not in names:
                ap.error(f"--datasets: {s!r} is not in {a.data}")
        names = want

    def size(name):
        meta = read_meta(a.data, name)
        return int(meta["n_patrons1"]) * int(meta["n_entradas"])

    by_size = sorted(names, key=lambda s: (-size(s), s))
    mine = sorted(by_size[i - 1::n], key=lambda s: (size(s), s))  # small first: most datasets finish early
    os.makedirs(a.out, exist_ok=True)
    command = "scripts/baselines.py " + " ".join(shlex.quote(s) for s in sys.argv[1:])

    def log(msg):
        print(msg, file=sys.stderr, flush=True)

    for j, name in enumerate(mine, 1):
        path = os.path.join(a.out, name + ".json")
        if os.path.exists(path):
            log(f"[{j}/{len(mine)}] {name}: present, skipped")
            continue
        meta = read_meta(a.data, name)
        missing = [f for f in (meta.get("fich1"), meta.get("fich2")) if f and not os.path.exists(os.path.join(a.data, name, f))]
        if missing:
            log(f"[{j}/{len(mine)}] {name}: skipped, data file {missing[0]} is missing")
            continue
        log(f"[{j}/{len(mine)}] {name}")
        start = time.time()
        res = run_dataset(a.data, name, models, a.max_rows, log)
        res.update({
            "command": command,
            "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
            "sklearn": sklearn.__version__,
            "max_rows_svm_mlp": a.max_rows,
            "seed": SEED,
            "seconds": round(time.time() - start, 1),
        })
        write_atomic(path, res)
    return 0


if __name__ == "__main__":
    sys.exit(main())
