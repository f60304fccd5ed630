"""trainmc: Monte Carlo simulation of large-model training runs (libtrainmc).

    >>> import trainmc
    >>> r = trainmc.run("experiments/design-48.json", replicas=1000, seed=1)
    >>> r["deadline"]["probability"], r["completion_days"]["mean"]   # the run document
    >>> r.completion_days            # every replica's T in days (numpy array)

Functions: run, sweep, emax, closed_form, load, version, and the other
commands: forecast, fit, cheapest, sensitivity, rescue (each returns the
command's --json document as a dict, with .text, .rows, .to_frame()). Errors raise
TrainmcError (.code: 1 input, 2 memory, 3 stopped, 4 runtime; .message).
Units are in the names: _s seconds, _days days of 86,400 s. The document
keys: README.md "Output (JSON keys)"; this package: python/README.md.

Needs only the standard library (ctypes); numpy, when installed, is
imported when per-replica arrays are first read. libtrainmc.so is found
through TRAINMC_LIBRARY, the repository's build/ folder, or an installed copy.
"""
from ._api import (CheapestResult, Document, EmaxResult, Experiment, FitResult,
                   ForecastLogResult, ForecastResult, RescueResult, Result, SensitivityResult, SweepResult, cheapest, closed_form,
                   emax, fit, forecast, library_path, load, rescue, run, sensitivity, sweep,
                   version)
from ._lib import (ERR_INPUT, ERR_MEMORY, ERR_RUNTIME, ERR_STOPPED, OK, LibraryNotFoundError,
                   TrainmcError)

__version__ = "0.1.0"

__all__ = ["run", "sweep", "emax", "closed_form", "load", "version", "library_path",
           "forecast", "fit", "cheapest", "sensitivity", "rescue", "Document", "ForecastResult",
           "ForecastLogResult", "FitResult", "CheapestResult", "SensitivityResult", "RescueResult", "EmaxResult",
           "Experiment", "Result", "SweepResult", "TrainmcError", "LibraryNotFoundError",
           "OK", "ERR_INPUT", "ERR_MEMORY", "ERR_STOPPED", "ERR_RUNTIME"]
