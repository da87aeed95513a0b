/* BFS's CPU reference (bfs_ref.h): a FIFO queue. */
#include "bfs_ref.h"

#include <stdlib.h>

int reference_bfs(const uint32_t *row, const uint32_t *col, uint32_t n, uint32_t source, int64_t *dist)
{
    for (uint32_t v = 0; v < n; v++)
        dist[v] = -1;
    uint32_t *queue = malloc((size_t)n * sizeof *queue);
    if (!queue)
        return -1;
    size_t head = 0, tail = 0;
    dist[source] = 0;
    queue[tail++] = source;
    while (head < tail) {
        uint32_t u = queue[head++];
        for (uint32_t e = row[u]; e < row[u + 1]; e++) {
            uint32_t v = col[e];
            if (dist[v] < 0) {
                dist[v] = dist[u] + 1;
                queue[tail++] = v;
            }
        }
    }
    free(queue);
    return 0;
}
