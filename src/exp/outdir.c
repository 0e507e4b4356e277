/* exp/outdir.c — the results folder: ownership by fingerprint, and files
 * written under a temporary name then renamed (see outdir.h). */
#include "exp/outdir.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "exp/fingerprint.h"
#include "exp/manifest.h"

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

/* ---- locks ----------------------------------------------------------- */

static void host_name(char *host, size_t cap)
{
    if (gethostname(host, cap - 1) != 0)
        snprintf(host, cap, "?");
    host[cap - 1] = '\0';
}

/* Whether process pid of this host still runs. */
static bool pid_alive(long pid)
{
    return pid > 0 && (kill((pid_t)pid, 0) == 0 || errno != ESRCH);
}

int outdir_lock(const char *dir, const char *name, char *why, size_t cap)
{
    char path[4200], here[256], mine[300];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    host_name(here, sizeof here);
    snprintf(mine, sizeof mine, "%ld %s\n", (long)getpid(), here);
    int taken_over = 0;
    for (int tries = 0; tries < 2; tries++) {
        int fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0644);
        if (fd >= 0) {
            size_t len = strlen(mine);
            bool ok = write(fd, mine, len) == (ssize_t)len;
            if (close(fd) != 0 || !ok) {
                snprintf(why, cap, "cannot write %s: %s", path,
                         strerror(errno));
                unlink(path);
                return -1;
            }
            return taken_over;
        }
        if (errno != EEXIST) {
            snprintf(why, cap, "cannot create %s: %s", path, strerror(errno));
            return -1;
        }
        /* held: by whom, and is it still there? */
        char *held = outdir_slurp(dir, name);
        long pid = 0;
        char host[256] = "";
        bool read = held && sscanf(held, "%ld %255s", &pid, host) == 2;
        free(held);
        if (!read) {
            snprintf(why, cap, "%s exists but does not read \"PID HOST\"",
                     path);
            return -1;
        }
        bool same_host = strcmp(host, here) == 0;
        if (!same_host || pid_alive(pid)) {
            snprintf(why, cap, "%s is held by process %ld on %s, %s", path,
                     pid, host,
                     same_host ? "which is still running"
                               : "which this host cannot check");
            return -1;
        }
        snprintf(why, cap, "%s was left by process %ld, which has ended",
                 path, pid);
        taken_over = 1;
        if (unlink(path) != 0 && errno != ENOENT) {
            snprintf(why, cap, "cannot remove %s: %s", path, strerror(errno));
            return -1;
        }
    }
    snprintf(why, cap, "%s: another process took it meanwhile", path);
    return -1;
}

void outdir_unlock(const char *dir, const char *name)
{
    char here[256], mine[300];
    host_name(here, sizeof here);
    snprintf(mine, sizeof mine, "%ld %s\n", (long)getpid(), here);
    char *held = outdir_slurp(dir, name);
    if (held && strcmp(held, mine) == 0) {
        char path[4200];
        snprintf(path, sizeof path, "%s/%s", dir, name);
        unlink(path);
    }
    free(held);
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

/* The names in a folder, sorted (so that what is said of them is the
 * same on every machine). */
struct names {
    char **v;
    size_t n, cap;
};

static void names_free(struct names *ns)
{
    for (size_t i = 0; i < ns->n; i++)
        free(ns->v[i]);
    free(ns->v);
    memset(ns, 0, sizeof *ns);
}

static int by_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The entries of dir into ns, sorted: . and .. aside, and `keep`, the
 * experiment file itself when it lies there (a user may keep it with its
 * results). 0, or -1 (errno set: dir unreadable, or out of memory). */
static int folder_names(const char *dir, const char *keep, struct names *ns)
{
    memset(ns, 0, sizeof *ns);
    struct stat ks;
    bool have_keep = keep && stat(keep, &ks) == 0;
    DIR *d = opendir(dir);
    if (!d)
        return -1;
    struct dirent *de;
    int rc = 0;
    while (rc == 0 && (de = readdir(d)) != NULL) {
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
        if (ns->n == ns->cap) {
            size_t cap = ns->cap ? 2 * ns->cap : 16;
            char **v = realloc(ns->v, cap * sizeof *v);
            if (!v) {
                rc = -1;
                break;
            }
            ns->v = v;
            ns->cap = cap;
        }
        if (!(ns->v[ns->n] = strdup(nm)))
            rc = -1;
        else
            ns->n++;
    }
    closedir(d);
    if (rc != 0) {
        names_free(ns);
        errno = ENOMEM;
        return -1;
    }
    if (ns->n) /* an empty folder: no array to sort */
        qsort(ns->v, ns->n, sizeof *ns->v, by_str);
    return 0;
}

/* The first few of names[0..n) into buf, comma-separated, ", ..." after
 * them if there are more. */
static void some_names(char *buf, size_t cap, char *const *names, size_t n)
{
    size_t len = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < n && len < cap; i++) {
        int w = i < 4 ? snprintf(buf + len, cap - len, "%s%s",
                                 i ? ", " : "", names[i])
                      : snprintf(buf + len, cap - len, ", ...");
        if (w > 0)
            len += (size_t)w;
        if (i >= 4)
            break;
    }
}

