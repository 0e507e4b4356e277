/* core/zmem.h — zeroed arrays, aligned to cache lines, whose memory the
 * system backs only where it is touched.
 *
 * What it is for: the network's per-port, per-VC and per-buffer records
 * (net/net.c) are sized by the system, not by the traffic. A 216-node
 * study on Cori's 13,056 nodes, or the check of an experiment file that
 * builds the network once to validate it, touches a small part of them;
 * zeroing them all with memset cost more than the simulation (47 % of a
 * `--quick` run of examples/ics21-fig4a-cori.cfg, 32 % of the test suite,
 * measured with perf). A large array is mapped from the system instead
 * (anonymous memory reads as zero, and a page is backed when first
 * touched), so a record whose empty state is all zeros costs nothing
 * until traffic reaches it. Small arrays come from calloc (and, under
 * AddressSanitizer, all of them: zmem.c).
 *
 * Invariant: every array is zero-filled and 64-byte aligned, so records of
 * 16, 32 or 64 bytes never straddle two cache lines.
 */
#ifndef DFSIM_ZMEM_H
#define DFSIM_ZMEM_H

#include <stddef.h>

/* Arrays of at least this many bytes are mapped; below, calloc'd. */
#define ZMEM_MAP_MIN ((size_t)256 * 1024)

/* `count` records of `size` bytes (count 0: one), zero-filled and 64-byte
 * aligned; NULL if out of memory or if the size overflows. Free with
 * zmem_free, never with free. */
void *zmem_lines(size_t count, size_t size);

/* Release an array of zmem_lines; NULL is ignored. */
void zmem_free(void *p);

/* The bytes zmem_lines(count, size) holds for the records, rounded up to
 * whole cache lines (for memory estimates). */
size_t zmem_lines_bytes(size_t count, size_t size);

#endif
