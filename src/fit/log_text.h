/* log_text.h - what the readers of other tools' logs share (sacct.c,
 * train_log.c): where a character sits on its line, and the stamps they
 * print, "YYYY-MM-DDTHH:MM:SS" or with a space, read as printed (no time
 * zone, no leap seconds). */
#ifndef TMC_LOG_TEXT_H
#define TMC_LOG_TEXT_H

/* The 1-based column, in characters (UTF-8 sequences count once), of `at`
 * on the line that begins at `line`. */
long tmc_log_text_column(const char *line, const char *at);

/* n decimal digits at s as a number, or -1 if one is not a digit. */
long tmc_log_text_digits(const char *s, int n);

/* The stamp in the first 19 characters of s, a real date from 1970 with
 * 'T' between date and time (or a space too when space_ok), into *t
 * seconds from 1970-01-01 (Howard Hinnant's days_from_civil, proleptic
 * Gregorian). 0, or -1 if it is not one. */
int tmc_log_text_stamp(const char *s, int space_ok, double *t);

#endif
