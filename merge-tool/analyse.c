/* analyse.c: the analysis pass's entry (analyse.h): the functions (analyse_functions.c), then
 * the cooperative kernel's statements (analyse_control.c) and the data flow over them
 * (analyse_flow.c), each file using only those before it. */
#include "analyse.h"

#include <stdlib.h>

void mt_analyse(mt_merge *merge)
{
    if (!mt_analyse_functions(merge))
        return;
    mt_analyse_control(merge);
    if (!merge->options.standalone)
        mt_analyse_flow(merge);
}

void mt_analysis_free(mt_merge *merge)
{
    if (merge->control)
        mt_control_free(merge->control);
    merge->control = NULL;
    free(merge->findings);
    merge->findings = NULL;
}
