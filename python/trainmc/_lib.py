"""ctypes bindings of libtrainmc (src/api/trainmc.h), loaded on first use.

Where the library comes from, in order:
1. the file named by the environment variable TRAINMC_LIBRARY;
2. in a repository checkout, its build tree: python/trainmc/../../build/libtrainmc.so;
3. an installed copy: ctypes.util.find_library("trainmc"), then "libtrainmc.so.0".
"""
import ctypes
import ctypes.util
import os
import threading

# tmc_code (trainmc.h)
OK = 0
ERR_INPUT = 1
ERR_MEMORY = 2
ERR_STOPPED = 3
ERR_RUNTIME = 4

CODE_NAMES = {OK: "TMC_OK", ERR_INPUT: "TMC_ERR_INPUT", ERR_MEMORY: "TMC_ERR_MEMORY",
              ERR_STOPPED: "TMC_ERR_STOPPED", ERR_RUNTIME: "TMC_ERR_RUNTIME"}

# tmc_figure_family
FIGURE_COUNT = 0
FIGURE_SPLIT = 1
FIGURE_STATE = 2

# The major version this package speaks (the layout of tmc_run_options).
ABI_MAJOR = 0


class TrainmcError(Exception):
    """An error reported by libtrainmc.

    .code is the tmc_code (1 TMC_ERR_INPUT: a bad experiment, override or
    argument; 2 TMC_ERR_MEMORY; 3 TMC_ERR_STOPPED: the run was stopped;
    4 TMC_ERR_RUNTIME: a computation failed), .message the library's message
    (it names the file, the JSON path or the argument, the value and what is
    allowed).
    """

    def __init__(self, code, message):
        super().__init__(code, message)
        self.code = int(code)
        self.message = message

    def __str__(self):
        return self.message

    @property
    def code_name(self):
        return CODE_NAMES.get(self.code, str(self.code))


class LibraryNotFoundError(OSError):
    """libtrainmc.so could not be found or loaded."""


TrainmcError.__module__ = LibraryNotFoundError.__module__ = "trainmc"  # as users see them


class Status(ctypes.Structure):
    _fields_ = [("code", ctypes.c_int), ("message", ctypes.c_char * 1024)]

    def raise_if_failed(self):
        if self.code != OK:
            raise TrainmcError(self.code, self.message.decode("utf-8", errors="replace"))


PROGRESS = ctypes.CFUNCTYPE(None, ctypes.c_long, ctypes.c_long, ctypes.c_void_p)


class RunOptions(ctypes.Structure):
    # sig_atomic_t is int on every Linux ABI.
    _fields_ = [("replicas", ctypes.c_long),
                ("has_seed", ctypes.c_int),
                ("seed", ctypes.c_uint64),
                ("threads", ctypes.c_int),
                ("progress", PROGRESS),
                ("progress_ctx", ctypes.c_void_p),
                ("stop", ctypes.POINTER(ctypes.c_int)),
                ("precision", ctypes.c_char_p),
                ("importance", ctypes.c_char_p),
                ("pilot_replicas", ctypes.c_long),
                ("summary_only", ctypes.c_int),
                ("force", ctypes.c_int),
                ("importance_plain_max", ctypes.c_long)]


class EmaxOptions(ctypes.Structure):
    _fields_ = [("replicas", ctypes.c_long),
                ("seed", ctypes.c_uint64),
                ("brute_max_cards", ctypes.c_long),
                ("threads", ctypes.c_int),
                ("has_step", ctypes.c_int),
                ("mu_s", ctypes.c_double),
                ("sigma_s", ctypes.c_double),
                ("fixed_s", ctypes.c_double)]


class CommandOptions(ctypes.Structure):
    _fields_ = [("history", ctypes.c_char_p),
                ("target", ctypes.c_char_p),
                ("levers", ctypes.POINTER(ctypes.c_char_p)),
                ("n_levers", ctypes.c_int),
                ("async_copy_s", ctypes.c_double),
                ("inputs", ctypes.c_char_p),
                ("compound", ctypes.c_char_p),
                ("log", ctypes.c_char_p),
                ("step_regex", ctypes.c_char_p),
                ("elapsed_days", ctypes.c_double),
                ("committed_step", ctypes.c_long)]


class FitLogOptions(ctypes.Structure):
    _fields_ = [("nodes", ctypes.c_long),
                ("cards_per_node", ctypes.c_long),
                ("span_days", ctypes.c_double),
                ("format", ctypes.c_char_p),
                ("confidence", ctypes.c_double),
                ("window_days", ctypes.c_double),
                ("simultaneous_s", ctypes.c_double),
                ("exclude_causes", ctypes.POINTER(ctypes.c_char_p)),
                ("n_exclude_causes", ctypes.c_int),
                ("dedupe", ctypes.c_int),
                ("kind", ctypes.c_char_p),
                ("sacct_map", ctypes.POINTER(ctypes.c_char_p)),
                ("n_sacct_map", ctypes.c_int),
                ("law", ctypes.c_char_p),
                ("bursts", ctypes.c_int)]


