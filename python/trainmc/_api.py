"""The Python interface of libtrainmc: run, sweep, emax, closed_form, load."""
import array
import ctypes
import html
import json
import math
import operator
import os
import threading

from . import _lib
from ._lib import TrainmcError

MAX_REPLICAS = 1_000_000_000
MAX_SEED = 2**53 - 1
MAX_THREADS = 4096
MAX_CARDS = 10_000_000

_numpy_module = None


def _numpy():
    """numpy, or None when it is not installed (imported on first need)."""
    global _numpy_module
    if _numpy_module is None:
        try:
            import numpy
        except ImportError:
            _numpy_module = False
        else:
            _numpy_module = numpy
    return _numpy_module or None


# ---------- argument checks (before any C call) ----------

def _integer(name, value, low, high, allow_none=False, none_means=""):
    if value is None and allow_none:
        return None
    if isinstance(value, bool):
        raise TypeError(f"{name} must be an integer, not bool")
    try:
        v = operator.index(value)
    except TypeError:
        raise TypeError(f"{name} must be an integer{' or None' if allow_none else ''}, "
                        f"not {type(value).__name__}") from None
    if not low <= v <= high:
        raise ValueError(f"{name} = {v}: must be {none_means}in [{low}, {high}]")
    return v


def _text(name, value):
    if not isinstance(value, str):
        raise TypeError(f"{name} must be a str, not {type(value).__name__}")
    if "\0" in value:
        raise ValueError(f"{name} contains a NUL character")
    return value


def _json_default(obj):
    # numpy scalars and 0-d arrays: their Python value
    item = getattr(obj, "item", None)
    if callable(item):
        try:
            v = item()
        except (TypeError, ValueError):
            v = obj
        if v is not obj and isinstance(v, (int, float, bool, str)):
            return v
    tolist = getattr(obj, "tolist", None)
    if callable(tolist):
        return tolist()
    raise TypeError(f"{type(obj).__name__} is not JSON serialisable")


def _to_json(name, value):
    try:
        return json.dumps(value, allow_nan=False, default=_json_default)
    except ValueError as e:
        raise ValueError(f"{name}: {e} (NaN and infinities are not JSON)") from None
    except TypeError as e:
        raise TypeError(f"{name}: {e}") from None


def _overrides(overrides):
    """overrides ({"section.key": value} or ["section.key=VALUE", ...]) as strings."""
    if overrides is None:
        return []
    out = []
    if isinstance(overrides, dict):
        for key, value in overrides.items():
            _text("an override's key", key)
            if not key or "=" in key:
                raise ValueError(f"override key {key!r}: must be a dotted path "
                                 "such as 'job.cards' (no '=')")
            out.append(f"{key}={_to_json('override ' + key, value)}")
    elif isinstance(overrides, (list, tuple)):
        for item in overrides:
            _text("an override", item)
            if "=" not in item or item.startswith("="):
                raise ValueError(f"override {item!r}: must be 'section.key=VALUE'")
            out.append(item)
    else:
        raise TypeError("overrides must be a dict {'section.key': value} or a list of "
                        f"'section.key=VALUE' strings, not {type(overrides).__name__}")
    for s in out:
        if "\0" in s:
            raise ValueError(f"override {s!r} contains a NUL character")
    return out


def _is_path(x):
    return isinstance(x, (str, bytes, os.PathLike))


def _fspath(x):
    p = os.fsencode(x)
    if b"\0" in p:
        raise ValueError("the experiment path contains a NUL character")
    return p


def _base_dir(base_dir):
    """base_dir as an absolute folder name (str); None: the current folder."""
    if base_dir is None:
        return os.getcwd()
    if not _is_path(base_dir):
        raise TypeError("base_dir must be a folder (str or os.PathLike) or None, not "
                        f"{type(base_dir).__name__}")
    d = os.fsdecode(base_dir)
    if "\0" in d:
        raise ValueError("base_dir contains a NUL character")
    return os.path.abspath(d)


def _source(experiment, base_dir):
    """(source, overrides already in it) of a path, dict or Experiment:
    source is ("path", bytes) or ("text", JSON text, label, base_dir)."""
    if isinstance(experiment, Experiment):
        if base_dir is not None:
            raise ValueError("base_dir is for an experiment given as a dict; an Experiment "
                             "resolves file names as when it was loaded (against its file's "
                             "folder, or the base_dir given to load)")
        return experiment._source, experiment.overrides
    if isinstance(experiment, dict):
        text = _to_json("experiment", experiment)
        return ("text", text, "<dict>", _base_dir(base_dir)), []
    if _is_path(experiment):
        if base_dir is not None:
            raise ValueError("base_dir is for an experiment given as a dict; the file names "
                             "in an experiment file resolve against the file's folder")
        # resolved once, here: a later chdir must not change which file an
        # Experiment (re-read for overrides and sweeps) names
        return ("path", os.path.abspath(_fspath(experiment))), []
    raise TypeError("experiment must be a path (str or os.PathLike), a dict or a "
                    f"trainmc.Experiment, not {type(experiment).__name__}")


def _with_base_dir_hint(error, source):
    """error, for an experiment from a dict whose file could not be opened,
    with a word on base_dir; else error itself."""
    if source[0] != "text" or ": cannot open:" not in error.message:
        return error
    return TrainmcError(error.code, f"{error.message} (relative file names in a dict "
                        f"experiment resolve against base_dir, here {source[3]}: pass "
                        "base_dir=, the folder they are relative to)")


# ---------- experiments ----------

