/* Included by defines.cl through -I tests/merge/include. */
#define HEADER_VALUE 7
