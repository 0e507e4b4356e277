/* exp/outdir.c — the results folder: ownership by fingerprint, and files
 * written under a temporary name then renamed (see outdir.h). */
#include "exp/outdir.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "exp/fingerprint.h"

int outdir_make(const char *dir)
{
    char buf[4096];
    if (snprintf(buf, sizeof buf, "%s", dir) >= (int)sizeof buf) {
        errno = ENAMETOOLONG;
        return -1;
    }
    for (char *p = buf + 1; *p; p++)
        if (*p == '/') {
            *p = '\0';
            if (mkdir(buf, 0777) != 0 && errno != EEXIST)
                return -1;
            *p = '/';
        }
    if (mkdir(buf, 0777) != 0 && errno != EEXIST)
        return -1;
    return 0;
}

char *outdir_slurp(const char *dir, const char *name)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "r");
    if (!f)
        return NULL;
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap);
    while (buf) {
        size_t r = fread(buf + n, 1, cap - n - 1, f);
        n += r;
        if (n + 1 < cap)
            break;
        char *b = realloc(buf, cap * 2);
        if (!b) {
            free(buf);
            buf = NULL;
            break;
        }
        buf = b;
        cap *= 2;
    }
    fclose(f);
    if (buf)
        buf[n] = '\0';
    return buf;
}

/* Whether `name` is a file dfsim run writes into a results folder. */
static bool ours(const char *name)
{
    static const char *const ext[] = { ".csv", ".json", ".html", ".gp",
                                       ".svg", ".dat", ".log", ".txt",
                                       ".tmp", NULL };
    if (strcmp(name, FINGERPRINT_FILE) == 0)
        return true;
    size_t n = strlen(name);
    for (size_t i = 0; ext[i]; i++) {
        size_t k = strlen(ext[i]);
        if (n > k && strcmp(name + n - k, ext[i]) == 0)
            return true;
    }
    return false;
}

/* The entries of dir (. and .. aside, and `keep`, the experiment file
 * itself when it lies there: a user may keep it with its results): how
 * many; the first few names into `some` (comma-separated). With
 * `remove`, dfsim's own regular files are unlinked instead (and not
 * counted). -1 if dir cannot be read. */
static long entries(const char *dir, const char *keep, char *some,
                    size_t cap, bool remove, FILE *err)
{
    struct stat ks;
    bool have_keep = keep && stat(keep, &ks) == 0;
    DIR *d = opendir(dir);
    if (!d)
        return -1;
    long n = 0;
    size_t len = 0;
    if (cap)
        some[0] = '\0';
    struct dirent *de;
    while ((de = readdir(d)) != NULL) {
        const char *nm = de->d_name;
        if (strcmp(nm, ".") == 0 || strcmp(nm, "..") == 0)
            continue;
        if (have_keep) {
            char path[4400];
            struct stat st;
            snprintf(path, sizeof path, "%s/%s", dir, nm);
            if (stat(path, &st) == 0 && st.st_dev == ks.st_dev &&
                st.st_ino == ks.st_ino)
                continue;
        }
        if (remove && ours(nm)) {
            char path[4400];
            struct stat st;
            snprintf(path, sizeof path, "%s/%s", dir, nm);
            if (lstat(path, &st) == 0 && S_ISREG(st.st_mode)) {
                if (unlink(path) != 0) {
                    fprintf(err, "dfsim run: cannot remove %s: %s\n", path,
                            strerror(errno));
                    closedir(d);
                    return -1;
                }
                continue;
            }
        }
        if (n < 3 && len < cap) {
            int w = snprintf(some + len, cap - len, "%s%s", n ? ", " : "",
                             nm);
            if (w > 0)
                len += (size_t)w;
        } else if (n == 3 && len < cap) {
            snprintf(some + len, cap - len, ", ...");
            len = cap;
        }
        n++;
    }
    closedir(d);
    return n;
}

int outdir_claim(const char *dir, const char *settings, const char *file,
                 bool resume, bool force, FILE *err)
{
    if (outdir_make(dir) != 0) {
        fprintf(err, "dfsim run: cannot create %s: %s\n", dir,
                strerror(errno));
        return -1;
    }
    char some[512];
    long n = entries(dir, file, some, sizeof some, false, err);
    if (n < 0) {
        fprintf(err, "dfsim run: cannot read %s: %s\n", dir, strerror(errno));
        return -1;
    }
    char *stored = n ? outdir_slurp(dir, FINGERPRINT_FILE) : NULL;
    int differ = stored ? fingerprint_diff(stored, settings, file, NULL, 0)
                        : 0;
    int rc = 0;
    if (resume && stored && differ) {
        fprintf(err,
                "dfsim run: --resume: experiment file differs from the one "
                "%s was started with (%d setting%s):\n",
                dir, differ, differ == 1 ? "" : "s");
        fingerprint_diff(stored, settings, file, err, 8);
        fprintf(err, "  resume with the file and seed the folder was started "
                     "with, or run this one into another folder (-o)\n");
        rc = -1;
    } else if (resume && !stored && n) {
        fprintf(err,
                "dfsim run: --resume: %s records no experiment (no %s: "
                "not started by this version of dfsim), so its results "
                "cannot be checked to be this experiment's; run it into "
                "another folder (-o), or again with --force\n",
                dir, FINGERPRINT_FILE);
        rc = -1;
    } else if (!resume && n && (!stored || differ) && !force) {
        if (stored) {
            fprintf(err,
                    "dfsim run: %s holds the results of another experiment "
                    "(%d setting%s differ%s):\n",
                    dir, differ, differ == 1 ? "" : "s",
                    differ == 1 ? "s" : "");
            fingerprint_diff(stored, settings, file, err, 8);
        } else {
            fprintf(err,
                    "dfsim run: %s is not empty (%s) and records no "
                    "experiment (%s)\n",
                    dir, some, FINGERPRINT_FILE);
        }
        fprintf(err, "  choose another folder with -o, or add --force to "
                     "replace its results\n");
        rc = -1;
    } else if (!resume && n && (!stored || differ)) {
        /* --force: clear dfsim's files of the other experiment */
        if (entries(dir, file, some, sizeof some, true, err) < 0)
            rc = -1;
    }
    free(stored);
    if (rc != 0)
        return -1;
    /* record this experiment (again: a rerun writes the same text) */
    struct outfile o;
    if (outfile_open(&o, dir, FINGERPRINT_FILE, err) != 0)
        return -1;
    fputs(settings, o.f);
    return outfile_commit(&o, err);
}

int outfile_open(struct outfile *o, const char *dir, const char *name,
                 FILE *err)
{
    snprintf(o->path, sizeof o->path, "%s/%s", dir, name);
    snprintf(o->tmp, sizeof o->tmp, "%s.tmp", o->path);
    o->f = fopen(o->tmp, "w");
    if (!o->f) {
        fprintf(err, "dfsim run: cannot write %s: %s\n", o->tmp,
                strerror(errno));
        return -1;
    }
    return 0;
}

int outfile_commit(struct outfile *o, FILE *err)
{
    int bad = ferror(o->f);
    if (fclose(o->f) != 0)
        bad = 1;
    o->f = NULL;
    if (bad || rename(o->tmp, o->path) != 0) {
        fprintf(err, "dfsim run: cannot write %s: %s\n", o->path,
                strerror(errno ? errno : EIO));
        unlink(o->tmp);
        return -1;
    }
    return 0;
}

void outfile_abandon(struct outfile *o)
{
    if (o->f)
        fclose(o->f);
    o->f = NULL;
    unlink(o->tmp);
}
