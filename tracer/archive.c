/* tracer/archive.c — the OTF2 archive: its folder, opening it in MPI
 * collective mode (OTF2's own OTF2_MPI_Collectives.h, over PMPI so the
 * tracer does not trace itself), and closing it at MPI_Finalize: every
 * rank's event file, an empty local definition file per rank, and the
 * global definitions that rank 0 writes from what the ranks send it
 * (tracer/defs.c).
 *
 * Failures (a folder that cannot be made, an OTF2 error) are said on
 * stderr with the folder's name; the ranks agree on them (a reduction)
 * so that all stop tracing together and the program runs on. */
#define _GNU_SOURCE /* vasprintf-free vsnprintf is C99; mkdir, getpid */
#include "trace.h"
#include "defs.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define OTF2_MPI_USE_PMPI
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"
#pragma GCC diagnostic ignored "-Wshadow"
#pragma GCC diagnostic ignored "-Wmissing-prototypes"
#include <otf2/OTF2_MPI_Collectives.h>
#pragma GCC diagnostic pop

/* Event chunks of 1 MiB, definition chunks of 4 MiB (OTF2's sizes in
 * its examples). */
#define EVT_CHUNK (1024u * 1024u)
#define DEF_CHUNK (4u * 1024u * 1024u)

/* OTF2's errors, said once per kind with the folder's name. */
static OTF2_ErrorCode on_otf2_error(void *user, const char *file,
                                    uint64_t line, const char *function,
                                    OTF2_ErrorCode code, const char *fmt,
                                    va_list va)
{
    char msg[512];
    vsnprintf(msg, sizeof msg, fmt ? fmt : "", va);
    fprintf(stderr, "dfsim-trace: rank %d: OTF2 error writing %s: %s: %s\n",
            tracer.rank, tracer.dir, OTF2_Error_GetName(code), msg);
    return code;
}

/* Chunks are written out as they fill (bounded memory). */
static OTF2_FlushType pre_flush(void *user, OTF2_FileType type,
                                OTF2_LocationRef loc, void *cb, bool final)
{
    return OTF2_FLUSH;
}

static OTF2_TimeStamp post_flush(void *user, OTF2_FileType type,
                                 OTF2_LocationRef loc)
{
    return trace_now();
}

static const OTF2_FlushCallbacks flush_callbacks = {
    .otf2_pre_flush = pre_flush,
    .otf2_post_flush = post_flush,
};

/* mkdir -p path; 0, or -1 with errno. */
static int make_dirs(const char *path)
{
    char p[sizeof tracer.dir];
    snprintf(p, sizeof p, "%s", path);
    for (char *s = p + 1; *s; s++) {
        if (*s != '/')
            continue;
        *s = '\0';
        if (mkdir(p, 0777) != 0 && errno != EEXIST)
            return -1;
        *s = '/';
    }
    if (mkdir(p, 0777) != 0 && errno != EEXIST)
        return -1;
    struct stat st;
    if (stat(p, &st) != 0)
        return -1;
    if (!S_ISDIR(st.st_mode)) {
        errno = ENOTDIR;
        return -1;
    }
    return 0;
}

/* Rank 0 names the folder and makes it; every rank learns the name.
 * Whether it could be made. */
static bool agree_dir(void)
{
    int ok = 1;
    if (tracer.rank == 0) {
        const char *env = getenv("DFSIM_TRACE_DIR");
        if (env && *env)
            snprintf(tracer.dir, sizeof tracer.dir, "%s", env);
        else
            snprintf(tracer.dir, sizeof tracer.dir, "dfsim-trace-%ld",
                     (long)getpid());
        if (make_dirs(tracer.dir) != 0) {
            fprintf(stderr, "dfsim-trace: cannot create the trace folder "
                    "%s: %s; not tracing\n", tracer.dir, strerror(errno));
            ok = 0;
        }
    }
    PMPI_Bcast(tracer.dir, (int)sizeof tracer.dir, MPI_CHAR, 0,
               MPI_COMM_WORLD);
    PMPI_Bcast(&ok, 1, MPI_INT, 0, MPI_COMM_WORLD);
    return ok;
}

