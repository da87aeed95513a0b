/* rewrite.c: the rewrite pass's entry (rewrite.h): every input function's rewrites
 * (rewrite_functions.c), then the cooperative kernel's control flow (rewrite_control.c); both
 * write text through rewrite_text.c. */
#include "rewrite.h"

void mt_rewrite(mt_merge *merge)
{
    mt_rewrite_functions(merge);
    mt_rewrite_cooperative(merge);
}