class Experiment:
    """A validated experiment (a handle on the library's tmc_experiment).

    Made by trainmc.load(); run it with trainmc.run(exp) or exp.run().
    The handle is freed by close(), at the end of a `with` block, or when the
    object is collected.
    """

    def __init__(self, handle, source, overrides):
        self._handle = handle
        self._source = source          # ("path", bytes) or ("text", JSON text, label, base_dir)
        self.overrides = list(overrides)
        self._lock = threading.Lock()
        self._users = 0
        self._closing = False

    @property
    def path(self):
        """The experiment file's path (str), or None for an experiment from a dict."""
        return os.fsdecode(self._source[1]) if self._source[0] == "path" else None

    @property
    def base_dir(self):
        """For an experiment from a dict, the folder its relative file names
        resolve against (str); None for one from a file."""
        return self._source[3] if self._source[0] == "text" else None

    def _acquire(self):
        with self._lock:
            if self._handle is None or self._closing:
                raise ValueError("this Experiment is closed")
            self._users += 1
            return self._handle

    def _release(self):
        with self._lock:
            self._users -= 1
            if self._closing and not self._users:
                self._free()

    def _free(self):
        h, self._handle = self._handle, None
        if h:
            _lib.library().experiment_free(h)

    def close(self):
        """Free the handle (after any run in progress on it)."""
        with self._lock:
            if self._users:
                self._closing = True
            else:
                self._free()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        try:
            if getattr(self, "_handle", None):
                self._free()
        except Exception:
            pass

    def to_dict(self):
        """The experiment as a dict with every key's value in force (defaults
        included; a process that is off is None)."""
        h = self._acquire()
        try:
            return json.loads(_lib.take_string(_lib.library().experiment_to_json(h)))
        finally:
            self._release()

    def closed_form(self):
        """The closed forms (Young, Daly; the run document's "closed_form")."""
        h = self._acquire()
        try:
            return json.loads(_lib.take_string(_lib.library().experiment_closed_form(h)))
        finally:
            self._release()

    def run(self, **kwargs):
        """trainmc.run(self, **kwargs)."""
        return run(self, **kwargs)

    def __repr__(self):
        if self._source[0] == "path":
            what = repr(self.path)
        else:
            what = f"{self._source[2]}, base_dir={self.base_dir!r}"
        extra = f", overrides={self.overrides!r}" if self.overrides else ""
        state = "" if self._handle else " (closed)"
        return f"<trainmc.Experiment {what}{extra}{state}>"


def _load_source(source, overrides):
    lib = _lib.library()
    arr, n, keep = _lib.string_array(overrides)
    st = _lib.Status()
    if source[0] == "path":
        h = lib.experiment_load(source[1], arr, n, ctypes.byref(st))
    else:
        _, text, label, base_dir = source
        h = lib.experiment_parse(text.encode("utf-8"), label.encode("utf-8"),
                                 os.fsencode(base_dir), arr, n, ctypes.byref(st))
    del keep
    if not h:
        try:
            st.raise_if_failed()
        except TrainmcError as e:
            raise _with_base_dir_hint(e, source) from None
        raise TrainmcError(_lib.ERR_MEMORY, "libtrainmc returned no experiment")
    return Experiment(h, source, overrides)


def load(experiment, overrides=None, base_dir=None):
    """Load and validate an experiment: a path (str or os.PathLike) to its
    JSON file, or a dict (serialised to JSON; relative distribution, trace
    and model file names in it resolve against `base_dir`, default the
    current folder; a file's resolve against its own folder). `overrides`:
    {"section.key": value} (each value as JSON, checked like the file's own
    values) or a list of "section.key=VALUE" strings. Returns an Experiment;
    raises TrainmcError (code 1, TMC_ERR_INPUT) naming the file and the JSON
    path of a problem. An Experiment given with overrides is loaded again
    with them added."""
    extra = _overrides(overrides)
    source, prior = _source(experiment, base_dir)
    if isinstance(experiment, Experiment) and not extra:
        return experiment
    return _load_source(source, prior + extra)


# ---------- running in a worker thread, with a stop flag ----------

def _run_stoppable(call, opts, progress, stop, free):
    """call(opts) -> (pointer, Status) in a worker thread, the caller waiting.

    The library reads opts.stop, a C int this sets on KeyboardInterrupt, when
    progress(done, total) returns True or raises, or when `stop` (a
    threading.Event) is set. progress runs in this (the calling) thread.
    A pointer got after an interruption is freed with `free`; the
    interruption (KeyboardInterrupt, the callback's exception) is re-raised.
    Returns the pointer, or raises the library's TrainmcError.
    """
    flag = ctypes.c_int(1 if stop is not None and stop.is_set() else 0)
    opts.stop = ctypes.pointer(flag)
    latest = [None]
    if progress is not None:
        def on_progress(done, total, ctx):
            latest[0] = (done, total)
        callback = _lib.PROGRESS(on_progress)
        opts.progress = callback
    box = {}

    def work():
        st = _lib.Status()
        try:
            box["ptr"] = call(opts, st)
        except BaseException as e:  # noqa: B902 - handed to the caller
            box["error"] = e
        box["status"] = st

    delivered = [None]

    def deliver():
        now = latest[0]
        if now is not None and now != delivered[0]:
            delivered[0] = now
            if progress(*now) is True:
                flag.value = 1

    worker = threading.Thread(target=work, name="trainmc-run", daemon=True)
    worker.start()
    interruption = None
    try:
        poll = 0.05 if (progress is not None or stop is not None) else 0.2
        while worker.is_alive():
            worker.join(poll)
            if stop is not None and stop.is_set():
                flag.value = 1
            if progress is not None:
                deliver()
        if progress is not None:
            deliver()
    except BaseException as e:  # KeyboardInterrupt, or progress raised
        flag.value = 1
        interruption = e
        while worker.is_alive():
            try:
                worker.join()
            except KeyboardInterrupt:
                pass
    ptr = box.get("ptr")
    if interruption is not None:
        if ptr:
            free(ptr)
        raise interruption
    if "error" in box:
        raise box["error"]
    if not ptr:
        box["status"].raise_if_failed()
        raise TrainmcError(_lib.ERR_MEMORY, "libtrainmc returned no result")
    return ptr