/* Whether dir/name exists. */
static bool outdir_has(const char *dir, const char *name)
{
    char path[4400];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    return access(path, F_OK) == 0;
}

/* Whether dir/name is a plain file (a link, a folder: not dfsim's). */
static bool plain_file(const char *dir, const char *name)
{
    char path[4400];
    struct stat st;
    snprintf(path, sizeof path, "%s/%s", dir, name);
    return lstat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* Whether `name` in dir is a file this folder's manifest m says dfsim
 * wrote: a listed name, the manifest or the settings, or the .tmp of one
 * of them (a run stopped while writing it); a plain file each. */
static bool written_by_dfsim(const struct manifest *m, const char *dir,
                             const char *name)
{
    if (!plain_file(dir, name))
        return false;
    char stem[4096];
    size_t n = strlen(name);
    snprintf(stem, sizeof stem, "%s", name);
    if (n > 4 && n - 4 < sizeof stem && strcmp(name + n - 4, ".tmp") == 0)
        stem[n - 4] = '\0'; /* a .tmp of a listed name is dfsim's too */
    const char *const own[] = { name, stem };
    for (int k = 0; k < 2; k++)
        if (strcmp(own[k], MANIFEST_FILE) == 0 ||
            strcmp(own[k], FINGERPRINT_FILE) == 0 ||
            manifest_find(m, own[k]))
            return true;
    return false;
}

/* --force on a folder of another experiment (or one that records none):
 * remove what its manifest says dfsim wrote, the settings and then the
 * manifest last (so that a removal cut short leaves a manifest of what
 * is left). A folder with no manifest (an older dfsim's, or no dfsim's),
 * or holding anything dfsim did not write, is refused and left alone: a
 * file's name cannot tell a user's file from dfsim's. `ns`: the folder's
 * names (the experiment file aside). 0 or -1 (said). */
static int clear_folder(const char *dir, const struct names *ns, FILE *err)
{
    struct manifest m;
    int rc = manifest_read(&m, dir, err);
    if (rc < 0)
        return -1;
    if (rc == 1) {
        char some[600];
        some_names(some, sizeof some, ns->v, ns->n);
        fprintf(err,
                "dfsim run: --force: %s has no %s, the list of the files "
                "dfsim wrote there (not a folder of dfsim's, or an older "
                "dfsim's), so its files (%s: %zu in all) cannot be told from "
                "files dfsim did not write, and --force removes none; name a "
                "new folder with -o\n",
                dir, MANIFEST_FILE, some, ns->n);
        return -1;
    }
    char *first[5]; /* the first few, to name them */
    size_t foreign = 0;
    for (size_t i = 0; i < ns->n; i++) {
        if (written_by_dfsim(&m, dir, ns->v[i]))
            continue;
        if (foreign < 5)
            first[foreign] = ns->v[i];
        foreign++;
    }
    if (foreign) {
        char some[600];
        some_names(some, sizeof some, first, foreign < 5 ? foreign : 5);
        fprintf(err,
                "dfsim run: --force: %s holds files dfsim did not write (%s: "
                "%zu in all), which --force does not remove; name a new "
                "folder with -o, or move them away\n",
                dir, some, foreign);
        manifest_free(&m);
        return -1;
    }
    for (size_t pass = 0; pass < 3 && rc == 0; pass++)
        for (size_t i = 0; i < ns->n && rc == 0; i++) {
            const char *nm = ns->v[i];
            /* the listed files and leftovers, the settings, the manifest */
            int which = strcmp(nm, MANIFEST_FILE) == 0      ? 2
                        : strcmp(nm, FINGERPRINT_FILE) == 0 ? 1
                                                            : 0;
            char path[4400];
            snprintf(path, sizeof path, "%s/%s", dir, nm);
            if ((size_t)which == pass && unlink(path) != 0) {
                fprintf(err, "dfsim run: cannot remove %s: %s\n", path,
                        strerror(errno));
                rc = -1;
            }
        }
    manifest_free(&m);
    return rc;
}

/* --resume on this experiment's folder: every file its manifest lists
 * must be as dfsim wrote it, or the finished runs resumed from would not
 * be what they say. 0 or -1 (said). */
static int check_folder(const char *dir, FILE *err)
{
    struct manifest m;
    int rc = manifest_read(&m, dir, err);
    if (rc == 1) {
        fprintf(err,
                "dfsim run: --resume: %s holds no %s (started by an older "
                "dfsim), so its results cannot be checked to be as dfsim "
                "wrote them; run it again without --resume, or into "
                "another folder (-o)\n",
                dir, MANIFEST_FILE);
        rc = -1;
    } else if (rc == 0 && manifest_check(&m, dir, err) != 0) {
        fprintf(err, "  --resume goes on only from results as dfsim wrote "
                     "them; run the experiment again without --resume (it "
                     "starts over), or into another folder (-o)\n");
        rc = -1;
    }
    manifest_free(&m);
    return rc;
}

int outdir_claim(const char *dir, const char *settings, const char *file,
                 bool resume, bool force, FILE *err)
{
    if (outdir_make(dir) != 0) {
        fprintf(err, "dfsim run: cannot create %s: %s\n", dir,
                strerror(errno));
        return -1;
    }
    struct names ns;
    if (folder_names(dir, file, &ns) != 0) {
        fprintf(err, "dfsim run: cannot read %s: %s\n", dir, strerror(errno));
        return -1;
    }
    size_t n = ns.n;
    char some[600];
    some_names(some, sizeof some, ns.v, n);
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
    } else if (resume && stored) {
        rc = check_folder(dir, err);
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
        /* --force needs the list of what dfsim wrote (clear_folder) */
        if (stored || outdir_has(dir, MANIFEST_FILE))
            fprintf(err, "  choose another folder with -o, or add --force "
                         "to replace its results (the files dfsim wrote "
                         "there; it refuses a folder holding others)\n");
        else
            fprintf(err, "  choose another folder with -o\n");
        rc = -1;
    } else if (!resume && n && (!stored || differ)) {
        rc = clear_folder(dir, &ns, err);
    }
    free(stored);
    names_free(&ns);
    if (rc != 0)
        return -1;
    /* the manifest before the settings, so that a folder with settings
     * and no manifest is an older dfsim's; a rerun keeps its list (the
     * same files are written again, each marked as it is) */
    struct manifest m;
    int have = manifest_read(&m, dir, err);
    if (have < 0 || (have == 1 && manifest_write(&m, dir, err) != 0))
        rc = -1;
    manifest_free(&m);
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
    snprintf(o->dir, sizeof o->dir, "%s", dir);
    snprintf(o->path, sizeof o->path, "%s/%s", dir, name);
    snprintf(o->tmp, sizeof o->tmp, "%s.tmp", o->path);
    o->name = o->path + strlen(o->dir) + 1;
    /* the folder's own records are not results: the manifest does not
     * list itself, nor the settings */
    o->listed = strcmp(name, MANIFEST_FILE) != 0 &&
                strcmp(name, FINGERPRINT_FILE) != 0;
    o->f = NULL;
    if (o->listed &&
        manifest_mark(o->dir, &o->name, 1, MANIFEST_WRITING, err) != 0)
        return -1;
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
    if (o->listed)
        return manifest_mark(o->dir, &o->name, 1, MANIFEST_DONE, err);
    return 0;
}

void outfile_abandon(struct outfile *o)
{
    if (o->f)
        fclose(o->f);
    o->f = NULL;
    unlink(o->tmp);
}
