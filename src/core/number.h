/* number.h - the one parser of a number written as text, for every reader of
 * numbers outside JSON (CSV logs and traces, --vary, --lever, options).
 *
 * strtod alone takes more than a decimal number: hexadecimal ("0x10" is 16,
 * "0x1p4" too), "inf", "infinity" and "nan" in any case, and leading spaces.
 * A log's "0x10" read as 16 days is a silent wrong answer, so only a decimal
 * number is a number here. */
#ifndef TMC_NUMBER_H
#define TMC_NUMBER_H

/* 0 and *v when all of s is a finite decimal number:
 *   [+-] (DIGITS [. [DIGITS]] | . DIGITS) [(e|E) [+-] DIGITS]
 * else -1 (empty, spaces, hexadecimal, inf, nan, a value beyond +-DBL_MAX,
 * anything after the number) and *v untouched. */
int tmc_number_parse(const char *s, double *v);

#endif