def _run_options(replicas, seed, threads, stop, progress, replicas_low=1, force=False):
    replicas = _integer("replicas", replicas, replicas_low, MAX_REPLICAS, allow_none=True,
                        none_means="None (the experiment's monte_carlo.replicas) or ")
    seed = _integer("seed", seed, 0, MAX_SEED, allow_none=True,
                    none_means="None (the experiment's monte_carlo.seed) or ")
    threads = _integer("threads", threads, 0, MAX_THREADS,
                       none_means="0 (one per processor) or ")
    if progress is not None and not callable(progress):
        raise TypeError(f"progress must be a callable(done, total), not {type(progress).__name__}")
    if stop is not None and not callable(getattr(stop, "is_set", None)):
        raise TypeError("stop must be a threading.Event (anything with is_set()), "
                        f"not {type(stop).__name__}")
    opts = _lib.RunOptions()
    _lib.library().run_options_init(ctypes.byref(opts))
    opts.replicas = replicas or 0
    if seed is not None:
        opts.has_seed, opts.seed = 1, seed
    opts.threads = threads
    if not isinstance(force, bool):
        raise TypeError("force must be True or False")
    opts.force = 1 if force else 0
    return opts


# ---------- results ----------

def _figure_names(family):
    lib = _lib.library()
    return [lib.figure_name(family, i).decode("ascii") for i in range(lib.figure_count(family))]


def _array(buf, kind="float"):
    """A bytearray of doubles as a numpy array (bool for kind "bool"), or
    without numpy as an array.array ('d', or 'b' for bool)."""
    np = _numpy()
    if np is not None:
        a = np.frombuffer(buf, dtype=np.float64)
        return a != 0 if kind == "bool" else a
    a = array.array("d")
    a.frombytes(bytes(buf))
    return array.array("b", (v != 0 for v in a)) if kind == "bool" else a


class Result(dict):
    """A run's results: the run document (`trainmc run --json`'s JSON, as a
    dict: result['deadline']['probability'], result['completion_days']['mean'],
    ...) plus every replica's figures, in replica order:

    .completion_days  T of each replica, days (the deadline's reserve included)
    .counts           {name: array}: event counts per replica (card_failures, ...)
    .split_days       {name: array}: the split of each replica's wall time,
                      days; the rows add up to T minus the reserve
    .censored         bool array: still running at the horizon
    .weight           likelihood ratio: 1, as these are the plain replicas
                      (importance sampling's are summed up in ["importance"])
    .replicas         replicas run (fewer than asked when a precision target
                      was met)
    .json             the document's text as the library wrote it
    .report(detail=False)  the report `trainmc run` prints (brief, or --detail's)
    .to_frame()       a pandas DataFrame, one row per replica (needs pandas)

In Jupyter a Result shows its brief report (_repr_html_).

    Arrays are numpy float64 arrays (censored: bool) when numpy is installed,
    else array.array ('d'; censored 'b'): floats even where every value is
    whole (counts, weight 1). The document is as json.loads reads it: a
    number written without a fraction is an int there (a probability of 1,
    a restart count). With per_replica=False only .completion_days is kept
    and the others are None.
    """

    def __init__(self, text, replicas, days, figures, reports=("", "")):
        super().__init__(json.loads(text))
        self.json = text
        self.replicas = replicas
        self._days = days
        self._figures = figures      # None, or {family: {name: bytearray}}
        self._reports = reports      # (brief, detail) report texts
        self._cache = {}

    def report(self, detail=False):
        """The report `trainmc run` prints for this run: the brief one, or
        with detail=True the full one (--detail)."""
        return self._reports[1 if detail else 0]

    def _repr_html_(self):
        return "<pre>" + html.escape(self._reports[0]) + "</pre>"

    def to_frame(self):
        """A pandas DataFrame of the replicas, in replica order: completion_days,
        then each event count (card_failures, ...), each split row in days
        (useful_compute_days, ...), censored and weight; with
        per_replica=False only completion_days. ImportError without pandas
        (Debian: python3-pandas)."""
        pandas = _pandas()
        columns = {"completion_days": self.completion_days}
        if self._figures is not None:
            columns.update(self.counts)
            columns.update({f"{k}_days": v for k, v in self.split_days.items()})
            columns["censored"] = self.censored
            columns["weight"] = self.weight
        return pandas.DataFrame({k: list(v) if not hasattr(v, "dtype") else v
                                 for k, v in columns.items()})

    def _get(self, key, make):
        if key not in self._cache:
            self._cache[key] = make()
        return self._cache[key]

    @property
    def completion_days(self):
        return self._get("completion_days", lambda: _array(self._days))

    def _family(self, family):
        if self._figures is None:
            return None
        return self._get(family, lambda: {k: _array(v)
                                          for k, v in self._figures[family].items()})

    @property
    def counts(self):
        return self._family(_lib.FIGURE_COUNT)

    @property
    def split_days(self):
        return self._family(_lib.FIGURE_SPLIT)

    @property
    def censored(self):
        if self._figures is None:
            return None
        return self._get("censored",
                         lambda: _array(self._figures[_lib.FIGURE_STATE]["censored"], "bool"))

    @property
    def weight(self):
        if self._figures is None:
            return None
        return self._get("weight", lambda: _array(self._figures[_lib.FIGURE_STATE]["weight"]))


def _pandas():
    try:
        import pandas
    except ImportError as e:
        raise ImportError("to_frame() needs pandas (Debian: python3-pandas)") from e
    return pandas


def _copy_result(r, per_replica):
    """A Result from the handle r (not freed here)."""
    lib = _lib.library()
    text = lib.result_json(r).decode("utf-8")
    n = lib.result_replicas(r)
    days = bytearray(8 * n)
    if n:
        ctypes.memmove((ctypes.c_char * len(days)).from_buffer(days),
                       lib.result_completion_days(r), len(days))
    figures = None
    if per_replica:
        figures = {}
        for family in (_lib.FIGURE_COUNT, _lib.FIGURE_SPLIT, _lib.FIGURE_STATE):
            figures[family] = {}
            for i, name in enumerate(_figure_names(family)):
                buf = bytearray(8 * n)
                out = (ctypes.c_double * n).from_buffer(buf) if n else None
                rc = lib.result_copy_figure(r, family, i, out)
                if rc != _lib.OK:
                    raise TrainmcError(rc, f"tmc_result_copy_figure({family}, {i}) failed")
                figures[family][name] = buf
    reports = (_lib.take_string(lib.result_text(r, 0)), _lib.take_string(lib.result_text(r, 1)))
    return Result(text, n, days, figures, reports)


