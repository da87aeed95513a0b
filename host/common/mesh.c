/* mesh.c: Wavefront .obj files read into triangles (mesh.h). */
#include "mesh.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The format's statements that hold no triangles: skipped. */
static const char *const skipped[] = {"vt", "vn", "vp", "g", "o", "s", "usemtl", "mtllib", "l", "p", "cstype", "deg",
                                      "bmat", "step", "curv", "curv2", "surf", "parm", "trim", "hole", "scrv", "sp",
                                      "end", "con", "mg", "bevel", "c_interp", "d_interp", "lod", "shadow_obj",
                                      "trace_obj", "ctech", "stech", "maplib", "usemap"};

typedef struct floats {
    float *data;
    size_t count, capacity;
} floats;

static int push(floats *f, const float *values, size_t count)
{
    if (f->count + count > f->capacity) {
        size_t capacity = f->capacity ? f->capacity * 2 : 1024;
        while (capacity < f->count + count)
            capacity *= 2;
        float *data = realloc(f->data, capacity * sizeof *data);
        if (!data)
            return -1;
        f->data = data;
        f->capacity = capacity;
    }
    memcpy(f->data + f->count, values, count * sizeof *values);
    f->count += count;
    return 0;
}

/* The next whitespace-separated token of *cursor (NUL-terminated in place), or NULL. */
static char *next_token(char **cursor)
{
    char *s = *cursor + strspn(*cursor, " \t\r\n");
    if (!*s)
        return NULL;
    char *end = s + strcspn(s, " \t\r\n");
    if (*end)
        *end++ = '\0';
    *cursor = end;
    return s;
}

typedef struct reader {
    const char *path;
    unsigned long line;
    char *err;
    size_t errlen;
} reader;

/* "PATH:LINE: " and the message (fmt with one string) into the caller's err; returns -1. */
static int fail(const reader *r, const char *fmt, const char *token)
{
    char message[256];
    snprintf(message, sizeof message, fmt, token);
    snprintf(r->err, r->errlen, "%s:%lu: %s", r->path, r->line, message);
    return -1;
}

/* "PATH: " and the message into the caller's err; returns -1. */
static int fail_file(const reader *r, const char *message)
{
    snprintf(r->err, r->errlen, "%s: %s", r->path, message);
    return -1;
}

/* A face vertex's index into the vertices so far (0-based), or -1 after fail(). */
static long face_vertex(const reader *r, const char *token, size_t vertices)
{
    char digits[32];
    size_t length = strcspn(token, "/");
    if (length == 0 || length >= sizeof digits)
        return fail(r, "f: '%s' is no vertex index", token), -1;
    memcpy(digits, token, length);
    digits[length] = '\0';
    char *end = NULL;
    errno = 0;
    long long index = strtoll(digits, &end, 10);
    if (*end || errno == ERANGE)
        return fail(r, "f: '%s' is no vertex index", token), -1;
    if (index == 0)
        return fail(r, "f: vertex index 0 in '%s': indices count from 1 (or back from -1)", token), -1;
    long long resolved = index > 0 ? index - 1 : (long long)vertices + index;
    if (resolved < 0 || resolved >= (long long)vertices) {
        char message[160];
        snprintf(message, sizeof message, "f: vertex %s is not defined (%zu vertices before this line)", digits,
                 vertices);
        return fail(r, "%s", message), -1;
    }
    return (long)resolved;
}

static int read_vertex(const reader *r, char *cursor, floats *vertices)
{
    float xyz[3];
    unsigned count = 0;
    for (char *token; (token = next_token(&cursor));) {
        char *end = NULL;
        errno = 0;
        float value = strtof(token, &end);
        if (*end || end == token)
            return fail(r, "v: '%s' is not a number", token);
        if (errno == ERANGE || !isfinite(value))
            return fail(r, "v: '%s' is not a finite float", token);
        if (count < 3)
            xyz[count] = value;
        count++;
    }
    /* x y z, with w or a colour (r g b, or w r g b) after them */
    if (count < 3 || count == 5 || count > 7) {
        char counted[16];
        snprintf(counted, sizeof counted, "%u", count);
        return fail(r, "v: %s numbers; expected x y z (then w, r g b, or w r g b)", counted);
    }
    return push(vertices, xyz, 3) ? fail_file(r, "out of memory") : 0;
}

static int read_face(const reader *r, char *cursor, const floats *vertices, floats *tris)
{
    size_t known = vertices->count / 3;
    long first = -1, previous = -1;
    unsigned count = 0;
    for (char *token; (token = next_token(&cursor)); count++) {
        long v = face_vertex(r, token, known);
        if (v < 0)
            return -1;
        if (count == 0)
            first = v;
        if (count >= 2) {
            if (tris->count / 9 >= MESH_MAX_TRIANGLES) {
                char most[16];
                snprintf(most, sizeof most, "%u", MESH_MAX_TRIANGLES);
                return fail(r, "f: more than %s triangles", most);
            }
            float t[9];
            memcpy(t, vertices->data + first * 3, 3 * sizeof *t);
            memcpy(t + 3, vertices->data + previous * 3, 3 * sizeof *t);
            memcpy(t + 6, vertices->data + v * 3, 3 * sizeof *t);
            if (push(tris, t, 9))
                return fail_file(r, "out of memory");
        }
        previous = v;
    }
    if (count < 3) {
        char counted[16];
        snprintf(counted, sizeof counted, "%u", count);
        return fail(r, "f: %s vertices; a face has at least 3", counted);
    }
    return 0;
}

int mesh_read_obj(const char *path, float **tris_out, unsigned *count_out, char *err, size_t errlen)
{
    reader r = {path, 0, err, errlen};
    *tris_out = NULL;
    *count_out = 0;
    FILE *file = fopen(path, "r");
    if (!file)
        return fail_file(&r, strerror(errno));
    floats vertices = {0}, tris = {0};
    char *line = NULL;
    size_t size = 0;
    int status = 0;
    while (!status && getline(&line, &size, file) != -1) {
        r.line++;
        char *cursor = line, *keyword = next_token(&cursor);
        if (!keyword || keyword[0] == '#')
            continue;
        if (!strcmp(keyword, "v")) {
            status = read_vertex(&r, cursor, &vertices);
        } else if (!strcmp(keyword, "f")) {
            status = read_face(&r, cursor, &vertices, &tris);
        } else {
            size_t i = 0;
            while (i < sizeof skipped / sizeof skipped[0] && strcmp(keyword, skipped[i]))
                i++;
            if (i == sizeof skipped / sizeof skipped[0])
                status = fail(&r, "unknown statement '%s'", keyword);
        }
    }
    if (!status && ferror(file))
        status = fail_file(&r, strerror(errno));
    if (!status && tris.count == 0)
        status = fail_file(&r, "no faces");
    free(line);
    fclose(file);
    free(vertices.data);
    if (status) {
        free(tris.data);
        return -1;
    }
    *tris_out = tris.data;
    *count_out = (unsigned)(tris.count / 9);
    return 0;
}
