/* demo.h: the words of coop-demo's progress buffer (host/coop-demo.c's PROGRESS_*), shared by
 * its cooperative kernel (demo.cl) and its stop task (demo_stop.cl). */
#ifndef APPS_DEMO_DEMO_H
#define APPS_DEMO_DEMO_H

#define DEMO_PROGRESS_SEARCHES 0u   /* searches completed */
#define DEMO_PROGRESS_STOP 1u       /* set by the stop task: no search starts after it */

#endif
