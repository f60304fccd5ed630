/* log_text.c - what the log readers share (log_text.h). */
#include "log_text.h"

#include <string.h>

long tmc_log_text_column(const char *line, const char *at)
{
    long c = 1;
    for (const char *p = line; p < at; p++)
        if (((unsigned char)*p & 0xC0) != 0x80)
            c++;
    return c;
}

long tmc_log_text_digits(const char *s, int n)
{
    long v = 0;
    for (int i = 0; i < n; i++) {
        if (s[i] < '0' || s[i] > '9')
            return -1;
        v = 10 * v + (s[i] - '0');
    }
    return v;
}

/* Days from 1970-01-01 of a proleptic Gregorian date (days_from_civil). */
static long days_from_civil(long y, long m, long d)
{
    y -= m <= 2;
    long era = (y >= 0 ? y : y - 399) / 400;
    long yoe = y - era * 400;
    long doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    long doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + doe - 719468;
}

int tmc_log_text_stamp(const char *s, int space_ok, double *t)
{
    static const int mdays[12] = {31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    if (strnlen(s, 19) < 19 || s[4] != '-' || s[7] != '-' ||
        !(s[10] == 'T' || (space_ok && s[10] == ' ')) || s[13] != ':' || s[16] != ':')
        return -1;
    long y = tmc_log_text_digits(s, 4), mo = tmc_log_text_digits(s + 5, 2);
    long d = tmc_log_text_digits(s + 8, 2), h = tmc_log_text_digits(s + 11, 2);
    long mi = tmc_log_text_digits(s + 14, 2), se = tmc_log_text_digits(s + 17, 2);
    if (y < 1970 || mo < 1 || mo > 12 || d < 1 || d > mdays[mo - 1] || h < 0 || h > 23 ||
        mi < 0 || mi > 59 || se < 0 || se > 59)
        return -1;
    int leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    if (mo == 2 && d == 29 && !leap)
        return -1;
    *t = 86400.0 * (double)days_from_civil(y, mo, d) + 3600.0 * (double)h + 60.0 * (double)mi +
         (double)se;
    return 0;
}
