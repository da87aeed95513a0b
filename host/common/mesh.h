/* mesh.h: triangle meshes from Wavefront .obj files, as coop-lbvh reads its scenes: triangles of
 * 9 floats (three vertices x, y, z). */
#ifndef MESH_H
#define MESH_H

#include <stddef.h>

/* The most triangles a mesh may have. */
#define MESH_MAX_TRIANGLES (1u << 26)

/* Reads the `v` and `f` statements of .obj file `path` into *tris (malloc'd, 9 floats a
 * triangle) and *count: a face of k vertices becomes k - 2 triangles fanned from its first
 * vertex; a face's vertex is `i`, `i/t`, `i//n` or `i/t/n`, i counting the vertices so far from 1
 * (or back from -1). Other statements of the format (vt, vn, g, o, s, usemtl, mtllib, l, p...)
 * and comments are skipped. Returns 0, or -1 with *tris NULL, *count 0 and a NUL-terminated
 * message of at most errlen bytes in err: "PATH:LINE: ..." for a malformed line (a vertex
 * without three finite numbers, a face of fewer than three vertices or naming one not defined
 * before it, an unknown statement), "PATH: ..." for a file that cannot be read or has no face. */
int mesh_read_obj(const char *path, float **tris, unsigned *count, char *err, size_t errlen);

#endif
