/* exp/journal.h — a journal of the units a study has finished, so that a
 * study cut short goes on from where it stopped.
 *
 * Why: "a long run that is interrupted loses none of the results it had
 * finished". An impact study's simulations (exp/impact.h) each leave rows
 * in shared files and samples in memory that the study's results are made
 * of at its end; rows alone cannot rebuild the samples. So rank 0 appends
 * every unit it commits (struct par_unit: its status-0 parts, exactly as
 * par_deal handed them over) to a journal file in the results folder,
 * and `dfsim run --resume` reads the units back, commits them again in
 * order — the files and the samples come out as the first time — and
 * deals the rest from the first unit not in the journal.
 *
 * Format (this machine's byte order: a resume file, not an exchange
 * format): a header, "dfsimJ2\n" (8 bytes) and the u64 `layout` of the
 * study that wrote it, then one record a unit, in unit order from 0:
 *     "dfsimU1\n" (8 bytes), u32 unit, u32 n, u64 len[n], the n parts'
 *     bytes, u64 FNV-1a (exp/manifest.h's) of everything after the magic
 * A record that is incomplete or does not check (a study killed while
 * writing it) ends the journal there.
 *
 * `layout` is the writer's hash of what a unit's parts are (which files,
 * which records, their sizes, the flags that change them): a journal
 * written by a dfsim whose units are laid out otherwise (an older
 * release, or the same study run with other options) is refused whole,
 * and left as it is, instead of being read as this one's units, found
 * malformed, and truncated by the fresh start. Journals written before
 * the header (the records start at byte 0) are refused the same way.
 * The file is listed in the folder's manifest (open while written, done
 * when the study has finished), so --resume's check of the folder
 * covers it. */
#ifndef DFSIM_EXP_JOURNAL_H
#define DFSIM_EXP_JOURNAL_H

#include <stdint.h>
#include <stdio.h>

#include "exp/par.h"

struct journal {
    FILE *f;
    const char *dir, *name;
};

/* Start dir/name afresh with the header of `layout` (listed open in the
 * manifest, then truncated). 0, or -1 reported to err. */
int journal_start(struct journal *j, const char *dir, const char *name,
                  uint64_t layout, FILE *err);

/* Append unit u's record and vouch for it in the manifest. 0 or -1
 * (reported to err). */
int journal_add(struct journal *j, uint32_t u, const struct par_unit *in,
                FILE *err);

/* Close; with `done`, mark the file complete in the manifest. 0 or -1. */
int journal_end(struct journal *j, int done, FILE *err);

/* The units of dir/name's journal, 0 .. n-1 in order, at most `max`, into
 * a malloc'd array *out (free it with journal_units_free). A missing
 * file, or one cut short within its header, is 0 units. Returns n; -1
 * out of memory; JOURNAL_FOREIGN when the file is not a journal of
 * `layout` (why[] says what it is; *out NULL, the file untouched). */
#define JOURNAL_FOREIGN (-2)
int64_t journal_read(const char *dir, const char *name, uint64_t layout,
                     uint32_t max, struct par_unit **out, char why[160]);

/* The n units of *v (journal_read's) and the array; *v NULL after. */
void journal_units_free(struct par_unit **v, int64_t n);

#endif
