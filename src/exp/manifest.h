/* exp/manifest.h — experiment.files: the files dfsim wrote into a results
 * folder, with their sizes and hashes.
 *
 * Why: a results folder may hold a user's own files beside dfsim's
 * (notes, plots, data of their own), and files change after dfsim wrote
 * them. --force must remove only what dfsim wrote, and --resume must not
 * go on from results someone has changed; neither can be told from a
 * file's name. So every folder lists, in experiment.files, each file its
 * experiment wrote there.
 *
 * Format, one file a line after the comment lines ("# ..."):
 *     STATE SIZE HASH NAME
 * STATE "done": the file is exactly SIZE bytes and HASH is their hash;
 * "open": dfsim was writing it (a file of rows appended run by run, or
 * one being made) when the manifest was last written: its first SIZE
 * bytes have HASH (SIZE 0: nothing vouched for yet). HASH is the 64-bit
 * FNV-1a of the bytes in order (Fowler, Noll, Vo: offset basis
 * 14695981039346656037, prime 1099511628211), 16 lowercase hex digits:
 * enough to tell a changed file, no defence against a forger. NAME is a
 * plain file name (no '/'). The lines are sorted by name (bytewise), so
 * that a run's manifest is the same bytes however its runs were dealt
 * over ranks or resumed; the manifest and experiment.settings are not
 * listed.
 *
 * The writers keep one invariant: a name is listed (open) before its file
 * or its NAME.tmp is created or truncated, and is done only once the file
 * is complete, so that a folder never holds a file of dfsim's its
 * manifest does not name, whenever dfsim stopped. The manifest is written
 * whole (NAME.tmp, then renamed) on every change, by rank 0 alone.
 */
#ifndef DFSIM_EXP_MANIFEST_H
#define DFSIM_EXP_MANIFEST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define MANIFEST_FILE "experiment.files"

/* FNV-1a, 64 bits: the hash of no bytes, and h continued over p[0..n). */
#define MANIFEST_HASH_START 14695981039346656037ULL
uint64_t manifest_hash(uint64_t h, const void *p, size_t n);

/* One listed file. */
struct manifest_entry {
    char *name;              /* malloc'd; a plain file name */
    uint64_t size, hash;     /* its bytes (open: its first bytes) */
    bool done;               /* complete; else open */
};

/* A folder's manifest in memory, in no particular order (sorted when
 * written). */
struct manifest {
    struct manifest_entry *v;
    size_t n, cap;
};

/* dir's manifest into m (emptied first). Returns 0; 1 if dir has none
 * (m empty); -1 if it cannot be read or is not a manifest (reported to
 * err, naming the file and line). */
int manifest_read(struct manifest *m, const char *dir, FILE *err);

/* m written whole as dir's manifest (m sorted by name on the way). 0 or
 * -1 (reported). */
int manifest_write(struct manifest *m, const char *dir, FILE *err);

void manifest_free(struct manifest *m);

/* The entry of `name`, or NULL. */
struct manifest_entry *manifest_find(const struct manifest *m,
                                     const char *name);

/* What has just happened to a listed file (manifest_mark). */
enum manifest_how {
    MANIFEST_WRITING, /* about to be created or truncated: open, nothing
                         vouched for */
    MANIFEST_GROWN,   /* rows appended: open, what it holds now vouched
                         for (hashed from its open prefix on) */
    MANIFEST_DONE,    /* complete: done, what it holds */
};

/* Mark names[0..n) in dir's manifest (listed if new; a folder without
 * one gets one) and write it. GROWN and DONE read the files (which must
 * exist); only the bytes past an open entry's prefix are hashed, the
 * prefix being what dfsim wrote before. 0 or -1 (reported). */
int manifest_mark(const char *dir, const char *const *names, size_t n,
                  enum manifest_how how, FILE *err);

/* What is left of a run once nothing writes any more: every open entry
 * whose file exists marked done; one with neither its file nor its .tmp
 * dropped (nothing was written). 0 or -1 (reported). */
int manifest_seal(const char *dir, FILE *err);

/* Every entry of dir's manifest against its file: a done one has its
 * size and hash, an open one at least its size and, over those bytes,
 * its hash. Returns 0, or -1 with the first that differs reported to err
 * as "DIR/NAME: changed since dfsim wrote it: ..." (what differs: the
 * size, the bytes, or the file is missing). */
int manifest_check(const struct manifest *m, const char *dir, FILE *err);

/* Whether name is one a manifest may list: not empty, no '/', not "."
 * or "..", no newline (a manifest read from disk lists nothing that
 * could name a file outside its folder). */
bool manifest_name_ok(const char *name);

#endif