/* Whether every rank's `ok` is true. */
static bool all_ok(bool ok)
{
    int mine = ok, all = 0;
    PMPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    return all;
}

/* The archive and this rank's event writer, or false. */
static bool open_writers(void)
{
    OTF2_Archive *a = OTF2_Archive_Open(tracer.dir, "traces",
                                        OTF2_FILEMODE_WRITE, EVT_CHUNK,
                                        DEF_CHUNK, OTF2_SUBSTRATE_POSIX,
                                        OTF2_COMPRESSION_NONE);
    bool ok = a != NULL;
    if (ok)
        ok = OTF2_Archive_SetFlushCallbacks(a, &flush_callbacks, NULL) ==
                 OTF2_SUCCESS &&
             OTF2_MPI_Archive_SetCollectiveCallbacks(a, MPI_COMM_WORLD,
                                                     MPI_COMM_NULL) ==
                 OTF2_SUCCESS;
    if (!all_ok(ok))
        return false;
    tracer.archive = a;
    OTF2_Archive_SetCreator(a, "dfsim-trace (dfsim's PMPI tracer)");
    ok = OTF2_Archive_OpenEvtFiles(a) == OTF2_SUCCESS;
    if (ok)
        tracer.evt = OTF2_Archive_GetEvtWriter(a, (OTF2_LocationRef)tracer.rank);
    return all_ok(ok && tracer.evt);
}

void trace_archive_open(void)
{
    PMPI_Comm_rank(MPI_COMM_WORLD, &tracer.rank);
    PMPI_Comm_size(MPI_COMM_WORLD, &tracer.size);
    OTF2_Error_RegisterCallback(on_otf2_error, NULL);
    if (!agree_dir())
        return;
    if (!open_writers()) {
        if (tracer.rank == 0)
            fprintf(stderr, "dfsim-trace: cannot open an OTF2 archive in "
                    "%s; not tracing\n", tracer.dir);
        return;
    }
    tracer.on = true;
}

/* Every rank's len words mine, one after another in rank order, on rank
 * 0 (*all malloc'd there, NULL elsewhere; *n_all their number). mine is
 * freed. */
static void gather_words(uint32_t *mine, int len, uint32_t **all, int *n_all)
{
    int n = tracer.size, root = tracer.rank == 0;
    int *lens = root ? calloc((size_t)n, sizeof(int)) : NULL;
    int *displs = root ? calloc((size_t)n, sizeof(int)) : NULL;
    PMPI_Gather(&len, 1, MPI_INT, lens, 1, MPI_INT, 0, MPI_COMM_WORLD);
    *n_all = 0;
    for (int r = 0; root && lens && displs && r < n; r++) {
        displs[r] = *n_all;
        *n_all += lens[r];
    }
    *all = root ? calloc((size_t)*n_all + 1, sizeof(uint32_t)) : NULL;
    PMPI_Gatherv(mine, len, MPI_UINT32_T, *all, lens, displs, MPI_UINT32_T, 0,
                 MPI_COMM_WORLD);
    free(mine);
    free(lens);
    free(displs);
}

/* Every rank's event count, first and last timestamps, communicators
 * and windows, gathered to rank 0 (NULL elsewhere). */
static void gather_ranks(struct defs_input *in, uint64_t events)
{
    uint64_t mine[3] = { events, tracer.first_ts, tracer.last_ts };
    int n = tracer.size, root = tracer.rank == 0, len = 0;
    in->size = n;
    in->per_rank = root ? calloc((size_t)n * 3, sizeof(uint64_t)) : NULL;
    PMPI_Gather(mine, 3, MPI_UINT64_T, in->per_rank, 3, MPI_UINT64_T, 0,
                MPI_COMM_WORLD);
    uint32_t *comms = trace_comm_pack(&len);
    gather_words(comms, len, &in->comm_words, &in->n_comm_words);
    uint32_t *wins = trace_win_pack(&len);
    gather_words(wins, len, &in->win_words, &in->n_win_words);
}

