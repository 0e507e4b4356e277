/* tests/main.c — runs every registered test, or those whose name contains
 * the first argument, and ends with "N passed, N failed". Exit status 1 if
 * any failed. */
#include "test.h"

#include <stdlib.h>

int test_failures;

#define TESTS(m) extern const struct test_case tests_##m[];
#include "tests.def"
#undef TESTS

static const struct {
    const char *module;
    const struct test_case *cases;
} modules[] = {
#define TESTS(m) { #m, tests_##m },
#include "tests.def"
#undef TESTS
};

int main(int argc, char **argv)
{
    const char *filter = argc > 1 ? argv[1] : NULL;
    int passed = 0, failed = 0;

    for (size_t m = 0; m < sizeof modules / sizeof modules[0]; m++) {
        for (const struct test_case *t = modules[m].cases; t->name; t++) {
            char full[256];
            snprintf(full, sizeof full, "%s/%s", modules[m].module, t->name);
            if (filter && !strstr(full, filter))
                continue;
            test_failures = 0;
            t->fn();
            fflush(stderr);
            if (test_failures == 0) {
                passed++;
                printf("ok   %s\n", full);
            } else {
                failed++;
                printf("FAIL %s (%d checks failed)\n", full, test_failures);
            }
            fflush(stdout);
        }
    }
    printf("%d passed, %d failed\n", passed, failed);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
