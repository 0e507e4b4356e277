/* results/scoreboard_plot.c — the scoreboard as a picture (see
 * scoreboard.h, sb_svg): one strip a row that runs, on the row's own
 * axis (logarithmic when every number is positive), the paper's range
 * as a grey band, the claim's reference as a dashed line, each seed as
 * a dot and the median as a bar, the status in its colour. Plain SVG
 * text: no library, the same bytes for the same results. */
#include <math.h>
#include <string.h>

#include "results/scoreboard.h"

#define STRIP 26      /* px a row */
#define LABEL 340     /* px of the row's id */
#define PLOT 420      /* px of the axis */
#define RIGHT 110     /* px of the status */

/* The numbers a row's strip must show: paper, claim, seeds. */
static uint32_t strip_values(const struct sb_row *r,
                             const struct sb_result *x, double *v)
{
    uint32_t n = 0;
    if (!isnan(r->paper_value)) {
        v[n++] = r->paper_value * (1 - r->tolerance);
        v[n++] = r->paper_value * (1 + r->tolerance);
    }
    if (!isnan(r->paper_min))
        v[n++] = r->paper_min;
    if (!isnan(r->paper_max))
        v[n++] = r->paper_max;
    if (r->claim)
        v[n++] = r->claim_ref;
    for (uint32_t i = 0; i < x->n; i++)
        v[n++] = x->v[i];
    return n;
}

/* The axis of a strip: x(v) = x0 + PLOT * (f(v) - f(lo)) / (f(hi) - f(lo)),
 * f = log10 when `log`. */
struct axis {
    double lo, hi;
    bool log;
};

static double axis_x(const struct axis *a, double v)
{
    double f = a->log ? log10(v) : v, flo = a->log ? log10(a->lo) : a->lo,
           fhi = a->log ? log10(a->hi) : a->hi;
    double t = (f - flo) / (fhi - flo);
    return LABEL + PLOT * (t < 0 ? 0 : t > 1 ? 1 : t);
}

static struct axis strip_axis(const double *v, uint32_t n)
{
    struct axis a = { .lo = v[0], .hi = v[0], .log = true };
    for (uint32_t i = 0; i < n; i++) {
        a.lo = fmin(a.lo, v[i]);
        a.hi = fmax(a.hi, v[i]);
        a.log = a.log && v[i] > 0;
    }
    if (a.log) {
        double pad = a.hi > a.lo ? pow(a.hi / a.lo, 0.08) : 1.5;
        a.lo /= pad;
        a.hi *= pad;
    } else {
        double pad = a.hi > a.lo ? 0.08 * (a.hi - a.lo) : 1.0;
        a.lo -= pad;
        a.hi += pad;
    }
    return a;
}

/* in sb_status's order */
static const char *const status_colour[] = { "#1a7f37", "#b35900",
                                             "#c62828", "#777777",
                                             "#777777", "#1f4e9e" };

/* One row's strip at height y. */
static void strip(FILE *out, const struct sb_row *r,
                  const struct sb_result *x, double y)
{
    double v[SB_SEEDS_MAX + 8];
    uint32_t n = strip_values(r, x, v);
    fprintf(out, "<text x=\"4\" y=\"%.0f\">%s</text>\n", y + 17, r->id);
    fprintf(out, "<text x=\"%d\" y=\"%.0f\" fill=\"%s\">%s</text>\n",
            LABEL + PLOT + 12, y + 17, status_colour[x->status],
            sb_status_names[x->status]);
    if (n == 0)
        return;
    struct axis a = strip_axis(v, n);
    fprintf(out, "<line x1=\"%d\" y1=\"%.0f\" x2=\"%d\" y2=\"%.0f\" "
                 "stroke=\"#ccc\"/>\n",
            LABEL, y + 20, LABEL + PLOT, y + 20);
    fprintf(out, "<text x=\"%d\" y=\"%.0f\" class=\"s\">%.3g</text>\n"
                 "<text x=\"%d\" y=\"%.0f\" class=\"s\" "
                 "text-anchor=\"end\">%.3g</text>\n",
            LABEL, y + 6, a.lo, LABEL + PLOT, y + 6, a.hi);
    double blo = NAN, bhi = NAN;
    if (!isnan(r->paper_value)) {
        blo = r->paper_value * (1 - r->tolerance);
        bhi = r->paper_value * (1 + r->tolerance);
    } else if (!isnan(r->paper_min) || !isnan(r->paper_max)) {
        blo = isnan(r->paper_min) ? a.lo : r->paper_min;
        bhi = isnan(r->paper_max) ? a.hi : r->paper_max;
    }
    if (!isnan(blo)) {
        double x0 = axis_x(&a, blo), x1 = axis_x(&a, bhi);
        fprintf(out, "<rect x=\"%.1f\" y=\"%.0f\" width=\"%.1f\" "
                     "height=\"10\" fill=\"#ddd\"/>\n",
                x0, y + 9, x1 - x0 < 1 ? 1 : x1 - x0);
    }
    if (r->claim) {
        double cx = axis_x(&a, r->claim_ref);
        fprintf(out, "<line x1=\"%.1f\" y1=\"%.0f\" x2=\"%.1f\" y2=\"%.0f\" "
                     "stroke=\"#555\" stroke-dasharray=\"3,2\"/>\n",
                cx, y + 7, cx, y + 23);
    }
    for (uint32_t i = 0; i < x->n; i++)
        fprintf(out, "<circle cx=\"%.1f\" cy=\"%.0f\" r=\"3.5\" "
                     "fill=\"%s\" fill-opacity=\"0.6\"/>\n",
                axis_x(&a, x->v[i]), y + 14, status_colour[x->status]);
    if (x->n) {
        double mx = axis_x(&a, x->median);
        fprintf(out, "<line x1=\"%.1f\" y1=\"%.0f\" x2=\"%.1f\" y2=\"%.0f\" "
                     "stroke=\"#000\" stroke-width=\"2\"/>\n",
                mx, y + 8, mx, y + 21);
    }
}

void sb_svg(FILE *out, const struct sb_rows *rows,
            const struct sb_result *res)
{
    uint32_t n = 0;
    for (uint32_t k = 0; k < rows->n; k++)
        n += !rows->row[k].not_reproduced;
    int width = LABEL + PLOT + RIGHT, height = (int)(n + 2) * STRIP;
    fprintf(out,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" "
            "height=\"%d\" font-family=\"sans-serif\" font-size=\"12\">\n"
            "<style>.s { font-size: 9px; fill: #555; }</style>\n"
            "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n"
            "<text x=\"4\" y=\"16\">each row on its own axis: the paper's "
            "range (grey), the claim's reference (dashed), each seed "
            "(dot), the median (bar)</text>\n",
            width, height);
    double y = STRIP;
    for (uint32_t k = 0; k < rows->n; k++) {
        if (rows->row[k].not_reproduced)
            continue;
        strip(out, &rows->row[k], &res[k], y);
        y += STRIP;
    }
    fputs("</svg>\n", out);
}
