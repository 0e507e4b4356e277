/* core/registry.c — see registry.h. */
#include "core/registry.h"

#include <stdio.h>
#include <string.h>

const struct reg_entry *registry_find(const struct registry *r,
                                      const char *name)
{
    for (size_t i = 0; name && i < r->n; i++)
        if (strcmp(r->entries[i]->name, name) == 0)
            return r->entries[i];
    return NULL;
}

void registry_names(const struct registry *r, char *buf, size_t cap)
{
    size_t used = 0;
    if (!cap)
        return;
    buf[0] = '\0';
    for (size_t i = 0; i < r->n; i++) {
        int n = snprintf(buf + used, cap - used, "%s%s", i ? ", " : "",
                         r->entries[i]->name);
        if (n < 0 || (size_t)n >= cap - used)
            break;
        used += (size_t)n;
    }
    if (r->n == 0)
        snprintf(buf, cap, "(none registered)");
}

const struct registry *registry_kind(const char *kind)
{
    for (size_t i = 0; registries[i]; i++)
        if (strcmp(registries[i]->kind, kind) == 0)
            return registries[i];
    return NULL;
}