def _importance_options(opts, keep, importance, pilot, plain_max):
    """Importance sampling's options into opts (the strings kept alive in keep)."""
    if importance is not None:
        if not isinstance(importance, str):
            try:
                tilts = [float(t) for t in importance]
            except TypeError:
                raise TypeError("importance must be 'auto', 'F,O,S[,R,D]' or a sequence of "
                                f"numbers, not {type(importance).__name__}") from None
            importance = ",".join(repr(t) for t in tilts)
        keep.append(_text("importance", importance).encode("utf-8"))
        opts.importance = keep[-1]
    opts.pilot_replicas = _integer("importance_pilot", pilot, 1, MAX_REPLICAS,
                                   allow_none=True, none_means="None (1000) or ") or 0
    opts.importance_plain_max = _integer("importance_plain_max", plain_max, 1, MAX_REPLICAS,
                                         allow_none=True, none_means="None (1e7) or ") or 0


def run(experiment, replicas=None, seed=None, threads=0, overrides=None, precision=None,
        importance=None, progress=None, *, importance_pilot=None, stop=None,
        per_replica=True, base_dir=None, force=False, importance_plain_max=None):
    """Run an experiment's replicas; returns a Result (the run document as a
    dict, plus per-replica arrays).

    experiment  a path to an experiment JSON file, a dict, or an Experiment
    replicas    replicas to run, [1, 1e9] (None: the experiment's monte_carlo.replicas);
                with `precision`, the budget
    seed        run seed, [0, 2^53 - 1] (None: the experiment's monte_carlo.seed)
    threads     worker threads, 0 = one per processor; the numbers do not depend on it
    overrides   {"section.key": value} (or ["section.key=VALUE", ...]), as `--set`
    precision   e.g. "deadline.probability:abs=0.001" or "completion_days.mean:rel=1e-4":
                replicas in batches of 1000 until the 95 % interval's half-width is this
    importance  "auto" or tilts "F,O,S[,R,D]" (str, or a sequence of numbers):
                P(miss) by importance sampling (document key "importance")
    progress    callable(done, total) called in this thread about ten times a
                second; returning True stops the run (TrainmcError, code 3)
    importance_pilot  replicas per cross-entropy level (None: 1000)
    importance_plain_max  when the importance estimate's weights are too
                heavy-tailed for its interval (Pareto k-hat > 0.5), plain replicas
                are run in its place if a 10 % relative error needs at most this
                many, [1, 1e9] (None: 1e7); document keys importance.trusted,
                .plain, .plain_needed
    stop        a threading.Event: setting it stops the run (TrainmcError, code 3)
    per_replica False: keep only completion_days per replica (8 bytes each
                instead of about 200)
    base_dir    for a dict: the folder its relative file names, its "base"
                among them, resolve against (None: the current folder)
    force       True: run although the training state does not fit in the
                cards' memory (`trainmc plan`'s memory line; the command
                line's --force); a run that cannot finish is refused anyway

    Ctrl-C (KeyboardInterrupt) stops the library's run and is re-raised.
    Raises TrainmcError (code: 1 input, 2 memory, 3 stopped, 4 runtime);
    TypeError/ValueError for bad Python arguments.
    """
    opts = _run_options(replicas, seed, threads, stop, progress, force=force)
    keep = []
    if precision is not None:
        keep.append(_text("precision", precision).encode("utf-8"))
        opts.precision = keep[-1]
    _importance_options(opts, keep, importance, importance_pilot, importance_plain_max)
    if not isinstance(per_replica, bool):
        raise TypeError("per_replica must be True or False")
    opts.summary_only = 0 if per_replica else 1

    exp = load(experiment, overrides, base_dir)
    owned = exp is not experiment
    lib = _lib.library()
    handle = exp._acquire()
    try:
        r = _run_stoppable(lambda o, st: lib.experiment_run(handle, ctypes.byref(o),
                                                            ctypes.byref(st)),
                           opts, progress, stop, lib.result_free)
        try:
            return _copy_result(r, per_replica)
        finally:
            lib.result_free(r)
    finally:
        exp._release()
        if owned:
            exp.close()


def closed_form(experiment, overrides=None, base_dir=None):
    """The closed forms of an experiment (path, dict or Experiment) as a dict:
    step time and c_N, the interval in force, Young's and Daly's optimum
    intervals (s), overheads (fractions) and completion times (days).
    base_dir: as load()."""
    exp = load(experiment, overrides, base_dir)
    try:
        return exp.closed_form()
    finally:
        if exp is not experiment:
            exp.close()


# ---------- sweeps ----------

def _number_text(name, v):
    if isinstance(v, bool):
        raise TypeError(f"{name}: values must be numbers, not bool")
    try:
        return str(operator.index(v))
    except TypeError:
        pass
    try:
        f = float(v)
    except (TypeError, ValueError):
        raise TypeError(f"{name}: values must be numbers, not {type(v).__name__}") from None
    if not math.isfinite(f):
        raise ValueError(f"{name}: {f} is not a finite number")
    return repr(f)


def _vary(vary):
    if isinstance(vary, str):
        vary = [vary]
    out = []
    if isinstance(vary, dict):
        for key, values in vary.items():
            _text("a vary key", key)
            if not key or "=" in key:
                raise ValueError(f"vary key {key!r}: must be a dotted path such as "
                                 "'checkpoint.interval_s'")
            if isinstance(values, str):
                out.append(f"{key}={values}")  # "V1,V2" or "START:STOP:STEP"
                continue
            try:
                items = list(values)
            except TypeError:
                raise TypeError(f"vary[{key!r}] must be a list of numbers or a "
                                "'START:STOP:STEP' string") from None
            if not items:
                raise ValueError(f"vary[{key!r}] has no values")
            out.append(f"{key}=" + ",".join(_number_text(f"vary[{key!r}]", v) for v in items))
    elif isinstance(vary, (list, tuple)):
        for item in vary:
            _text("a vary item", item)
            if "=" not in item or item.startswith("="):
                raise ValueError(f"vary item {item!r}: must be 'KEY=V1,V2,...' or "
                                 "'KEY=START:STOP:STEP'")
            out.append(item)
    else:
        raise TypeError("vary must be a dict {key: [values]} or a list of 'KEY=VALUES' "
                        f"strings, not {type(vary).__name__}")
    if not 1 <= len(out) <= 2:
        raise ValueError(f"vary names {len(out)} keys: one or two")
    for s in out:
        if "\0" in s:
            raise ValueError(f"vary item {s!r} contains a NUL character")
    return out


