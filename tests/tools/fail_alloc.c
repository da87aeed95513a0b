/* fail_alloc.c: fails the Nth allocation the project's own code makes (COOP_FAIL_ALLOC=N), for
 * tests/test_alloc_failures.c. Linked with -Wl,--wrap for each function below, so that only
 * calls from the objects of that link come here: libclang's, PoCL's and libc's own allocations
 * are not counted. Every call after the Nth succeeds again, as a real shortage may pass. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void *__real_malloc(size_t bytes);
void *__real_calloc(size_t count, size_t bytes);
void *__real_realloc(void *block, size_t bytes);
char *__real_strdup(const char *text);
char *__real_strndup(const char *text, size_t length);

/* Whether this call is the one to fail (the environment is read at the first call). */
static long calls, fail_at = -1;

static int fail_now(void)
{
    if (fail_at < 0) {
        const char *text = getenv("COOP_FAIL_ALLOC");
        fail_at = text ? strtol(text, NULL, 10) : 0;
    }
    return ++calls == fail_at;
}

void *__wrap_malloc(size_t bytes)
{
    return fail_now() ? NULL : __real_malloc(bytes);
}

void *__wrap_calloc(size_t count, size_t bytes)
{
    return fail_now() ? NULL : __real_calloc(count, bytes);
}

void *__wrap_realloc(void *block, size_t bytes)
{
    return fail_now() ? NULL : __real_realloc(block, bytes);
}

char *__wrap_strdup(const char *text)
{
    return fail_now() ? NULL : __real_strdup(text);
}

char *__wrap_strndup(const char *text, size_t length)
{
    return fail_now() ? NULL : __real_strndup(text, length);
}

/* clCreateBuffer too, for programs that link OpenCL (built with FAIL_ALLOC_OPENCL). */
#ifdef FAIL_ALLOC_OPENCL
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>

cl_mem __real_clCreateBuffer(cl_context context, cl_mem_flags flags, size_t bytes, void *host, cl_int *error);

cl_mem __wrap_clCreateBuffer(cl_context context, cl_mem_flags flags, size_t bytes, void *host, cl_int *error)
{
    if (!fail_now())
        return __real_clCreateBuffer(context, flags, bytes, host, error);
    if (error)
        *error = CL_MEM_OBJECT_ALLOCATION_FAILURE;
    return NULL;
}
#endif

/* At exit, when the run made fewer than N allocations: the sign that the run was complete, for
 * the test's loop over N to stop. */
__attribute__((destructor)) static void report_count(void)
{
    if (fail_at > calls)
        fprintf(stderr, "fail_alloc: allocation %ld never came (%ld made)\n", fail_at, calls);
}
