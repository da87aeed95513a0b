/* analyse.c: the analysis pass's entry (analyse.h): the functions (analyse_functions.c), then
 * the cooperative kernel's statements (analyse_control.c) and the data flow over them
 * (analyse_flow.c), each file using only those before it. */
#include "analyse.h"

#include <stdlib.h>

void mt_analyse(mt_merge *merge)
{
    if (!mt_analyse_functions(merge))
        return;
    /* each cooperative kernel in turn: the steps work on funcs[coop] and leave its statements in
     * control */
    merge->controls = mt_alloc(merge->coop_count * sizeof *merge->controls);
    for (size_t k = 0; k < merge->coop_count; k++) {
        merge->coop = merge->coops[k];
        merge->control = NULL;
        mt_analyse_control(merge);
        merge->controls[k] = merge->control;
        if (!merge->options.standalone)
            mt_analyse_flow(merge);
    }
    if (merge->coop_count) {
        merge->coop = merge->coops[0];
        merge->control = merge->controls[0];
    }
}

void mt_analysis_free(mt_merge *merge)
{
    for (size_t k = 0; merge->controls && k < merge->coop_count; k++)
        if (merge->controls[k])
            mt_control_free(merge->controls[k]);
    free(merge->controls);
    merge->controls = NULL;
    merge->control = NULL;
    free(merge->findings);
    merge->findings = NULL;
}
