/* units.h - the units an experiment's keys are written in, as seconds. */
#ifndef TMC_UNITS_H
#define TMC_UNITS_H

#define TMC_DAY_S 86400.0 /* _days keys: days of 86,400 s */
#define TMC_HOUR_S 3600.0 /* _hours keys */

#endif