_c = ctypes
_P = ctypes.c_void_p
_STRS = ctypes.POINTER(ctypes.c_char_p)
_ST = ctypes.POINTER(Status)

# the commands' common arguments: path, overrides, options, run options, status
_COMMAND = [_c.c_char_p, _STRS, _c.c_int, _c.POINTER(CommandOptions),
            _c.POINTER(RunOptions), _ST]

# the same with the experiment as JSON text: text, label, base_dir, then as above
_COMMAND_TEXT = [_c.c_char_p, _c.c_char_p] + _COMMAND

# name: (restype, argtypes)
_PROTOTYPES = {
    "tmc_library_version": (_c.c_char_p, []),
    "tmc_experiment_load": (_P, [_c.c_char_p, _STRS, _c.c_int, _ST]),
    "tmc_experiment_parse": (_P, [_c.c_char_p, _c.c_char_p, _c.c_char_p, _STRS, _c.c_int, _ST]),
    "tmc_experiment_free": (None, [_P]),
    # strings the caller frees: kept as void * so that ctypes does not copy
    # (and lose) the pointer
    "tmc_experiment_to_json": (_P, [_P]),
    "tmc_experiment_closed_form": (_P, [_P]),
    "tmc_string_free": (None, [_P]),
    "tmc_run_options_init": (None, [_c.POINTER(RunOptions)]),
    "tmc_experiment_run": (_P, [_P, _c.POINTER(RunOptions), _ST]),
    "tmc_result_free": (None, [_P]),
    "tmc_result_json": (_c.c_char_p, [_P]),
    "tmc_result_number": (_c.c_double, [_P, _c.c_char_p]),
    "tmc_result_text": (_P, [_P, _c.c_int]),
    "tmc_result_replicas": (_c.c_long, [_P]),
    "tmc_result_completion_days": (_c.POINTER(_c.c_double), [_P]),
    "tmc_figure_count": (_c.c_int, [_c.c_int]),
    "tmc_figure_name": (_c.c_char_p, [_c.c_int, _c.c_int]),
    "tmc_result_copy_figure": (_c.c_int, [_P, _c.c_int, _c.c_int, _c.POINTER(_c.c_double)]),
    "tmc_experiment_sweep": (_P, [_c.c_char_p, _STRS, _c.c_int, _STRS, _c.c_int,
                           _c.POINTER(RunOptions), _ST]),
    "tmc_experiment_sweep_text": (_P, [_c.c_char_p, _c.c_char_p, _c.c_char_p, _STRS, _c.c_int,
                                       _STRS, _c.c_int, _c.POINTER(RunOptions), _ST]),
    "tmc_sweep_free": (None, [_P]),
    "tmc_sweep_json": (_c.c_char_p, [_P]),
    "tmc_sweep_number": (_c.c_double, [_P, _c.c_char_p]),
    "tmc_emax_run": (_P, [_c.POINTER(_c.c_long), _c.c_int, _c.c_long, _c.c_uint64, _c.c_long,
                          _c.c_int, _ST]),
    "tmc_emax_options_init": (None, [_c.POINTER(EmaxOptions)]),
    "tmc_emax_run_result": (_P, [_c.POINTER(_c.c_long), _c.c_int, _c.POINTER(EmaxOptions), _ST]),
    "tmc_emax_result_free": (None, [_P]),
    "tmc_emax_result_json": (_c.c_char_p, [_P]),
    "tmc_emax_result_text": (_P, [_P]),
    "tmc_emax_result_csv": (_P, [_P]),
    "tmc_command_options_init": (None, [_c.POINTER(CommandOptions)]),
    "tmc_experiment_forecast": (_P, _COMMAND),
    "tmc_experiment_cheapest": (_P, _COMMAND),
    "tmc_experiment_sensitivity": (_P, _COMMAND),
    "tmc_experiment_rescue": (_P, _COMMAND),
    "tmc_experiment_forecast_text": (_P, _COMMAND_TEXT),
    "tmc_experiment_cheapest_text": (_P, _COMMAND_TEXT),
    "tmc_experiment_sensitivity_text": (_P, _COMMAND_TEXT),
    "tmc_experiment_rescue_text": (_P, _COMMAND_TEXT),
    "tmc_fit_log_options_init": (None, [_c.POINTER(FitLogOptions)]),
    "tmc_fit_log": (_P, [_c.c_char_p, _c.POINTER(FitLogOptions), _ST]),
    "tmc_document_free": (None, [_P]),
    "tmc_document_json": (_c.c_char_p, [_P]),
    "tmc_document_text": (_c.c_char_p, [_P]),
    "tmc_document_number": (_c.c_double, [_P, _c.c_char_p]),
    "tmc_document_fragment": (_c.c_char_p, [_P, _ST]),
    "tmc_document_html": (_c.c_char_p, [_P]),
}


