/* core/diag.c — see diag.h. */
#include "core/diag.h"

#include <stdarg.h>

void diag_init(struct diag *d)
{
    d->out = stderr;
    d->errors = 0;
    d->max_errors = 50;
}

static void vreport(struct diag *d, const char *what, const char *file,
                    int line, const char *key, const char *fmt, va_list ap)
{
    FILE *o = d->out ? d->out : stderr;
    if (file && line > 0)
        fprintf(o, "%s:%d: ", file, line);
    else if (file)
        fprintf(o, "%s: ", file);
    fprintf(o, "%s: ", what);
    if (key)
        fprintf(o, "%s: ", key);
    vfprintf(o, fmt, ap);
    fputc('\n', o);
}

void diag_error(struct diag *d, const char *file, int line, const char *key,
                const char *fmt, ...)
{
    d->errors++;
    if (d->max_errors && d->errors > d->max_errors)
        return;
    va_list ap;
    va_start(ap, fmt);
    vreport(d, "error", file, line, key, fmt, ap);
    va_end(ap);
    if (d->max_errors && d->errors == d->max_errors)
        fprintf(d->out ? d->out : stderr, "(further errors not shown)\n");
}

void diag_warn(struct diag *d, const char *file, int line, const char *key,
               const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vreport(d, "warning", file, line, key, fmt, ap);
    va_end(ap);
}