class SweepResult(dict):
    """A sweep's document (`trainmc sweep --json`'s JSON, as a dict) plus
    .rows, its "settings": one dict per setting, each a run document with
    "values" (the setting) and "difference_days" (T against the best
    setting under common random numbers), and .json, the text."""

    def __init__(self, text):
        super().__init__(json.loads(text))
        self.json = text

    @property
    def rows(self):
        return self["settings"]

    def to_frame(self):
        """A pandas DataFrame, one row per setting: the swept keys' values,
        then P(deadline) with its 95 % interval, the mean T (days) with its
        standard error, and T less the best setting's (days, common random
        numbers) with its standard error.
        ImportError without pandas (Debian: python3-pandas)."""
        pandas = _pandas()
        rows = []
        for s in self["settings"]:
            row = dict(s["values"])
            dl, days = s.get("deadline") or {}, s.get("completion_days") or {}
            ci = dl.get("ci95") or [None, None]
            row.update(probability=dl.get("probability"), probability_lo=ci[0],
                       probability_hi=ci[1], completion_days_mean=days.get("mean"),
                       completion_days_se=days.get("se"),
                       difference_days=(s.get("difference_days") or {}).get("mean"),
                       difference_se_days=(s.get("difference_days") or {}).get("se"))
            rows.append(row)
        return pandas.DataFrame(rows)


def sweep(experiment, vary, replicas=None, seed=None, threads=0, overrides=None,
          progress=None, *, stop=None, base_dir=None, force=False, importance=None,
          importance_pilot=None, importance_plain_max=None):
    """Run an experiment at every setting of one or two numeric keys (two:
    the full grid) with the same replicas and seed (common random numbers);
    returns a SweepResult.

    experiment  a path to an experiment JSON file, a dict, or an Experiment
                (with the overrides it was loaded with)
    vary        {"checkpoint.interval_s": [600, 1800, 3600]} (a value may be
                a "START:STOP:STEP" string), or ["KEY=V1,V2", ...]; 1 or 2 keys
    replicas    replicas per setting, [2, 1e9] (None: the experiment's)
    seed, threads, overrides, progress, stop, base_dir, force: as run()
    importance, importance_pilot, importance_plain_max: as run(), for each
                setting (each setting's document gets its "importance")
    """
    extra = _overrides(overrides)
    source, prior = _source(experiment, base_dir)
    extra = prior + extra
    items = _vary(vary)
    opts = _run_options(replicas, seed, threads, stop, progress, replicas_low=2, force=force)
    keep = []
    _importance_options(opts, keep, importance, importance_pilot, importance_plain_max)
    lib = _lib.library()
    ov, n_ov, keep_ov = _lib.string_array(extra)
    va, n_va, keep_va = _lib.string_array(items)
    if source[0] == "path":
        path = source[1]

        def call(o, st):
            return lib.experiment_sweep(path, ov, n_ov, va, n_va, ctypes.byref(o),
                                        ctypes.byref(st))
    else:
        text, label, folder = (source[1].encode("utf-8"), source[2].encode("utf-8"),
                               os.fsencode(source[3]))

        def call(o, st):
            return lib.experiment_sweep_text(text, label, folder, ov, n_ov, va, n_va,
                                             ctypes.byref(o), ctypes.byref(st))
    try:
        s = _run_stoppable(call, opts, progress, stop, lib.sweep_free)
    except TrainmcError as e:
        raise _with_base_dir_hint(e, source) from None
    del keep_ov, keep_va, keep
    try:
        return SweepResult(lib.sweep_json(s).decode("utf-8"))
    finally:
        lib.sweep_free(s)


# ---------- emax ----------

class EmaxResult(dict):
    """`trainmc emax --json`'s document as a dict, plus .rows (its "cards":
    one dict per N), .json (that text), .text (the report `trainmc emax`
    prints) and .csv (what `trainmc emax --csv` writes)."""

    def __init__(self, text, report, csv):
        super().__init__(json.loads(text))
        self.json, self.text, self.csv = text, report, csv

    @property
    def rows(self):
        return self["cards"]


def _step_seconds(name, value):
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(f"{name} must be a number, not {type(value).__name__}")
    return float(value)


def emax(cards=(2, 8, 48, 1024, 16384), replicas=1_000_000, seed=1, brute_max=64, threads=0,
         *, mu_s=None, sigma_s=None, fixed_s=0.0):
    """c_N = E[max of N standard normals] (units of sigma) for each N in
    `cards` ([1, 1e7]): by quadrature, simulated with `replicas` maxima
    ([2, 1e9]) drawn by the engine's O(1) sampler, by N explicit draws for
    N <= brute_max, and by Blom's and Gumbel's approximations. With mu_s
    (> 0) and sigma_s (>= 0), also the expected step time mu_s + c_N
    sigma_s + fixed_s in seconds (docs/model.md 2). Returns an EmaxResult:
    `trainmc emax --json`'s document as a dict, one entry per N in "cards",
    e.g. doc["cards"][0]["quadrature"]["mean"]; .text and .csv."""
    if isinstance(cards, (str, bytes)):
        raise TypeError("cards must be a list of integers")
    try:
        cards = list(cards)
    except TypeError:
        cards = [cards]
    if not 1 <= len(cards) <= 1000:
        raise ValueError(f"cards has {len(cards)} entries: must be 1 to 1000")
    if (mu_s is None) != (sigma_s is None) or (mu_s is None and fixed_s != 0):
        raise ValueError("give mu_s and sigma_s together (fixed_s with them), or neither")
    lib = _lib.library()
    o = _lib.EmaxOptions()
    lib.emax_options_init(ctypes.byref(o))
    o.replicas = _integer("replicas", replicas, 2, MAX_REPLICAS)
    o.seed = _integer("seed", seed, 0, MAX_SEED)
    o.brute_max_cards = _integer("brute_max", brute_max, 0, MAX_CARDS)
    o.threads = _integer("threads", threads, 0, MAX_THREADS,
                         none_means="0 (one per processor) or ")
    if mu_s is not None:
        o.has_step = 1
        o.mu_s = _step_seconds("mu_s", mu_s)
        o.sigma_s = _step_seconds("sigma_s", sigma_s)
        o.fixed_s = _step_seconds("fixed_s", fixed_s)
    cards = [_integer("cards[i]", c, 1, MAX_CARDS) for c in cards]
    arr = (ctypes.c_long * len(cards))(*cards)
    st = _lib.Status()
    r = lib.emax_run_result(arr, len(cards), ctypes.byref(o), ctypes.byref(st))
    if not r:
        st.raise_if_failed()
        raise TrainmcError(_lib.ERR_MEMORY, "libtrainmc returned no emax result")
    try:
        return EmaxResult(lib.emax_result_json(r).decode("utf-8"),
                          _lib.take_string(lib.emax_result_text(r)),
                          _lib.take_string(lib.emax_result_csv(r)))
    finally:
        lib.emax_result_free(r)


