/* cli/version.c — which dfsim this is: the release (cli.h) and the
 * commit it was built from, which the Makefile writes into
 * BUILD/gen/dfsim_commit.h at every build (git describe --dirty: a
 * "-dirty" suffix when the tree had changes; "unknown" outside git). */
#include "cli/cli.h"
#include "dfsim_commit.h"

const char *dfsim_build(void)
{
    return DFSIM_VERSION " " DFSIM_COMMIT;
}
