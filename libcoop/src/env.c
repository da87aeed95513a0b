/* The environment: every variable libcoop reads is named, checked and read here, and nowhere
 * else (README, "Environment variables"). Values go through the strict parser (strict.c): a
 * malformed value is an error naming the variable and what it accepts, never a silent default.
 * An unset or empty variable takes the default. Read when the call that uses it runs. */
#include "internal.h"
#include "strict.h"

#include <stdlib.h>

typedef enum env_kind {
    ENV_TEXT,      /* any text */
    ENV_FLAG,      /* 0 or 1 */
    ENV_POSITIVE,  /* a number above 0, at most `max` */
    ENV_SEED,      /* a whole number from 0 to 2^32 - 1 */
    ENV_CHANNEL    /* a channel backend's name (coop_channel_parse) */
} env_kind;

typedef struct env_spec {
    const char *name;
    env_kind kind;
    double max;
} env_spec;

static const env_spec specs[COOP_ENV_COUNT] = {
    [COOP_ENV_PLATFORM] = {"COOP_PLATFORM", ENV_TEXT, 0},
    [COOP_ENV_DEVICE] = {"COOP_DEVICE", ENV_TEXT, 0},
    [COOP_ENV_CHANNEL] = {"COOP_CHANNEL", ENV_CHANNEL, 0},
    [COOP_ENV_DISCOVERY_WINDOW_US] = {"COOP_DISCOVERY_WINDOW_US", ENV_POSITIVE, 1e9},
    [COOP_ENV_TIMEOUT_S] = {"COOP_TIMEOUT_S", ENV_POSITIVE, 1e6},
    [COOP_ENV_WATCHDOG_S] = {"COOP_WATCHDOG_S", ENV_POSITIVE, 1e6},
    [COOP_ENV_CHAOS] = {"COOP_CHAOS", ENV_SEED, 0},
    [COOP_ENV_TRACE] = {"COOP_TRACE", ENV_FLAG, 0},
    [COOP_ENV_BUILD_OPTIONS] = {"COOP_BUILD_OPTIONS", ENV_TEXT, 0},
    [COOP_ENV_BUILD_LOG] = {"COOP_BUILD_LOG", ENV_FLAG, 0},
    [COOP_ENV_BUILD_DUMP] = {"COOP_BUILD_DUMP", ENV_TEXT, 0},
};

const char *coop_env_name(coop_env_var var)
{
    return specs[var].name;
}

const char *coop_env_text(coop_env_var var)
{
    const char *text = getenv(specs[var].name);
    return text && *text ? text : NULL;
}

static coop_status invalid(coop_context *ctx, const char *why)
{
    return coop_fail(ctx, COOP_ERR_INVALID_ARGUMENT, "environment: %s", why);
}

coop_status coop_env_number(coop_context *ctx, coop_env_var var, double *value)
{
    const env_spec *spec = &specs[var];
    const char *text = coop_env_text(var);
    char why[COOP_PARSE_MESSAGE_BYTES];
    *value = 0.0;
    if (!text)
        return COOP_OK;
    uint64_t whole = 0;
    switch (spec->kind) {
    case ENV_POSITIVE:
        return coop_parse_positive(spec->name, text, spec->max, value, why, sizeof why) == 0 ? COOP_OK
                                                                                             : invalid(ctx, why);
    case ENV_FLAG:
    case ENV_SEED:
        if (coop_parse_unsigned(spec->name, text, 0, spec->kind == ENV_FLAG ? 1 : UINT32_MAX, &whole, why,
                                sizeof why) != 0)
            return invalid(ctx, why);
        *value = (double)whole;
        return COOP_OK;
    default:
        return coop_fail(ctx, COOP_ERR_INVALID_ARGUMENT, "%s is not a number variable", spec->name);
    }
}

coop_status coop_env_channel(coop_context *ctx, coop_channel_kind *kind)
{
    const char *text = coop_env_text(COOP_ENV_CHANNEL);
    *kind = COOP_CHANNEL_AUTO;
    if (!text)
        return COOP_OK;
    int parsed = coop_channel_parse(text);
    if (parsed < 0) {
        char quoted[COOP_PARSE_MESSAGE_BYTES];
        coop_parse_quote(text, quoted, sizeof quoted);
        return coop_fail(ctx, COOP_ERR_INVALID_ARGUMENT,
                         "environment: COOP_CHANNEL: '%s' is not a channel backend; expected svm, nvhost, queue "
                         "or auto (any case)", quoted);
    }
    *kind = (coop_channel_kind)parsed;
    return COOP_OK;
}