def version():
    """libtrainmc's version, "MAJOR.MINOR.PATCH"."""
    return _lib.library().version


def library_path():
    """The path of the libtrainmc loaded (loading it if need be)."""
    return _lib.library().path


# ---------- the other commands: forecast, fit, cheapest, sensitivity, rescue ----------

class Document(dict):
    """A command's document (its --json JSON, as a dict) plus

    .doc         the same document as a plain dict
    .json        its text as the library wrote it
    .text        the report the command prints (also .report())
    .rows        the document's table (a list of dicts; see each class)
    .column(p)   the number at dotted path p of every row, as an array
                 (numpy float64 when installed, else array.array 'd'); a
                 row without a number there gives NaN
    .to_frame()  a pandas DataFrame, a row per entry of .rows, nested keys
                 flattened with dots (needs pandas: Debian python3-pandas)
    .html        the page the command's --html FILE writes (a forecast from a
                 history, a sensitivity; None for the others): one
                 self-contained file to share (.save_html(path) writes it)

    In Jupyter a Document shows its report (_repr_html_)."""

    _rows_key = None

    def __init__(self, text, report, html=None):
        super().__init__(json.loads(text))
        self.json, self.text, self.html = text, report, html

    def save_html(self, path):
        """Write .html, the command's --html page, to path (UTF-8).
        ValueError for a command without a page."""
        if self.html is None:
            raise ValueError(f"{type(self).__name__} has no HTML page (forecast from a "
                             "history and sensitivity have one)")
        with open(path, "w", encoding="utf-8") as f:
            f.write(self.html)

    @property
    def doc(self):
        return dict(self)

    def report(self):
        """The report the command prints."""
        return self.text

    def _repr_html_(self):
        return "<pre>" + html.escape(self.text) + "</pre>"

    @property
    def rows(self):
        return self.get(self._rows_key) or []

    def column(self, path):
        """The number at dotted path (array indices as numbers:
        "deadline.ci95.0") of every row, NaN where there is none."""
        out = []
        for row in self.rows:
            v = row
            for part in path.split("."):
                if isinstance(v, list) and part.isdigit() and int(part) < len(v):
                    v = v[int(part)]
                elif isinstance(v, dict):
                    v = v.get(part)
                else:
                    v = None
            out.append(float(v) if isinstance(v, (int, float)) and not isinstance(v, bool)
                       else math.nan)
        np = _numpy()
        return np.array(out, dtype=np.float64) if np is not None else array.array("d", out)

    def to_frame(self):
        pandas = _pandas()
        return pandas.json_normalize(self.rows, sep=".")


class ForecastResult(Document):
    """`trainmc forecast --history`'s document; .rows its "snapshots": per
    snapshot its line, progress, pace, completion_days, days_left, deadline
    (probability, ci95) and change. Arrays: .elapsed_days, .probability,
    .probability_lo, .probability_hi, .completion_days_mean."""
    _rows_key = "snapshots"

    elapsed_days = property(lambda self: self.column("progress.elapsed_days"))
    probability = property(lambda self: self.column("deadline.probability"))
    probability_lo = property(lambda self: self.column("deadline.ci95.0"))
    probability_hi = property(lambda self: self.column("deadline.ci95.1"))
    completion_days_mean = property(lambda self: self.column("completion_days.mean"))


class FitResult(Document):
    """`trainmc fit LOG`'s document; .rows its "causes" (name, count) for a
    fault log; for a step-time log its "slow_ranks", for SLURM accounting
    its "jobs" (where the document has them). .fragment() the experiment
    fragment `fit --write FILE` writes."""
    _rows_key = "causes"

    def __init__(self, text, report, fragment=None, why=""):
        super().__init__(text, report, None)
        self._fragment, self._why = fragment, why

    def fragment(self):
        """The experiment fragment `trainmc fit --write FILE` writes, as a
        dict: a fault log's failures distribution file (its law: fit's
        law=), a step-time log's jitter distribution file, SLURM
        accounting's failures, outages and time_limit sections. Save it with
        json.dump and name it in an experiment. Raises TrainmcError (code 1)
        saying why when there is none (no law could be fitted; node failures
        in accounting without cards_per_node)."""
        if self._fragment is None:
            raise TrainmcError(_lib.ERR_INPUT, self._why)
        return json.loads(self._fragment)

    @property
    def rows(self):
        for key in ("causes", "slow_ranks", "jobs"):
            if isinstance(self.get(key), list):
                return self[key]
        return []


class ForecastLogResult(Document):
    """`trainmc forecast --log`'s document: the run's (`trainmc run --json`'s
    keys) from the progress section a training log gave; .progress that
    object (["inputs"]["progress"]), .rows one row: that progress,
    completion_days, deadline (probability, ci95) and the days left.
    .probability and .completion_days_mean as numbers."""

    @property
    def progress(self):
        return (self.get("inputs") or {}).get("progress")

    @property
    def rows(self):
        days_left = (self.get("forecast") or {}).get("days_left")
        return [{"progress": self.progress,
                 "completion_days": self.get("completion_days"),
                 "deadline": self.get("deadline"), "days_left": days_left}]

    probability = property(lambda self: self["deadline"]["probability"])
    completion_days_mean = property(lambda self: self["completion_days"]["mean"])


