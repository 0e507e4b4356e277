/* core/config_doc.c — schemas printed as documentation (see config.h;
 * `dfsim run --help`): one key a line, its dotted name, what it accepts
 * with its range (the phrase of config_read.c's messages, cfg_describe),
 * whether it is required and its help; a nested group's keys under it.
 */
#include "core/config.h"
#include "core/config_internal.h"

#include <stdio.h>
#include <string.h>

/* Width of the widest dotted key of a schema, nested groups included. */
static size_t key_width(const char *prefix, const struct cfg_key *schema)
{
    size_t w = 0;
    char key[KEY_CAP];
    for (const struct cfg_key *k = schema; k->type != CFG_END; k++) {
        cfg_dotted(key, sizeof key, prefix, k->name);
        size_t n = strlen(key);
        if (n > w)
            w = n;
        if (k->type == CFG_GROUP) {
            n = key_width(key, k->sub);
            if (n > w)
                w = n;
        }
    }
    return w;
}

static void print_keys(FILE *out, const char *prefix,
                       const struct cfg_key *schema, int indent, int width)
{
    char key[KEY_CAP], what[LIST_CAP];
    for (const struct cfg_key *k = schema; k->type != CFG_END; k++) {
        cfg_dotted(key, sizeof key, prefix, k->name);
        cfg_describe(what, sizeof what, k, true, false);
        if (k->required)
            cfg_cat(what, sizeof what, ", required");
        if (k->once)
            cfg_cat(what, sizeof what, ", each once");
        if (k->quick > 0) {
            char q[48];
            snprintf(q, sizeof q, ", --quick: at most %.0f", k->quick);
            cfg_cat(what, sizeof what, "%s", q);
        }
        fprintf(out, "%*s%-*s  %s  %s\n", indent, "", width, key, what,
                k->help ? k->help : "");
        if (k->type == CFG_GROUP)
            print_keys(out, key, k->sub, indent, width);
    }
}

void cfg_print_schema(FILE *out, const char *prefix,
                      const struct cfg_key *schema, int indent)
{
    size_t w = key_width(prefix, schema);
    print_keys(out, prefix, schema, indent < 0 ? 0 : indent,
               w > KEY_CAP ? KEY_CAP : (int)w);
}
