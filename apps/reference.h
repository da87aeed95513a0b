/* reference.h: what the apps' property checks share (apps/color/color_ref.h,
 * apps/mis/mis_ref.h): the fault they find at a node, so that one message table serves both. */
#ifndef APPS_REFERENCE_H
#define APPS_REFERENCE_H

/* What is wrong at one node of a coloring or of an independent set. */
typedef enum reference_fault { REFERENCE_OK, REFERENCE_UNDECIDED, REFERENCE_CONFLICT, REFERENCE_UNCOVERED } reference_fault;

#endif
