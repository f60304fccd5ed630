/* config_files.c - the files an experiment is read from: the experiment, its
 * distribution and model files, its traces.
 *
 * Invariants: only a regular file is read (a FIFO or device could block or
 * never end), at most MAX_FILE_BYTES of it, and only if it holds no NUL
 * byte; a path that does not fit TMC_PATH_MAX is refused, never truncated
 * (a truncated path could name another file, issue 13); every file read is
 * listed in tmc_experiment.inputs so that no output overwrites it. */
#include "config_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_FILE_BYTES (1L << 20) /* an experiment is a few hundred bytes */

/* `path` opened for reading if it is a regular file; NULL with err set. */
static FILE *open_regular(const char *path, tmc_error *err)
{
    /* O_NONBLOCK: a FIFO must not block the open; only regular files pass */
    int fd = open(path, O_RDONLY | O_NONBLOCK);
    struct stat st;
    if (fd < 0) {
        tmc_error_set(err, "%s: cannot open: %s", path, strerror(errno));
        return NULL;
    }
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        close(fd);
        tmc_error_set(err, "%s: not a regular file (a folder, device or pipe)", path);
        return NULL;
    }
    FILE *fp = fdopen(fd, "rb");
    if (!fp) {
        close(fd);
        tmc_error_set(err, "%s: cannot open: %s", path, strerror(errno));
    }
    return fp;
}

int tmc_cfg_read_text(const char *path, char **text, tmc_error *err)
{
    FILE *fp = open_regular(path, err);
    if (!fp)
        return -1;
    char *buf = malloc(MAX_FILE_BYTES + 1);
    errno = 0;
    size_t n = buf ? fread(buf, 1, MAX_FILE_BYTES + 1, fp) : 0;
    int bad = !buf || ferror(fp), cause = buf ? errno : ENOMEM;
    fclose(fp);
    if (bad) {
        free(buf);
        return tmc_error_set(err, "%s: cannot read: %s", path, strerror(cause));
    }
    if (n > MAX_FILE_BYTES) {
        free(buf);
        return tmc_error_set(err, "%s: file is larger than %ld bytes; an experiment, "
                                  "distribution or trace file is small text", path,
                             MAX_FILE_BYTES);
    }
    buf[n] = '\0';
    if (strlen(buf) != n) {
        free(buf);
        return tmc_error_set(err, "%s: file contains a NUL byte; expected text (JSON or CSV)",
                             path);
    }
    *text = buf;
    return 0;
}

int tmc_cfg_join_path(const char *base_dir, const char *rel, char *out, size_t n)
{
    int len;
    if (rel[0] == '/' || !base_dir || !base_dir[0])
        len = snprintf(out, n, "%s", rel);
    else
        len = snprintf(out, n, "%s%s%s", base_dir,
                       base_dir[strlen(base_dir) - 1] == '/' ? "" : "/", rel);
    return len < 0 || (size_t)len >= n ? -1 : 0;
}

int tmc_cfg_note_input(tmc_experiment *rec, const char *path, tmc_error *err)
{
    return rec ? tmc_experiment_add_input(rec, path, err) : 0;
}
