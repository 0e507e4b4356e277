/* exp/outdir.h — the results folder of `dfsim run`: which experiment it
 * belongs to, which files in it are dfsim's, and files written whole.
 *
 * A folder belongs to the experiment whose normalised settings
 * (exp/fingerprint.h) it holds in experiment.settings, written before any
 * result, and lists the files that experiment wrote there in
 * experiment.files (exp/manifest.h), written just before the settings.
 * A run goes on in a folder only if it is empty, missing, or holds this
 * experiment (same settings); --resume additionally needs the settings
 * to match when there is anything to resume, and every listed file to be
 * as dfsim wrote it; --force replaces another experiment's results by
 * removing the files its experiment.files lists, and refuses a folder
 * that holds any other file, or has no experiment.files (a file's name
 * does not tell a user's file from dfsim's).
 *
 * Files that are not appended run by run (topology.json, probe.csv,
 * experiment.settings, experiment.files) are written under a temporary
 * name, closed and renamed into place, so a killed run leaves either the
 * whole file or none. */
#ifndef DFSIM_OUTDIR_H
#define DFSIM_OUTDIR_H

#include <stdbool.h>
#include <stdio.h>

/* mkdir -p dir. Returns 0 or -1 (errno set). */
int outdir_make(const char *dir);

/* The whole of dir/name, NUL-terminated and malloc'd (free it); NULL if
 * it cannot be read. */
char *outdir_slurp(const char *dir, const char *name);

/* Claim dir (created if missing) for the experiment read from `file`
 * whose normalised settings are `settings`: refuse (a sentence to err,
 * -1) a folder of another experiment, or a non-empty one that records no
 * experiment, unless `force` (then the files its experiment.files lists
 * are removed first; a folder with any other file, or without that list,
 * is refused); with `resume` a folder of another experiment, or one whose
 * listed files changed since dfsim wrote them, is refused whatever
 * `force` says. On success experiment.files exists (kept as it was, or
 * empty) and experiment.settings holds `settings`. */
int outdir_claim(const char *dir, const char *settings, const char *file,
                 bool resume, bool force, FILE *err);

/* Take dir/name as a lock held by this process: created (O_EXCL)
 * holding "PID HOST". Refused, -1 with a sentence in `why`, while
 * another process holds it: one of this host whose PID still runs, or
 * one of another host (which cannot be checked from here). A lock left
 * by a process of this host that has ended is taken over: 1, `why`
 * saying whose it was. 0 when taken fresh; -1 too when it cannot be
 * written (errno in `why`). */
int outdir_lock(const char *dir, const char *name, char *why, size_t cap);
/* Remove dir/name if this process holds it. */
void outdir_unlock(const char *dir, const char *name);

/* A file written whole: opened as dir/name.tmp, made visible as dir/name
 * by outfile_commit (closed, then renamed). */
struct outfile {
    FILE *f;             /* write here */
    char dir[4096];
    char path[4096];     /* dir/name */
    char tmp[4104];      /* dir/name.tmp */
    const char *name;    /* name, in path */
    bool listed;         /* in the folder's manifest (exp/manifest.h):
                            every file but the manifest and the settings */
};

/* Open (listed in dir's manifest first, as being written); on failure
 * report to err ("dfsim run: cannot write ...") and return -1. */
int outfile_open(struct outfile *o, const char *dir, const char *name,
                 FILE *err);
/* Close and rename into place, and list it as done (its size and hash)
 * in the manifest. Returns 0, or -1 (reported; the temporary removed). */
int outfile_commit(struct outfile *o, FILE *err);
/* Close and remove the temporary (after an error). */
void outfile_abandon(struct outfile *o);

#endif
