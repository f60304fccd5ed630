/* number.c - a decimal number read from text (number.h). */
#include "number.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>

static const char *digits(const char *p)
{
    while (isdigit((unsigned char)*p))
        p++;
    return p;
}

/* The grammar is checked first, then strtod gives the value: strtod's own
 * end pointer would accept hexadecimal, inf and nan. */
int tmc_number_parse(const char *s, double *v)
{
    const char *p = s + (*s == '+' || *s == '-');
    const char *q = digits(p);
    int whole = q > p;
    if (*q == '.') {
        const char *r = digits(q + 1);
        if (!whole && r == q + 1)
            return -1;
        q = r;
    } else if (!whole)
        return -1;
    if (*q == 'e' || *q == 'E') {
        const char *e = q + 1 + (q[1] == '+' || q[1] == '-');
        q = digits(e);
        if (q == e)
            return -1;
    }
    if (*q)
        return -1;
    char *end;
    double x = strtod(s, &end);
    if (end != q || !isfinite(x))
        return -1;
    *v = x;
    return 0;
}