class _Library:
    """The loaded library: a function per trainmc.h name, without the tmc_ prefix."""

    def __init__(self, cdll, path):
        self.path = path
        self._cdll = cdll
        self.missing = []
        for name, (restype, argtypes) in _PROTOTYPES.items():
            try:
                fn = getattr(cdll, name)
            except AttributeError:
                self.missing.append(name)
                fn = _missing(name, path)
            else:
                fn.restype = restype
                fn.argtypes = argtypes
            setattr(self, name[len("tmc_"):], fn)


def _missing(name, path):
    def fail(*args):
        raise LibraryNotFoundError(
            f"{path} has no function {name}: the library is older than this package; "
            "rebuild it (cmake --build build --target trainmc_shared)")
    return fail


_lock = threading.Lock()
_library = None


def _checkout():
    """The repository checkout this package lies in (python/trainmc/../..,
    holding CMakeLists.txt and src/api/trainmc.h), or None when it lies
    elsewhere (copied or installed)."""
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.normpath(os.path.join(here, os.pardir, os.pardir))
    if os.path.isfile(os.path.join(root, "CMakeLists.txt")) and \
            os.path.isfile(os.path.join(root, "src", "api", "trainmc.h")):
        return root
    return None


def _candidates():
    """(the checkout's build/libtrainmc.so or None, [(path to try, where it
    came from), ...] in order)."""
    root = _checkout()
    tree = os.path.join(root, "build", "libtrainmc.so") if root else None
    out = []
    if tree and os.path.isfile(tree):
        out.append((tree, "the build tree"))
    found = ctypes.util.find_library("trainmc")
    if found:
        out.append((found, "ctypes.util.find_library('trainmc')"))
    out.append(("libtrainmc.so.0", "the dynamic loader's path"))
    return tree, out


def _open(path):
    return ctypes.CDLL(path)


def library():
    """The loaded library (loaded on the first call). Raises LibraryNotFoundError."""
    global _library
    with _lock:
        if _library is not None:
            return _library
        env = os.environ.get("TRAINMC_LIBRARY")
        if env:
            if not os.path.isfile(env):
                raise LibraryNotFoundError(
                    f"TRAINMC_LIBRARY={env}: no such file (it must name libtrainmc.so, "
                    "e.g. build/libtrainmc.so; unset it to search the build tree)")
            try:
                cdll = _open(os.path.abspath(env))
            except OSError as e:
                raise LibraryNotFoundError(f"TRAINMC_LIBRARY={env}: cannot load it: {e}") from e
            path = env
        else:
            tree, candidates = _candidates()
            cdll, path, errors = None, None, []
            for candidate, origin in candidates:
                try:
                    cdll = _open(candidate)
                    path = candidate
                    break
                except OSError as e:
                    errors.append(f"{candidate} ({origin}): {e}")
            if cdll is None:
                if tree:  # in a checkout: build it there
                    hint = ("set TRAINMC_LIBRARY to its path, or build it in the repository "
                            "(bash .ci/setup, or cmake -S . -B build && cmake --build build "
                            f"--target trainmc_shared, giving {tree}), or install it "
                            "(cmake --install build)")
                else:  # copied or installed: no build folder to guess
                    hint = ("set TRAINMC_LIBRARY to libtrainmc.so, or install the library "
                            "(cmake --install) so the loader finds it, or add its folder to "
                            "LD_LIBRARY_PATH")
                raise LibraryNotFoundError(f"libtrainmc.so not found: {hint}. Tried: "
                                           + "; ".join(errors))
        lib = _Library(cdll, path)
        version = lib.library_version().decode("ascii", errors="replace") \
            if "tmc_library_version" not in lib.missing else "?"
        major = version.split(".")[0]
        if major != str(ABI_MAJOR):
            raise LibraryNotFoundError(
                f"{path} is libtrainmc {version}; this package needs {ABI_MAJOR}.x")
        lib.version = version
        _library = lib
        return lib


def take_string(ptr):
    """The text of a string the library returned for the caller to free, freed."""
    lib = library()
    if not ptr:
        raise TrainmcError(ERR_MEMORY, "libtrainmc returned no document (out of memory)")
    try:
        return ctypes.string_at(ptr).decode("utf-8")
    finally:
        lib.string_free(ptr)


def string_array(items):
    """(ctypes char ** array or None, count, keepalive) for a list of str."""
    encoded = [s.encode("utf-8") for s in items]
    if not encoded:
        return None, 0, encoded
    arr = (ctypes.c_char_p * len(encoded))(*encoded)
    return arr, len(encoded), (arr, encoded)
