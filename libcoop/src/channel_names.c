/* The channel backends' names (coop_channel_name, coop_channel_parse): what COOP_CHANNEL (env.c)
 * and the programs' --channel accept, and what messages say. Below channel.c and env.c, which
 * both use them. */
#include "internal.h"
#include "strict.h"

#include <ctype.h>
#include <string.h>

const char *coop_channel_name(coop_channel_kind kind)
{
    switch (kind) {
    case COOP_CHANNEL_SVM: return "svm";
    case COOP_CHANNEL_NVHOST: return "nvhost";
    case COOP_CHANNEL_QUEUE: return "queue";
    default: return "auto";
    }
}

int coop_channel_parse(const char *text)
{
    static const char *const names[] = {"auto", "svm", "nvhost", "queue"};
    static const coop_channel_kind kinds[] = {COOP_CHANNEL_AUTO, COOP_CHANNEL_SVM, COOP_CHANNEL_NVHOST,
                                              COOP_CHANNEL_QUEUE};
    char lower[16];
    size_t length = text ? strlen(text) : 0, index = 0;
    if (!text || length >= sizeof lower)
        return -1;
    for (size_t i = 0; i <= length; i++)
        lower[i] = (char)tolower((unsigned char)text[i]);
    return coop_parse_choice(NULL, lower, names, 4, &index, NULL, 0) == 0 ? (int)kinds[index] : -1;
}
