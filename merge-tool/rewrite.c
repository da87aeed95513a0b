/* rewrite.c: the rewrite pass's entry (rewrite.h): every input function's rewrites
 * (rewrite_functions.c), then the cooperative kernel's control flow (rewrite_control.c); both
 * write text through rewrite_text.c. */
#include "rewrite.h"

void mt_rewrite(mt_merge *merge)
{
    mt_rewrite_functions(merge);
    for (size_t k = 0; merge->controls && k < merge->coop_count; k++) {
        merge->coop = merge->coops[k];
        merge->control = merge->controls[k];
        mt_rewrite_cooperative(merge);
    }
    if (merge->coop_count) {
        merge->coop = merge->coops[0];
        merge->control = merge->controls[0];
    }
}
