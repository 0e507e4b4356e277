/* tracer/trace.c — the tracer's state, and MPI_Init / MPI_Init_thread /
 * MPI_Finalize: tracing starts when MPI does and ends when the archive
 * is written, just before MPI ends (docs/tracer.md).
 *
 * MPI_Init's Enter is stamped before PMPI_Init and is the trace's first
 * event (the archive's global offset is the earliest of them). MPI_Finalize
 * is Entered and Left before the tracer writes the archive; writing it and
 * PMPI_Finalize are not in the trace. */
#include "trace.h"

struct tracer tracer;

uint64_t trace_bytes(int count, MPI_Datatype type)
{
    int size = 0;
    if (count <= 0 || PMPI_Type_size(type, &size) != MPI_SUCCESS || size < 0)
        return 0;
    return (uint64_t)count * (uint64_t)size;
}

/* After PMPI_Init*: open the archive, then write region r's Enter at t0
 * (before PMPI_Init) and its Leave now. */
static void trace_start(enum trace_region r, uint64_t t0)
{
    trace_comm_init();
    trace_req_init();
    trace_win_init();
    trace_archive_open();
    if (!tracer.on)
        return;
    tracer.first_ts = t0;
    OTF2_EvtWriter_Enter(tracer.evt, NULL, t0, (OTF2_RegionRef)r);
    trace_leave(r);
}

int MPI_Init(int *argc, char ***argv)
{
    uint64_t t0 = trace_now();
    int rc = PMPI_Init(argc, argv);
    if (rc == MPI_SUCCESS)
        trace_start(TR_MPI_Init, t0);
    return rc;
}

int MPI_Init_thread(int *argc, char ***argv, int required, int *provided)
{
    uint64_t t0 = trace_now();
    int rc = PMPI_Init_thread(argc, argv, required, provided);
    if (rc == MPI_SUCCESS)
        trace_start(TR_MPI_Init_thread, t0);
    return rc;
}

int MPI_Finalize(void)
{
    if (tracer.on) {
        trace_enter(TR_MPI_Finalize);
        tracer.last_ts = trace_now();
        OTF2_EvtWriter_Leave(tracer.evt, NULL, tracer.last_ts,
                             (OTF2_RegionRef)TR_MPI_Finalize);
        trace_archive_close();
    }
    return PMPI_Finalize();
}
