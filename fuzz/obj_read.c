/* fuzz/obj_read.c: a fuzz target for mesh_read_obj() (host/common/mesh.c), for libFuzzer (make
 * fuzz) and for fuzz/replay.c (make check, make sanitize).
 *
 * The input is the content of an .obj file. A mesh that is read must hold mesh.h's promises: at
 * least one triangle, at most MESH_MAX_TRIANGLES, every coordinate finite; a refusal must say
 * why and leave nothing behind. A broken promise aborts, as a crash would. */
#include "mesh.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void broken(const char *what)
{
    fprintf(stderr, "fuzz obj_read: %s\n", what);
    abort();
}

/* The file the input is written to, made at the first input and removed at exit. */
static char path[256];

static void remove_file(void)
{
    unlink(path);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!path[0]) {
        const char *tmp = getenv("TMPDIR");
        snprintf(path, sizeof path, "%s/fuzz-obj.XXXXXX", tmp && *tmp ? tmp : "/tmp");
        int fd = mkstemp(path);
        if (fd < 0)
            abort();
        close(fd);
        atexit(remove_file);
    }
    FILE *file = fopen(path, "wb");
    if (!file || fwrite(data, 1, size, file) != size || fclose(file) != 0)
        abort();
    float *tris = NULL;
    unsigned count = 0;
    char err[512] = "";
    if (mesh_read_obj(path, &tris, &count, err, sizeof err) == 0) {
        if (!tris || count == 0 || count > MESH_MAX_TRIANGLES || err[0])
            broken("a mesh without triangles, with too many, or with a message");
        for (size_t i = 0; i < (size_t)count * 9; i++)
            if (!isfinite(tris[i]))
                broken("a coordinate that is not finite");
        free(tris);
    } else if (!err[0] || tris || count || strncmp(err, path, strlen(path)) != 0) {
        broken("a refusal without a message naming the file, or with a mesh left behind");
    }
    return 0;
}
