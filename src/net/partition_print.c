/* net/partition_print.c — a partition as `dfsim topo NAME --partitions P`
 * prints it: text for a person, one JSON object for a script. */
#include "net/partition.h"

/* Parts whose cut links are listed part by part in the text (past it, a
 * line per part would be wider than a terminal: the JSON has them all). */
#define PRINT_CUT_ROWS 16

static const char *const dim_names[3] = { "x", "y", "z" };

static double ns(simtime v)
{
    return (double)v / (double)SIMTIME_NS;
}

/* What the units are called in the heading: "whole groups", "whole
 * planes across x". */
static void unit_heading(FILE *out, const struct partition *pt)
{
    if (pt->dim < 0)
        fprintf(out, "whole groups");
    else
        fprintf(out, "whole planes across %s, %u of them",
                dim_names[pt->dim], pt->units);
}

static void print_lookahead(FILE *out, const struct topo *t,
                            const struct partition *pt)
{
    if (pt->sets_port == TOPO_NONE) {
        fprintf(out, "lookahead   none (nothing is cut)\n");
        return;
    }
    const struct topo_port *sp = &t->ports[pt->sets_port];
    char name[96];
    fprintf(out,
            "lookahead   %.1f ns: a %s over the %s links (%s, %.1f ns of "
            "wire; e.g. port %s)\n"
            "            the least packet arrival across: %.1f ns (wire + "
            "router delay)\n",
            ns(pt->lookahead), partition_event_name(pt->sets),
            topo_port_kind_name((enum port_kind)sp->kind),
            topo_medium_name((enum link_medium)sp->medium),
            ns(sp->latency),
            topo_port_name(t, pt->sets_port, name, sizeof name),
            ns(pt->arrive_min));
}

void partition_print_blocks(FILE *out, const struct partition *pt)
{
    fprintf(out, "%ss ", pt->unit_word);
    for (uint32_t k = 0; k < pt->parts; k++) {
        const struct partition_part *q = &pt->part[k];
        fprintf(out, "%s%u", k ? " | " : "", q->first_unit);
        if (q->units > 1)
            fprintf(out, "-%u", q->first_unit + q->units - 1);
    }
}

void partition_print(FILE *out, const struct topo *t,
                     const struct partition *pt)
{
    fprintf(out, "system      %s (%s)\n", t->system, t->family->name);
    fprintf(out, "partitions  %u of at most %u (", pt->parts,
            partition_max(t));
    unit_heading(out, pt);
    fprintf(out, ")\n");
    print_lookahead(out, t, pt);
    fprintf(out, "imbalance   %.4f (most NICs in a part / the mean)\n",
            partition_imbalance(pt));
    fprintf(out, "cut links   %u\n", pt->cut_links);
    for (uint32_t k = 0; k < pt->parts; k++) {
        const struct partition_part *q = &pt->part[k];
        fprintf(out, "part %-6u %ss %u", k, pt->unit_word, q->first_unit);
        if (q->units > 1)
            fprintf(out, "-%u", q->first_unit + q->units - 1);
        fprintf(out, "  routers %u  NICs %u  nodes %u  cut links %u",
                q->routers, q->nics, q->nodes, q->cut_links);
        if (pt->parts > 1 && pt->parts <= PRINT_CUT_ROWS) {
            fprintf(out, " (to part");
            for (uint32_t b = 0; b < pt->parts; b++)
                if (b != k)
                    fprintf(out, " %u: %u", b,
                            pt->cut[(size_t)k * pt->parts + b]);
            fprintf(out, ")");
        }
        fprintf(out, "\n");
    }
}

/* s as a JSON string (names are ASCII: quotes and backslashes escaped,
 * control characters dropped). */
static void json_str(FILE *out, const char *s)
{
    fputc('"', out);
    for (; s && *s; s++) {
        if (*s == '"' || *s == '\\')
            fputc('\\', out);
        if ((unsigned char)*s >= 0x20)
            fputc(*s, out);
    }
    fputc('"', out);
}

static void json_ns(FILE *out, const char *key, simtime v)
{
    if (v == SIMTIME_MAX)
        fprintf(out, ", \"%s\": null", key);
    else
        fprintf(out, ", \"%s\": %.3f", key, ns(v));
}

static void json_part(FILE *out, const struct partition *pt, uint32_t k)
{
    const struct partition_part *q = &pt->part[k];
    fprintf(out,
            "%s{\"part\": %u, \"first_%s\": %u, \"%ss\": %u, \"routers\": %u,"
            " \"nics\": %u, \"nodes\": %u, \"cut_links\": %u, \"cut_to\": [",
            k ? ", " : "", k, pt->unit_word, q->first_unit, pt->unit_word,
            q->units, q->routers, q->nics, q->nodes, q->cut_links);
    for (uint32_t b = 0; b < pt->parts; b++)
        fprintf(out, "%s%u", b ? ", " : "",
                pt->cut[(size_t)k * pt->parts + b]);
    fprintf(out, "]}");
}

void partition_print_json(FILE *out, const struct topo *t,
                          const struct partition *pt)
{
    fprintf(out, "{\"system\": ");
    json_str(out, t->system);
    fprintf(out, ", \"family\": ");
    json_str(out, t->family->name);
    fprintf(out, ", \"partitions\": %u, \"max_partitions\": %u, "
                 "\"unit\": \"%s\", \"dimension\": ",
            pt->parts, partition_max(t), pt->unit_word);
    if (pt->dim < 0)
        fprintf(out, "null");
    else
        fprintf(out, "\"%s\"", dim_names[pt->dim]);
    json_ns(out, "lookahead_ns", pt->lookahead);
    fprintf(out, ", \"lookahead_event\": ");
    json_str(out, partition_event_name(pt->sets));
    fprintf(out, ", \"lookahead_link\": ");
    if (pt->sets_port == TOPO_NONE) {
        fprintf(out, "null");
    } else {
        const struct topo_port *sp = &t->ports[pt->sets_port];
        fprintf(out, "{\"kind\": ");
        json_str(out, topo_port_kind_name((enum port_kind)sp->kind));
        fprintf(out, ", \"medium\": ");
        json_str(out, topo_medium_name((enum link_medium)sp->medium));
        fprintf(out, "}");
    }
    json_ns(out, "arrive_min_ns", pt->arrive_min);
    json_ns(out, "credit_min_ns", pt->credit_min);
    fprintf(out, ", \"imbalance\": %.4f, \"cut_links\": %u, \"parts\": [",
            partition_imbalance(pt), pt->cut_links);
    for (uint32_t k = 0; k < pt->parts; k++)
        json_part(out, pt, k);
    fprintf(out, "]}\n");
}
