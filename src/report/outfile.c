/* outfile.c - output files written atomically (outfile.h): a temporary file
 * beside the target, renamed over it only when complete; a signal handler
 * removes the one being written. */
#include "outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* A path that does not exist yet: itself, or, for a symbolic link to a
 * file that does not exist yet, the file it names (a relative link is read
 * from the link's folder), so that the link is followed as when its file
 * exists. Links to links are followed up to 16 deep. */
static int dangling_target(const char *path, char *target, size_t n, tmc_error *err)
{
    char at[TMC_PATH_MAX], link[TMC_PATH_MAX];
    if (snprintf(at, sizeof at, "%s", path) >= (int)sizeof at)
        return tmc_error_set(err, "%s: output path too long", path);
    struct stat st;
    for (int depth = 0; lstat(at, &st) == 0 && S_ISLNK(st.st_mode); depth++) {
        ssize_t len = readlink(at, link, sizeof link - 1);
        if (depth == 16 || len < 0 || len == (ssize_t)sizeof link - 1)
            return tmc_error_set(err, "%s: cannot follow the symbolic link", path);
        link[len] = '\0';
        const char *slash = strrchr(at, '/');
        int dir = link[0] == '/' || !slash ? 0 : (int)(slash - at + 1);
        char next[TMC_PATH_MAX];
        if (snprintf(next, sizeof next, "%.*s%s", dir, at, link) >= (int)sizeof next)
            return tmc_error_set(err, "%s: output path too long", path);
        memcpy(at, next, sizeof at);
    }
    return snprintf(target, n, "%s", at) >= (int)n
        ? tmc_error_set(err, "%s: output path too long", path) : 0;
}

/* The file to replace: path itself, or what a symbolic link at path points
 * to. Refuses what renaming over would destroy: folders, devices, FIFOs. */
static int resolve_target(const char *path, char *target, size_t n, tmc_error *err)
{
    size_t len = strlen(path);
    if (len == 0)
        return tmc_error_set(err, "output path is empty");
    if (path[len - 1] == '/')
        return tmc_error_set(err, "%s: output path names a folder, not a file", path);
    struct stat st;
    if (stat(path, &st) != 0 && errno == ELOOP)
        return tmc_error_set(err, "%s: output path is a loop of symbolic links", path);
    if (stat(path, &st) != 0) /* a new file, or the new target of a dangling link */
        return dangling_target(path, target, n, err);
    if (S_ISDIR(st.st_mode))
        return tmc_error_set(err, "%s: output path is a folder, not a file", path);
    if (!S_ISREG(st.st_mode))
        return tmc_error_set(err, "%s: output path is not a regular file (a device, FIFO "
                                  "or socket); refusing to replace it", path);
    char *real = realpath(path, NULL);
    if (!real)
        return tmc_error_set(err, "%s: cannot resolve output path: %s", path, strerror(errno));
    int too_long = snprintf(target, n, "%s", real) >= (int)n;
    free(real);
    return too_long ? tmc_error_set(err, "%s: output path too long", path) : 0;
}

/* Give fd, the file written in place of path, an existing target's owner,
 * group and mode (a report rewritten keeps the permissions its owner gave
 * it, and a 0600 file stays private), else what a new file gets under the
 * umask (mkstemp makes 0600). The owner first: chown may clear set-id bits,
 * and an owner only root may give is kept where allowed (else the group
 * alone, else neither: the mode still holds). */
static void keep_target_attributes(int fd, const char *path)
{
    struct stat st;
    if (stat(path, &st) == 0 && S_ISREG(st.st_mode)) {
        if (fchown(fd, st.st_uid, st.st_gid) != 0 && fchown(fd, (uid_t)-1, st.st_gid) != 0)
            errno = 0; /* not allowed: the file is the writer's, as a new one would be */
        fchmod(fd, st.st_mode & 07777);
        return;
    }
    mode_t mask = umask(0);
    umask(mask);
    fchmod(fd, 0666 & ~mask);
}

/* The temporary file's template beside target, "NAME.tmp.XXXXXX", NAME cut
 * so that it stays within NAME_MAX bytes: the suffix adds 11, so a 245- to
 * 255-byte name failed with "File name too long". 0, or -1 if it does not
 * fit in n. */
static int temp_template(const char *target, char *tmp, size_t n)
{
    static const char suffix[] = ".tmp.XXXXXX";
    const char *slash = strrchr(target, '/');
    const char *name = slash ? slash + 1 : target;
    size_t len = strlen(name), most = NAME_MAX - (sizeof suffix - 1);
    int dir = (int)(name - target), keep = (int)(len < most ? len : most);
    return snprintf(tmp, n, "%.*s%.*s%s", dir, target, keep, name, suffix) >= (int)n ? -1 : 0;
}

/* The temporary files being written (a command writes at most
 * TMC_OUTPUT_PENDING_MAX at once, e.g. --json and --csv), for a signal
 * handler: a slot is set once its file exists, cleared before the file is
 * renamed or removed. */
#define TMC_OUTPUT_PENDING_MAX 4
static char pending_tmp[TMC_OUTPUT_PENDING_MAX][TMC_PATH_MAX + 16];
static volatile sig_atomic_t has_pending[TMC_OUTPUT_PENDING_MAX];

void tmc_output_discard_pending(void)
{
    for (int i = 0; i < TMC_OUTPUT_PENDING_MAX; i++)
        if (has_pending[i])
            unlink(pending_tmp[i]);
}

static void clear_pending(tmc_outfile *o)
{
    if (o->slot >= 0 && o->tmp[0]) /* a zeroed tmc_outfile was never opened */
        has_pending[o->slot] = 0;
    o->slot = -1;
}

int tmc_output_open(tmc_outfile *o, const char *path, tmc_error *err)
{
    o->slot = -1;
    int slot = 0;
    while (slot < TMC_OUTPUT_PENDING_MAX && has_pending[slot])
        slot++;
    if (slot == TMC_OUTPUT_PENDING_MAX)
        return tmc_error_set(err, "%s: more than %d output files at once", path,
                             TMC_OUTPUT_PENDING_MAX);
    if (resolve_target(path, o->path, sizeof o->path, err))
        return -1;
    if (temp_template(o->path, o->tmp, sizeof o->tmp))
        return tmc_error_set(err, "%s: output path too long", path);
    int fd = mkstemp(o->tmp);
    if (fd < 0)
        return tmc_error_set(err, "%s: cannot create output file: %s", path, strerror(errno));
    keep_target_attributes(fd, o->path);
    o->fp = fdopen(fd, "w");
    if (!o->fp) {
        close(fd);
        unlink(o->tmp);
        return tmc_error_set(err, "%s: cannot open output file: %s", path, strerror(errno));
    }
    memcpy(pending_tmp[slot], o->tmp, sizeof pending_tmp[slot]);
    has_pending[slot] = 1;
    o->slot = slot;
    return 0;
}

/* The temporary file, written (bad: whether that failed), onto the target. */
static int rename_into_place(tmc_outfile *o, int bad, tmc_error *err)
{
    o->fp = NULL;
    clear_pending(o);
    if (bad || rename(o->tmp, o->path) != 0) {
        int e = errno;
        unlink(o->tmp);
        return tmc_error_set(err, "%s: cannot write output file: %s", o->path, strerror(e));
    }
    return 0;
}

int tmc_output_commit(tmc_outfile *o, const char *text, tmc_error *err)
{
    int bad = fputs(text, o->fp) < 0 || fflush(o->fp) != 0 || fsync(fileno(o->fp)) != 0;
    bad |= fclose(o->fp) != 0;
    return rename_into_place(o, bad, err);
}

int tmc_output_commit_written(tmc_outfile *o, tmc_error *err)
{
    int bad = fclose(o->fp) != 0;
    int fd = bad ? -1 : open(o->tmp, O_RDONLY);
    bad |= fd < 0 || fsync(fd) != 0;
    if (fd >= 0)
        close(fd);
    return rename_into_place(o, bad, err);
}

void tmc_output_abort(tmc_outfile *o)
{
    if (o->fp)
        fclose(o->fp);
    o->fp = NULL;
    clear_pending(o);
    if (o->tmp[0])
        unlink(o->tmp);
}