/* Rank 0's order of the communicators (defs_comm_order) or, if win, the
 * windows (defs_win_order), sent to every rank; its length, *order
 * malloc'd. */
static uint32_t share_order(const struct defs_input *in, bool win,
                            uint32_t **order)
{
    uint32_t k = 0;
    *order = NULL;
    if (tracer.rank == 0 && in->per_rank && in->comm_words && in->win_words)
        k = win ? defs_win_order(in, order) : defs_comm_order(in, order);
    PMPI_Bcast(&k, 1, MPI_UINT32_T, 0, MPI_COMM_WORLD);
    if (tracer.rank != 0)
        *order = malloc((k + 1) * sizeof **order);
    if (*order)
        PMPI_Bcast(*order, (int)k, MPI_UINT32_T, 0, MPI_COMM_WORLD);
    else
        k = 0; /* (a failed malloc: the ids stay as the ranks gave them) */
    return k;
}

/* The mapping table of type from order[i] to first + i (and of the
 * pairs given before them). */
static void write_map(OTF2_DefWriter *dw, OTF2_MappingType type,
                      const uint32_t *pairs, int n_pairs,
                      const uint32_t *order, uint32_t k, uint32_t first)
{
    OTF2_IdMap *map = OTF2_IdMap_Create(OTF2_ID_MAP_SPARSE, k + 3);
    if (!map)
        return;
    for (int i = 0; i < n_pairs; i++)
        OTF2_IdMap_AddIdPair(map, pairs[i], pairs[i]);
    for (uint32_t i = 0; i < k; i++)
        OTF2_IdMap_AddIdPair(map, order[i], first + i);
    OTF2_DefWriter_WriteMappingTable(dw, type, map);
    OTF2_IdMap_Free(map);
}

/* This rank's local definitions: the mapping of the communicator and
 * window ids its events carry to the global definitions' (tracer/defs.c). */
static void write_local_defs(OTF2_Archive *a, const uint32_t *order,
                             uint32_t k, const uint32_t *win_order,
                             uint32_t n_wins)
{
    static const uint32_t fixed[] = { TRACE_COMM_WORLD, TRACE_COMM_SELF };
    OTF2_Archive_OpenDefFiles(a);
    OTF2_DefWriter *dw =
        OTF2_Archive_GetDefWriter(a, (OTF2_LocationRef)tracer.rank);
    if (dw) {
        write_map(dw, OTF2_MAPPING_COMM, fixed, 2, order, k, 2);
        if (n_wins)
            write_map(dw, OTF2_MAPPING_RMA_WIN, NULL, 0, win_order, n_wins,
                      0);
        OTF2_Archive_CloseDefWriter(a, dw);
    }
    OTF2_Archive_CloseDefFiles(a);
}

void trace_archive_close(void)
{
    OTF2_Archive *a = tracer.archive;
    uint64_t events = 0;
    tracer.on = false;
    OTF2_EvtWriter_GetNumberOfEvents(tracer.evt, &events);
    OTF2_Archive_CloseEvtWriter(a, tracer.evt);
    OTF2_Archive_CloseEvtFiles(a);
    struct defs_input in = { 0 };
    gather_ranks(&in, events);
    uint32_t *order = NULL, *win_order = NULL;
    uint32_t k = share_order(&in, false, &order);
    uint32_t n_wins = share_order(&in, true, &win_order);
    write_local_defs(a, order, k, win_order, n_wins);
    if (tracer.rank == 0 && in.per_rank && in.comm_words && in.win_words) {
        OTF2_GlobalDefWriter *gw = OTF2_Archive_GetGlobalDefWriter(a);
        if (gw)
            defs_write(gw, &in);
    }
    if (OTF2_Archive_Close(a) != OTF2_SUCCESS && tracer.rank == 0)
        fprintf(stderr, "dfsim-trace: the archive in %s may be incomplete\n",
                tracer.dir);
    free(order);
    free(win_order);
    free(in.per_rank);
    free(in.comm_words);
    free(in.win_words);
    tracer.archive = NULL;
    tracer.evt = NULL;
}
