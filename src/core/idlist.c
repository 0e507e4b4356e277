/* core/idlist.c — see idlist.h. */
#include "core/idlist.h"

#include <stdlib.h>

static int is_digit(char c)
{
    return c >= '0' && c <= '9';
}

enum idlist_status idlist_next(const char **p, uint64_t *lo, uint64_t *hi)
{
    const char *s = *p;
    while (*s == ' ')
        s++;
    if (!*s) {
        *p = s;
        return IDLIST_END;
    }
    if (!is_digit(*s)) {
        *p = s;
        return IDLIST_NOT_ID;
    }
    char *end;
    unsigned long long a = strtoull(s, &end, 10), b = a;
    s = end;
    if (*s == '-') {
        s++;
        if (!is_digit(*s)) {
            *p = s;
            return IDLIST_NO_END;
        }
        b = strtoull(s, &end, 10);
        s = end;
    }
    *lo = a;
    *hi = b;
    if (a > UINT32_MAX - 1 || b > UINT32_MAX - 1 || b < a) {
        *p = s;
        return IDLIST_BAD_RANGE;
    }
    while (*s == ' ')
        s++;
    if (*s == ',') {
        s++;
    } else if (*s) {
        *p = s;
        return IDLIST_NO_COMMA;
    }
    *p = s;
    return IDLIST_RANGE;
}