class CheapestResult(Document):
    """`trainmc cheapest`'s document; .rows its "plans" (every plan run: plan,
    cards, overrides, p_deadline, meets, cost, frontier, ...), ["chosen"]
    the cheapest plan that meets (None when none does). Arrays: .cards,
    .probability, .cost (each plan's mean cost)."""
    _rows_key = "plans"

    cards = property(lambda self: self.column("cards"))
    probability = property(lambda self: self.column("p_deadline.value"))
    cost = property(lambda self: self.column("cost.mean"))


class SensitivityResult(Document):
    """`trainmc sensitivity`'s document; .rows its "inputs" (name, base, low,
    high, the ends' runs in low_end and high_end with their differences from
    the base under common random numbers, rank_days, rank_p)."""
    _rows_key = "inputs"


class RescueResult(Document):
    """`trainmc rescue`'s document; .rows its "levers" (key, current,
    direction, outcome, found and neighbour with their metric, evaluations,
    ...); empty when the plan as it stands meets the target
    (["change_needed"] False)."""
    _rows_key = "levers"


def _text_or_none(name, value):
    if value is None:
        return None
    if _is_path(value) and not isinstance(value, str):
        return os.fsencode(value)
    if not isinstance(value, str):
        raise TypeError(f"{name} must be text or None, not {type(value).__name__}")
    if "\0" in value:
        raise ValueError(f"{name} contains a NUL character")
    return value.encode("utf-8")


def _levers(levers, as_dict):
    """levers as a list of text: for cheapest {"KEY": VALUES} or ["KEY=VALUES"]
    (VALUES a list or "LO:HI" text); for rescue a list of keys or "K1,K2"."""
    if levers is None:
        return []
    if isinstance(levers, str):
        return [levers] if as_dict else [k for k in levers.split(",")]
    if isinstance(levers, dict):
        if not as_dict:
            raise TypeError("levers must be a list of keys or 'KEY,KEY' text")
        return [f"{k}={_list_text(v)}" for k, v in levers.items()]
    items = list(levers)
    for s in items:
        if not isinstance(s, str):
            raise TypeError(f"each lever must be text, not {type(s).__name__}")
    return items


def _list_text(v):
    if isinstance(v, str):
        return v
    if isinstance(v, (list, tuple)):
        return ",".join(str(x) for x in v)
    return str(v)


def _command(name, cls, experiment, overrides, options, replicas, seed, threads, progress,
             stop, force, replicas_low=2, base_dir=None):
    """The command `name` (trainmc.h) on experiment, a path, a dict or an
    Experiment, as run() takes them: a file through tmc_experiment_NAME, a
    dict (or an Experiment made from one) as JSON text through
    tmc_experiment_NAME_text. replicas >= 2 but for forecast (>= 1: as the
    program's -n)."""
    source, prior = _source(experiment, base_dir)
    sets = prior + _overrides(overrides)
    opts = _run_options(replicas, seed, threads, stop, progress, replicas_low=replicas_low,
                        force=force)
    lib = _lib.library()
    ov, n_ov, keep_ov = _lib.string_array(sets)
    if source[0] == "path":
        fn, head = getattr(lib, name), (source[1],)
    else:
        _, text, label, folder = source
        fn = getattr(lib, name + "_text")
        head = (text.encode("utf-8"), label.encode("utf-8"), os.fsencode(folder))

    def call(o, st):
        return fn(*head, ov, n_ov, ctypes.byref(options), ctypes.byref(o), ctypes.byref(st))
    try:
        d = _run_stoppable(call, opts, progress, stop, lib.document_free)
    except TrainmcError as e:
        raise _with_base_dir_hint(e, source) from None
    del keep_ov
    try:
        page = lib.document_html(d)
        return cls(lib.document_json(d).decode("utf-8"), lib.document_text(d).decode("utf-8"),
                   page.decode("utf-8") if page else None)
    finally:
        lib.document_free(d)


def _command_options():
    c = _lib.CommandOptions()
    _lib.library().command_options_init(ctypes.byref(c))
    return c


def forecast(experiment, history=None, replicas=None, seed=None, threads=0, overrides=None,
             progress=None, *, stop=None, force=False, base_dir=None, log=None,
             step_regex=None, elapsed_days=None, committed_step=None):
    """P(deadline) forecast at every snapshot of a job's history (a JSON-lines
    file of progress objects), all with the same replicas and seed, as
    `trainmc forecast EXPERIMENT --history FILE`; returns a ForecastResult.

    Or, with log= in place of history, from a running job's own training
    log, as `trainmc forecast EXPERIMENT --log LOG`: Megatron-LM's iteration
    lines (or step_regex's, named groups (?P<step>...) and (?P<ms>...) or
    (?P<s>...), optionally (?P<time>...)) give the progress section, which
    the experiment runs from; elapsed_days (days since the job started;
    None: the log's stamps) and committed_step (the newest checkpoint's
    step; None: the log's last checkpoint line) where the log lacks them.
    Returns a ForecastLogResult (the run's document).

    experiment is a path, a dict or an Experiment, and base_dir, replicas,
    seed, threads, overrides, progress, stop and force are as run()'s."""
    c = _command_options()
    c.history = _text_or_none("history", history)
    c.log = _text_or_none("log", log)
    if (c.history is None) == (c.log is None):
        raise TypeError("give history (a JSON-lines file of progress snapshots) or log (a "
                        "training log), one of them")
    c.step_regex = _text_or_none("step_regex", step_regex)
    if elapsed_days is not None:
        if isinstance(elapsed_days, bool) or not isinstance(elapsed_days, (int, float)):
            raise TypeError("elapsed_days must be a number of days or None")
        c.elapsed_days = float(elapsed_days)
    if committed_step is not None:
        c.committed_step = _integer("committed_step", committed_step, 0, 10**9,
                                    allow_none=True, none_means="None (the log's) or ")
    cls = ForecastLogResult if c.log is not None else ForecastResult
    return _command("experiment_forecast", cls, experiment, overrides, c, replicas,
                    seed, threads, progress, stop, force, replicas_low=1, base_dir=base_dir)


