/* tests/test_diag.c — diagnostics and registries. */
#include "test.h"

#include <stdlib.h>

#include "core/diag.h"
#include "core/registry.h"

static void test_diag_format(void)
{
    struct diag d;
    diag_init(&d);
    char *text = NULL;
    size_t len = 0;
    d.out = open_memstream(&text, &len);
    diag_error(&d, "exp.cfg", 14, "system.routing", "\"%s\" is bad", "x");
    diag_warn(&d, "exp.cfg", 0, NULL, "just so");
    diag_error(&d, NULL, 0, NULL, "no place");
    fclose(d.out);
    CHECK_EQ_U(d.errors, 2);
    CHECK(diag_failed(&d));
    CHECK_STR_CONTAINS(text,
                       "exp.cfg:14: error: system.routing: \"x\" is bad\n");
    CHECK_STR_CONTAINS(text, "exp.cfg: warning: just so\n");
    CHECK_STR_CONTAINS(text, "error: no place\n");
    free(text);
}

static void test_diag_limit(void)
{
    struct diag d;
    diag_init(&d);
    d.max_errors = 3;
    char *text = NULL;
    size_t len = 0;
    d.out = open_memstream(&text, &len);
    for (int i = 0; i < 10; i++)
        diag_error(&d, "f", i + 1, NULL, "e%d", i);
    fclose(d.out);
    CHECK_EQ_U(d.errors, 10); /* all counted */
    CHECK_STR_CONTAINS(text, "f:3: error: e2");
    CHECK(strstr(text, "f:4:") == NULL); /* not all printed */
    CHECK_STR_CONTAINS(text, "further errors not shown");
    free(text);
}

static const struct reg_entry ea = { "alpha", "first" };
static const struct reg_entry eb = { "beta", "second" };
static const struct reg_entry *const entries[] = { &ea, &eb };
static const struct registry reg = { .kind = "thing", .help = "things",
                                     .entries = entries, .n = 2 };
static const struct registry empty = { .kind = "none", .help = "nothing" };

static void test_registry(void)
{
    CHECK(registry_find(&reg, "beta") == &eb);
    CHECK(registry_find(&reg, "gamma") == NULL);
    CHECK(registry_find(&reg, "Alpha") == NULL); /* exact names only */
    char buf[64];
    registry_names(&reg, buf, sizeof buf);
    CHECK(strcmp(buf, "alpha, beta") == 0);
    registry_names(&empty, buf, sizeof buf);
    CHECK(strcmp(buf, "(none registered)") == 0);
    char small[8];
    registry_names(&reg, small, sizeof small);
    CHECK(strlen(small) < sizeof small);
    /* the program's kinds */
    CHECK(registry_kind("topology") != NULL);
    CHECK(registry_kind("system") != NULL);
    CHECK(registry_kind("routing") != NULL);
    CHECK(registry_kind("allocation") != NULL);
    CHECK(registry_kind("nosuch") == NULL);
}

const struct test_case tests_diag[] = {
    TEST(test_diag_format),
    TEST(test_diag_limit),
    TEST(test_registry),
    { 0 },
};
