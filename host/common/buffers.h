/* buffers.h: device buffers as the programs make, fill and release them. Buffers hold 32-bit
 * words (cl_uint), as every kernel of the project reads them. */
#ifndef BUFFERS_H
#define BUFFERS_H

#include "coop.h"

#include <stddef.h>

/* A read-write buffer of `bytes` on the context's device (4 when bytes is 0: OpenCL refuses an
 * empty buffer), filled from `data` unless it is NULL. Does nothing and returns NULL when *err
 * is already an error, so that a run of creations is checked once at its end; a failure returns
 * NULL with its error in *err. */
cl_mem buffer_create(const coop_context *ctx, size_t bytes, const void *data, cl_int *err);

/* Enqueues setting the first `words` words of `buffer` to `value` (the queue does it later). */
cl_int buffer_fill_words(cl_command_queue queue, cl_mem buffer, cl_uint value, size_t words);

/* A buffer for buffers_create: where its handle goes, its size and its contents (NULL: none). */
typedef struct buffer_spec {
    cl_mem *buffer;
    size_t bytes;
    const void *data;
} buffer_spec;

/* Makes the `count` buffers of `specs` in order (buffer_create()), storing each handle where its
 * spec says and appending it to list[*listed], so that buffers_release() frees what was made.
 * Returns CL_SUCCESS, or the first failure's error with the buffers before it listed. */
cl_int buffers_create(const coop_context *ctx, const buffer_spec *specs, size_t count, cl_mem *list,
                      unsigned *listed);

/* Releases each of the `count` buffers that is not NULL. */
void buffers_release(const cl_mem *buffers, size_t count);

#endif