def cheapest(experiment, target=None, levers=None, async_copy_s=None, replicas=None, seed=None,
             threads=0, overrides=None, progress=None, *, stop=None, force=False, base_dir=None):
    """The cheapest plan whose P(deadline) meets target (a probability, or
    "deadline.probability>=P"; None: 0.9) over the levers ({"job.cards":
    "32:128", "checkpoint.mode": ["sync", "async"], ...}; None: job.cards
    from half to twice the experiment's), as `trainmc cheapest`; returns a
    CheapestResult. async_copy_s: an asynchronous save's copy time, s.
    The rest as forecast()."""
    c = _command_options()
    c.target = _text_or_none("target", None if target is None else str(target))
    items = _levers(levers, as_dict=True)
    arr, n, keep = _lib.string_array(items)
    c.levers, c.n_levers = arr, n
    if async_copy_s is not None:
        c.async_copy_s = float(async_copy_s)
    try:
        return _command("experiment_cheapest", CheapestResult, experiment, overrides, c,
                        replicas, seed, threads, progress, stop, force, base_dir=base_dir)
    finally:
        del keep


def sensitivity(experiment, inputs=None, compound=None, replicas=None, seed=None, threads=0,
                overrides=None, progress=None, *, stop=None, force=False, base_dir=None):
    """Each uncertain input moved to the ends of its range (inputs: a JSON
    file of inputs and ranges; None: the defaults), and with compound
    ("KEY=V,KEY=V" or {"KEY": V}) those degradations at once, as `trainmc
    sensitivity`; returns a SensitivityResult. The rest as forecast()."""
    c = _command_options()
    c.inputs = _text_or_none("inputs", inputs)
    if isinstance(compound, dict):
        compound = ",".join(f"{k}={v}" for k, v in compound.items())
    c.compound = _text_or_none("compound", compound)
    return _command("experiment_sensitivity", SensitivityResult, experiment, overrides, c,
                    replicas, seed, threads, progress, stop, force, base_dir=base_dir)


def rescue(experiment, target=None, levers=None, replicas=None, seed=None, threads=0,
           overrides=None, progress=None, *, stop=None, force=False, base_dir=None):
    """For a plan that misses target ("METRIC>=VALUE"; None:
    deadline.probability>=0.9), the smallest change of each lever alone that
    meets it (levers: keys, a list or "K1,K2"; None: every lever that
    applies), as `trainmc rescue`; returns a RescueResult. The search is
    long: stop (a threading.Event) or Ctrl-C stops it. The rest as
    forecast()."""
    c = _command_options()
    c.target = _text_or_none("target", target)
    items = _levers(levers, as_dict=False)
    arr, n, keep = _lib.string_array(items)
    c.levers, c.n_levers = arr, n
    try:
        return _command("experiment_rescue", RescueResult, experiment, overrides, c, replicas,
                        seed, threads, progress, stop, force, base_dir=base_dir)
    finally:
        del keep


def fit(log, nodes=None, cards_per_node=None, span_days=None, format=None, confidence=None,
        window_days=None, simultaneous_s=None, exclude_causes=(), dedupe=False, kind=None,
        sacct_map=(), law=None, bursts=False):
    """A fault log's failure model (CSV with columns node, start, end, cause,
    or JSON lines), as `trainmc fit LOG --nodes N --cards-per-node G`;
    returns a FitResult. nodes: nodes watched, failed or not (required for
    a fault log); the others as the command's options (None: its defaults).
    kind="steps": a step-time log (`fit --steps`: confidence only);
    kind="sacct": SLURM accounting (`fit --sacct`: confidence,
    cards_per_node if known, sacct_map {"STATE": "CAUSE"} or ["STATE=CAUSE"]).
    A fault log's law ("exponential", None, or "weibull") is the lifetime
    law of .fragment() (`fit --law`); bursts=True (`fit --bursts`) makes
    faults starting within simultaneous_s of each other bursts."""
    o = _lib.FitLogOptions()
    lib = _lib.library()
    lib.fit_log_options_init(ctypes.byref(o))
    o.nodes = _integer("nodes", nodes, 1, 10**8, allow_none=True) or 0
    o.cards_per_node = _integer("cards_per_node", cards_per_node, 1, 10**6,
                                allow_none=True) or 0
    o.kind = _text_or_none("kind", kind)
    if isinstance(sacct_map, dict):
        sacct_map = [f"{k}={v}" for k, v in sacct_map.items()]
    states = list(sacct_map)
    sarr, sn, skeep = _lib.string_array(states)
    o.sacct_map, o.n_sacct_map = sarr, sn
    for name, v in (("span_days", span_days), ("confidence", confidence),
                    ("window_days", window_days), ("simultaneous_s", simultaneous_s)):
        if v is not None:
            if isinstance(v, bool) or not isinstance(v, (int, float)):
                raise TypeError(f"{name} must be a number or None")
            setattr(o, name, float(v))
    o.format = _text_or_none("format", format)
    causes = [exclude_causes] if isinstance(exclude_causes, str) else list(exclude_causes)
    arr, n, keep = _lib.string_array(causes)
    o.exclude_causes, o.n_exclude_causes = arr, n
    o.dedupe = 1 if dedupe else 0
    o.law = _text_or_none("law", law)
    if not isinstance(bursts, bool):
        raise TypeError("bursts must be True or False")
    o.bursts = 1 if bursts else 0
    path = _fspath(log)
    st = _lib.Status()
    d = lib.fit_log(path, ctypes.byref(o), ctypes.byref(st))
    del keep, skeep
    if not d:
        st.raise_if_failed()
        raise TrainmcError(_lib.ERR_MEMORY, "libtrainmc returned no document")
    try:
        fst = _lib.Status()
        frag = lib.document_fragment(d, ctypes.byref(fst))
        return FitResult(lib.document_json(d).decode("utf-8"),
                         lib.document_text(d).decode("utf-8"),
                         frag.decode("utf-8") if frag else None,
                         "" if frag else fst.message.decode("utf-8"))
    finally:
        lib.document_free(d)
